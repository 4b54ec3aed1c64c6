"""The recipe of docs/architecture.md, "add a table kind", followed in a test module: a toy kind of
table whose exact answer is known is declared here and registered in one place (the
``KINDS`` line, patched), and is then analysed, certified, checked from its kept sums,
reported (Markdown, HTML, workbook) and diffed by the program as it is -- no other file edited.

The toy game: the dealer's up card alone decides.  The player stakes an ante and never raises;
an up card of rank 2 to 7 (24 of 52 cards) pays the ante ``ante_pays.player_wins`` to 1, an
up card of 8 to ace (28 cards) takes it.  Its expected result per ante is therefore
(24 w - 28) / 52, whatever else the table's rules say.  It is counted, as every long exact game
is, by the one sharded protocol (:mod:`enumerate.core.exact_game`): its classes are the 52 up
cards, a shard kernel counts the low and the high ones, and a certified table keeps those sums.
"""
from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from enumerate.analysis.base import Analysis, ReturnRow
from enumerate.analysis.sections import Sections, Sheet, provenance_lines
from enumerate.core import exact_game
from enumerate.core.exact_game import KeptGame, ShardedGame
from enumerate.core.slices import Slice, classes_digest, sealed, unsealed
from enumerate.game import kinds
from evaluator.cards import RANKS
from evaluator.ranking import Category

LOW_RANKS = 6                                    # 2 .. 7


