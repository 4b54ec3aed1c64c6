"""What ``studodds draws-sample`` and ``studodds draws-exact`` print (a table with draws in the
reports is :mod:`enumerate.draws.report`)."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from enumerate.core.projection import plural

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from enumerate.draws.exact import ExactSlice
    from enumerate.draws.sample import DrawSample
    from enumerate.russian.sample import RussianSample


def sample_text(s: DrawSample | RussianSample) -> str:
    """What ``studodds draws-sample`` prints."""
    from enumerate.russian.sample import RussianSample  # lazy: start-up time
    if isinstance(s, RussianSample):
        return russian_sample_text(s)
    d = s.to_dict()
    he = d["house_edge_per_ante"]
    multi = d["switch_two_or_more_best"]
    lines = [f"{s.variant.name}: {s.variant.draws.text() if s.variant.draws else ''}",
             (f"{s.n:,} situations sampled uniformly (seed {s.seed}), every action of each valued exactly (sampled)"
              if s.design == "uniform" else
              f"{s.n:,} situations sampled in {len(s.strata)} strata (up-card rank x value with at most one card; "
              f"Neyman's allocation after a pilot; seed {s.seed}), every action of each valued exactly (sampled)"),
             f"exact part: the game switching at most one card, house edge {float(s.one_card_house_edge):.6%} "
             f"(exact {s.one_card_house_edge})",
             (f"mean gain of switching two or more cards: {float(s.mean_gain):.6f} antes a hand "
              f"(sd {s.gain_sd:.6f}, 95% half-width {s.half_width:.6f})" if s.gains_seen else
              "no sampled situation gains from switching two or more cards: the house edge is the exact one-card "
              "figure unless the share below gains"),
             (f"house edge (per ante): {he['estimate']:.4%}, 95% interval {he['ci95'][0]:.4%} .. {he['ci95'][1]:.4%} "
              "(sampled)" if he["ci95"] is not None else f"house edge (per ante): {he['estimate']:.4%} in the sample"),
             f"switching two or more cards is best in {multi['situations']:,} of {s.n:,} sampled situations; "
             f"estimated share of all situations {multi['share']:.2%} (95% interval {multi['ci95'][0]:.2%} .. "
             f"{multi['ci95'][1]:.2%}); sampled situations by cards switched: "
             + ", ".join(f"{k}: {v:,}" for k, v in multi["by_cards"].items())]
    if s.design == "stratified":
        lines.append("stratum               share of situations  sampled  gain>0  mean gain (antes)  sd")
        for st in d["strata"]:
            sd = "-" if st["gain_sd_antes"] is None else f"{st['gain_sd_antes']:.6f}"
            lines.append(f"  {st['label']:<20}{st['share']['value']:>19.4%}{st['situations']:>9,}{st['gains']:>8,}"
                         f"{st['mean_gain_antes']['value']:>19.6f}  {sd}")
    if d["samples_for_0_01_points"] is not None:
        lines.append(f"situations for a 95% half-width of 0.01 percentage points at this spread: "
                     f"{d['samples_for_0_01_points']:,}")
    if d["core_seconds_per_situation"] is not None:
        lines.append(f"measured: {d['core_seconds_per_situation']:.2f} core-seconds a situation (valued one by one, "
                     f"every situation would take {d['cost_of_the_exact_game_core_hours']:,.0f} core-hours)")
    if "exact_whole_game_core_hours" in d:
        lines.append(f"this is a sampled estimate: the exact whole game (studodds analyze, by rank patterns) takes about "
                     f"{d['exact_whole_game_core_hours']:,.1f} core-hours and gives the figure itself")
    for e in d["examples"]:
        lines.append(f"  e.g. {e['hand']} against {e['up']}: {e['best_action']}, gains {e['gain_antes']['value']:.6f} antes")
    return "\n".join(lines)


def exact_text(s: ExactSlice) -> str:
    """What ``studodds draws-exact`` prints."""
    d = s.to_dict()
    lines = [f"{s.variant.name}: {s.variant.draws.text() if s.variant.draws else ''}",
             f"slice: {d['slice']['label']}: {d['classes']:,} "
             + ("groups (player rank pattern, up rank)" if d["method"] == "rank_patterns" else "classes up to suits")
             + f", {d['situations']:,} situations, "
             f"{float(s.share):.6%} of the game (exact {s.share}); every action, draw and dealer completion counted",
             f"house edge within the slice (per ante, exact): {float(-s.expected):.6%} ({-s.expected})",
             f"element of risk {float(s.element_of_risk):.6%}, standard deviation {d['standard_deviation_antes']:.6f} "
             f"antes, raised {float(s.raise_probability):.4%} of decisions, fees {float(s.fees_per_hand):.6f} antes a hand",
             "best action (share of the slice's situations): "
             + ", ".join(f"{k} {float(Fraction(v['exact'])):.4%}" for k, v in d["action_shares"].items()),
             "", "outcome                                          net (antes)  probability      return"]
    for r in d["return_table"]:
        lines.append(f"  {r['label'][:46]:<46}{r['net_result_antes']['value']:>12.4f}{r['probability']['value']:>13.8f}"
                     f"{r['return_per_ante']['value']:>12.6f}")
    lines += ["", "strategy (hand group, up rank: the most frequent best action and its share)"]
    for e in d["strategy"]:
        top, share = next(iter(e["actions"].items()))
        lines.append(f"  {e['hand_group']:<32} up {e['up_rank']}: {top} ({float(Fraction(share['exact'])):.2%} of "
                     f"{e['situations']:,})")
    if d["core_seconds_per_class"] is not None:
        unit = "group" if d["method"] == "rank_patterns" else "class"
        lines.append(f"measured: {d['core_seconds_per_class']:.3f} core-seconds a {unit}; the whole game "
                     f"({s.whole_game_classes:,} {plural(unit)}) would take {d['whole_game_core_hours']:,.1f} core-hours")
    return "\n".join(lines)


def russian_sample_text(s: RussianSample) -> str:
    """What ``studodds draws-sample`` prints for a Russian Poker table with draws."""
    d = s.to_dict()

    def pct(name: str, key: str) -> str:
        e = d[key]  # type: ignore[literal-required]
        return (f"{name:<44}{e['estimate']:>10.4%}   95% interval {e['ci95'][0]:.4%} .. {e['ci95'][1]:.4%}")

    lines = [f"Variant: {s.variant.name} - the whole game estimated (sampled, not exact): {s.n:,} situations in "
             f"{len(s.samples)} strata by the dealt hand's category (seed {s.seed}), every action of each valued "
             "exactly with its insurance and purchases of the game",
             *([f"played with the draw strategy {s.strategy!r} (its action in place of the best; the raise, insurance "
                "and purchases still each final hand's best)"] if s.strategy is not None else []),
             pct("house edge (per ante)", "house_edge_per_ante"),
             pct("element of risk (per total wagered)", "element_of_risk_per_total_wager"),
             f"{'expected wager (antes)':<44}{d['expected_wager_antes']['estimate']:>10.4f}   95% interval "
             f"{d['expected_wager_antes']['ci95'][0]:.4f} .. {d['expected_wager_antes']['ci95'][1]:.4f}",
             pct("draws raised", "raise_share_of_draws"),
             pct("draws insured", "insure_share_of_draws"),
             pct("games bought (of the raised non-qualifying)", "bought_share_of_no_qualify"),
             ("best action" if s.strategy is None else "action taken") + ", share of the situations (sampled):"]
    for k, e in d["best_action_shares"].items():
        lines.append(f"  {k:<42}{e['estimate']:>10.4%}   95% interval {e['ci95'][0]:.4%} .. {e['ci95'][1]:.4%}")
    lines.append("stratum (dealt hand)   share of situations  sampled  mean result (antes)  sd")
    for st in d["strata"]:
        sd = "-" if st["result_sd_antes"] is None else f"{st['result_sd_antes']:.6f}"
        lines.append(f"  {st['category']:<20}{st['share']['value']:>21.6%}{st['situations']:>9,}"
                     f"{st['mean_result_antes']['value']:>21.6f}  {sd}")
    if d["core_seconds_per_situation"] is not None:
        lines.append(f"measured: {d['core_seconds_per_situation']:.2f} core-seconds a situation")
    if "against" in d:
        a = d["against"]
        lines.append(f"against the certified table {a['table']} (the same rules): figure, exact, sampled, z")
        for name, f in a["figures"].items():
            z = "-" if f["z"] is None else f"{f['z']:+.2f}"
            lines.append(f"  {name:<42}{float(Fraction(f['exact']['exact'])):>12.6f}{f['estimate']:>12.6f}{z:>8}")
        lines.append(("consistent with the certified table: every |z| < " if a["consistent"] else
                      "NOT consistent with the certified table: some |z| >= ") + f"{a['z_limit']:g} "
                     "(the house edge, element of risk, wager and the shares raised, insured and bought; the best "
                     "actions' shares are shown, not judged)")
    if "beside" in d:
        b = d["beside"]
        lines.append(f"beside {b['table']} on the same situations (sampled): figure, this table, beside, difference "
                     "(beside less this), its 95% interval on pairs")
        for name, pair in b["figures"].items():
            e = pair["difference"]
            lines.append(f"  {name:<42}{pair['estimate']:>12.6f}{pair['beside']:>12.6f}{e['estimate']:>+12.6f}   "
                         f"{e['ci95'][0]:+.6f} .. {e['ci95'][1]:+.6f}")
    lines.append("this is a sampled estimate: the exact whole game ("
                 + ("'studodds analyze'" if s.strategy is None else f"'studodds draws-exact --strategy {s.strategy}'")
                 + ", by rank patterns) gives the figures themselves")
    return "\n".join(lines)
