"""Progress of long work: a tqdm bar on a terminal, a periodic line otherwise.

Anything that may run longer than a few seconds reports through :func:`progress_bar`.
On a terminal it is a tqdm bar; when standard error is not a terminal (a log file, CI,
a pipe) it is one plain line every ``every`` seconds ("compare: 41% (1,100/2,704 rows),
00:32 elapsed, about 00:46 left"), so that long runs are never silent and logs stay
readable. ``enabled=False`` (``--no-progress``) turns both off.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

T = TypeVar("T")

#: seconds between two lines when standard error is not a terminal
EVERY = 20.0


def _clock(seconds: float) -> str:
    s = int(seconds)
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class PeriodicLine:
    """A progress reporter writing one line every ``every`` seconds (and none for work
    finished sooner). Has the part of tqdm's interface measurelab uses.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> bar = PeriodicLine(total=4, desc="demo", unit="row", every=0.0, file=out)
    >>> bar.update(1); bar.close()
    >>> out.getvalue()
    'demo: 25% (1/4 rows), 00:00 elapsed, about 00:00 left\\n'
    """

    def __init__(self, total: float | None, desc: str, unit: str = "it",
                 every: float = EVERY, file: TextIO | None = None) -> None:
        self.total = total
        self.desc = desc
        self.unit = unit
        self.every = every
        self.file = file
        self.n = 0.0
        self.n0 = 0.0
        self._t0 = time.monotonic()
        self._next = self._t0 + every

    def update(self, n: float = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now >= self._next:
            self._next = now + self.every
            self._line(now)

    def _line(self, now: float) -> None:
        elapsed = now - self._t0
        if self.total:
            frac = min(self.n / self.total, 1.0)
            done = self.n - self.n0  # work of this run (a resumed run starts at n0)
            left = elapsed * (self.total - self.n) / done if done > 0 else float("nan")
            eta = f", about {_clock(left)} left" if left == left else ""
            text = (f"{self.desc}: {frac:.0%} ({self.n:,.0f}/{self.total:,.0f} {self.unit}s), "
                    f"{_clock(elapsed)} elapsed{eta}")
        else:
            text = f"{self.desc}: {self.n:,.0f} {self.unit}s, {_clock(elapsed)} elapsed"
        print(text, file=self.file or sys.stderr, flush=True)

    def set_description(self, desc: str) -> None:
        self.desc = desc

    def close(self) -> None:
        pass

    def __enter__(self) -> PeriodicLine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _NullBar:
    """A disabled bar: accepts tqdm's calls and does nothing."""

    n: float = 0

    def update(self, n: float = 1) -> None:
        self.n += n

    def set_postfix_str(self, *args: Any, **kwargs: Any) -> None:
        pass

    def set_description(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NullBar:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(total: float | None = None, desc: str = "", unit: str = "it",
                 enabled: bool = True, **tqdm_kwargs: Any) -> Any:
    """A tqdm bar on a terminal, a :class:`PeriodicLine` otherwise, nothing if not enabled.

    Examples
    --------
    >>> bar = progress_bar(10, "work", enabled=False)
    >>> bar.update(3); bar.close()
    """
    if not enabled:
        return _NullBar()
    if sys.stderr is not None and sys.stderr.isatty():
        from tqdm.auto import tqdm  # on first use: the CLI's start-up stays light

        return tqdm(total=total, desc=desc, unit=unit, dynamic_ncols=True, **tqdm_kwargs)
    bar = PeriodicLine(total, desc, unit)  # the other tqdm_kwargs (delay, leave) are tqdm's
    bar.n = bar.n0 = float(tqdm_kwargs.get("initial", 0))
    return bar


def progress_iter(items: Iterable[T], desc: str, enabled: bool = True,
                  total: float | None = None, unit: str = "it") -> Iterator[T]:
    """Iterate ``items`` through :func:`progress_bar`: a tqdm bar on a terminal, a
    periodic line in a log, nothing when not ``enabled``.

    Examples
    --------
    >>> list(progress_iter([1, 2], "cells", enabled=False))
    [1, 2]
    """
    if not enabled:
        yield from items
        return
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    bar = progress_bar(total, desc, unit=unit, leave=False)
    try:
        for item in items:
            yield item
            bar.update(1)
    finally:
        bar.close()


@contextmanager
def heartbeat(desc: str, enabled: bool = True, every: float = EVERY) -> Iterator[None]:
    """While the block runs, print "desc: still running, MM:SS elapsed" every ``every``
    seconds when standard error is not a terminal (work whose own bars are off there).

    Examples
    --------
    >>> with heartbeat("quick work"):
    ...     pass
    """
    if not enabled or sys.stderr is None or sys.stderr.isatty():
        yield
        return
    stop = threading.Event()
    t0 = time.monotonic()

    def beat() -> None:
        while not stop.wait(every):
            print(f"{desc}: still running, {_clock(time.monotonic() - t0)} elapsed",
                  file=sys.stderr, flush=True)

    thread = threading.Thread(target=beat, name="measurelab-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
