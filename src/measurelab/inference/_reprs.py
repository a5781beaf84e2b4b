"""What ``print(result)`` shows: what was compared, on how many cases, and the answer.

One function per result class; each class's ``__repr__`` calls it (kept here so the
classes' modules change by two lines).
"""

from __future__ import annotations

import functools
import math
from typing import Any

from measurelab._util.words import counted


def p_text(p: float) -> str:
    """A probability or p-value for a reader: '< 0.001' below 0.001, else 3 significant
    digits.

    Examples
    --------
    >>> p_text(0.0004), p_text(0.01234), p_text(float("nan"))
    ('< 0.001', '0.0123', 'n/a')
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3g}"


def holm_p_text(p: float) -> str:
    """A Holm-adjusted p-value in a sentence.

    Examples
    --------
    >>> holm_p_text(0.0002), holm_p_text(0.031), holm_p_text(float("nan"))
    ('p_holm < 0.001', 'p_holm 0.031', 'p_holm undefined')
    """
    if math.isnan(p):
        return "p_holm undefined"
    return "p_holm < 0.001" if p < 0.001 else f"p_holm {p:.2g}"


def signed_text(x: float) -> str:
    """A difference with its sign (a true minus), or ±inf.

    Examples
    --------
    >>> signed_text(0.0314), signed_text(-2.0), signed_text(float("-inf"))
    ('+0.0314', '−2', '−inf')
    """
    return f"{x:+.3g}".replace("-", "−") if math.isfinite(x) else ("+inf" if x > 0 else
                                                                   ("−inf" if x < 0 else "?"))


def joined(items: list[str]) -> str:
    """Items in a sentence: 'a', 'a and b', 'a, b and c'.

    Examples
    --------
    >>> joined(["a"]), joined(["a", "b", "c"])
    ('a', 'a, b and c')
    """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

def _names(names: list[str], limit: int = 6) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f", … ({len(names)} in all)" if len(names) > limit else "")


def in_clusters(cmp: Any) -> str:
    """' in 300 clusters' for a comparison of clustered cases (``groups=``), else ''.

    Examples
    --------
    >>> import numpy as np
    >>> from measurelab import compare_classifiers
    >>> y = np.tile([0, 1], 6)
    >>> r = compare_classifiers(y, {"a": np.linspace(0.1, 0.9, 12)}, n_boot=100,
    ...                         groups=np.arange(12) // 4, progress=False)
    >>> in_clusters(r)
    ' in 3 clusters'
    """
    if not getattr(cmp, "clustered", False):
        return ""
    k = int(cmp._design.n_clusters)
    return f" in {k:,} cluster{'s' if k != 1 else ''}"


def comparison_header(cmp: Any) -> str:
    """The first line of a comparison's repr: models, cases, classes or positives, and the
    resampling that gives its intervals.

    Examples
    --------
    >>> from measurelab import compare_classifiers
    >>> r = compare_classifiers([0, 1, 0, 1], {"a": [.1, .9, .2, .8]}, ci=None)
    >>> comparison_header(r)
    'ClassifierComparison of 1 model (a) on 4 cases (2 positive, pos_label=1, threshold 0.5); values only (ci=None)'
    """  # noqa: E501
    kind = type(cmp).__name__
    k = len(cmp.names)
    head = f"{kind} of {k} model{'s' if k != 1 else ''} ({_names(list(cmp.names))})"
    d = cmp._design
    if hasattr(d, "labels") and hasattr(d, "k"):
        case = f"on {d.n:,} cases ({d.k} classes: {_names([str(c) for c in d.labels])})"
    else:
        n, pos = cmp._case_counts()
        case = (f"on {n:,} cases{in_clusters(cmp)} ({pos:,} positive, "
                f"pos_label={getattr(cmp, 'pos_label', 1)!r}, threshold {cmp.threshold:g})")
    if cmp.level is None:
        how = "values only (ci=None)"
    else:
        how = (f"{cmp.level:.0%} intervals, paired bootstrap n_boot={cmp.n_boot}, "
               f"random_state={cmp.random_state!r}")
    return f"{head} {case}; {how}"


def comparison_repr(cmp: Any) -> str:
    """Header, notes on the input, then :meth:`summary` (the answer) or, without
    intervals, the values."""
    lines = [comparison_header(cmp)]
    lines += [f"Note: {n}" for n in getattr(cmp, "notes", [])]
    if cmp.level is None or len(cmp.names) < 1:
        lines.append(cmp.values().round(4).to_string())
    else:
        lines.append(cmp.summary())
    lines.append("Tables: .values() .intervals() .tests() .preferences(); page: .to_html(path)")
    return "\n".join(lines)


def demsar_repr(r: Any) -> str:
    """Concise: data sets, models, direction, the ranking, Friedman's p and the CD.

    Examples
    --------
    >>> import pandas as pd
    >>> from measurelab.inference import demsar
    >>> t = pd.DataFrame({"a": [.8, .7, .9, .6], "b": [.7, .6, .8, .65]})
    >>> print(demsar_repr(demsar(t)))  # doctest: +NORMALIZE_WHITESPACE
    DemsarResult: 2 models over 4 data sets (higher is better); average ranks a 1.25,
    b 1.75; Friedman p = 0.317 (not significant at alpha 0.05); Nemenyi CD = 0.98.
    """
    ranks = ", ".join(f"{m} {v:.3g}" for m, v in r.avg_ranks.items())
    sig = "significant" if r.friedman.pvalue < r.alpha else "not significant"
    return (f"DemsarResult: {r.n_models} models over {r.n_datasets} data sets "
            f"({r.direction} is better); average ranks {ranks}; Friedman p = "
            f"{p_text(r.friedman.pvalue)} ({sig} at alpha {r.alpha:g}); Nemenyi CD = {r.cd:.3g}.")


def unpaired_repr(u: Any) -> str:
    """Two models on two different test sets: the sizes and the significant differences."""
    a, b = u._a, u._b
    head = (f"UnpairedComparison of {u.names[0]} (on {len(a._y):,} cases{in_clusters(a)}) "
            f"and {u.names[1]} (on {len(b._y):,} cases{in_clusters(b)}); {u.level:.0%} "
            "intervals, unpaired tests")
    t = u.tests()
    lines = [head]
    p_col = "p_holm" if "p_holm" in t.columns else "p"
    for _i, row in t.iterrows():
        p = float(row[p_col])
        verdict = "differ" if p < 1 - u.level else "no significant difference"
        lines.append(f"  {row['measure']}: {verdict} ({p_col} {p_text(p)})")
    return "\n".join(lines)


def net_benefit_repr(nb: Any) -> str:
    """The models, the thresholds, then the summary."""
    ts = ", ".join(f"{t:g}" for t in nb.thresholds)
    return (f"NetBenefitComparison of {counted(len(nb.names), 'model')} ({_names(nb.names)}) at "
            f"thresholds {ts}; {nb.level:.0%} intervals\n{nb.summary()}")


def calibration_test_repr(t: Any) -> str:
    """One line: the verdict, the statistic and how the p-value was found.

    Examples
    --------
    >>> from measurelab.inference.calibration import CalibrationTest
    >>> calibration_test_repr(CalibrationTest(0.002, 0.0004, "spiegelhalter", "z", 0))
    'CalibrationTest: miscalibrated (p < 0.001); z = 0.002 (spiegelhalter)'
    """
    extra = f", {t.n_resamples} resamples" if t.n_resamples else ""
    return (f"CalibrationTest: {t.verdict()}; {t.measure} = {t.statistic:.4g} "
            f"({t.method}{extra})")


def noted_empty_frame(columns: list[str], note: str) -> Any:
    """An empty DataFrame with ``columns`` that says why it is empty: ``attrs["note"]``,
    and its printed form starts with the note. It pickles (its class is
    :data:`NotedFrame` of this module, made once, when first needed).

    Examples
    --------
    >>> import pickle
    >>> t = noted_empty_frame(["a", "b"], "nothing to show for k classes")
    >>> len(t), t.attrs["note"]
    (0, 'nothing to show for k classes')
    >>> print(t)
    nothing to show for k classes
    Empty DataFrame
    Columns: [a, b]
    Index: []
    >>> repr(pickle.loads(pickle.dumps(t))) == repr(t)
    True
    """
    out = _noted_frame_class()([], columns=columns)
    out.attrs["note"] = note
    return out


@functools.cache
def _noted_frame_class() -> type:
    """The class of :func:`noted_empty_frame`'s frames, made once on first use (a module-
    level subclass would import pandas with this module); pickle finds it as this module's
    ``NotedFrame`` (:func:`__getattr__`)."""
    import pandas as pd

    class NotedFrame(pd.DataFrame):
        """A DataFrame whose printed form starts with its ``attrs['note']``."""

        @property
        def _constructor(self) -> Any:
            return pd.DataFrame  # operations on it give plain frames

        def __repr__(self) -> str:
            note = self.attrs.get("note", "")
            return (note + "\n" if note else "") + super().__repr__()

    NotedFrame.__name__ = "DataFrame"  # printed as pandas prints any empty frame
    NotedFrame.__qualname__ = "NotedFrame"  # pickled by reference to this module's name
    NotedFrame.__module__ = __name__
    return NotedFrame


def net_benefit_pair_sentences(nb: Any) -> list[str]:
    """:meth:`NetBenefitComparison.summary`'s sentences on the chosen thresholds: the
    pairs that differ there after Holm's adjustment over every row of
    ``differences()`` (two models: each threshold with the difference, its interval
    and p_holm; a model and a reference: the thresholds)."""
    pct = round(100 * nb.level)
    d = nb.differences()
    sig = d[d["p_holm"] < 1.0 - nb.level]
    models = set(nb.names)
    head = (f"At the chosen thresholds ({pct}% intervals, p_holm over all {len(d)} rows "
            "of .differences()): ")
    pairs: list[str] = []
    refs: list[str] = []
    for (a, b), g in sig.groupby(["a", "b"], sort=False):
        for more, who, other in ((True, a, b), (False, b, a)):
            rows = g[(g["diff"] > 0) == more]
            if not len(rows):
                continue
            sign = 1.0 if more else -1.0
            if b in models:
                at = [f"t = {r.threshold:g} ({signed_text(sign * r.diff)}, {pct}% CI "
                      f"{signed_text(min(sign * r.lo, sign * r.hi))} to "
                      f"{signed_text(max(sign * r.lo, sign * r.hi))}, "
                      f"{holm_p_text(r.p_holm)})" for r in rows.itertuples(index=False)]
                pairs.append(f"{who} is more useful than {other} at {joined(at)}")
            else:
                worst = float(rows["p_holm"].max())
                p = (holm_p_text(worst) if worst < 0.001
                     else holm_p_text(worst).replace("p_holm ", "p_holm ≤ "))
                ts = [f"{t:g}" for t in rows["threshold"]]
                refs.append(f"{who} is more useful than {other} at t = {joined(ts)} "
                            f"({p}).")
    if not pairs and len(nb.names) > 1:
        pairs.append("no model is significantly more useful than another at any of them")
    if not pairs:
        return [head + refs[0], *refs[1:]] if refs else []
    return [head + "; ".join(pairs) + ".", *refs]


def __getattr__(name: str) -> Any:
    if name == "NotedFrame":
        return _noted_frame_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
