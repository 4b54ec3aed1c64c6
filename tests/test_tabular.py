"""Results as data: every result with rows has to_pandas() (exact columns as Fractions with a
float column beside each), a short repr and an HTML repr for notebooks."""
from fractions import Fraction

import pytest

import studodds

ONLINE = "docs/variants/oasis-online.toml"


QUICK, SLOW = (), (pytest.mark.slow,)


def _results():
    yield QUICK, "analyze", lambda: studodds.analyze("us-common"), "return_per_ante"
    yield QUICK, "hand", lambda: studodds.hand("As Kd Jh 8c 3s"), "ev_raise_antes"
    yield QUICK, "strategies", lambda: studodds.strategies("us-common"), "house_edge_per_ante"
    yield QUICK, "diff", lambda: studodds.diff("us-common", "royal-200"), "delta_return_per_ante"
    yield SLOW, "simulate", lambda: studodds.simulate("us-common", games=20_000, seed=1), "probability"
    yield SLOW, "progressive", lambda: studodds.progressive("progressive-100-75-50"), None
    yield SLOW, "hole_cards", lambda: studodds.hole_cards("us-common", exposed=[-1, 4]), "house_edge_per_ante"
    yield SLOW, "edge_sort", lambda: studodds.edge_sort("us-common"), "net_result_antes"
    yield SLOW, "collusion", lambda: studodds.collusion_table("us-common", partners=[1], samples=20_000), None
    yield SLOW, "solve", lambda: studodds.solve("us-common", "house_edge=5%", ["full_house=7..8"]), None
    yield SLOW, "search", lambda: studodds.search("us-common", ["full_house=7..8"]), None
    yield SLOW, "sensitivity", lambda: studodds.sensitivity("us-common"), None
    yield QUICK, "hand draws", lambda: studodds.hand("Qh Jh 9h 4h 4c", up="8s", variant="oasis-one-card"), "ev_antes"


@pytest.mark.parametrize("name,make,exact_column", [pytest.param(*r[1:], marks=r[0], id=r[1]) for r in _results()])
def test_every_result_with_rows_is_a_dataframe(us_counts, name, make, exact_column, monkeypatch):
    from pathlib import Path
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    result = make()
    df = result.to_pandas()
    assert len(df) > 0, name
    fraction_columns = [c for c in df.columns if df[c].map(lambda x: isinstance(x, Fraction)).any()]
    for c in fraction_columns:                    # every exact column has its float beside it
        assert f"{c}_float" in df.columns, (name, c)
        both = df[[c, f"{c}_float"]].dropna()
        assert all(abs(float(x) - y) < 1e-12 for x, y in both.itertuples(index=False))
    if exact_column is not None:
        assert exact_column in fraction_columns, (name, list(df.columns))
    text = repr(result)
    assert len(text) < 200 and "to_pandas()" in text and "\n" not in text, text
    page = result._repr_html_()
    assert page.startswith("<p><b>") and "<table" in page


@pytest.mark.slow
def test_the_ev_table_as_a_dataframe_is_exact_by_numerator(us_counts):
    ev = studodds.ev_table("us-common")
    df = ev.to_pandas()
    assert len(df) == len(ev) == 5_649_150
    row = ev.lookup("As Kd Jh 8c 3s", "7d")
    assert Fraction(int(df["ev_raise_numerator"][row]), ev.ev_denominator) == Fraction(-169283, 163185)
    assert "5,649,150 situations" in repr(ev) and len(repr(ev)) < 200
