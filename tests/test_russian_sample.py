"""The sampled check of a Russian Poker table with draws (enumerate/russian/sample.py): each
sample is its situation valued exactly (held to the draws counted one by one), the strata and the
deal are what the module says, the stratified estimator is its formula, and a checkpoint is input
(resumed to the same figures, refused in one line when edited or made for another run)."""
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from test_russian_final_hand import LUNAR, US, variant

from enumerate.draws.actions import BUY, action_kind
from enumerate.russian import sample as rs
from enumerate.russian.draws import situation_actions
from evaluator.errors import ParameterError
from evaluator.ranking import Category, category, strength

#: The house's options with a sixth card for sale: few draws, so each situation is quick.
SIXTH = LUNAR + "[buy_card]\nfee = 1\n"


def test_the_strata_are_the_dealt_hands_categories_and_the_deal_is_the_seeds():
    rows, cats = rs._strata()
    assert [len(r) for r in rows] == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    assert cats == tuple(sorted(Category, key=lambda c: c.value)) and sum(map(len, rows)) == 2_598_960
    for h in (0, 1, 8, 9):
        for j in range(3):
            hand, up = rs.deal(7, h, j)
            assert category(strength(hand)) == cats[h] and up not in hand and len(set(hand)) == 5
            assert rs.deal(7, h, j) == (hand, up)
    assert rs.deal(7, 1, 0) != rs.deal(8, 1, 0)
    assert rs.allocation(1000)[9] == rs.MIN_PER_STRATUM and sum(rs.allocation(1000)) >= 1000


def test_a_sample_is_its_situation_valued_by_the_draws_one_by_one():
    """The sample's figures are its best action's, every draw counted one by one (the path the
    brute force of test_russian_final_hand.py holds): result, wager with the insurance staked,
    the shares raised and insured, the dealer hands short and bought."""
    v = variant(SIXTH)
    for h, j in ((1, 0), (3, 1), (6, 0)):
        s = rs.value_sample(v, h, j, seed=11)
        cards, up = rs.deal(11, h, j)
        best = situation_actions(v, tuple(sorted(cards)), up).best
        d = best.draws
        pairs = d * best.completions                      # (draw, dealer hole-card set) pairs
        assert s.values == (best.ev, 1 + Fraction(2 * best.raised, d) + best.staked / d, Fraction(best.raised, d),
                            Fraction(best.insured, d), Fraction(best.short, pairs), Fraction(best.bought, pairs)), (h, j)
        mask = BUY if best.kind == "buy" else sum(1 << sorted(cards).index(c) for c in best.discard)
        assert s.action == best.label and s.kind == action_kind(mask)


def _synthetic(values_by_stratum, shares):
    samples = tuple(tuple(rs.Sample(h, j, (0, 1, 2, 3, 4), 5, "keep", 0, tuple(Fraction(x) for x in vals))
                          for j, vals in enumerate(st)) for h, st in enumerate(values_by_stratum))
    return rs.RussianSample(variant(SIXTH), 0, tuple(shares), tuple(Category)[:len(shares)], samples, None)


def test_the_stratified_estimates_are_their_formulas():
    """House edge: -sum W_h mean_h, variance sum W_h^2 s_h^2 / m_h; the element of risk: the
    ratio of the stratified means, its variance by the delta method."""
    a = [[-1, 2, 1, 1, 0, 0], [3, 2, 1, 1, 0, 0], [0, 4, 0, 0, 0, 0]]
    b = [[5, 3, 1, 0, 1, 1], [7, 4, 1, 0, 2, 1]]
    s = _synthetic([a, b], [Fraction(3, 4), Fraction(1, 4)])
    r = np.array([[x[0] for x in a], [x[0] for x in b]], dtype=object)
    w = [0.75, 0.25]
    mean = w[0] * np.mean([x[0] for x in a]) + w[1] * np.mean([x[0] for x in b])
    var = w[0] ** 2 * np.var([x[0] for x in a], ddof=1) / 3 + w[1] ** 2 * np.var([x[0] for x in b], ddof=1) / 2
    he, v = s.house_edge()
    assert math.isclose(he, -mean) and math.isclose(v, var) and len(r) == 2
    wa = w[0] * np.mean([x[1] for x in a]) + w[1] * np.mean([x[1] for x in b])
    eor, _ = s.element_of_risk()
    assert math.isclose(eor, -mean / wa)
    d = s.to_dict()
    assert d["sampled"] is True and d["house_edge_per_ante"]["ci95"][0] < -mean < d["house_edge_per_ante"]["ci95"][1]
    assert s.stratum_mean(1) == 6 and d["strata"][1]["mean_result_antes"]["exact"] == "6"