def _classes(sl: Slice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The toy game's classes: every up card, alone (no player cards), weight one."""
    return np.zeros((52, 0), np.uint8), np.arange(52, dtype=np.uint8), np.ones(52, np.int64)


@dataclass
class ToySums:
    """The sums of a shard: its low and high up cards."""

    digest: str = ""
    seconds: float = 0.0
    low: int = 0
    high: int = 0

    def add(self, other: "ToySums") -> None:
        self.low, self.high, self.seconds = self.low + other.low, self.high + other.high, self.seconds + other.seconds

    def to_json(self) -> dict[str, Any]:
        return {"digest": self.digest, "seconds": self.seconds, "low": self.low, "high": self.high}

    @classmethod
    def from_json(cls, data: Any, weights: np.ndarray) -> "ToySums":
        if not isinstance(data, dict) or set(data) != {"digest", "seconds", "low", "high"}:
            raise ValueError("not the toy game's sums")
        if not all(type(data[k]) is int and data[k] >= 0 for k in ("low", "high")):
            raise ValueError("low and high: counts")
        s = cls(str(data["digest"]), float(data["seconds"]), data["low"], data["high"])
        if s.low + s.high != int(weights.sum()):
            raise ValueError("its up cards are not its classes'")
        return s


def _shard(variant: Any, cards: np.ndarray, up: np.ndarray, weight: np.ndarray) -> ToySums:
    low = int(weight[(up >> 2) < LOW_RANKS].sum())
    return ToySums(classes_digest(cards, up, weight), 0.0, low, int(weight.sum()) - low)


def _check(variant: Any, counts: Any, classes: Any, sl: Slice, total: ToySums) -> str | None:
    return None if (total.low, total.high) == (4 * LOW_RANKS, 52 - 4 * LOW_RANKS) else "the toy sums do not add up"


TOY_GAME: ShardedGame[ToySums] = ShardedGame(key="toy_checkpoint", command="toy", unit="card", shard=8, version=1,
                                             classes=_classes, work=_shard, parse=ToySums.from_json, empty=ToySums,
                                             cost=lambda variant: 1e-6, check=_check)


def _kept(total: ToySums, classes: int) -> dict[str, Any]:
    return {"kind": "toy_game_sums", "classes": classes,
            "sums": {**total.to_json(), "seconds": 0, "digest": classes_digest(*_classes(Slice()))}}


def _from_kept(data: Any) -> ToySums:
    if set(data) != {"kind", "classes", "sums"} or data["classes"] != 52:
        raise ValueError("not the toy game's kept sums")
    return ToySums.from_json(data["sums"], np.ones(52, np.int64))


TOY_KEPT = KeptGame(TOY_GAME, "toy_game.json", "toy_game_sums", "toy-game", _kept, _from_kept, "a whole toy game")


class ToyReport(Sections):
    """What the toy table says in the reports."""

    def rules(self, variant: Any) -> list[str]:
        return ["- Toy: the up card alone decides: 2 to 7 pays the ante, 8 to ace takes it; the player never raises.",
                ""]

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        return ["## Method", "", "Every up card counted once (the toy game).", "",
                *provenance_lines(prov, f"Combinations: {prov['total_combinations']:,} (up cards)", "the plain game")]

    def strategy_files(self, a: Any) -> dict[str, str]:
        return {"strategy.md": f"# Optimal strategy: {a.variant.name}\n\nNever raise.\n",
                "strategy.csv": "up_rank,action\n" + "".join(f"{r},fold\n" for r in RANKS)}

    def workbook(self, analysis: Mapping[str, Any]) -> list[Sheet]:
        if not analysis["variant"]["name"].startswith("toy-"):
            return []
        return [("Toy", ["figure", "value", "exact"], [["low up cards", 24, "24"], ["high up cards", 28, "28"]])]


class ToyKind:
    """The toy kind: every table whose name starts with "toy-"."""

    name = "toy"
    title = "a toy table (the up card alone decides)"
    supports = frozenset({"analyze", "diff"})
    report = ToyReport()

    def owns(self, variant: Any) -> bool:
        return variant.name.startswith("toy-")

    def condition(self, analysis: str, variant: Any) -> str | None:
        return None

    def analyze(self, counts: Any, variant: Any, threads: int, progress: Any, use_cache: bool) -> tuple[Analysis, dict]:
        total, n = exact_game.whole_game(TOY_KEPT, variant, counts, threads=threads, progress=progress,
                                         use_cache=use_cache)
        win = variant.ante_win
        rows = (ReturnRow("toy_low", "up card 2 to 7: the ante wins", win, total.low, Fraction(total.low, 52),
                          win * Fraction(total.low, 52)),
                ReturnRow("toy_high", "up card 8 to ace: the ante loses", Fraction(-1), total.high,
                          Fraction(total.high, 52), -Fraction(total.high, 52)))
        expected = sum((r.contribution for r in rows), Fraction(0))
        second = sum((r.pays * r.pays * r.probability for r in rows), Fraction(0))
        analysis = Analysis.of_outcomes(variant, rows, 52, expected, second, 0, Fraction(0), 0, Fraction(1),
                                        {c: (0, 0) for c in Category})
        return analysis, {"kept_sums": exact_game.kept_json(TOY_KEPT, total, n)}

    def analysis_steps(self, counts: Any, variant: Any) -> tuple[str, str, int] | None:
        return None

    def projection(self, variant: Any) -> None:
        return None

    def kept_game(self, variant: Any) -> KeptGame[ToySums]:
        return TOY_KEPT

    def raises_dealt_hand(self, counts: Any, variant: Any, threads: int) -> np.ndarray:
        return np.zeros((counts.weight.shape[0], 47), dtype=bool)


def _toml(name: str, win: int) -> str:
    return (f'name = "{name}"\ndescription = "A toy table"\nqualifier = "AK"\n\n[raise_pays]\nroyal_flush = 100\n'
            'straight_flush = 50\nfour_of_a_kind = 20\nfull_house = 7\nflush = 5\nstraight = 4\n'
            'three_of_a_kind = 3\ntwo_pairs = 2\none_pair = 1\nhigh_card = 1\n\n[ante_pays]\n'
            f'dealer_does_not_qualify = 1\nplayer_wins = {win}\n')


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """The one registration: the toy kind first in KINDS; its shards in a cache of the test's own."""
    monkeypatch.setattr(kinds, "KINDS", (ToyKind(), *kinds.KINDS))
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(tmp_path / "cache"))
    files = {}
    for name, win in (("toy-even", 1), ("toy-double", 2)):
        files[name] = tmp_path / f"{name}.toml"
        files[name].write_text(_toml(name, win))
    return files


