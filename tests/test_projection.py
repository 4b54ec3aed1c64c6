"""Long work is visible: a count projected to take more than a few seconds says so before it
starts -- one line on stderr, also when stderr is not a terminal -- and ``--quiet`` silences it;
the projection comes from the kernels' measured costs and the work left (a resumed run says
only what is left)."""
import pytest
from cli_runner import run_cli

from enumerate.core import exact_game
from enumerate.core.projection import Projection, announce, duration_text
from enumerate.core.slices import Slice
from enumerate.draws import switch_ranks as swr
from studodds.api import load_variant
from studodds.progress import progress_bar

GALEWIND = "docs/variants/oasis-galewind.toml"


def test_a_projection_reads_in_core_hours_and_hours_on_the_threads():
    p = Projection("the whole switch game", 80_119, "group", 0.1)
    assert p.text(2) == "about 2.2 core-hours (about 66.8 minutes on 2 threads)"
    assert p.text(1) == "about 2.2 hours on 1 thread"
    assert duration_text(4e10) == "1,268 years"


def test_the_line_is_said_once_before_the_bar_and_not_when_quiet(capsys):
    with progress_bar(True, "switching", 100, "group") as tick:
        announce(tick, Projection("", 100, "group", 1.0), 2)
        tick(100)
    err = capsys.readouterr().err
    assert err.count("studodds: switching: 100 groups, about 100 core-seconds (about 50 seconds on 2 threads)") == 1
    with progress_bar(True, "switching", 100, "group") as tick:
        announce(tick, Projection("", 1, "group", 1.0), 2)       # a second's work: just runs
    assert capsys.readouterr().err == ""
    with progress_bar(False, "switching", 100, "group") as tick:
        announce(tick, Projection("", 100, "group", 1.0), 2)     # --quiet: progress off
    assert capsys.readouterr().err == ""
    announce(lambda n: None, Projection("", 100, "group", 1.0), 2)   # a plain callable is not told
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_a_simulation_says_its_projected_time_unless_quiet(monkeypatch):
    from enumerate.simulation import simulate
    monkeypatch.setattr(simulate, "CORE_SECONDS_PER_GAME", 1e-3)           # a thousand games "take" a second
    r = run_cli("simulate", "--games", "20000", "--seed", "1", "--threads", "1")
    assert r.returncode == 0
    assert "studodds: simulating: 20,000 games, about 20 seconds on 1 thread (projected" in r.stderr
    r = run_cli("simulate", "--games", "20000", "--seed", "1", "--threads", "1", "--quiet")
    assert r.returncode == 0 and "projected" not in r.stderr


def test_a_whole_game_announces_the_groups_left(tmp_path, monkeypatch, capsys):
    """The sharded whole game says how many groups are left to count: all of them on an empty
    cache, none (and no line) once they are kept."""
    few = tuple(a[-10:] for a in swr.groups(Slice.parse("A", None)))
    real = swr.groups
    monkeypatch.setattr(swr, "groups", lambda sl: few if sl.whole_game else real(sl))
    monkeypatch.setattr(swr, "whole_game_groups", lambda: few[1].shape[0])   # not the cached count of every group
    monkeypatch.setattr(exact_game, "cache_folder", lambda kept, variant: tmp_path / "switch-cache")
    monkeypatch.setattr(swr, "CORE_SECONDS_PER_GROUP", 50.0)
    from studodds import api
    api.analyze(load_variant(GALEWIND), progress=True, threads=2)
    err = capsys.readouterr().err
    assert "studodds: switching, by rank patterns: 10 groups, about" in err, err
    api.analyze(load_variant(GALEWIND), progress=True, threads=2)
    assert "groups, about" not in capsys.readouterr().err