@pytest.mark.slow
def test_a_sample_resumes_from_its_checkpoint_and_refuses_one_edited(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(US.replace('name = "lunar"', 'name = "lunar-six"') + SIXTH)
    ck = tmp_path / "ck.json"
    first = run_cli("draws-sample", str(path), "--situations", "40", "--seed", "3", "--checkpoint", str(ck), "--json")
    assert first.returncode == 0, first.stderr
    d = json.loads(first.stdout)
    n = sum(rs.allocation(40))                        # the rare strata get their fewest too
    assert d["kind"] == "russian_sample" and d["situations"] == n > 40 and d["sampled"] is True
    assert sum(st["situations"] for st in d["strata"]) == n and len(d["strata"]) == 10
    again = run_cli("draws-sample", str(path), "--situations", "40", "--seed", "3", "--checkpoint", str(ck), "--json")
    redo = json.loads(again.stdout)
    assert {k: v for k, v in redo.items() if k != "core_seconds_per_situation"} == \
        {k: v for k, v in d.items() if k != "core_seconds_per_situation"}
    assert redo["core_seconds_per_situation"] is None                   # nothing valued again
    text = run_cli("draws-sample", "--seed", "3", str(path), "--situations", "40", "--checkpoint", str(ck)).stdout
    assert "sampled, not exact" in text and "95% interval" in text and "royal_flush" in text
    other = run_cli("draws-sample", str(path), "--situations", "40", "--seed", "4", "--checkpoint", str(ck))
    assert other.returncode == 2 and "made for another variant, seed" in other.stderr
    data = json.loads(ck.read_text())
    name = sorted(data["shards"])[0]
    data["shards"][name][0][6][0] = "5"                                   # a result edited
    ck.write_text(json.dumps(data))
    bad = run_cli("draws-sample", str(path), "--situations", "40", "--seed", "3", "--checkpoint", str(ck))
    assert bad.returncode == 2 and "checksum does not match" in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_a_checkpoint_that_is_not_one_is_refused(tmp_path):
    key = rs.checkpoint_key("x", 0, 40)
    for content in ("[]", "{", json.dumps({"kind": "russian_sample_checkpoint", "key": key, "shards": {}})):
        (tmp_path / "ck.json").write_text(content)
        with pytest.raises(ParameterError, match="not a readable checkpoint"):
            rs.Checkpoint(tmp_path / "ck.json", key)
    with pytest.raises(ParameterError, match="not a regular file"):
        rs.Checkpoint(tmp_path, key)
    for row in ([0, 0, [1, 2, 3, 4, 5], 6, "keep", 0, ["0"] * 6],                   # a wager below the ante
                [0, 0, [1, 1, 3, 4, 5], 6, "keep", 0, ["0", "2", "0", "0", "0", "0"]],
                [0, 0, [1, 2, 3, 4, 5], 6, "keep", 0, ["0", "2", "2", "0", "0", "0"]],
                [0, True, [1, 2, 3, 4, 5], 6, "keep", 0, ["0", "2", "0", "0", "0", "0"]]):
        with pytest.raises(ValueError):
            rs.Sample.from_list(row)


def test_a_table_without_draws_is_sent_to_analyze(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(US + LUNAR)
    r = run_cli("draws-sample", str(path), "--situations", "16")
    assert r.returncode == 2 and "exact in under a minute ('studodds analyze')" in r.stderr
    assert "only for a table with draws" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


REPO = __import__("pathlib").Path(__file__).resolve().parents[1]
CERTIFIED = REPO / "results" / "lunar-house"


def test_against_a_certified_table_is_checked_before_any_counting(tmp_path):
    """--against names a certified table of the same rules, or is refused in one line, exit 2."""
    for args, needle in ((["docs/variants/lunar-house-hands-compared.toml", "--against", str(CERTIFIED)], "certified for other rules"),
                         ([str(CERTIFIED / "variant.toml"), "--against", str(tmp_path)], "not a certified table's folder"),
                         (["docs/variants/oasis-online.toml", "--against", str(CERTIFIED)], "made for a Russian Poker")):
        r = run_cli("draws-sample", *args, "--situations", "16", cwd=REPO)
        assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    (tmp_path / "summary.json").write_text("{}")
    (tmp_path / "variant.toml").write_text((CERTIFIED / "variant.toml").read_text())
    r = run_cli("draws-sample", str(CERTIFIED / "variant.toml"), "--against", str(tmp_path), "--situations", "16")
    assert r.returncode == 2 and "not a readable certified table" in r.stderr


def test_the_comparison_is_each_figure_s_z_score_and_the_verdict_its_headline():
    a = [[-1, 2, 1, 1, 0, 0], [3, 2, 1, 1, 0, 0], [0, 4, 0, 0, 0, 0]]
    b = [[5, 3, 1, 0, 1, 1], [7, 4, 1, 0, 2, 1]]
    s = _synthetic([a, b], [Fraction(3, 4), Fraction(1, 4)])
    he, var = s.house_edge()
    exact = {"house_edge_per_ante": Fraction(he).limit_denominator(10**6) + Fraction(3, 1) * Fraction(math.sqrt(var)),
             "best_action_shares.keep": Fraction(0)}
    c = s.against("t", exact).comparison()
    assert c is not None and c["table"] == "t" and c["consistent"]
    assert math.isclose(c["figures"]["house_edge_per_ante"]["z"], -3, rel_tol=1e-6)
    assert c["figures"]["best_action_shares.keep"]["z"] is None                     # every sample keeps: no spread
    far = s.against("t", {"house_edge_per_ante": Fraction(he) + 5 * Fraction(math.sqrt(var)),
                          "best_action_shares.keep": Fraction(1, 2)}).comparison()
    assert far is not None and not far["consistent"]
    ignored = s.against("t", {"best_action_shares.keep": Fraction(1, 2)}).comparison()
    assert ignored is not None and ignored["consistent"]                  # the actions' shares are shown, not judged


def test_two_tables_beside_each_other_are_compared_on_pairs():
    """Beside another table's sample of the same situations, each headline figure's difference
    (the other's less this one's) is f(means of B) - f(means of A), its variance the delta
    method's over both tables' means: for the house edge sum W_h^2 var_h(d) / m_h of the paired
    differences d -- so a rule worth the same on every situation is measured with no spread at all,
    where either table's figure alone has some."""
    a = [[[-1, 2, 1, 1, 0, 0], [3, 2, 1, 1, 0, 0], [0, 4, 0, 0, 0, 0]], [[5, 3, 1, 0, 1, 1], [7, 4, 1, 0, 2, 1]]]
    w = [Fraction(3, 4), Fraction(1, 4)]
    shifted = [[[x[0] - Fraction(1, 8)] + x[1:] for x in st] for st in a]
    base, other = _synthetic(a, w), _synthetic(shifted, w)
    d = base.beside(other).differences()
    this, beside, diff, var = d["house_edge_per_ante"]
    assert math.isclose(diff, 0.125, abs_tol=1e-12) and math.isclose(beside - this, diff) and var < 1e-20
    assert base.house_edge()[1] > 0 and other.house_edge()[1] > 0
    assert math.isclose(d["element_of_risk_per_total_wager"][2],
                        other.element_of_risk()[0] - base.element_of_risk()[0])
    assert d["raise_share_of_draws"][2:] == (0.0, 0.0)                 # the same on every pair
    noisy = [[[x[0] * 2 + i] + x[1:] for i, x in enumerate(st)] for st in a]
    this, beside, diff, var = base.beside(_synthetic(noisy, w)).differences()["house_edge_per_ante"]
    wf = [0.75, 0.25]
    dd = [[-(y[0] - x[0]) for x, y in zip(sa, sb)] for sa, sb in zip(a, noisy)]
    expect = sum(wh * wh * float(np.var(np.array(g, dtype=float), ddof=1)) / len(g) for wh, g in zip(wf, dd))
    assert math.isclose(var, expect) and math.isclose(diff, beside - this)
    out = base.beside(other).to_dict()["beside"]
    assert out["table"] == base.variant.name and set(out["figures"]) == set(rs.HEADLINE)
    assert out["figures"]["house_edge_per_ante"]["difference"]["ci95"][0] <= 0.125 + 1e-12
    elsewhere = _synthetic([a[0][:2], a[1]], w)
    with pytest.raises(ValueError, match="same situations"):
        base.beside(elsewhere)
    assert base.differences() == {} and "beside" not in base.to_dict()


@pytest.mark.parametrize("args, says", [
    (["--beside-checkpoint", "b.json"], "--beside-checkpoint: keeps the shards of the table sampled beside"),
    (["--beside", "us-common"], "not a Russian Poker table with draws"),
    (["--beside", "docs/variants/lunar-without-draws.toml"], "not a Russian Poker table with draws"),
    (["--beside", "no/such.toml"], "--beside: no/such.toml"),
    (["--beside", "docs/variants/lunar-house.toml", "--checkpoint", "a.json", "--beside-checkpoint", "a.json"],
     "the sampled table's own checkpoint"),
    (["--beside", "docs/variants/lunar-house.toml", "--beside-checkpoint", "no/such/folder/b.json"], "no such folder"),
])
def test_a_table_beside_is_refused_in_one_line_before_any_counting(tmp_path, args, says):
    args = [str(tmp_path / a) if a.endswith(".json") else a for a in args]
    r = run_cli("draws-sample", "docs/variants/lunar-house.toml", *args, "--situations", "16", cwd=REPO)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list(tmp_path.iterdir())                                  # nothing written
    r = run_cli("draws-sample", "docs/variants/oasis-online.toml", "--beside", "docs/variants/lunar-house.toml",
                cwd=REPO)
    assert r.returncode == 2 and "--beside: two tables sampled side by side" in r.stderr


@pytest.mark.slow
def test_a_table_sampled_beside_is_its_own_sample_and_resumes(tmp_path):
    """The table sampled beside is the same sample as that table sampled alone (the same seed),
    each side resumes from its own checkpoint, and a damaged one is named in one line."""
    one, two = tmp_path / "one.toml", tmp_path / "two.toml"
    one.write_text(US.replace('name = "lunar"', 'name = "six"') + SIXTH)
    two.write_text(US.replace('name = "lunar"', 'name = "six-uninsured"') + SIXTH.replace("[insurance]\n", ""))
    ck, bk = tmp_path / "a.json", tmp_path / "b.json"
    args = ["draws-sample", str(one), "--beside", str(two), "--situations", "40", "--seed", "5"]
    r = run_cli(*args, "--checkpoint", str(ck), "--beside-checkpoint", str(bk), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    import jsonschema
    jsonschema.Draft202012Validator(json.loads((REPO / "studodds" / "schema.json").read_text())).validate(d)
    alone = json.loads(run_cli("draws-sample", str(two), "--situations", "40", "--seed", "5", "--json").stdout)
    b = d["beside"]
    assert b["table"] == "six-uninsured" and b["variant"]["name"] == "six-uninsured"
    for name, f in b["figures"].items():
        assert f["estimate"] == d[name]["estimate"] and math.isclose(f["beside"], alone[name]["estimate"])
        assert math.isclose(f["difference"]["estimate"], f["beside"] - f["estimate"], abs_tol=1e-15)
    he = b["figures"]["house_edge_per_ante"]["difference"]["ci95"]
    assert he[1] - he[0] < d["house_edge_per_ante"]["ci95"][1] - d["house_edge_per_ante"]["ci95"][0]
    again = json.loads(run_cli(*args, "--checkpoint", str(ck), "--beside-checkpoint", str(bk), "--json").stdout)
    assert again["core_seconds_per_situation"] is None and again["beside"] == b
    text = run_cli(*args, "--checkpoint", str(ck), "--beside-checkpoint", str(bk)).stdout
    assert "beside six-uninsured on the same situations (sampled)" in text
    data = json.loads(bk.read_text())
    data["shards"][sorted(data["shards"])[0]][0][6][0] = "5"
    bk.write_text(json.dumps(data))
    bad = run_cli(*args, "--checkpoint", str(ck), "--beside-checkpoint", str(bk))
    assert bad.returncode == 2 and "--beside-checkpoint" in bad.stderr and "checksum does not match" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_sample_agrees_with_the_certified_table_it_is_set_beside():
    """The sampled check beside a committed whole game: every headline figure within its z limit
    (69 situations here, the fewest whose strata measure their spread; docs/russian.md sets 600
    beside each certified table)."""
    r = run_cli("draws-sample", str(CERTIFIED / "variant.toml"), "--situations", "40", "--seed", "2026",
                "--against", str(CERTIFIED), "--json")
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)["against"]
    assert a["consistent"] and set(rs.VERDICT) <= set(a["figures"])
    assert all(abs(a["figures"][k]["z"]) < rs.Z_LIMIT for k in rs.VERDICT if a["figures"][k]["z"] is not None)


_atoms = st.one_of(st.integers(-3, 60), st.booleans(), st.text(max_size=8), st.none(),
                   st.sampled_from(["1/0", "3", "-1", "1/2", "2", "nan", "1e999"]))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.one_of(_atoms, st.lists(_atoms, max_size=7)), max_size=8))
