"""Switching cards and buying a sixth card before the decision: every action of a situation
(:mod:`enumerate.draws.hand`) and the whole game (:mod:`enumerate.draws.game`)."""
