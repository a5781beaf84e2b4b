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
from collections.abc import Callable, Iterable, Mapping
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

