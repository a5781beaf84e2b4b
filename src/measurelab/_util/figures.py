"""The library's one figure helper: :func:`pyplot`, matplotlib's pyplot as the user's
session has it. The library never chooses a backend (no ``matplotlib.use``): matplotlib
itself falls back to a non-interactive one when there is no display, and a test session or
script that needs one sets it (``MPLBACKEND=Agg``; the tests' conftest does).

Examples
--------
>>> fig, ax = pyplot().subplots()
>>> type(ax).__name__
'Axes'
"""

from __future__ import annotations

from typing import Any


def pyplot() -> Any:
    """``matplotlib.pyplot``, imported on first use (matplotlib is slow to import)."""
    import matplotlib.pyplot as plt

    return plt
