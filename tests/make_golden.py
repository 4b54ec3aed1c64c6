"""Regenerate tests/data/brute_force_counts.json: the dealer-outcome counts of the engine test's
sampled situations, by the independent brute-force evaluator of tests/reference.py (every one
of the 163,185 dealer completions).  Takes a few minutes; the slow test recomputes the same
thing and compares it with the file, so the file can never drift from brute force.

    python tests/make_golden.py
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference import brute_force_counts  # noqa: E402
from test_engine import SITUATIONS  # noqa: E402

GOLDEN = Path(__file__).parent / "data" / "brute_force_counts.json"


def main() -> None:
    rows = [{"player": list(p), "up": u, "counts": list(brute_force_counts(list(p), u))} for p, u in SITUATIONS]
    doc = {"about": "Dealer outcomes (no_qualify, win, tie, lose) over all 163,185 completions, Ace/King "
                    "qualifier, by tests/reference.py's brute force; cards are rank*4+suit.",
           "situations": rows}
    body = ",\n".join("  " + json.dumps(r) for r in rows)
    GOLDEN.write_text(f'{{"about": {json.dumps(doc["about"])},\n "situations": [\n{body}\n ]}}\n')


if __name__ == "__main__":
    main()
