"""A Russian Poker table with draws, estimated from exactly valued sampled situations.

The exact whole game of such a table is a count of core-hours (:mod:`enumerate.russian.ranks`);
this is the check beside it that takes minutes, and the first figure of a table not yet counted.
Each sampled situation (player hand, up card) is valued exactly by the whole game's rank-pattern
kernel asked for that one situation's every action (:mod:`enumerate.russian.situation_ranks`):
its best action's expected result after the optimal raise, insurance and purchases on every draw,
its expected wager (ante, raise and insurance stake), and the shares of its draws raised and
insured and of the dealer hands met with a raise that it buys.  The sampling is the only
approximation, and every figure says so with its 95% interval.

**Strata.** The situations are split by the category of the dealt hand (high card to royal
flush: 10 strata); stratum h holds ``n_h * 47`` of the 122,151,120 situations, ``n_h`` the hands of
its category, so its share W_h is exact.  Each stratum gets ``situations * W_h`` samples (at least
:data:`MIN_PER_STRATUM`: the rare strata are seen, and their spread measured), drawn uniformly
with replacement: sample j of stratum h is the situation at a uniform position below the
stratum's weight, from the Philox stream keyed by the seed at counter (j, h + 1, 0, 0)
(:func:`enumerate.draws.sample.stratum_position`), the hands of the category in colex order, the
up card the k-th card not in the hand.  A sample depends on (seed, h, j) alone, so the result
does not depend on how the work is split.

**Estimates.** A mean over situations is sum_h W_h * mean_h, its variance sum_h W_h^2 s_h^2 / m_h
(the stratified estimator; normal 95% interval).  The element of risk is a ratio of two such
means, -E[result] / E[wager], its interval by the delta method on the stratified covariance.  A
share of the draws or of the dealer hands (raise, insure, buy) is likewise a ratio of means.

**Beside another table.** Two tables sampled with the same seed and size value the same
situations, so what a rule is worth is estimated on pairs: each headline figure is a function f
of the stratified means of the fields it reads, and the difference f(means of B) - f(means of A)
has the delta-method variance g' C g, g the gradient of that difference over both tables' means
and C their stratified covariance, estimated from the same samples -- so the part of the spread
the two tables share (most of it: the same dealt hands) cancels, and the difference's interval is
far narrower than either figure's.
"""
from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import numpy as np

from enumerate.core.intervals import Z95
from enumerate.core.jsonform import exact
from enumerate.core.parallel import chunked_map
from enumerate.core.shapes import Exact, Interval, Minimum, MinItems, shape
from enumerate.draws.actions import KINDS, action_kind
from enumerate.draws.sample import Checkpoint as DrawsCheckpoint
from enumerate.draws.sample import stratum_position
from enumerate.rules.variant import Variant, VariantJSON
from enumerate.russian.draw_strategies import action_taken
from enumerate.russian.situation_ranks import situations_by_ranks
from evaluator.errors import ParameterError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category, hands_of_indices, strengths

#: The verdict's limit beside a certified table: every |z| below it (as the simulation's).
Z_LIMIT = 4.0
#: The figures the verdict beside a certified table judges.
VERDICT = ("house_edge_per_ante", "element_of_risk_per_total_wager", "expected_wager_antes", "raise_share_of_draws",
           "insure_share_of_draws", "bought_share_of_no_qualify")
#: Samples valued per shard (one checkpoint step).
SHARD = 8
#: The fewest samples a stratum gets, however small its share.
MIN_PER_STRATUM = 4
#: Every situation (player hand, up card).
SITUATIONS = 2_598_960 * 47
#: Bump when what a sample holds or how it is drawn changes: a checkpoint of another version is refused.
VERSION = 2
#: The figures of a sample, in the order a checkpoint keeps them (each an exact fraction per
#: situation): the best action's expected result, its expected wager, the share of its draws
#: raised, the share insured, and the share of its (draw, dealer hole-card set) pairs met with a
#: raise that do not qualify, and of those bought -- the return table's weights, so that their
#: ratio is the certified table's share bought.
FIELDS = ("result", "wager", "raised", "insured", "short", "bought")


