"""The independent check of the exact figures: play the game on shuffled decks and compare
(:mod:`enumerate.simulation.simulate`; the kernel ``_simulate.pyx``, the settlement from the
rules ``settle``, the statistics ``statistics``)."""
