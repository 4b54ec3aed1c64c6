"""Every example in every module's docstrings runs as a test (``>>>``), in every package."""
import doctest
import importlib
import pkgutil

import pytest


def _modules() -> list[str]:
    names = []
    for package in map(importlib.import_module, ("evaluator", "enumerate", "studodds")):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                names.append(info.name)
    return sorted(names)


MODULES = _modules()


def test_the_modules_with_examples_are_found():
    with_examples = [m for m in MODULES if doctest.DocTestFinder().find(importlib.import_module(m))
                     and any(t.examples for t in doctest.DocTestFinder().find(importlib.import_module(m)))]
    assert {"evaluator.cards", "enumerate.core.jsonform", "studodds.api", "evaluator.errors"} <= set(with_examples)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, us_counts):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
