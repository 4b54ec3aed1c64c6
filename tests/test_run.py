"""The run settings (enumerate.core.run): one definition of the keywords every API function
takes, checked once on entry."""
import inspect

import pytest
from hypothesis import given
from hypothesis import strategies as st

import studodds
from enumerate.core.run import Run, RunOptions
from evaluator.errors import ParameterError

COMPUTING = ["count_table", "analyze", "hand", "strategies", "simulate", "draws_sample", "ev_table", "progressive",
             "diff", "hole_cards", "edge_sort", "collusion", "collusion_table", "burn_card", "sensitivity", "solve",
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
