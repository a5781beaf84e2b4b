"""One scikit-learn-style function per built-in measure: ``auc(y_true, y_score)``.

Each function evaluates one measure on data through :func:`measurelab.evaluate` (the same
statistics, conventions and errors) and takes the data-level keywords that apply to its
measure — ``threshold``/``inclusive`` for measures of hard predictions, ``average`` and
``labels`` where the measure has a multi-class form — plus the measure's own parameters
(``beta`` of ``f_beta``, ``q`` of ``lift``, ...). Anything else is refused with a
:class:`TypeError` naming it. The functions of the built-in measures are written out in
:mod:`measurelab.metrics._measures` (generated from the registry by
``tools/generate_metrics.py``, checked up to date by the tests), so grep, IDEs and type
checkers see them; they are module-level objects, so they pickle (for example into a
worker process) by name. :func:`data_function` builds the same for any measure at run
time.

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

import doctest
import inspect
import math
import re
import textwrap
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


#: what each data-level keyword means, for the generated docstrings
_KEYWORD_DOCS = {
    "threshold": ("threshold : float, default 0.5",
                  "The threshold rule: predicted positive iff ``score > threshold`` "
                  "(``score >= threshold`` with ``inclusive=True``), as "
                  ":func:`measurelab.evaluate`."),
    "pos_label": ("pos_label : label, default 1", "The positive class of binary input."),
    "sample_weight": ("sample_weight : array-like of shape (n,), optional",
                      "Case weights."),
    "inclusive": ("inclusive : bool, default False",
                  "Predict positive at ``score >= threshold`` instead of ``>``."),
    "average": ("average : {'macro', 'weighted', 'micro'} or None, default 'macro'",
                "How the per-class values of k-class input combine (None: one value per "
                "class, in label order), as :func:`measurelab.evaluate`."),
    "labels": ("labels : array-like, optional",
               "The classes of the columns of a 2-d ``y_score`` (default: sorted labels)."),
}


def _paragraphs(doc: str) -> tuple[str, str]:
    """The measure's description (its formula's docstring up to the first section) and
    its examples that call the data-level functions (``ml.metrics.<name>``)."""
    text = inspect.cleandoc(doc or "")
    _, _, rest = text.partition("\nExamples\n--------\n")
    body = re.split(r"\n[^\n]+\n-{3,}\n", "\n" + text, maxsplit=1)[0].strip()
    kept: list[str] = []
    for ex in doctest.DocTestParser().get_examples(rest):
        src = ex.source.rstrip("\n")
        if "ml.metrics." not in src and src != "import measurelab as ml":
            continue
        lines = src.split("\n")
        kept += [">>> " + lines[0], *("... " + x for x in lines[1:])]
        kept += ex.want.rstrip("\n").split("\n") if ex.want else []
    examples = "\n".join(kept) if any("ml.metrics." in x for x in kept) else ""
    return body, examples


def _item(head: str, text: str) -> str:
    """One entry of a numpy-style section: ``head`` and its wrapped, indented text."""
    return head + "\n" + textwrap.fill(text, 88, initial_indent="    ",
                                       subsequent_indent="    ", break_long_words=False,
                                       break_on_hyphens=False)


def _doc(m: Measure, keywords: list[str]) -> str:
    """A numpy-style docstring for the data-level function of ``m``."""
    body, examples = _paragraphs(inspect.getdoc(m.formula) or "")
    body = body or f"The {m.name} measure."
    multi = m.supports_multiclass
    y_true = ("True labels: two classes, or k classes." if multi
              else "True labels: two classes (a binary measure).")
    if m.needs_probabilities:
        y_score = ("Probabilities of the positive class, in [0, 1]"
                   + ("; k classes: one probability column per class." if multi else "."))
    elif m.kind == "rank":
        y_score = ("Scores, higher = more likely positive"
                   + ("; k classes: one probability column per class." if multi else "."))
    else:
        y_score = ("Scores, higher = more likely positive, cut at ``threshold``"
                   + ("; k classes: one probability column per class (arg-max decides) or "
                      "the predicted labels." if multi else "."))
    shape = "(n,) or (n, k)" if multi else "(n,)"
    params = [_item("y_true : array-like of shape (n,)", y_true),
              _item(f"y_score : array-like of shape {shape}", y_score)]
    params += [_item(*_KEYWORD_DOCS[k]) for k in keywords]
    for k, v in m.params.items():
        how = f" (``{m.name}@value`` in a measure spec)" if k == m.main_param else ""
        params.append(_item(f"{k} : default {v!r}", f"The measure's parameter{how}."))
    direction = f"{m.direction} is better"
    per_class = " (an array per class with ``average=None``)" if multi else ""
    sections = [
        body,
        "Parameters\n----------\n" + "\n".join(params),
        "Returns\n-------\n" + _item(
            f"float{per_class}",
            f"``{m.name}``: a {m.kind} measure, range [{m.range[0]:g}, {m.range[1]:g}], "
            f"{direction}; NaN (with an :class:`~measurelab.UndefinedMeasureWarning`) where "
            f"it is undefined. The same value as ``measurelab.evaluate(y_true, y_score, "
            f"measures=[{m.name!r}])[{m.name!r}]``."),
        "Raises\n------\nTypeError\n    For a keyword the function does not take.\n"
        "MeasurelabError\n    For input the measure cannot take.",
        "See Also\n--------\nmeasurelab.evaluate : every measure from one pass over the data.\n"
        f"{m.formula.__module__}.{m.formula.__qualname__} : the formula, over statistics.",
        f"Notes\n-----\nSource: {m.source or 'measurelab'}.",
    ]
    if examples:
        sections.append("Examples\n--------\n" + examples)
    return "\n\n".join(sections) + "\n"


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
    from measurelab.metrics.evaluation import evaluate

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


_HEADER = '''# ruff: noqa: E501  (generated: the measures' docstrings are kept as written)
"""One function per built-in measure: ``auc(y_true, y_score)``, written out so that grep,
IDEs and type checkers see them. GENERATED by ``tools/generate_metrics.py`` from the
registry (:func:`measurelab.metrics.functions.generated_source`); do not edit by hand —
``tests/metrics/test_functions.py`` checks that regenerating gives this file.
"""

from typing import Any

from measurelab.measures.base import registry
from measurelab.metrics.evaluation import evaluate


def _call(name: str, y_true: Any, y_score: Any, data: dict[str, Any],
          params: dict[str, Any]) -> Any:
    """Evaluate measure ``name`` with the parameters that differ from its defaults."""
    m = registry.get(name)
    changed = {k: v for k, v in params.items()
               if not (v is m.params[k] or v == m.params[k]
                       or (v != v and m.params[k] != m.params[k]))}  # NaN is its default
    measure = m.with_params(**changed) if changed else m
    return evaluate(y_true, y_score, measures=[measure], **data)[name]
'''


def _literal(value: Any) -> str:
    """A default as source text (NaN and infinities through ``float``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def _docstring(text: str) -> str:
    """``text`` as an indented docstring literal of a function body."""
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').rstrip("\n")
    lines = [("    " + x if x else "") for x in body.split("\n")]
    return '    """' + "\n".join(lines).lstrip() + '\n    """'


def _definition(m: Measure) -> str:
    """The source of the data-level function of ``m``."""
    keywords = _keywords(m)
    # no annotations: the signature (and help()) stay those of data_function
    args = ["y_true", "y_score", "*"]
    args += [f"{k}={_DATA[k]!r}" for k in keywords]
    args += [f"{k}={_literal(v)}" for k, v in m.params.items()]
    data = "".join(f"        {k!r}: {k},\n" for k in keywords)
    params = "".join(f"        {k!r}: {k},\n" for k in m.params)
    return (f"def {m.name}(\n" + "".join(f"    {a},\n" for a in args) + "):\n"
            + _docstring(_doc(m, keywords)) + "\n"
            + "    data: dict[str, Any] = " + ("{\n" + data + "    }\n" if data else "{}\n")
            + "    params: dict[str, Any] = " + ("{\n" + params + "    }\n" if params else "{}\n")
            + f"    return _call({m.name!r}, y_true, y_score, data, params)\n")


def generated_source() -> str:
    """The text of ``measurelab/metrics/_measures.py``: a real ``def`` per built-in
    measure, in registration order (``tools/generate_metrics.py`` writes it).

    Examples
    --------
    >>> src = generated_source()
    >>> "def auc(" in src and "def f_beta(" in src
    True
    """
    ms = [m for m in registry if m.name in _BUILT_IN]
    names = "".join(f"    {m.name!r},\n" for m in sorted(ms, key=lambda m: m.name))
    return (_HEADER + "".join("\n\n" + _definition(m) for m in ms)
            + "\n\n__all__ = [\n" + names + "]\n")


from measurelab.metrics import _measures  # noqa: E402  (the generated functions)

#: the built-in measures: those the library's own measure modules define (a measure a
#: user or a test registers later is not built in)
_BUILT_IN = tuple(m.name for m in registry
                  if m.formula.__module__.startswith("measurelab.measures."))

#: the built-in measures' functions, by name: the generated module's, or built here for a
#: built-in measure the generated module lacks (regenerate it: tools/generate_metrics.py)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: getattr(_measures, name, None) or data_function(registry.get(name))
    for name in _BUILT_IN}
for _f in FUNCTIONS.values():
    _f.measure = registry.get(_f.__name__)  # type: ignore[attr-defined]
globals().update(FUNCTIONS)

__all__ = ["FUNCTIONS", "data_function", *FUNCTIONS]
