"""The run settings (enumerate.core.run): one definition of the keywords every API function
takes, checked once on entry."""
import inspect

import pytest
from hypothesis import given
from hypothesis import strategies as st

import studodds
from enumerate.core.run import Run, RunOptions
from evaluator.errors import ParameterError

COMPUTING = ["count_table", "analyze", "hand", "strategies", "simulate", "draws_sample", "draws_exact", "ev_table", "progressive",
             "diff", "hole_cards", "edge_sort", "collusion", "collusion_exact", "collusion_table", "burn_card", "sensitivity", "solve",
             "search"]


@pytest.mark.parametrize("name", COMPUTING)
def test_every_computing_call_takes_the_run_settings_once(name):
    params = inspect.signature(getattr(studodds, name)).parameters
    assert not {"threads", "use_cache", "progress"} & set(params)
    assert params["run"].kind is inspect.Parameter.VAR_KEYWORD


def test_the_settings_are_checked_once_and_named():
    assert Run.of("analyze", {}) == (Run.of("analyze", {}).threads, True, False)
    assert Run.of("analyze", {"threads": 3, "use_cache": False, "progress": True}) == (3, False, True)
    with pytest.raises(TypeError, match=r"^analyze\(\) got an unexpected keyword argument 'thread'$"):
        studodds.analyze("us-common", thread=2)
    for key, value in (("use_cache", "no"), ("progress", 1), ("threads", 0), ("threads", "2")):
        with pytest.raises(ParameterError) as err:
            studodds.analyze("us-common", **{key: value})
        assert err.value.parameter == key and "\n" not in str(err.value)


@given(st.dictionaries(st.sampled_from([*RunOptions.__annotations__, "scheduler", "thread"]),
                       st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=5), st.floats())))
def test_any_settings_give_a_run_or_one_named_refusal(options):
    try:
        run = Run.of("f", options)
    except TypeError as exc:
        assert str(exc).startswith("f() got an unexpected keyword argument")
    except ParameterError as exc:
        assert exc.parameter in RunOptions.__annotations__
    else:
        assert isinstance(run.threads, int) and 1 <= run.threads <= 256
        assert isinstance(run.use_cache, bool) and isinstance(run.progress, bool)


@given(st.one_of(st.lists(st.one_of(st.integers(-3, 2_000_000), st.text(max_size=4), st.none()), max_size=4),
                 st.integers(), st.text(max_size=6), st.none()))
def test_the_hands_of_a_certification_are_checked_before_any_work(hands):
    """``certification(hands=...)``: distinct whole numbers 1 .. 1,000,000, or one ParameterError
    naming ``hands`` (None: the default)."""
    from enumerate.analysis.distribution import DEFAULT_HANDS, check_hands
    try:
        values = check_hands(DEFAULT_HANDS if hands is None else hands)
    except ParameterError as exc:
        assert exc.parameter == "hands" and "\n" not in str(exc)
    else:
        assert values == tuple(sorted(set(values))) and 1 <= values[0] and values[-1] <= 1_000_000


def test_the_new_calls_refuse_bad_input_in_one_line(monkeypatch):
    from studodds import api

    def refuse(*args, **kwargs):
        raise AssertionError("counted before refusing")
    monkeypatch.setattr(api, "count_table", refuse)
    for call, parameter in ((lambda: studodds.certification("us-common", hands=[0]), "hands"),
                            (lambda: studodds.certification("us-common", hands="ten"), "hands"),
                            (lambda: studodds.certification("us-common", hands="123"), "hands"),
                            (lambda: studodds.certification("us-common", hands=[10.5]), "hands"),
                            (lambda: studodds.certification("us-common", hands=[True]), "hands"),
                            (lambda: studodds.self_check("us-common", -1), "situations"),
                            (lambda: studodds.self_check("us-common", 2.5), "situations"),
                            (lambda: studodds.self_check("us-common", True), "situations")):
        with pytest.raises(ParameterError) as err:
            call()
        assert err.value.parameter == parameter and "\n" not in str(err.value)
    with pytest.raises(studodds.StudoddsError, match="is a table with draws"):
        studodds.certification("oasis-one-card")
    with pytest.raises(studodds.StudoddsError):
        studodds.table_kind("no-such-table")
    assert (studodds.table_kind("us-common"), studodds.table_kind("sixth-card")) == ("plain", "draws")
