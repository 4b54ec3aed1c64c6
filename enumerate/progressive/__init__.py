"""The progressive jackpot side bet: its rules (``rules``), exact analysis against the meter,
over jackpot cycles, with several players and combined with the base game (``analysis``), and
the full set of figures a certified table carries (``figures``).
"""
