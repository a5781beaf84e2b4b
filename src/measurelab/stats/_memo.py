"""Derived values of a statistic, computed once and kept in its declared memo.

A statistic (:class:`~measurelab.stats.scoretable.ScoreTable`,
:class:`~measurelab.stats.block.TableBlock`, the bundles) is frozen: its fields never change
after construction. What is derived from the fields and worth keeping (totals, cumulative
sums, the compiled walk's sums) goes into one field declared for it at construction,
``memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)``: not
part of the value (excluded from ``==``, ``repr`` and hashing, not a constructor argument,
so :func:`dataclasses.replace` starts an empty one). Nothing is ever written onto the object itself
(no ``object.__setattr__``, no ``__dict__`` entries), so two statistics with equal fields
are equal whatever was computed on them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

_T = TypeVar("_T")


class memoized(Generic[_T]):
    """A read-only property computed on first use and kept in the object's ``memo`` under
    the property's name (a replacement for :func:`functools.cached_property`, which writes
    onto the object).

    Examples
    --------
    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True)
    ... class Pair:
    ...     a: int
    ...     b: int
    ...     memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    ...     @memoized
    ...     def total(self) -> int:
    ...         return self.a + self.b
    >>> p = Pair(1, 2)
    >>> p.total, p.memo, p == Pair(1, 2)
    (3, {'total': 3}, True)
    """

    def __init__(self, fn: Callable[[Any], _T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> memoized[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        memo = obj.memo
        try:
            return memo[self.name]
        except KeyError:
            return memo.setdefault(self.name, self.fn(obj))
