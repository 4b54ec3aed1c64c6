"""Kinds of table (enumerate.game.kinds): every table has one kind, chosen once; what a kind does
not support is refused by one function, before any counting; a kind registered in one place
plugs into the API and certification."""
from __future__ import annotations

from pathlib import Path

import pytest

import studodds
from enumerate.analysis.base import analyze as plain_analysis
from enumerate.game import kinds
from enumerate.rules.variant_file import builtin_names, load_builtin, parse_variant_text
from evaluator.errors import StudoddsError
from studodds import api

# every public API function that takes a variant, with arguments that are otherwise valid
CALLS = {
    "analyze": lambda v: studodds.analyze(v),
    "hand": lambda v: studodds.hand("As Kd Jh 8c 3s", up="7d", variant=v),
    "strategies": lambda v: studodds.strategies(v),
    "ev_table": lambda v: studodds.ev_table(v),
    "simulate": lambda v: studodds.simulate(v, games=1000),
    "progressive": lambda v: studodds.progressive(v),
    "design": lambda v: studodds.sensitivity(v),
    "solve": lambda v: studodds.solve(v, "house_edge=3%", "full_house=6..8"),
    "search": lambda v: studodds.search(v, "full_house=6..8"),
    "protection": lambda v: studodds.hole_cards(v, [4]),
    "edge_sort": lambda v: studodds.edge_sort(v),
    "burn_card": lambda v: studodds.burn_card(v),
    "collusion": lambda v: studodds.collusion(v, 1, samples=10),
    "collusion_table": lambda v: studodds.collusion_table(v, [1], samples=10),
    "diff": lambda v: studodds.diff(v, v),
    "draws_sample": lambda v: studodds.draws_sample(v, situations=1),
    "collusion_exact": lambda v: studodds.collusion_exact(v, up="A", hands="royal_flush"),
    "draws_exact": lambda v: studodds.draws_exact(v, up="A", hands="royal_flush"),
}


class Nothing:
    """A kind that owns every table and supports nothing."""

    name = "nothing"
    title = "a test's table"
    supports: frozenset[str] = frozenset()

    def owns(self, variant):
        return True


@pytest.fixture
def no_counting(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("counted before refusing")
    monkeypatch.setattr(api, "count_table", refuse)


@pytest.mark.parametrize("name", builtin_names())
def test_every_built_in_table_has_one_kind(name):
    v = load_builtin(name).variant
    owners = [k.name for k in kinds.KINDS if k.owns(v)]
    assert owners[0] == kinds.kind_of(v).name == ("draws" if v.draws is not None else "plain")
    assert owners[-1] == "plain"


@pytest.mark.parametrize("call", sorted(CALLS))
def test_every_api_call_asks_the_kind_before_counting(monkeypatch, no_counting, call):
    monkeypatch.setattr(kinds, "KINDS", (Nothing(),))
    with pytest.raises(StudoddsError, match=r"variant 'us-common' is a test's table: .* is not supported for this kind "
                                            r"of table$"):
        CALLS[call]("us-common")


@pytest.mark.parametrize("call", sorted(set(CALLS) - {"analyze", "hand", "diff", "draws_sample", "draws_exact"}))
def test_a_table_with_draws_is_refused_in_one_line_by_what_it_does_not_support(no_counting, call):
    with pytest.raises(StudoddsError) as err:
        CALLS[call]("oasis-one-card")
    text = str(err.value)
    assert "\n" not in text and text.startswith("variant 'oasis-one-card' is a table with draws")
    others = "the plain game" if call not in ("ev_table", "simulate", "strategies") else \
        "a Russian Poker table (two combinations paid, insurance or buying the game) or the plain game"
    assert text.endswith(f"is not supported for this kind of table, only for {others}")


def test_conditions_of_a_supported_analysis_name_the_rule():
    with pytest.raises(StudoddsError, match="does not switch two or more cards"):
        kinds.require(load_builtin("oasis-one-card").variant, "draws_sample")
    galewind = studodds.load_variant(Path(__file__).parent.parent / "docs" / "variants" / "oasis-galewind.toml")
    assert kinds.require(galewind, "analyze").name == "draws"       # the whole game by rank patterns
    from test_draws import ONE_AND_BUY
    both = studodds.load_variant(parse_variant_text(ONE_AND_BUY, "both.toml"))
    assert kinds.require(both, "analyze").name == "draws"           # several cards and buying: rank patterns too
    assert kinds.require(galewind, "draws_sample").name == "draws"
    for analysis in ("protection", "design"):
        with pytest.raises(StudoddsError, match="without an ante bonus"):
            kinds.require(load_builtin("ante-bonus").variant, analysis)
        assert kinds.require(load_builtin("raise-one-ante").variant, analysis).name == "plain"
    with pytest.raises(KeyError):
        kinds.require(load_builtin("us-common").variant, "astrology")


def _fields(v):
    return {f: getattr(v, f) for f in v.__dataclass_fields__}


class Halved:
    """A kind registered by a test: the plain game, with every figure the plain game's (its own
    package would compute its own), marked by an extra field."""

    name = "halved"
    title = "a test's halved table"
    supports = frozenset({"analyze"})

    def owns(self, variant):
        return variant.name == "halved"

    def condition(self, analysis, variant):
        return None

    def analyze(self, counts, variant, threads, progress, use_cache):
        return plain_analysis(counts, variant, threads=threads), {}

    def analysis_steps(self, counts, variant):
        return None


def test_a_kind_registered_once_plugs_into_the_api(monkeypatch):
    monkeypatch.setattr(kinds, "KINDS", (Halved(), *kinds.KINDS))
    base = load_builtin("us-common").variant
    v = base.__class__(**{**_fields(base), "name": "halved"})
    a = studodds.analyze(v)
    assert a.expected_return == studodds.analyze(base).expected_return
    with pytest.raises(StudoddsError, match=r"'halved' is a test's halved table: the strategy comparison \(strategies\) is not supported"):
        studodds.strategies(v)

