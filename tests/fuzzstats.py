"""Counters of fuzzing cases, printed in pytest's terminal summary (see conftest.py)."""
COUNTS: dict[str, int] = {}


def tick(name: str) -> None:
    COUNTS[name] = COUNTS.get(name, 0) + 1
