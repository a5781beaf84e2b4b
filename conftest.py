"""Fixtures for every test and doctest (tests/ and the doctests in src/)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# figures are drawn off screen in tests and doctests (and in the interpreters they start):
# the test session chooses the backend, the library never does
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Close the figures a test or doctest left open (plot helpers return their Axes)."""
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")
