"""Side bets with fixed pays (on the player's hand, on the player's hand and the up card, on the
dealer's hand and the outcome) and envy bonuses: their rules (``rules``) and exact analysis
(``analysis``), including the raise/fold strategy recomputed when a fold forfeits a bet.
"""
