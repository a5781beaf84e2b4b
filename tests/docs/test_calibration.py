"""docs/CALIBRATION.md: every Python example runs and prints what the page shows."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "CALIBRATION.md"


def test_calibration_examples_run():
    res = doctest.testfile(str(DOC), module_relative=False,
                           optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert res.attempted > 10
    assert res.failed == 0
