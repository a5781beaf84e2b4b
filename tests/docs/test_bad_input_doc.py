"""docs/BAD_INPUT.md: every refusal it shows is what the library says."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "BAD_INPUT.md"


def test_bad_input_examples_run():
    res = doctest.testfile(str(DOC), module_relative=False,
                           optionflags=doctest.ELLIPSIS)
    assert res.attempted >= 10
    assert res.failed == 0
