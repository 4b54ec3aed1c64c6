"""The code's layers, checked: imports run one way, there is no import loop, and a function-local
import is only ever an optional dependency or start-up laziness, with its reason beside it.

The layers (top to bottom) are the ``[tool.importlinter]`` contract in ``pyproject.toml`` and
the picture in ``docs/architecture.md``.
"""
from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("evaluator", "enumerate", "studodds")


def test_the_layer_contract_is_kept():
    """lint-imports (import-linter) on the source tree: an upward import fails here."""
    exe = shutil.which("lint-imports")
    assert exe is not None, "import-linter is part of the test extra: pip install '.[test]'"
    r = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "1 kept, 0 broken" in r.stdout


def _cycle(graph: grimp.ImportGraph) -> list[str] | None:
    """One import loop among the modules of ``graph``, or None (depth-first search)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.find_modules_directly_imported_by(m) - {m}):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph.modules):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_there_is_no_import_loop():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_loop_finder_finds_a_loop():
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert _cycle(graph) == ["p.a", "p.b", "p.c", "p.a"]


def _local_imports(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every import inside a function, outside ``if TYPE_CHECKING``."""
    source = path.read_text()
    lines = source.splitlines()
    found: list[tuple[int, str]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child.lineno, lines[child.lineno - 1]))
            walk(child, inner)

    walk(ast.parse(source), False)
    return found


def test_function_local_imports_give_their_reason():
    """A local import hides a dependency from the contract: allowed only for an optional heavy
    dependency or start-up laziness, and then with a comment on the line saying which."""
    bare = [f"{p.relative_to(ROOT)}:{n}: {text.strip()}"
            for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
            for n, text in _local_imports(p) if "#" not in text]
    assert not bare, "function-local imports without a reason:\n" + "\n".join(bare)
    assert _local_imports(Path(__file__))[0][1].strip() == "import os  # a local import, for the test below"


def _example() -> None:
    import os  # a local import, for the test below
    del os


def test_every_package_has_its_layer():
    """Every package of enumerate and studodds is named in the layer contract (an unnamed one -- a
    new kind of table's, say -- would import anything unchecked)."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    named = {m.strip() for layer in layers for m in layer.split("|")}
    for top in ("enumerate", "studodds"):
        for init in sorted((ROOT / top).glob("*/__init__.py")):
            package = f"{top}.{init.parent.name}"
            assert package in named or any(package.startswith(n + ".") for n in named), package
