"""The names of what a situation does that every floor reads -- the kernels' strategy-chart keys,
the Russian engine's actions and the reports' chart -- kept in a module that loads nothing, so a
report can name them without loading a kernel."""

#: What a situation whose dealt hand is paid at once on the ante does (a table's instant payout):
#: its one action and its strategy-chart cell, whatever the table's draws.
INSTANT_LABEL = "paid at once"