def test_fuzz_a_checkpoint_row_is_a_sample_or_one_value_error(row):
    """A checkpoint is input: any row is a well-formed sample or a ValueError (which the
    checkpoint turns into one line naming the file), never another exception."""
    try:
        s = rs.Sample.from_list(row)
    except ValueError:
        return
    assert len(s.cards) == 5 and s.values[1] >= 1 and rs.Sample.from_list(s.to_list()) == s


# -- a simple draw strategy played in place of the best action ---------------------------------

def test_a_strategy_s_sample_is_the_action_it_takes_valued_by_the_draws_one_by_one():
    """Standing pat on a table with a sixth card for sale: each sample's figures are its kept
    hand's, every draw counted one by one, whatever the best action is."""
    v = variant(SIXTH)
    for h, j in ((3, 1),):
        s = rs.value_sample(v, h, j, seed=11, strategy="stand-pat")
        cards, up = rs.deal(11, h, j)
        keep = next(a for a in situation_actions(v, tuple(sorted(cards)), up).actions if a.kind == "keep")
        d = keep.draws
        pairs = d * keep.completions
        assert s.values == (keep.ev, 1 + Fraction(2 * keep.raised, d) + keep.staked / d, Fraction(keep.raised, d),
                            Fraction(keep.insured, d), Fraction(keep.short, pairs), Fraction(keep.bought, pairs))
        assert s.action == keep.label and s.kind == 0


