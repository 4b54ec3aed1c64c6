"""The README's test command works on a fresh machine: every third-party module the tests (and the
benchmarks, the setup script they build with) import is installed by ``pip install ".[test]"``
-- in the project's dependencies or its ``test`` extras -- not merely present on the machine that
happens to run them.  (``.ci/run`` also runs the suite in a new virtual environment.)"""
import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Our own top-level packages and the tests' helper modules (tests/ is on the path).
OURS = {"evaluator", "enumerate", "studodds", *(p.stem for p in (ROOT / "tests").glob("*.py"))}


def _requirement_names(pyproject: dict) -> set[str]:
    project = pyproject["project"]
    reqs = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    return {re.split(r"[\s<>=!~\[;]", r, maxsplit=1)[0].lower().replace("_", "-") for r in reqs}


def _imported_top_levels(paths: list[Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], path)
    return found


def test_the_test_extras_hold_every_module_the_tests_import():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = _requirement_names(pyproject)
    files = sorted((ROOT / "tests").glob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py")) + [ROOT / "setup.py"]
    owners = packages_distributions()
    missing = []
    for module, where in sorted(_imported_top_levels(files).items()):
        if module in OURS or module in sys.stdlib_module_names or module == "__future__":
            continue
        dists = {d.lower().replace("_", "-") for d in owners.get(module, [])}
        if not dists & declared:
            missing.append(f"{module} (imported by {where.relative_to(ROOT)}; installed from {sorted(dists) or 'nothing'})")
    assert not missing, "not installed by pip install '.[test]': " + "; ".join(missing)


def test_the_declared_names_are_read(monkeypatch):
    """The check above can fail: a module of no declared distribution is named."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    names = _requirement_names(pyproject)
    assert {"numpy", "tqdm", "pytest", "cython", "hypothesis"} <= names
    pyproject["project"]["optional-dependencies"]["test"] = [r for r in pyproject["project"]["optional-dependencies"]["test"]
                                                            if not r.lower().startswith("cython")]
    assert "cython" not in _requirement_names(pyproject)
    assert "Cython" in _imported_top_levels([ROOT / "setup.py"])
