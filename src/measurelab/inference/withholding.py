"""No interval where the evidence says it fails: the policy between the coverage studies
(:mod:`measurelab.inference.evidence`) and every printed interval.

An interval whose coverage study shows it below the bar (0.90 at nominal 0.95) in the
user's own regime — the design, the classes, the kind of interval and the cases in the
smaller class — is withheld there: NaN ends (and, for a difference, no p-value), and the
method column says why, e.g. ``'no interval: coverage 0.720 < 0.90 with 10–29 cases in
the smaller class (bootstrap-bca)'``. Where no study speaks to the regime, the interval is
shown with the note ``(no coverage evidence …)``; where the study covers, as it is.

A coverage study measures the methods themselves, not this policy (else a withheld
interval would count as a miss and stay withheld for that reason alone): it computes its
intervals inside ``withholding(False)``.

Examples
--------
>>> judged("bootstrap-bca", "lift@0.1", bounds=(0.1, 0.3), smaller=20)
('bootstrap-bca (no coverage evidence)', False)
>>> with withholding(False):
...     withholding_on()
False
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from measurelab._util.validation import check_flag, warn_undefined

__all__ = ["judged", "warn_withheld_by_evidence", "withholding", "withholding_on"]

_ON: ContextVar[bool] = ContextVar("measurelab_withholding", default=True)
#: the start of a withheld interval's method text
PREFIX = "no interval: coverage "


@contextmanager
def withholding(enabled: bool = True) -> Iterator[None]:
    """Within the block, intervals that fall short in the user's regime are withheld
    (``enabled=True``, the library's policy) or shown with their note (``False``: what a
    coverage study needs, since it measures the method, not the policy).

    Examples
    --------
    >>> with withholding(False):
    ...     inside = withholding_on()
    >>> inside, withholding_on()
    (False, True)
    """
    token = _ON.set(check_flag(enabled, "enabled"))
    try:
        yield
    finally:
        _ON.reset(token)


def withholding_on() -> bool:
    """Whether the policy is on here (it is, unless inside ``withholding(False)``).

    Examples
    --------
    >>> withholding_on()
    True
    """
    return _ON.get()


def judged(method: str, measure: Any, *, bounds: tuple[float, float],
           smaller: int | None = None, **setting: Any) -> tuple[str, bool]:
    """The method column's text of an interval and whether it is withheld: withheld when
    its study is below the bar in the user's bracket of ``smaller`` (and the policy is on);
    else :func:`~measurelab.inference.evidence.method_with_evidence`'s text. ``setting``
    is :func:`~measurelab.inference.evidence.coverage_verdict`'s keywords.

    Examples
    --------
    >>> judged("wilson", "acc", bounds=(0.4, 0.6), smaller=300)
    ('wilson', False)
    >>> judged("wilson", "acc", bounds=(math.nan, math.nan), smaller=3)
    ('wilson', False)
    """
    from measurelab.inference.evidence import coverage_verdict, method_with_evidence

    if all(math.isnan(float(b)) for b in bounds):
        return method_with_evidence(method, measure, bounds=bounds, smaller=smaller,
                                    **setting), False
    v = coverage_verdict(measure, method=method, smaller=smaller, **setting)
    if v.covers:
        return method, False
    if v.status == "below" and v.bracket and _ON.get():
        return f"no interval: {v.note} ({method})", True
    return f"{method} ({v.note})", False


def warn_withheld_by_evidence(names: list[str]) -> None:
    """One warning naming the intervals withheld because their study fell short in this
    regime (``names``: e.g. 'f1 of model 'a'', 'the difference in kappa of 'a' and 'b'').

    Examples
    --------
    >>> warn_withheld_by_evidence([])
    """
    if names:
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6
                                         else "")
        warn_undefined(f"no interval for {shown}: the coverage study found it below 0.90 "
                       "in this regime (the method column says where)")