@pytest.mark.slow
def test_the_rules_of_thumb_take_their_action_in_every_stratum():
    """On the house's table each sample is the situation's action the strategy's mask names
    (cards read back from the sorted hand), at most the best action's value."""
    from enumerate.russian.draw_strategies import action_taken, rules_of_thumb
    from enumerate.russian.situation_ranks import situations_by_ranks
    v = __import__("studodds.api", fromlist=["load_variant"]).load_variant(str(REPO / "docs/variants/lunar-house.toml"))
    for h in (0, 1, 2, 3):
        cards, up = rs.deal(3, h, 0)
        situation = situations_by_ranks(v, cards, [up])[0]
        s = rs.value_sample(v, h, 0, seed=3, strategy="rules-of-thumb")
        mask = int(rules_of_thumb(np.array([sorted(cards)], dtype=np.uint8), up >> 2)[0])
        taken = action_taken(situation, "rules-of-thumb")
        assert s.kind == action_kind(mask) and s.action == taken.label and s.values[0] == taken.ev
        assert taken.ev <= situation.best.ev
        if mask != BUY:
            assert set(taken.discard) == {sorted(cards)[i] for i in range(5) if mask >> i & 1}


@pytest.mark.parametrize("args, says", [
    (["docs/variants/lunar-house.toml", "--strategy", "optimal"], "--strategy: the name of a simple draw strategy: "
                                                                  "stand-pat, rules-of-thumb"),
    (["docs/variants/lunar-house.toml", "--strategy", "rules-of-thumb", "--against", "results/lunar-house"],
     "set it beside the same table (--beside) instead of --against"),
    (["docs/variants/oasis-online.toml", "--strategy", "stand-pat"], "--strategy: a simple draw strategy is played on "
                                                                      "a Russian Poker table with draws"),
    (["six.toml", "--strategy", "rules-of-thumb"], "exchanges 2, 3, 4 cards, which table 'six' does not offer"),
])
def test_a_strategy_is_refused_in_one_line_before_any_counting(tmp_path, args, says):
    (tmp_path / "six.toml").write_text(US.replace('name = "lunar"', 'name = "six"') + SIXTH)
    args = [str(tmp_path / a) if a.endswith("six.toml") else a for a in args]
    ck = tmp_path / "ck.json"
    r = run_cli("draws-sample", *args, "--situations", "16", "--checkpoint", str(ck), cwd=REPO)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not ck.exists()                                               # nothing written


