"""What a measure's data-level function (``measurelab.metrics.auc``) takes, says and does:
its keywords and their annotations, its numpy docstring, and the call itself. Shared by the
generated functions (:mod:`measurelab.metrics._measures`, which take their full docstrings
from :func:`document` when imported) and :func:`measurelab.metrics.functions.data_function`,
so the two routes cannot drift apart.

Examples
--------
>>> from measurelab.measures.base import registry
>>> keywords(registry.get("auc"))
['pos_label', 'sample_weight', 'average', 'labels']
>>> docstring(registry.get("auc")).splitlines()[0]
'Area under the ROC curve: P(positive scores above negative), ties count ½.'
"""

from __future__ import annotations

import doctest
import inspect
import re
import textwrap
from collections.abc import Callable
from typing import Any

from measurelab.measures.base import Measure, registry
from measurelab.metrics.evaluation import evaluate

#: the data-level keywords and their defaults, as :func:`measurelab.evaluate` takes them
DATA = {
    "threshold": 0.5,
    "pos_label": 1,
    "sample_weight": None,
    "inclusive": False,
    "average": "macro",
    "labels": None,
}

#: the annotations of the data-level keywords whose type is a plain one; the data (and
#: labels, weights) are left unannotated: numpy's ``ArrayLike`` would print as a union
#: of a dozen types in ``help()`` and ``inspect.signature``
_DATA_TYPES: dict[str, Any] = {"threshold": float, "inclusive": bool, "average": str | None}

#: the annotations a measure parameter may carry over from its formula (as written there)
_PARAM_TYPES: dict[str, type] = {"float": float, "int": int, "bool": bool, "str": str}


def keywords(m: Measure) -> list[str]:
    """The data-level keywords that mean something for measure ``m``."""
    hard = m.kind in ("threshold", "composite")
    out = ["threshold", "pos_label", "sample_weight", "inclusive"] if hard else [
        "pos_label", "sample_weight"]
    if m.supports_multiclass:
        out += ["average", "labels"]
    return out


def param_annotations(m: Measure) -> dict[str, Any]:
    """The annotation of each keyword of ``m``'s function that has one: the plain types of
    the data-level keywords, and a parameter's type where its formula gives a plain one.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> param_annotations(registry.get("lift"))
    {'average': str | None, 'q': <class 'float'>}
    """
    out = {k: _DATA_TYPES[k] for k in keywords(m) if k in _DATA_TYPES}
    formula = inspect.signature(m.formula).parameters
    for k in m.params:
        given = formula[k].annotation if k in formula else None
        if isinstance(given, type):
            given = given.__name__
        if given in _PARAM_TYPES:
            out[k] = _PARAM_TYPES[given]
    return out


#: what each data-level keyword means, for the docstrings
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


def paragraphs(doc: str) -> tuple[str, str]:
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


def summary(m: Measure) -> str:
    """The first paragraph of ``m``'s description: the docstring the generated module
    writes out (:func:`document` attaches the full one)."""
    body, _ = paragraphs(inspect.getdoc(m.formula) or "")
    return body.split("\n\n")[0] or f"The {m.name} measure."


def _item(head: str, text: str) -> str:
    """One entry of a numpy-style section: ``head`` and its wrapped, indented text."""
    return head + "\n" + textwrap.fill(text, 88, initial_indent="    ",
                                       subsequent_indent="    ", break_long_words=False,
                                       break_on_hyphens=False)


def docstring(m: Measure) -> str:
    """A numpy-style docstring for the data-level function of ``m``."""
    body, examples = paragraphs(inspect.getdoc(m.formula) or "")
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
    params += [_item(*_KEYWORD_DOCS[k]) for k in keywords(m)]
    types = param_annotations(m)
    for k, v in m.params.items():
        how = f" (``{m.name}@value`` in a measure spec)" if k == m.main_param else ""
        kind = f"{inspect.formatannotation(types[k])}, " if k in types else ""
        params.append(_item(f"{k} : {kind}default {v!r}", f"The measure's parameter{how}."))
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


def _is_default(value: Any, default: Any) -> bool:
    """Whether a parameter's value is its default (NaN is its own default)."""
    return bool(value is default or value == default
                or (value != value and default != default))


def call(measure: str | Measure, args: dict[str, Any]) -> Any:
    """Evaluate ``measure`` on the arguments of a call of its data-level function (the
    function's ``locals()``: the data, the data-level keywords and the measure's
    parameters). A parameter equal to its default is not passed to ``with_params``, as
    when it was not given.

    Examples
    --------
    >>> call("f_beta", {"y_true": [0, 1, 1, 0], "y_score": [0.2, 0.7, 0.4, 0.6],
    ...                 "threshold": 0.5, "beta": 2.0})
    0.5
    """
    m = registry.get(measure)
    params = {k: v for k, v in args.items()
              if k in m.params and not _is_default(v, m.params[k])}
    data = {k: v for k, v in args.items() if k in DATA}
    chosen = m.with_params(**params) if params else m
    return evaluate(args["y_true"], args["y_score"], measures=[chosen], **data)[m.name]


def document(f: Callable[..., Any]) -> None:
    """Give the generated function ``f`` of a built-in measure its full docstring (built
    from the registry, so ``help()`` shows parameters, returns and examples) and its
    ``measure`` attribute. A function whose measure is no longer registered keeps its
    summary, so that a stale generated module still imports (and can be regenerated)."""
    if f.__name__ not in registry:
        return
    m = registry.get(f.__name__)
    f.__doc__ = docstring(m)
    f.measure = m  # type: ignore[attr-defined]
