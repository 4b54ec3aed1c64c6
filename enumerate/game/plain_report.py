"""The plain game's sections in the reports (:class:`enumerate.analysis.sections.KindReport`):
the strategy's statement and the method of the count engine (:mod:`enumerate.core.engine`)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from enumerate.analysis.sections import Sections


class PlainReport(Sections):
    """What the plain game says in the reports."""

    def rules(self, variant: Any) -> list[str]:
        return ["- Strategy: optimal, raise iff EV(raise) > EV(fold) = -1 ante, for each of the "
                "122,151,120 (player hand, up card) situations.", ""]

    def closing(self, a: Any, prov: Mapping[str, Any]) -> list[str]:
        checks = prov["self_checks"]
        return ["## Method", "",
                "Every combination of player hand (2,598,960), dealer up card (47) and dealer hole cards (163,185) "
                "is counted exactly, in integers: for each of the 122,151,120 (hand, up card) situations the engine "
                "counts the hole-card sets where the dealer does not qualify, qualifies and loses, ties, or wins, by "
                "inclusion-exclusion over the player's cards during one sweep of all hands in strength order. The "
                "optimal decision of each situation compares exact integer forms of EV(raise) and EV(fold); every "
                "total is an exact rational. The hand ranking is pinned by the SHA-256 of the strength of all "
                "2,598,960 hands; sampled situations are recomputed by brute force over all their dealer "
                "completions (below). Floating-point values appear only as rounded displays, in the normal "
                "approximation, and in the convolution of more than 10 hands (with its error bound).",
                "", "## Provenance", "",
                f"- Tool: studodds {prov['tool_version']}, engine version {prov['engine_version']}",
                f"- Evaluator ordering SHA-256: `{prov['evaluator_ordering_sha256']}`",
                f"- Variant file SHA-256: `{prov['variant_file_sha256']}` ({prov['variant_origin']})",
                f"- Combinations enumerated: {prov['total_combinations']:,} "
                "(2,598,960 player hands x 47 up cards x 163,185 dealer hole-card sets)",
                f"- Self-check: return table rows sum to the total: "
                f"{'passed' if checks['return_table_rows_sum_to_total'] else 'FAILED'}",
                f"- Self-check: probabilities sum to one: {'passed' if checks['probabilities_sum_to_one'] else 'FAILED'}",
                f"- Self-check: {checks['brute_force_spot_checks_agree']} sampled situations agree with a brute-force "
                "enumeration of all 163,185 dealer completions: passed", ""]


PLAIN_REPORT = PlainReport()
