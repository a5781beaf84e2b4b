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


def legible_ticks(fig: Any) -> Any:
    """Give every linear x axis of ``fig`` that ticks automatically a locator whose labels
    never overlap: the usual choice of round steps, with fewer ticks while two neighbouring
    labels (as the axis formats them, in its font) would come closer than half their size.
    Returns ``fig``; a second call changes nothing.

    Examples
    --------
    Two inches hold four labels like "−0.0001" in 8 points, not six like "−0.00015":

    >>> fig, ax = pyplot().subplots(figsize=(2, 1))
    >>> _ = ax.set_xlim(-0.00016, 0.00003)
    >>> ax.tick_params(labelsize=8)
    >>> ax.get_xticks().size
    6
    >>> [f"{x:g}" for x in legible_ticks(fig).axes[0].get_xticks()]
    ['-0.0002', '-0.0001', '0', '0.0001']
    """
    from matplotlib.ticker import AutoLocator

    cls = _legible_locator()
    for ax in fig.axes:
        axis = ax.xaxis
        locator = axis.get_major_locator()
        if type(locator) is AutoLocator and axis.get_scale() == "linear":
            axis.set_major_locator(cls())
    return fig


def _legible_locator() -> Any:
    """The class :func:`legible_ticks` installs (defined on first use: matplotlib is
    imported only by the figures)."""
    global _LEGIBLE
    if _LEGIBLE is not None:
        return _LEGIBLE
    import functools

    import numpy as np
    from matplotlib.textpath import text_to_path
    from matplotlib.ticker import MaxNLocator

    class LegibleLocator(MaxNLocator):
        """Round steps (1, 2, 5 × 10ᵏ: short labels), as many ticks as the axis holds
        with every label apart from its neighbours by half a font size."""

        def __init__(self) -> None:
            super().__init__(nbins="auto", steps=[1, 2, 5, 10])
            self._last: tuple[Any, Any] = (None, None)  # a draw asks many times

        def tick_values(self, vmin: float, vmax: float) -> Any:
            axis: Any = self.axis  # an Axis once installed (matplotlib types a union)
            if axis is None or axis.axes is None or not np.isfinite([vmin, vmax]).all():
                return super().tick_values(vmin, vmax)
            key = (vmin, vmax, axis.axes.bbox.width, axis.figure.dpi,
                   hash(axis.majorTicks[0].label1.get_fontproperties()))
            if self._last[0] == key:
                return self._last[1].copy()
            start = int(np.clip(axis.get_tick_space(), 1, 9))
            locs: Any = None
            for nbins in range(start, 0, -1):
                self.set_params(nbins=nbins)
                try:
                    locs = np.asarray(super().tick_values(vmin, vmax))
                finally:
                    self.set_params(nbins="auto")
                if self._apart(locs, vmin, vmax):
                    break
            self._last = (key, locs)
            return locs.copy()

        def _apart(self, locs: Any, vmin: float, vmax: float) -> bool:
            axis: Any = self.axis  # an Axis once installed (matplotlib types a union)
            lo, hi = min(vmin, vmax), max(vmin, vmax)
            span = hi - lo
            inside = [x for x in locs if lo - 1e-9 * span <= x <= hi + 1e-9 * span]
            if len(inside) < 2 or span <= 0:
                return True
            labels = axis.major.formatter.format_ticks(inside)
            prop = axis.majorTicks[0].label1.get_fontproperties()
            size = prop.get_size_in_points()
            prop = prop.copy()  # a cache key that later changes to the label do not touch
            widths = [_width(s, prop) for s in labels]
            length = axis.axes.bbox.width * 72.0 / axis.figure.dpi  # points
            where = [(x - lo) / span * length for x in inside]
            return all(abs(b - a) >= (wa + wb) / 2 + size / 2 for a, b, wa, wb in
                       zip(where, where[1:], widths, widths[1:], strict=False))

    @functools.lru_cache(maxsize=4096)
    def _width(text: str, prop: Any) -> float:
        """A label's width in points in ``prop`` (its font and size)."""
        return float(text_to_path.get_text_width_height_descent(text, prop,
                                                                ismath="$" in text)[0])

    _LEGIBLE = LegibleLocator
    return _LEGIBLE


_LEGIBLE: Any = None
