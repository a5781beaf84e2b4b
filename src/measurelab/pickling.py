"""Pickles that say which measurelab wrote them.

A result pickled by one measurelab version and read by another must not silently
misbehave. :func:`versioned_pickle` gives a class one shared reducer: its pickle carries the
measurelab version that wrote it (and, for classes that declare their fields, the field
names). Read by the same version, nothing changes. Read by another version, a pickle whose
declared fields still match is read with one warning naming both versions; one whose
fields differ is refused in one line, since its values would land in the wrong places.

>>> import pickle
>>> import measurelab as ml
>>> r = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc"])
>>> dict(pickle.loads(pickle.dumps(r)))
{'acc': 0.75}
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from measurelab.exceptions import MeasurelabError

__all__ = ["VersionMismatchWarning", "versioned_pickle"]

T = TypeVar("T", bound=type)

#: the (written by, read by) pairs already warned about in this process: one warning per
#: pair, not one per object a pickle holds (a comparison holds dozens of intervals)
_WARNED: set[tuple[str, str]] = set()


class VersionMismatchWarning(UserWarning):
    """A result was pickled by another measurelab version than the one reading it."""


def _version() -> str:
    return str(getattr(sys.modules.get("measurelab"), "__version__", "unknown"))


def _fields(cls: type) -> tuple[str, ...] | None:
    """The names of a class's declared fields (a named tuple's or a dataclass's), or None
    for a class whose state is an open dictionary."""
    names = getattr(cls, "_fields", None)
    if isinstance(names, tuple) and issubclass(cls, tuple):
        return tuple(names)
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    return None


def _restore(written: str, fields: tuple[str, ...] | None, build: Callable[..., Any],
             args: tuple[Any, ...]) -> Any:
    """Rebuild a versioned pickle: refuse a changed layout, warn once on another version."""
    reading = _version()
    if written != reading:
        cls = args[0] if args and isinstance(args[0], type) else build
        name = getattr(cls, "__qualname__", repr(cls))
        now = _fields(cls) if isinstance(cls, type) else None
        if fields is not None and now is not None and fields != now:
            raise MeasurelabError(
                f"pickle of {name} was written by measurelab {written} with fields "
                f"{list(fields)}, but measurelab {reading} has {list(now)}: re-run the "
                f"comparison under {reading} (or read it with {written})")
        if (written, reading) not in _WARNED:
            _WARNED.add((written, reading))
            warnings.warn(f"pickled by measurelab {written}, read by {reading}: re-run the "
                          "comparison if numbers differ", VersionMismatchWarning, stacklevel=2)
    return build(*args)


def _reduce_ex(self: Any, protocol: Any) -> Any:
    made = object.__reduce_ex__(self, protocol)
    if isinstance(made, str):  # a module-level singleton, pickled by name
        return made
    build, args, *rest = made
    return (_restore, (_version(), _fields(type(self)), build, tuple(args)), *rest)


def versioned_pickle(cls: T) -> T:
    """Class decorator: instances pickle with the measurelab version that wrote them.

    Subclasses inherit it. The class's own state (``__getstate__``, ``__reduce__``,
    ``__getnewargs__``) is pickled as before, wrapped in the version.

    Parameters
    ----------
    cls : type
        A result class.

    Returns
    -------
    type
        The same class.

    Example
    -------
    >>> import pickle
    >>> from measurelab.inference import Interval
    >>> Interval.__reduce_ex__ is _reduce_ex  # decorated where it is defined
    True
    >>> iv = Interval(0.5, 0.25, 0.75, "wilson", 0.125)
    >>> pickle.loads(pickle.dumps(iv)) == iv
    True
    """
    cls.__reduce_ex__ = _reduce_ex  # type: ignore[assignment]
    return cls

