"""``check`` names the cause first and is fast by default: a table whose rules changed is named
(the rule, old -> new) before anything is counted, and is not recounted unasked (what counting
the new rules takes is said instead); the whole games of the other tables are read back from
their kept sums, verified, not counted again."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studodds import api, certify

REPO = Path(__file__).resolve().parents[1]


def _copy_with_changes(tmp_path):
    out = tmp_path / "tables"
    for name in ("oasis-galewind", "us-common"):
        shutil.copytree(REPO / "results" / name, out / name)
    us = out / "us-common" / "variant.toml"
    us.write_text(us.read_text().replace("full_house = 7", "full_house = 8"))
    gw = out / "oasis-galewind" / "variant.toml"
    gw.write_text(gw.read_text().replace("fees = { 1 = 1, 2 = 2,", "fees = { 1 = 1, 2 = 3,"))
    return out


@pytest.mark.slow
def test_the_cause_is_named_first_and_nothing_long_is_recounted(tmp_path, monkeypatch):
    out = _copy_with_changes(tmp_path)
    cache = tmp_path / "cache"
    env = {**os.environ, "STUDODDS_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, "-m", "studodds", "check", str(out)], capture_output=True, text=True, env=env,
                       timeout=600, cwd=tmp_path)              # not the source tree: the installed package
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"{out / 'oasis-galewind'}: rules changed: switch.fees_antes.2 2 -> 3; the committed "
                               "figures are for the old rules, so the table was not recounted: counting the new rules "
                               "takes about "), lines[0]
    assert "core-hours" in lines[0] and "for the whole switch game" in lines[0] and "--recount" in lines[0]
    assert lines[1].startswith(f"{out / 'us-common'}: rules changed: raise_pays.full_house 7 -> 8;"), lines[1]
    assert "for the seen hand" in lines[1]
    # the new rules' analysis is seconds for the plain game: its headline follows, from the analysis alone
    assert lines[2].startswith(f"{out / 'us-common'}: the new rules' game (its analysis only, the files not "
                               "recomputed): house edge 5.224306% -> 5.057504% (-0.166802%)"), lines[2]
    assert lines[3] == "checked 2 table(s): 2 with differences (2 whose rules changed, not recounted)"
    assert not (cache / "switch-game").exists() or not any((cache / "switch-game").iterdir())
    assert not (cache / "seen-hand").exists() or not any((cache / "seen-hand").iterdir())


def test_the_causes_come_before_any_counting(tmp_path, monkeypatch):
    """The API calls ``on_line`` with every cause before it analyses any table; ``--json`` holds
    the same causes and the tables' status."""
    out = _copy_with_changes(tmp_path)
    shutil.copytree(REPO / "results" / "royal-200", out / "royal-200")
    events = []
    real = api.analyze
    monkeypatch.setattr(api, "analyze", lambda *a, **k: events.append("counting") or real(*a, **k))
    result = certify.check(out, protection=False, on_line=events.append)
    assert events[:2] == list(result.causes) and len(result.causes) == 2
    assert "counting" in events[2:]
    assert [t.status for t in result.tables] == ["rules_changed", "ok", "rules_changed"]
    data = result.to_dict()
    assert data["causes"] == list(result.causes) and data["recounted"] is False
    assert data["tables"][0]["recount"].startswith("counting the new rules takes about")
    assert "kept_sums" not in data["tables"][1]              # royal-200 keeps no whole game
    assert result.first_lines() + result.closing_lines() == result.text().splitlines()
    assert [line for line in events if line != "counting"] == result.first_lines()


@pytest.mark.slow
def test_recount_recomputes_a_table_whose_rules_changed(tmp_path):
    """With --recount a changed table is recomputed and compared as before: the cause line first,
    then its headline deltas and every difference (a plain table: seconds)."""
    out = tmp_path / "tables"
    shutil.copytree(REPO / "results" / "royal-200", out / "royal-200")
    v = out / "royal-200" / "variant.toml"
    v.write_text(v.read_text().replace("full_house = 7", "full_house = 8"))
    lines = []
    result = certify.check(out, recount=True, on_line=lines.append)
    assert lines[0].endswith("recounting the new ones (--recount), seconds (minutes more for a count table or "
                             "protection.json not in the user cache)"), lines[0]
    assert result.tables[0].status == "differs" and result.tables[0].rule_changes
    assert "house edge 5.207490% -> 5.040688%" in lines[1]
    assert json.loads(json.dumps(result.to_dict()))["recounted"] is True


def test_a_changed_file_whose_recorded_rules_are_the_same_is_named_first(tmp_path):
    """The rules a summary records are the pays in force: under a maximum payout a royal flush
    at 100 or 101 is recorded as the cap.  The variant file's SHA-256 against the provenance's
    still names the change before any counting; the recomputation then finds what it does."""
    out = tmp_path / "tables"
    shutil.copytree(REPO / "results" / "max-payout", out / "max-payout")
    v = out / "max-payout" / "variant.toml"
    v.write_text(v.read_text().replace("royal_flush = 100", "royal_flush = 101"))
    lines = []
    result = certify.check(out, on_line=lines.append)
    assert lines[0] == (f"{out / 'max-payout'}: variant.toml is not the file the committed figures were made from (its "
                        "SHA-256 differs from the provenance's) and the rules they record are the same: recomputing "
                        "to name what the change does")
    assert result.tables[0].status == "differs" and not result.tables[0].rule_changes
    assert lines[1].startswith(f"{out / 'max-payout'}: rules unchanged, figures differ;")
