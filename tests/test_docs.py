"""Docs are code: every command and snippet in README.md and docs/*.md runs here, and the output
a page shows is compared with what the program prints.

How the pages are written (docs/development.md repeats it for writers):

* ```` ```console ````: ``$ studodds ...`` lines are commands (a trailing backslash continues one;
  a trailing ``# exit N`` says the command ends with exit code N, else 0; a refusal, which
  prints nothing on stdout, is compared with what it prints on stderr); the lines after a
  command, up to the next ``$``, are its standard output.  A line ``...`` stands for any number
  of lines, ``...`` inside a line for any text there.
* ```` ```pycon ````: doctest examples (``>>>``), with ELLIPSIS; one namespace per page.
* ```` ```python ````: run in the page's namespace (no output shown).
* ```` ```sh ````: commands shown without output: ``studodds`` lines are run; ``pip install``
  lines may only name extras that pyproject.toml defines, and the README's two must be exactly
  what ``.ci/run`` runs; ``python benchmarks/bench.py`` (and ``check_loop.py``) lines must parse with the benchmark's
  own parser (benchmarks are measured, never run as tests).  A block whose commands all write
  into ``results/`` is the recipe of the committed tables: it is checked against ``results/``
  (every table, its protection levels and pictures), which ``tests/test_results.py`` recomputes.
* ```` ```toml ````: parses; a document with a ``name`` is a valid variant file.  A first line
  ``# FILE.toml`` saves the block under that name for the commands after it.
* ```` ```text ````: shown, not run (a picture of the layers, a file listing); it may hold no
  ``$`` command and no ``>>>`` example.
* Inline code that starts with ``studodds `` must parse with the command line's parser.

Every page runs in a fresh working folder of its own, its commands in order, in this process
(``studodds.cli.main``), so a file one command writes is there for the next.
"""
from __future__ import annotations

import doctest
import importlib.util
import json
import os
import re
import shlex
import tomllib
from pathlib import Path

import pytest
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
#: Pages whose commands take more than a few seconds run in the slow tier.
QUICK = {"README.md", "architecture.md", "development.md", "engine.md", "reliability.md", "speed.md"}


