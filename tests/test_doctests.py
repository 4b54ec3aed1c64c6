"""The examples in the public modules' docstrings are run as tests."""
import doctest

import pytest

from evaluator import cards, ranking
from enumerate import qualifier

MODULES = [cards, ranking, qualifier]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
