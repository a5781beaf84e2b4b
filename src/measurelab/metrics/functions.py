"""One scikit-learn-style function per built-in measure: ``auc(y_true, y_score)``.

Each function evaluates one measure on data through :func:`measurelab.evaluate` (the same
statistics, conventions and errors) and takes the data-level keywords that apply to its
measure — ``threshold``/``inclusive`` for measures of hard predictions, ``average`` and
``labels`` where the measure has a multi-class form — plus the measure's own parameters
(``beta`` of ``f_beta``, ``q`` of ``lift``, ...). Anything else is refused with a
:class:`TypeError` naming it. The functions are module-level objects, so they pickle
(for example into a worker process) by name.

Examples
--------
>>> from measurelab.metrics import auc, f_beta
>>> round(auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 2)
0.75
>>> round(f_beta([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6], beta=2.0), 4)  # tp 1, fp 1, fn 1
0.5
>>> auc([0, 1], [0.2, 0.7], threshold=0.5)
Traceback (most recent call last):
...
TypeError: auc() got an unexpected keyword argument 'threshold'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from measurelab.measures.base import Measure, registry

_P = inspect.Parameter

#: the data-level keywords and their defaults, as :func:`measurelab.evaluate` takes them
_DATA = {
    "threshold": 0.5,
    "pos_label": 1,
    "sample_weight": None,
    "inclusive": False,
    "average": "macro",
    "labels": None,
}


def _keywords(m: Measure) -> list[str]:
    """The data-level keywords that mean something for measure ``m``."""
    hard = m.kind in ("threshold", "composite")
    out = ["threshold", "pos_label", "sample_weight", "inclusive"] if hard else [
        "pos_label", "sample_weight"]
    if m.supports_multiclass:
        out += ["average", "labels"]
    return out


def _doc(m: Measure, keywords: list[str]) -> str:
    first = m.description or f"The {m.name} measure."
    params = ", ".join(f"``{k}``" for k in [*keywords, *m.params])
    direction = "higher is better" if m.higher_is_better else "lower is better"
    return (
        f"{first}\n\n"
        f"``{m.name}(y_true, y_score, ...)`` evaluates the registered measure ``{m.name}`` "
        f"({m.kind}; range [{m.range[0]:g}, {m.range[1]:g}], {direction}) on data with "
        f":func:`measurelab.evaluate`. Keywords: {params}.\n\n"
        f"Source: {m.source or 'measurelab'}. The formula, over statistics, is "
        f":func:`{m.formula.__module__}.{m.formula.__qualname__}`.\n"
    )


def data_function(m: Measure, module: str = __name__) -> Callable[..., Any]:
    """A data-level function for measure ``m``: a real function with its own name,
    signature and docstring, that refuses keywords it does not take.

    Examples
    --------
    >>> import inspect
    >>> from measurelab import registry
    >>> f = data_function(registry.get("lift"))
    >>> str(inspect.signature(f))
    "(y_true, y_score, *, pos_label=1, sample_weight=None, average='macro', labels=None, q=0.25)"
    """
    from measurelab.metrics.evaluate import evaluate

    keywords = _keywords(m)
    sig = inspect.Signature(
        [_P("y_true", _P.POSITIONAL_OR_KEYWORD), _P("y_score", _P.POSITIONAL_OR_KEYWORD)]
        + [_P(k, _P.KEYWORD_ONLY, default=_DATA[k]) for k in keywords]
        + [_P(k, _P.KEYWORD_ONLY, default=v) for k, v in m.params.items()]
    )
    name = m.name

    def f(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}() {e}") from None
        given = bound.arguments
        params = {k: v for k, v in given.items() if k in m.params}
        data = {k: v for k, v in given.items() if k in _DATA}
        measure = m.with_params(**params) if params else m
        return evaluate(given["y_true"], given["y_score"], measures=[measure], **data)[name]

    f.__name__ = f.__qualname__ = name
    f.__module__ = module
    f.__doc__ = _doc(m, keywords)
    f.__signature__ = sig  # type: ignore[attr-defined]
    f.measure = m  # type: ignore[attr-defined]
    return f


#: the built-in measures' functions, by name
FUNCTIONS: dict[str, Callable[..., Any]] = {m.name: data_function(m) for m in registry}
globals().update(FUNCTIONS)

__all__ = ["FUNCTIONS", "data_function", *FUNCTIONS]