def test_a_checkpoint_is_made_for_its_strategy():
    """A sample played with a strategy keeps its shards under a key of its own: neither run
    resumes from the other's."""
    plain = rs.checkpoint_key("x", 1, 40)
    assert plain == rs.checkpoint_key("x", 1, 40, None) and "strategy" not in plain
    assert rs.checkpoint_key("x", 1, 40, "stand-pat") == {**plain, "strategy": "stand-pat"}
    assert rs.checkpoint_key("x", 1, 40, "stand-pat") != rs.checkpoint_key("x", 1, 40, "rules-of-thumb")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(st.text(max_size=20), st.integers(), st.none(), st.booleans(), st.sampled_from(["stand-pat ", "Stand-pat"])))
def test_fuzz_a_strategy_name_is_one_of_the_names_or_one_parameter_error(name):
    from studodds import api
    path = REPO / "docs" / "variants" / "lunar-house.toml"
    if name is None:
        return
    with pytest.raises(ParameterError, match="strategy"):
        api.draws_sample(str(path), situations=16, strategy=name, against=str(CERTIFIED))


@pytest.mark.slow
def test_a_strategy_beside_the_same_table_is_its_cost_on_pairs(tmp_path):
    """Standing pat beside the same table played best: the same situations; the strategy never
    does better in any of them, so its cost is at least 0 in every pair; the JSON names the
    strategy and the text says it is played in place of the best."""
    one = tmp_path / "six.toml"
    one.write_text(US.replace('name = "lunar"', 'name = "six"') + SIXTH)
    args = ["draws-sample", str(one), "--strategy", "stand-pat", "--beside", str(one), "--situations", "40",
            "--seed", "5", "--checkpoint", str(tmp_path / "a.json"), "--beside-checkpoint", str(tmp_path / "b.json")]
    r = run_cli(*args, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    import jsonschema
    jsonschema.Draft202012Validator(json.loads((REPO / "studodds" / "schema.json").read_text())).validate(d)
    assert d["strategy"] == "stand-pat" and set(d["best_action_shares"]) == {"keep"}
    cost = d["beside"]["figures"]["house_edge_per_ante"]["difference"]
    assert cost["estimate"] < 0 and cost["ci95"][1] < 0          # the best play's house edge is lower
    text = run_cli(*args).stdout                                  # both sides read back from their checkpoints
    assert "played with the draw strategy 'stand-pat'" in text and "action taken, share of the situations" in text
    assert "'studodds draws-exact --strategy stand-pat', by rank patterns" in text


def test_a_strategy_takes_the_instant_payout_of_a_hand_paid_at_once():
    """On Pennsylvania's table a dealt straight flush is paid at once (the round ends before any
    draw): a strategy's sample of it is the same as the best play's, not an action it cannot take."""
    v = __import__("studodds.api", fromlist=["load_variant"]).load_variant(
        str(REPO / "docs/variants/lunar-pennsylvania.toml"))
    h = [c.key for c in rs._strata()[1]].index("straight_flush")
    for strategy in ("rules-of-thumb", "stand-pat"):
        assert rs.value_sample(v, h, 0, seed=1, strategy=strategy) == rs.value_sample(v, h, 0, seed=1)
