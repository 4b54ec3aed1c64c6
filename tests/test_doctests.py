"""The examples in the public modules' docstrings are run as tests."""
import doctest
import importlib

import pytest

MODULES = ["evaluator.cards", "evaluator.ranking", "enumerate.rules.qualifier", "enumerate.core.jsonform",
           "studodds", "studodds.api"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, us_counts):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
