"""Lazy package faces: a name is imported from its module on first use, so importing a
package does not import what only some of its names need (scikit-learn, scipy, pandas).

Examples
--------
>>> getattr_, dir_ = lazy_face("pkg", {"sqrt": "math"}, ["eager"])
>>> getattr_("sqrt")(4.0)
2.0
>>> dir_()
['eager', 'sqrt']
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any


def lazy_face(
    package: str, lazy: Mapping[str, str], eager: Iterable[str] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` whose names ``lazy`` maps to the
    module that defines each (imported on first use, then cached in the package); a name
    mapped to ``package.name`` is that submodule itself."""
    shown = sorted(set(eager) | set(lazy))

    def getattr_(name: str) -> Any:
        module = lazy.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if module == f"{package}.{name}":  # a subpackage or module of the package
            value: Any = importlib.import_module(module)
        else:
            value = getattr(importlib.import_module(module), name)
        if package in sys.modules:
            setattr(sys.modules[package], name, value)
        return value

    def dir_() -> list[str]:
        return list(shown)

    return getattr_, dir_


def moved_face(
    old: str, new: str | Sequence[str], names: Iterable[str] | None = None
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a deprecation shim: the module ``old`` moved to
    ``new`` (or was split over several modules, searched in order); reading a name from
    ``old`` warns (:class:`MeasurelabDeprecationWarning`) and returns the new module's
    object. ``names`` limits the names the shim answers (default: every name of the new
    modules, private ones included, so old scripts keep running).

    Examples
    --------
    >>> import warnings
    >>> getattr_, _ = moved_face("old_math", "math")
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     getattr_("sqrt")(9.0), str(w[0].message)
    (3.0, 'old_math is deprecated; import sqrt from math')
    """
    from measurelab.exceptions import MeasurelabDeprecationWarning

    allowed = None if names is None else set(names)
    targets = [new] if isinstance(new, str) else list(new)

    def getattr_(name: str) -> Any:
        if name.startswith("__") or (allowed is not None and name not in allowed):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        for target in targets:
            module = importlib.import_module(target)
            if hasattr(module, name):
                import warnings

                warnings.warn(f"{old} is deprecated; import {name} from {target}",
                              MeasurelabDeprecationWarning, stacklevel=2)
                return getattr(module, name)
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    def dir_() -> list[str]:
        if allowed is not None:
            return sorted(allowed)
        return sorted({n for t in targets for n in dir(importlib.import_module(t))
                       if not n.startswith("_")})

    return getattr_, dir_