def test_a_toy_kind_is_analysed_certified_checked_reported_and_diffed(toy, tmp_path, monkeypatch):
    import openpyxl

    from studodds import api, certify
    from studodds.reports.xlsx import workbook_bytes

    # analysed: the known exact answer, from the one protocol
    a = api.analyze(toy["toy-even"])
    assert api.table_kind(toy["toy-even"]) == "toy"
    assert a.house_edge == Fraction(28 - 24, 52) and a.total_combinations == 52
    assert a.variance == Fraction(52, 52) - Fraction(1, 13) ** 2 and a.rtp_per_ante == 1 - Fraction(1, 13)
    assert api.analyze(toy["toy-double"]).expected_return == Fraction(2 * 24 - 28, 52)

    # certified: the kind's files and its kept sums, sealed
    out = tmp_path / "out"
    certify.batch([toy["toy-even"]], out, formats="md,html")
    folder = out / "toy-even"
    kept = unsealed(json.loads((folder / "toy_game.json").read_text()))
    assert kept["kind"] == "toy_game_sums" and kept["sums"]["low"] == 24 and kept["sums"]["high"] == 28
    report = (folder / "report.md").read_text()
    assert "- Toy: the up card alone decides" in report and "Every up card counted once" in report
    assert re.search(r"\| House edge \(per ante\) \| 7\.692308% \| `1/13` \|", report)
    assert "the up card alone decides" in (folder / "report.html").read_text()
    assert (folder / "strategy.md").read_text().endswith("Never raise.\n")

    # the workbook: the kind's sheet beside the common ones
    summary = json.loads((folder / "summary.json").read_text())
    book = openpyxl.load_workbook(io.BytesIO(workbook_bytes(summary, (folder / "strategy.csv").read_text())))
    assert "Toy" in book.sheetnames and book["Toy"]["B2"].value == 24

    # checked: the whole game read back from its kept sums, never counted again
    def never(*args: Any) -> ToySums:
        raise AssertionError("the check counted the toy game instead of reading its kept sums")
    monkeypatch.setattr(exact_game, "run", lambda *args, **kwargs: never())
    result = certify.check(out)
    assert result.tables[0].status == "ok" and not result.tables[0].differences, result.tables[0]
    assert result.tables[0].kept_sums == {"toy_game.json": "read back and verified"}

    # ... and an edited kept file is the table's difference, named
    body = unsealed(json.loads((folder / "toy_game.json").read_text()))
    body["sums"]["low"] += 1
    body["sums"]["high"] -= 1
    (folder / "toy_game.json").write_text(json.dumps(sealed(body)))
    t = certify.check(out).tables[0]
    assert t.status == "unreadable" and t.differences[0].file == "toy_game.json"
    assert "do not add up" in t.differences[0].old

    # diffed: the figures of two toy tables and their change
    monkeypatch.undo()
    monkeypatch.setattr(kinds, "KINDS", (ToyKind(), *kinds.KINDS))
    monkeypatch.setenv("STUDODDS_CACHE_DIR", str(tmp_path / "cache"))
    d = api.diff(toy["toy-even"], toy["toy-double"]).to_dict()
    edge = d["figures"]["house_edge_per_ante"]
    assert Fraction(edge["a"]["exact"]) == Fraction(4, 52) and Fraction(edge["b"]["exact"]) == Fraction(28 - 48, 52)
    assert Fraction(edge["delta"]["exact"]) == Fraction(28 - 48, 52) - Fraction(4, 52)
    assert len(d["rule_changes"]) == 1 and "player_wins" in json.dumps(d["rule_changes"])
    assert d["action_flips"]["raise_to_fold"] == d["action_flips"]["fold_to_raise"] == 0


def test_the_recipe_names_the_files_a_kind_touches():
    """docs/architecture.md's recipe lists what a new kind touches; this module touched none of them
    but the registration (it owns its tables by name, keeps its figures in the analysis's own
    fields and draws its report from its sections)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text()
    recipe = text[text.index("**… add a table kind?**"):]
    recipe = recipe[:recipe.index("\n**…", 5)]
    for name in ("enumerate/core/exact_game.py", "enumerate/analysis/sections.py", "KINDS", "tests/test_kind_recipe.py"):
        assert name in recipe, name


def test_the_witnesses_named_in_the_docs_are_tests_of_the_suite():
    """docs/architecture.md names, for each table, its engine's witnesses: tests that exist."""
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "architecture.md").read_text()
    named = re.findall(r"`(tests/test_\w+\.py)::(test_\w+)`", text)
    assert len(named) >= 5
    for path, name in named:
        assert f"def {name}(" in (root / path).read_text(), (path, name)
