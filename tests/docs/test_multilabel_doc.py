"""docs/MULTILABEL.md: every Python example runs and prints what the page shows."""

from __future__ import annotations

import doctest
import warnings
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "MULTILABEL.md"


def test_examples_run():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = doctest.testfile(str(DOC), module_relative=False,
                               optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert res.attempted >= 8
    assert res.failed == 0
