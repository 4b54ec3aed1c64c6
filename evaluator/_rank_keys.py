"""Output of evaluator/gen_rank_keys.py: per-rank keys (deuce..ace) whose 5-card multiset sums
are all distinct.  Regenerate with ``python -m evaluator.gen_rank_keys``."""

RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