@lru_cache(maxsize=1)
def _strata() -> tuple[tuple[np.ndarray, ...], tuple[Category, ...]]:
    """The colex indices of the hands of each category (high card first), and the categories."""
    hands = hands_of_indices(np.arange(2_598_960, dtype=np.int64))
    cats = CATEGORY_BY_STRENGTH[strengths(hands, check=False)]
    order = sorted(Category, key=lambda c: c.value)
    return tuple(np.flatnonzero(cats == c.value) for c in order), tuple(order)


def deal(seed: int, h: int, j: int) -> tuple[tuple[int, ...], int]:
    """Sample j of stratum h: (five cards, up card); see the module docstring."""
    rows, _ = _strata()
    pos = stratum_position(seed, h, j, len(rows[h]) * 47)
    hand = tuple(int(c) for c in hands_of_indices(np.array([rows[h][pos // 47]], dtype=np.int64))[0])
    up = [c for c in range(52) if c not in hand][pos % 47]
    return hand, up


def allocation(situations: int) -> list[int]:
    """Samples per stratum: its share of ``situations``, at least :data:`MIN_PER_STRATUM`."""
    rows, _ = _strata()
    return [max(MIN_PER_STRATUM, round(situations * len(r) * 47 / SITUATIONS)) for r in rows]


@dataclass(frozen=True)
class Sample:
    """One sampled situation, valued exactly: its stratum and index there, cards, best action
    (label and kind), and :data:`FIELDS`."""

    stratum: int
    index: int
    cards: tuple[int, ...]
    up: int
    action: str
    kind: int
    values: tuple[Fraction, ...]

    def to_list(self) -> list[Any]:
        return [self.stratum, self.index, list(self.cards), self.up, self.action, self.kind,
                [str(v) for v in self.values]]

    @classmethod
    def from_list(cls, row: Any) -> "Sample":
        """A sample as a checkpoint keeps it; ValueError unless every field is well formed."""
        if not isinstance(row, list) or len(row) != 7:
            raise ValueError(f"a sample is a list of 7 fields, got {str(row)[:60]}")
        h, j, cards, up, action, kind, values = row
        ints = (h, j, up, kind)
        if (not all(isinstance(x, int) and not isinstance(x, bool) for x in ints) or not isinstance(cards, list)
                or not isinstance(action, str) or not isinstance(values, list) or len(values) != len(FIELDS)
                or not all(isinstance(v, str) and len(v) < 200 for v in values)):
            raise ValueError(f"a sample of the wrong types: {str(row)[:80]}")
        if (len(cards) != 5 or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52 for c in cards)
                or len(set(cards)) != 5 or not 0 <= up < 52 or up in cards or not 0 <= kind < len(KINDS)
                or not 0 <= h < 10 or j < 0):
            raise ValueError(f"a sample out of range: {str(row)[:80]}")
        try:
            v = tuple(Fraction(x) for x in values)
        except (ValueError, ArithmeticError):
            raise ValueError(f"a sample whose figures are not fractions: {str(row)[:80]}") from None
        if v[1] < 1 or not all(0 <= x <= 1 for x in v[2:4]) or v[5] > v[4] or v[4] < 0 or v[5] < 0:
            raise ValueError(f"a sample whose figures cannot be: {str(row)[:80]}")
        return cls(h, j, tuple(cards), up, action, kind, v)


def value_sample(variant: Variant, h: int, j: int, seed: int, threads: int = 1, strategy: str | None = None) -> Sample:
    """Sample j of stratum h, every action valued exactly (its kinds of action shared among
    ``threads``); the best one's figures, or with ``strategy`` (a draw strategy's name,
    :data:`enumerate.russian.draw_strategies.STRATEGIES`) the figures of the action it takes."""
    cards, up = deal(seed, h, j)
    situation = situations_by_ranks(variant, cards, [up], threads=threads)[0]
    taken = situation.best if strategy is None else action_taken(situation, strategy)
    draws = taken.draws
    raise_antes = variant.raise_antes
    wager = 1 + Fraction(raise_antes * taken.raised, draws) + taken.staked / draws
    per_set = draws * taken.completions              # a raised draw against one dealer hole-card set
    values = (taken.ev, wager, Fraction(taken.raised, draws), Fraction(taken.insured, draws),
              Fraction(taken.short, per_set), Fraction(taken.bought, per_set))
    kind = 6 if taken.kind == "buy" else action_kind(sum(1 << sorted(cards).index(c) for c in taken.discard))
    return Sample(h, j, tuple(sorted(cards)), up, taken.label, kind, values)


def _shard(variant: Variant, seed: int, h: int, js: Sequence[int], threads: int = 1,
           strategy: str | None = None) -> list[Sample]:
    """The samples ``js`` of stratum h (locally on ``threads``; on a Dask worker on one)."""
    return [value_sample(variant, h, j, seed, threads, strategy) for j in js]


class Checkpoint(DrawsCheckpoint):
    """Finished shards in a JSON file (:class:`enumerate.draws.sample.Checkpoint`: a regular file,
    its checksum, made for this run, every sample well formed), each shard a run uses holding
    exactly the situations its seed deals there."""

    KIND = "russian_sample_checkpoint"
    ROW = Sample

    def verify(self, name: str, h: int, js: Sequence[int], seed: int) -> None:
        """The stored shard holds exactly the situations the seed deals there."""
        stored = [(s.stratum, s.index, s.cards, s.up) for s in self.shards[name]]
        dealt = [(h, j, tuple(sorted(hand)), up) for j in js for hand, up in (deal(seed, h, j),)]
        if stored != dealt:
            raise ParameterError("checkpoint", f"{self.path}: shard {name} does not hold the situations the seed "
                                               "deals (edited, or from another run): remove it to start again")


def exact_figures(analysis: dict[str, Any]) -> dict[str, Fraction]:
    """A certified table's exact figures by the names of :meth:`RussianSample.estimates`, from
    its summary's ``analysis`` object (KeyError, TypeError or ValueError when it lacks one)."""
    def x(v: Any) -> Fraction:
        return Fraction(v["exact"])
    r, d = analysis["russian"], analysis["draws"]
    out = {"house_edge_per_ante": x(analysis["house_edge_per_ante"]),
           "element_of_risk_per_total_wager": x(analysis["element_of_risk_per_total_wager"]),
           "expected_wager_antes": x(analysis["average_total_wager_antes"]),
           "raise_share_of_draws": x(r["raise_share"]), "insure_share_of_draws": x(r["insure_share"]),
           "bought_share_of_no_qualify": x(r["bought_share_of_no_qualify"])}
    out.update({f"best_action_shares.{k}": x(v) for k, v in d["action_shares"].items()})
    return out


def checkpoint_key(variant_text: str, seed: int, situations: int, strategy: str | None = None) -> dict[str, Any]:
    """What a checkpoint is made for: the variant file, seed, number of situations, shard size,
    and the draw strategy played (none: the best action)."""
    key = {"variant_sha256": hashlib.sha256(variant_text.encode()).hexdigest(), "seed": seed,
           "situations": situations, "shard": SHARD, "version": VERSION}
    return key if strategy is None else {**key, "strategy": strategy}


class StratumJSON(TypedDict):
    """One stratum: the dealt hands' category, its exact share of the situations, its samples,
    the mean of their exact results and its spread."""

    category: str
    share: Exact
    situations: Annotated[int, Minimum(1)]
    mean_result_antes: Exact
    result_sd_antes: float | None


class EstimateJSON(TypedDict):
    """A sampled figure: its estimate and 95% interval."""

    estimate: float
    ci95: Interval


class AgainstFigureJSON(TypedDict):
    """One figure of the certified table against the sample: its exact value and the sample's z-score."""

    exact: Exact
    estimate: float
    z: float | None


class BesideFigureJSON(TypedDict):
    """One figure of two tables on the same situations: each one's estimate, and the difference with its 95% interval on pairs"""

    estimate: float
    beside: float
    difference: EstimateJSON


class BesideJSON(TypedDict):
    """The sample set beside another table's sample on the same situations: what the rules that differ are worth, sampled"""

    table: str
    variant: VariantJSON
    figures: dict[str, BesideFigureJSON]


class AgainstJSON(TypedDict):
    """The sample set beside a certified table of the same rules: consistent when every headline figure's |z| is below the limit"""

    table: str
    z_limit: float
    consistent: bool
    figures: dict[str, AgainstFigureJSON]


@shape("russian_sample", document=True)
class RussianSampleJSON(TypedDict):
    """Schema: studodds draws-sample on a Russian Poker table: the game estimated from exactly valued situations in strata"""

    kind: Literal["russian_sample"]
    variant: VariantJSON
    seed: Annotated[int, Minimum(0)]
    situations: Annotated[int, Minimum(1)]
    sampled: Literal[True]
    house_edge_per_ante: EstimateJSON
    element_of_risk_per_total_wager: EstimateJSON
    expected_wager_antes: EstimateJSON
    raise_share_of_draws: EstimateJSON
    insure_share_of_draws: EstimateJSON
    bought_share_of_no_qualify: EstimateJSON
    best_action_shares: dict[str, EstimateJSON]
    strata: Annotated[list[StratumJSON], MinItems(1)]
    core_seconds_per_situation: float | None
    strategy: NotRequired[str]             # the draw strategy played: best_action_shares are then its actions' shares
    against: NotRequired[AgainstJSON]
    beside: NotRequired[BesideJSON]


def _stratified(fields: Sequence[list[list[float]]], weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """The stratified means of several fields (each its strata's per-sample values, the same
    samples in each) and the covariance matrix of those means: sum_h W_h^2 Cov_h / m_h."""
    k = len(fields)
    mean, cov = np.zeros(k), np.zeros((k, k))
    for h, w in enumerate(weights):
        x = np.array([f[h] for f in fields], dtype=float).reshape(k, -1)
        mean += w * x.mean(axis=1)
        if x.shape[1] > 1:
            cov += w * w * np.cov(x, ddof=1).reshape(k, k) / x.shape[1]
    return mean, cov


def _delta(value: float, grad: Sequence[float], cov: np.ndarray) -> tuple[float, float]:
    """A function of stratified means with its delta-method variance g' C g."""
    g = np.asarray(grad, dtype=float)
    return value, float(g @ cov @ g)


def _mean_var(groups: list[list[float]], weights: list[float]) -> tuple[float, float]:
    """The stratified mean and its variance."""
    m, c = _stratified([groups], weights)
    return float(m[0]), float(c[0, 0])


#: Each headline figure as a function of the stratified means of the :data:`FIELDS` it reads
#: (their indices, in that order), with its gradient over them.
HEADLINE: dict[str, tuple[tuple[int, ...], Callable[[np.ndarray], float], Callable[[np.ndarray], tuple[float, ...]]]] = {
    "house_edge_per_ante": ((0,), lambda m: -m[0], lambda m: (-1.0,)),
    "element_of_risk_per_total_wager": ((0, 1), lambda m: -m[0] / m[1], lambda m: (-1 / m[1], m[0] / m[1] ** 2)),
    "expected_wager_antes": ((1,), lambda m: m[0], lambda m: (1.0,)),
    "raise_share_of_draws": ((2,), lambda m: m[0], lambda m: (1.0,)),
    "insure_share_of_draws": ((3,), lambda m: m[0], lambda m: (1.0,)),
    "bought_share_of_no_qualify": ((5, 4), lambda m: m[0] / m[1], lambda m: (1 / m[1], -m[0] / m[1] ** 2)),
}


def _estimate(mean: float, var: float) -> EstimateJSON:
    h = Z95 * math.sqrt(max(var, 0.0))
    return {"estimate": mean, "ci95": [mean - h, mean + h]}


@dataclass(frozen=True)
class RussianSample:
    """The estimate (see the module docstring): the samples of every stratum and their shares."""

    variant: Variant
    seed: int
    shares: tuple[Fraction, ...]
    categories: tuple[Category, ...]
    samples: tuple[tuple[Sample, ...], ...]
    seconds_per_situation: float | None
    #: the certified table it was set beside and that table's exact figures (:meth:`against`)
    exact_table: str | None = None
    exact: tuple[tuple[str, Fraction], ...] = ()
    #: another table's sample of the same situations it is set beside (:meth:`beside`)
    other: "RussianSample | None" = None
    #: the draw strategy played in place of the best action (None: the best)
    strategy: str | None = None

    @property
    def n(self) -> int:
        return sum(len(s) for s in self.samples)

    def _field(self, i: int) -> list[list[float]]:
        return [[float(s.values[i]) for s in st] for st in self.samples]

    @property
    def _weights(self) -> list[float]:
        return [float(w) for w in self.shares]

    def headline(self, name: str) -> tuple[float, float]:
        """A headline figure (:data:`HEADLINE`) and its variance."""
        idx, f, grad = HEADLINE[name]
        m, c = _stratified([self._field(i) for i in idx], self._weights)
        return _delta(f(m), grad(m), c)

    def house_edge(self) -> tuple[float, float]:
        """The estimated house edge per ante and its variance."""
        return self.headline("house_edge_per_ante")

    def element_of_risk(self) -> tuple[float, float]:
        """The estimated element of risk and its variance."""
        return self.headline("element_of_risk_per_total_wager")

    def stratum_mean(self, h: int) -> Fraction:
        """Stratum h's exact mean result over its samples."""
        return sum((s.values[0] for s in self.samples[h]), Fraction(0)) / len(self.samples[h])

    def action_share(self, kind: int) -> tuple[float, float]:
        return _mean_var([[float(s.kind == kind) for s in st] for st in self.samples], self._weights)

    def estimates(self) -> dict[str, tuple[float, float]]:
        """Every sampled figure by its name in the JSON (the best actions' shares as
        ``best_action_shares.KIND``): its estimate and variance."""
        out = {name: self.headline(name) for name in HEADLINE}
        for k in sorted({s.kind for st in self.samples for s in st}):
            out[f"best_action_shares.{KINDS[k]}"] = self.action_share(k)
        return out

    def against(self, table: str, exact: dict[str, Fraction]) -> "RussianSample":
        """The sample set beside a certified table of the same rules, whose exact figures are
        ``exact`` (by the names of :meth:`estimates`; an action no sample took counts with its
        exact share alone)."""
        return replace(self, exact_table=table, exact=tuple(sorted(exact.items())))

    def situations(self) -> list[list[tuple[int, int, tuple[int, ...], int]]]:
        """The situations sampled, by stratum: (stratum, index, cards, up card)."""
        return [[(s.stratum, s.index, s.cards, s.up) for s in st] for st in self.samples]

    def beside(self, other: "RussianSample") -> "RussianSample":
        """The sample set beside ``other``, another table's sample of the same situations (the
        same seed and size): each headline figure's difference on pairs (:meth:`differences`)."""
        if other.seed != self.seed or other.situations() != self.situations():
            raise ValueError("two samples set side by side must hold the same situations")
        return replace(self, other=other)

    def differences(self) -> dict[str, tuple[float, float, float, float]]:
        """Per headline figure beside the other table (none without one): this table's estimate,
        the other's, their difference (the other's less this one's) and its variance on pairs
        (see the module docstring)."""
        if self.other is None:
            return {}
        out = {}
        for name, (idx, f, grad) in HEADLINE.items():
            k = len(idx)
            m, c = _stratified([self._field(i) for i in idx] + [self.other._field(i) for i in idx], self._weights)
            a, b = m[:k], m[k:]
            d, var = _delta(f(b) - f(a), tuple(-g for g in grad(a)) + tuple(grad(b)), c)
            out[name] = (f(a), f(b), d, var)
        return out

    def comparison(self, est: dict[str, tuple[float, float]] | None = None) -> AgainstJSON | None:
        """Each exact figure, the sample's estimate and z-score (None where the sample has no
        spread to measure it by), and the verdict: every |z| of :data:`VERDICT` below
        :data:`Z_LIMIT` (the best actions' shares are shown beside them, not judged: a rare
        action's share in a stratum that sampled none of it has no spread, and its normal
        interval says nothing)."""
        if self.exact_table is None:
            return None
        est = self.estimates() if est is None else est
        figures: dict[str, AgainstFigureJSON] = {}
        for name, x in self.exact:
            mean, var = est.get(name, (0.0, 0.0))
            z = (mean - float(x)) / math.sqrt(var) if var > 0 else None
            figures[name] = {"exact": exact(x), "estimate": mean, "z": z}
        ok = all(f["z"] is None or abs(f["z"]) < Z_LIMIT for name, f in figures.items() if name in VERDICT)
        return {"table": self.exact_table, "z_limit": Z_LIMIT, "consistent": ok, "figures": figures}

    def to_dict(self) -> RussianSampleJSON:
        est = self.estimates()
        strata: list[StratumJSON] = []
        for h, st in enumerate(self.samples):
            sd = float(np.std([float(s.values[0]) for s in st], ddof=1)) if len(st) > 1 else None
            strata.append({"category": self.categories[h].key, "share": exact(self.shares[h]), "situations": len(st),
                           "mean_result_antes": exact(self.stratum_mean(h)), "result_sd_antes": sd})
        actions = "best_action_shares."
        out: RussianSampleJSON = {
            "kind": "russian_sample", "variant": self.variant.to_dict(), "seed": self.seed, "situations": self.n,
            "sampled": True,
            "house_edge_per_ante": _estimate(*est["house_edge_per_ante"]),
            "element_of_risk_per_total_wager": _estimate(*est["element_of_risk_per_total_wager"]),
            "expected_wager_antes": _estimate(*est["expected_wager_antes"]),
            "raise_share_of_draws": _estimate(*est["raise_share_of_draws"]),
            "insure_share_of_draws": _estimate(*est["insure_share_of_draws"]),
            "bought_share_of_no_qualify": _estimate(*est["bought_share_of_no_qualify"]),
            "best_action_shares": {k.removeprefix(actions): _estimate(*v) for k, v in est.items()
                                   if k.startswith(actions)},
            "strata": strata,
            "core_seconds_per_situation": self.seconds_per_situation,
        }
        if self.strategy is not None:
            out["strategy"] = self.strategy
        if (c := self.comparison(est)) is not None:
            out["against"] = c
        if self.other is not None:
            out["beside"] = {"table": self.other.variant.name, "variant": self.other.variant.to_dict(),
                             "figures": {name: {"estimate": a, "beside": b, "difference": _estimate(d, var)}
                                         for name, (a, b, d, var) in self.differences().items()}}
        return out


def sample_russian(variant: Variant, variant_text: str, situations: int, seed: int, *,
                   checkpoint: Path | Checkpoint | None = None, scheduler: str | None = None, threads: int = 1,
                   progress: Callable[[int], None] | None = None, strategy: str | None = None) -> RussianSample:
    """About ``situations`` situations of ``variant`` sampled in strata and valued exactly,
    resuming from ``checkpoint``; on a Dask ``scheduler`` when given; with ``strategy`` (a draw
    strategy's name), each played with that strategy's draw instead of the best action."""
    key = checkpoint_key(variant_text, seed, situations, strategy)
    store = checkpoint if isinstance(checkpoint, Checkpoint) else Checkpoint(checkpoint, key)
    if store.key != key:
        raise AssertionError("a checkpoint read for another run")
    per = allocation(situations)
    shards = {f"{h}/{k}": (h, list(range(k * SHARD, min(per[h], (k + 1) * SHARD))))
              for h in range(len(per)) for k in range(-(-per[h] // SHARD))}
    for name, (h, js) in shards.items():
        if name in store.shards:
            store.verify(name, h, js, seed)
    todo = {name: hj for name, hj in shards.items() if name not in store.shards}
    if progress is not None:
        progress(sum(len(js) for name, (_, js) in shards.items() if name in store.shards))
    start, valued = time.perf_counter(), 0
    for name, done in chunked_map(((name, (variant, seed, h, js, 1, strategy)) for name, (h, js) in todo.items()),
                                  local=_shard, remote=_shard, scheduler=scheduler, threads=threads, pool=True,
                                  ordered=False):
        store.save(name, done)
        valued += len(done)
        if progress is not None:
            progress(len(done))
    seconds = time.perf_counter() - start
    rows, cats = _strata()
    shares = tuple(Fraction(len(r) * 47, SITUATIONS) for r in rows)
    samples = tuple(tuple(s for k in range(-(-per[h] // SHARD)) for s in store.shards[f"{h}/{k}"])
                    for h in range(len(per)))
    return RussianSample(variant, seed, shares, cats, samples,
                         seconds * threads / valued if valued and scheduler is None else None, strategy=strategy)

