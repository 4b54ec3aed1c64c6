"""Game protection: what a player gains from seeing more than he should.

* :mod:`enumerate.protection.exposure`: exposed hole cards (0 to 4, or none of the dealer's
  cards at all) and edge sorting, exactly, from :mod:`enumerate.protection._exposure`;
* :mod:`enumerate.protection.collusion`: partners' cards and the burn card, by sampling
  situations and enumerating every dealer hand of each exactly (:mod:`enumerate.protection._collusion`);
* :mod:`enumerate.protection.known_sets`: the kernel's inputs (known-card classes, hands in
  strength order).

All figures are for the base game (ante and raise); a progressive side bet is not included.
"""
