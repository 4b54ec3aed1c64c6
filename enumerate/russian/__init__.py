"""Russian Poker as casinos deal it: two combinations paid, insurance and the bought game on top
of the draws (:mod:`enumerate.rules.russian`, :mod:`enumerate.rules.combinations`)."""
