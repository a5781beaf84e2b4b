"""Two multi-label models on two different test sets (docs/MULTILABEL.md, issue 43).

The multi-label branch of :func:`~measurelab.inference.compare_unpaired`: each test set is
read, checked and summarised exactly as :func:`~measurelab.inference.compare_classifiers`
reads one multi-label model (:func:`~measurelab.inference.classifiers.multilabel.
prepare_multilabel`), and each gets its own case bootstrap on the multi-label engine
(:func:`~measurelab.inference.classifiers.multilabel.run_multilabel`: a replicate is one
multiplicity per case of that test set, shared by all its labels). The two bootstraps are
independent (seeds drawn apart from ``random_state``), so replicate ``b`` of the
difference is replicate ``b`` of A minus replicate ``b`` of B; BCa's acceleration comes
from the two-sample jackknife (leave out a group of A's cases with B whole, then of B's),
and the p-value is inverted from the same distribution as the interval. Holm's adjustment
runs over the reported rows.

Examples
--------
>>> import numpy as np
>>> from measurelab.inference import compare_unpaired
>>> g = np.random.default_rng(0)
>>> Ya, Yb = g.random((80, 3)) < 0.4, g.random((60, 3)) < 0.4
>>> Sa = np.clip(0.5 * Ya + 0.6 * g.random((80, 3)), 0, 1)
>>> Sb = np.clip(0.2 * Yb + 0.8 * g.random((60, 3)), 0, 1)
>>> r = compare_unpaired(Ya, Sa, Yb, Sb, measures=["subset_acc", "auc"], n_boot=200)
>>> r.tests()[["measure", "method"]].values.tolist()
[['subset_acc', 'bootstrap'], ['auc', 'bootstrap']]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import evidence as ev
from measurelab.inference import intervals as iv
from measurelab.inference.classifiers.multilabel import (
    MultiLabelComparison,
    prepare_multilabel,
    run_multilabel,
)
from measurelab.inference.withholding import judged, warn_withheld_by_evidence, withholding_on
from measurelab.pickling import versioned_pickle

__all__ = ["MultiLabelUnpairedComparison", "compare_unpaired_multilabel"]

#: the columns of every unpaired comparison's ``tests()``: a paired comparison's, plus
#: ``df`` (NaN in a multi-label one: every row is a bootstrap one)
TEST_COLUMNS = ["a", "b", "measure", "diff", "lo", "hi", "p", "p_holm", "method", "se", "z",
                "interval", "df"]


def compare_unpaired_multilabel(
    y_a: Any, s_a: Any, y_b: Any, s_b: Any, *, names: tuple[str, str], level: float,
    seeds: list[int], measures: Any, average: str | None, n_boot: int,
    ci_method: str | None, sample_weight_a: Any, sample_weight_b: Any, labels: Any,
    threshold: Any, inclusive: bool, stratify: bool, progress: bool | None,
    n_jobs: int | None,
) -> MultiLabelUnpairedComparison:
    """The :class:`MultiLabelUnpairedComparison` of model ``names[0]`` on (``y_a``,
    ``s_a``) and ``names[1]`` on (``y_b``, ``s_b``); the arguments are
    :func:`~measurelab.inference.compare_unpaired`'s, already checked there.

    Examples
    --------
    >>> Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
    >>> compare_unpaired_multilabel(
    ...     Y, Y * 0.8, Y[:, :1], Y[:, :1] * 0.8, names=("a", "b"), level=0.95,
    ...     seeds=[1, 2], measures=None, average="macro", n_boot=100, ci_method=None,
    ...     sample_weight_a=None, sample_weight_b=None, labels=None, threshold=0.5,
    ...     inclusive=False, stratify=False, progress=False, n_jobs=1)
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: y_a has 2 labels but y_b has 1; an unpaired multi-label comparison needs the same L labels in both test sets
    """  # noqa: E501
    from measurelab.stats.labelsets import read_label_sets

    La, Lb = (read_label_sets(y, labels)[0].shape[1] for y in (y_a, y_b))
    if La != Lb:
        raise MeasurelabError(f"y_a has {La} labels but y_b has {Lb}; an unpaired "
                              "multi-label comparison needs the same L labels in both test "
                              "sets")
    common = dict(measures=measures, average=average, ci=level, n_boot=n_boot,
                  ci_method=ci_method, labels=labels, threshold=threshold,
                  inclusive=inclusive, progress=progress, n_jobs=n_jobs, stratify=stratify)
    ca = MultiLabelComparison(**prepare_multilabel(
        y_a, [(names[0], s_a)], random_state=seeds[0], sample_weight=sample_weight_a,
        **common))
    cb = MultiLabelComparison(**prepare_multilabel(
        y_b, [(names[1], s_b)], random_state=seeds[1], sample_weight=sample_weight_b,
        **common))
    la, lb = list(ca.labels), list(cb.labels)
    if la != lb:
        raise MeasurelabError(f"y_a's labels {la} differ from y_b's {lb}; give the same "
                              "labels, in the same order, for both test sets")
    return MultiLabelUnpairedComparison(ca, cb, level)


@versioned_pickle
class MultiLabelUnpairedComparison:
    """The result of :func:`~measurelab.inference.compare_unpaired` on multi-label input:
    model a on test set A, model b on test set B; rows are measures (``measure[label]``
    with ``average=None``).

    Examples
    --------
    With ``r`` from the module example:

    >>> print(str(r).splitlines()[0])  # doctest: +ELLIPSIS
    MultiLabelUnpairedComparison of a (on 80 cases) and b (on 60 cases), multi-label with 3 labels...
    >>> r.values().columns.tolist()
    ['a', 'b']
    """  # noqa: E501

    def __init__(self, a: MultiLabelComparison, b: MultiLabelComparison,
                 level: float) -> None:
        self._a, self._b = a, b
        self.level = level
        self.names = [a.names[0], b.names[0]]
        self._rows: dict[bool, list[dict[str, Any]]] = {}

    def __repr__(self) -> str:
        a, b = self._a, self._b
        head = (f"MultiLabelUnpairedComparison of {self.names[0]} (on {a._design.n:,} cases) "
                f"and {self.names[1]} (on {b._design.n:,} cases), multi-label with "
                f"{a._design.L} labels, average={a.average!r}; {self.level:.0%} intervals, "
                f"two independent case bootstraps n_boot={a.n_boot}")
        return "\n".join([head, self.summary(),
                          "Tables: .values() .intervals() .tests()"])

    def values(self) -> Any:
        """Measure values: rows = measures, columns = the two models (each on its own test
        set; the multi-label ``evaluate`` of that set)."""
        import pandas as pd

        return pd.concat([self._a.values(), self._b.values()], axis=1)

    def intervals(self) -> Any:
        """Each model's intervals on its own test set (its own case bootstrap)."""
        import pandas as pd

        return pd.concat([self._a.intervals(), self._b.intervals()], ignore_index=True)

    def tests(self) -> Any:
        """One row per measure: ``a, b, measure, diff, lo, hi, p, p_holm, method, se, z,
        interval, df`` (diff = a − b; ``se`` the bootstrap standard error of the
        difference; Holm over the rows).

        Examples
        --------
        With ``r`` from the module example:

        >>> r.tests().columns.tolist()[:8]
        ['a', 'b', 'measure', 'diff', 'lo', 'hi', 'p', 'p_holm']
        """
        import pandas as pd

        return pd.DataFrame(self._test_rows(), columns=TEST_COLUMNS)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"models": {...}, "pairs": [...]}`` (NaN → None)."""
        from measurelab.inference.classifiers._report import _num

        models: dict[str, dict[str, Any]] = {}
        for c in (self._a, self._b):
            models.update(c.to_dict()["models"])
        pairs = [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                 for r in self._test_rows()]
        return {"models": models, "pairs": pairs}

    def _smaller(self) -> int:
        return min(self._a._smaller(), self._b._smaller())

    def summary(self) -> str:
        """One sentence: on which measures a (on its test set) is significantly better than
        b (on its own), Holm-adjusted, and on which there is no significant difference.

        Examples
        --------
        With ``r`` from the module example:

        >>> print(r.summary())  # doctest: +ELLIPSIS
        a is better than b on ... (+..., 95% CI ...
        """
        from measurelab.inference.classifiers._report import pair_sentences

        return "\n".join(pair_sentences(_AsPair(self), list(self._a._names_m)))

    def _test_rows(self) -> list[dict[str, Any]]:
        if withholding_on() in self._rows:   # as the evidence policy leaves them
            return self._rows[withholding_on()]
        a, b = self._a, self._b
        cols = a._columns
        ms = [m for _c, m, _i in cols]
        bca_on = a.ci_method != "bootstrap-percentile"
        ra, rb = (run_multilabel(c._design, cols, c.average, c.n_boot, c.random_state,
                                 jackknife=bca_on, progress=c._progress, n_jobs=c._n_jobs)
                  for c in (a, b))

        def pair(x: np.ndarray, y: np.ndarray) -> np.ndarray:   # a − b, or the distances'
            return np.stack([m.pair_statistic(x[..., i], y[..., i])
                             for i, m in enumerate(ms)], axis=-1)

        diff = pair(a._vals[0], b._vals[0])
        theta = pair(ra.theta[0], rb.theta[0])
        reps = pair(ra.reps[:, 0, :], rb.reps[:, 0, :]).T
        # two-sample jackknife: leave out a group of A (B whole), then of B
        jack = (np.concatenate([pair(ra.jack[:, 0, :], rb.theta[0]),
                                pair(ra.theta[0], rb.jack[:, 0, :])]).T if bca_on
                else np.empty((len(ms), 0)))
        bi = bt.BootstrapIntervals(reps, theta, diff, jack, np.full(len(ms), bca_on),
                                   self.level, bt.range_bounds(ms, difference=True))
        weighted = a._w is not None or b._w is not None
        rows, withheld = [], []
        for j, k in enumerate(a._names_m):
            d = float(diff[j])
            fin = reps[j][np.isfinite(reps[j])]   # the defined, finite replicates
            se = float(np.std(fin, ddof=1)) if len(fin) > 1 else math.nan
            row: dict[str, Any] = {
                "a": self.names[0], "b": self.names[1], "measure": k, "diff": d,
                "lo": float(bi.lo[j]), "hi": float(bi.hi[j]), "p": float(bi.p[j]),
                "method": "bootstrap", "se": se, "z": math.nan,
                "interval": str(bi.method[j]), "df": math.nan}
            iv.warn_nonfinite(f"the difference in {k} of {self.names[0]!r} and "
                              f"{self.names[1]!r}", iv.Interval(d, row["lo"], row["hi"],
                                                                row["interval"]),
                              bi.infinite[j], bi.undefined[j], **bi.notes(j))
            row["interval"], out = judged(
                row["interval"], ms[j], bounds=(row["lo"], row["hi"]), level=self.level,
                smaller=self._smaller(), unpaired=True, multilabel=True,
                average=a.average, design=ev.design_name(False, weighted=weighted))
            if out:
                row.update(lo=math.nan, hi=math.nan, p=math.nan)
                withheld.append(f"the difference in {k} of {self.names[0]!r} and "
                                f"{self.names[1]!r}")
            rows.append(row)
        warn_withheld_by_evidence(withheld)
        for r, q in zip(rows, iv.holm([r["p"] for r in rows]), strict=True):
            r["p_holm"] = float(q)
        self._rows[withholding_on()] = rows
        return rows


class _AsPair:
    """What :func:`~measurelab.inference.classifiers._report.pair_sentences` reads of a
    comparison, for the two models of an unpaired one."""

    def __init__(self, u: MultiLabelUnpairedComparison) -> None:
        self.level = u.level
        self.names = u.names
        self._names_m = u._a._names_m
        self._measures = u._a._measures
        self.tests = u.tests