def blocks(page: Path) -> list[tuple[str, str, int]]:
    """(language, body, line number) of every fenced block of a page."""
    text = page.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def sessions(body: str) -> list[tuple[str, list[str]]]:
    """The (command, expected output lines) of a console block."""
    out: list[tuple[str, list[str]]] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            raise AssertionError(f"console output without a command: {line!r}")
        command = line[2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        i += 1
        shown = []
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        out.append((command, shown))
    return out


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, ``...`` eliding (see the module docstring)."""
    def line_ok(pattern: str, line: str) -> bool:
        parts = [re.escape(p) for p in pattern.rstrip().split("...")]
        return re.fullmatch(".*?".join(parts), line.rstrip()) is not None

    def walk(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(printed)
        if shown[i].strip() == "...":
            return any(walk(i + 1, k) for k in range(j, len(printed) + 1))
        return j < len(printed) and line_ok(shown[i], printed[j]) and walk(i + 1, j + 1)

    return walk(0, 0)


def test_the_elision_rules():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["took ... s"], ["took 1.25 s"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["took ... s"], ["took 1.25 ms!"])
    assert not matches(["a"], ["a", "b"])


def studodds_argv(command: str) -> list[str]:
    words = shlex.split(command)
    assert words and words[0] == "studodds", f"a shown command runs studodds: {command!r}"
    return words[1:]


def run_page(page: Path, tmp_path: Path, monkeypatch) -> int:
    """Run every block of ``page`` in ``tmp_path``; returns how many blocks ran."""
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    for lang, body, line in blocks(page):
        where = f"{page.relative_to(ROOT)}:{line}"
        if lang == "console":
            for command, shown in sessions(body):
                command, _, code = command.partition("  # exit ")
                r = run_cli(*studodds_argv(command), cwd=tmp_path)
                assert r.returncode == int(code or 0), f"{where}: {command}: exit {r.returncode}: {r.stderr}"
                # a refusal prints nothing on stdout: the page then shows its message (stderr)
                printed = r.stderr if code and shown and not r.stdout else r.stdout
                assert matches(shown, printed.splitlines()), (
                    f"{where}: {command}: the page shows\n" + "\n".join(shown) + "\n\nthe program prints\n" + printed)
        elif lang == "pycon":
            test = doctest.DocTestParser().get_doctest(body, namespace, where, str(page), line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)             # the next blocks of the page see these names
            assert runner.failures == 0 and runner.tries > 0, f"{where}: a doctest example failed (see above)"
        elif lang == "python":
            exec(compile(body, where, "exec"), namespace)
        elif lang == "sh":
            commands = [c.strip() for c in body.splitlines() if c.strip() and not c.strip().startswith("#")]
            if commands and all(c.startswith("studodds") and "--out results/" in c for c in commands):
                check_results_recipe(commands, where)
            else:
                for command in commands:
                    check_shell_line(command, where, tmp_path)
        elif lang == "toml":
            data = tomllib.loads(body)
            if "name" in data:
                from enumerate.rules.variant_file import parse_variant_text
                parse_variant_text(body, where)
            first = body.splitlines()[0]
            if first.startswith("# ") and first.endswith(".toml"):
                (tmp_path / first[2:].strip()).write_text(body, encoding="utf-8")
        elif lang == "text":
            assert "\n$ " not in "\n" + body and ">>>" not in body, f"{where}: a text block holds a command"
        else:
            raise AssertionError(f"{where}: a block of unknown language {lang!r}")
        ran += 1
    return ran


def _extras() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])


def _bench_parser(script: str = "bench.py"):
    spec = importlib.util.spec_from_file_location(Path(script).stem, ROOT / "benchmarks" / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build_parser()


def check_shell_line(command: str, where: str, tmp_path: Path) -> None:
    if not command or command.startswith("#"):
        return
    for part in command.split("&&"):
        part = part.strip()
        if part.startswith("pip install"):
            for extra in re.findall(r"\[([\w,]+)\]", part):
                assert set(extra.split(",")) <= _extras(), f"{where}: {part}: no such extra"
        elif part.startswith(("python benchmarks/bench.py", "python benchmarks/check_loop.py")):
            words = shlex.split(part)
            _bench_parser(Path(words[1]).name).parse_args(words[2:])
        elif part.startswith("studodds") or part.startswith("pytest"):
            if part.startswith("pytest"):
                continue            # the test command itself: .ci/run runs it (checked below)
            r = run_cli(*studodds_argv(part), cwd=tmp_path)
            assert r.returncode == 0, f"{where}: {part}: exit {r.returncode}: {r.stderr}"
        else:
            raise AssertionError(f"{where}: {part!r}: a shell line the docs test cannot check")


def check_results_recipe(commands: list[str], where: str) -> None:
    """The commands that made ``results/``, against what ``results/`` holds: one table per
    variant batched (every built-in when none is named), protection.json with the levels asked
    for exactly where a batch asked for it, and the pictures where ``plots`` drew them."""
    from enumerate.core.exact_game import rules_text
    from studodds import api
    from studodds.cli import build_parser
    parser = build_parser()
    results = ROOT / "results"
    tables: set[str] = set()
    protected: dict[str, list[int]] = {}
    pictures: set[str] = set()
    for command in commands:
        args = parser.parse_args(studodds_argv(command))
        if args.command == "batch":
            names = [api.load_variant(str(ROOT / n)).name if n.endswith(".toml") else n
                     for n in args.variants] or [v.name for v in api.variants()]
            for n in (n for n in args.variants if n.endswith(".toml")):      # the file batched is the table's
                v, committed = api.load_variant(str(ROOT / n)), results / api.load_variant(str(ROOT / n)).name
                assert rules_text(api.load_variant(str(committed / "variant.toml"))) == rules_text(v), (where, n)
            tables |= set(names)
            if args.protection is not None:
                from studodds.cli.common import exposure_levels
                protected.update({n: list(exposure_levels("protection", args.protection)) for n in names})
        elif args.command == "plots":
            assert args.out.startswith("results/"), f"{where}: {command}"
            pictures.add(Path(args.out).name)
        else:
            raise AssertionError(f"{where}: {command}: not a command that writes results/")
    assert tables == {p.parent.name for p in results.glob("*/summary.json")}, where
    assert set(protected) == {p.parent.name for p in results.glob("*/protection.json")}, where
    for name, levels in protected.items():
        data = json.loads((results / name / "protection.json").read_text())
        assert [lv["exposed_hole_cards"] for lv in data["hole_cards"]["levels"]] == levels, where
    assert pictures == {p.parent.name for p in results.glob("*/pictures.md")}, where


def test_the_readme_starts_with_the_two_commands():
    """The README's first two blocks: install and run the main job; install and run the tests,
    exactly the command .ci/run runs."""
    first, second = [b for lang, b, _ in blocks(ROOT / "README.md") if lang == "sh"][:2]
    assert first.strip() == "pip install . && studodds analyze"
    assert second.strip() == 'pip install ".[test]" && pytest'
    ci = (ROOT / ".ci" / "run").read_text()
    assert "\n" + second.strip() + "\n" in ci


@pytest.mark.parametrize("page", [pytest.param(p, id=p.name, marks=() if p.name in QUICK else pytest.mark.slow)
                                  for p in PAGES])
def test_every_block_of_the_page_runs(page, tmp_path, monkeypatch, us_counts, request):
    if page.name == "draws.md":                 # its `analyze oasis-one-card` reads the run's cache
        request.getfixturevalue("whole_draws_games")
    assert run_page(page, tmp_path, monkeypatch) > 0 or page.name in ("architecture.md",)


def test_inline_commands_parse():
    """`studodds ...` written inline in a sentence must be a command the parser accepts; a synopsis
    (with placeholders such as VARIANT, or [optional] and a|b parts) must name real commands."""
    from studodds.cli import build_parser
    parser = build_parser()
    commands = {a.dest for g in parser._subparsers._group_actions for a in g._choices_actions} | set(
        parser._subparsers._group_actions[0].choices)
    checked = 0
    for page in PAGES:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for span in re.findall(r"`(studodds [^`]+)`", text):
            words = span.replace("\\|", "|").split()
            if any(c in span for c in "[|…") or any(w.isupper() and len(w) > 1 for w in words):
                assert words[1] in commands, f"{page.name}: `{span}` names no command"
                continue
            try:
                parser.parse_args(studodds_argv(span))
            except SystemExit as exc:            # --version and --help exit 0 once parsed
                if exc.code not in (0, None):
                    raise AssertionError(f"{page.name}: `{span}` does not parse") from exc
            checked += 1
    assert checked >= 5


def test_the_docs_pages_are_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in PAGES[1:]:
        assert f"docs/{page.name}" in readme, f"README.md does not point to docs/{page.name}"
    assert len(readme.splitlines()) <= 250


def test_no_page_refers_outside_the_repository():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "GAME.md" not in text and "../shared" not in text, page.name
    assert os.path.isdir(ROOT / "docs")
