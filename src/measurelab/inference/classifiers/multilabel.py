"""Comparing multi-label classifiers on the same cases (docs/MULTILABEL.md, issue 43).

The multi-label counterpart of :mod:`measurelab.inference.classifiers.multiclass`, on the
same bootstrap engine: a replicate is one multiplicity per case, shared by every label and
every model (:class:`~measurelab.inference.bootstrap.multilabel.MultiLabelDesign`), so the
models' values — and their differences — come from the same resampled cases (paired).
Every interval is a bootstrap one (BCa with the grouped jackknife; ``ci_method=
'bootstrap-percentile'`` for percentile), every paired test the same bootstrap's, with
Holm's adjustment over the rows reported. Per-label values (``average=None``) are rows
``measure[label]``; :meth:`MultiLabelComparison.per_label` gives them beside any average
(their own family for Holm), and the page draws them as per-label forest plots.

Examples
--------
Two models' scores of 3 labels on 60 cases; the examples of :class:`MultiLabelComparison`
below use this ``r`` (run this example first):

>>> import numpy as np
>>> from measurelab.inference import compare_classifiers
>>> rng = np.random.default_rng(0)
>>> Y = rng.random((60, 3)) < 0.4
>>> A = np.clip(0.5 * Y + 0.6 * rng.random((60, 3)), 0, 1)
>>> B = np.clip(0.2 * Y + 0.8 * rng.random((60, 3)), 0, 1)
>>> r = compare_classifiers(Y, {"a": A, "b": B}, measures=["subset_acc", "auc"], n_boot=200)
>>> r.values().round(3).to_dict("index")
{'subset_acc': {'a': 0.7, 'b': 0.317}, 'auc': {'a': 0.982, 'b': 0.71}}
>>> r.intervals()["method"].str.startswith("bootstrap").all()
np.True_
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab._util.validation import check_weights
from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import evidence as ev
from measurelab.inference import intervals as iv
from measurelab.inference.bootstrap.multilabel import MultiLabelDesign
from measurelab.inference.classifiers.binary import ClassifierComparison
from measurelab.inference.classifiers.multiclass import init_rows
from measurelab.inference.withholding import judged
from measurelab.measures.base import Measure
from measurelab.measures.multilabel import (
    HEADLINE_ML,
    PER_LABEL,
    check_ml_average,
    compute_multilabel,
    ml_values,
    resolve_ml,
)
from measurelab.stats.labelsets import read_label_scores, read_label_sets, read_thresholds
from measurelab.stats.multilabel import MultiLabelStats

__all__ = ["MultiLabelComparison", "prepare_multilabel", "run_multilabel"]

Column = tuple[str, Measure, int | None]


def run_multilabel(design: MultiLabelDesign, columns: list[Column], average: str | None,
                   n_boot: int, random_state: Any, *, jackknife: bool,
                   progress: bool | None, n_jobs: int) -> bt.BootstrapRun:
    """Every column (measure, label) of every model on ``n_boot`` replicates, in blocks."""
    k = len(design.S)

    def evaluate(ext: np.ndarray) -> np.ndarray:
        mult = ext[:, :design.n]
        res = np.empty((mult.shape[0], k, len(columns)))
        with np.errstate(all="ignore"):
            for a in range(k):
                view = design.view(a, mult)
                got: dict[str, np.ndarray] = {}
                for j, (_col, m, c) in enumerate(columns):
                    if m.name not in got:
                        got[m.name] = ml_values(m, view, average)
                    v = got[m.name]
                    res[:, a, j] = v if c is None else v[:, c]
        return res

    return bt.run_blocks(design, evaluate, (k, len(columns)), n_boot,
                         bt.rng_of(random_state), jackknife=jackknife, progress=progress,
                         n_jobs=n_jobs)


def prepare_multilabel(
    y_true: Any, models: list[tuple[str, Any]], *, measures: Any = None,
    average: str | None = "macro", ci: float | None = 0.95, n_boot: int = 2000,
    random_state: Any = 0, ci_method: str | None = None, sample_weight: Any = None,
    labels: Any = None, threshold: Any = 0.5, inclusive: bool = False,
    progress: bool | None = None, n_jobs: int | None = None, stratify: bool = False,
) -> dict[str, Any]:
    """The keyword arguments of a :class:`MultiLabelComparison`: the models read and
    checked, their design, the reported rows and their values (each model's exact summary).

    Examples
    --------
    >>> Y = np.array([[1, 0], [0, 1], [1, 1]])
    >>> kw = prepare_multilabel(Y, [("m", np.array([[.9, .2], [.3, .8], [.6, .4]]))],
    ...                         measures=["sens"], average=None, ci=None)
    >>> [c for c, _m, _i in kw["columns"]], kw["values"][0]["sens[1]"]
    (['sens[0]', 'sens[1]'], 0.5)
    """
    from measurelab._util.validation import check_flag

    Y, labs = read_label_sets(y_true, labels)
    n, L = Y.shape
    if n == 0 or L == 0:
        raise MeasurelabError(f"y_true has no cases or no labels (shape {Y.shape})")
    names = [str(k) for k, _v in models]
    S = [read_label_scores(v, n, L, f"y_score of model {k!r}") for k, v in models]
    w = check_weights(sample_weight, n)
    thr = read_thresholds(threshold, L)
    inclusive = check_flag(inclusive, "inclusive")
    average = check_ml_average(average)
    if check_flag(stratify, "stratify"):
        raise MeasurelabError("stratify=True does not apply to multi-label input: a case "
                              "has several labels, so there are no classes to resample "
                              "apart; leave it out")
    if ci_method not in (None, "bootstrap-bca", "bootstrap-percentile"):
        raise MeasurelabError(f"ci_method={ci_method!r} does not apply to multi-label input; "
                              "its intervals are 'bootstrap-bca' (default) or "
                              "'bootstrap-percentile'")
    level, n_boot, n_jobs, _s = iv.check_run_options(ci, n_boot, n_jobs, False, None,
                                                     progress)
    chosen = resolve_ml(HEADLINE_ML if measures is None else measures)
    stats = [MultiLabelStats.from_arrays(Y, s, w, thresholds=thr, inclusive=inclusive,
                                         labels=labs) for s in S]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [compute_multilabel(st, chosen, average=average) for st in stats]
    columns: list[Column] = []
    for m in chosen:
        if np.ndim(results[0][m.name]) == 1:
            columns += [(f"{m.name}[{labs[c]}]", m, c) for c in range(L)]
        else:
            columns.append((m.name, m, None))
    values = [{col: float(r[m.name] if c is None else np.asarray(r[m.name])[c])
               for col, m, c in columns} for r in results]
    design = MultiLabelDesign(Y, S, w, thresholds=thr, inclusive=inclusive, labels=labs)
    return dict(names=names, design=design, columns=columns, values=values, average=average,
                level=level, n_boot=n_boot, random_state=random_state, ci_method=ci_method,
                progress=progress, n_jobs=n_jobs, weight=w)


class MultiLabelComparison(ClassifierComparison):
    """:class:`ClassifierComparison` of multi-label models (built by
    :func:`~measurelab.inference.compare_classifiers` from an (n, L) ``y_true``); rows are
    measures, or ``measure[label]`` with ``average=None``.

    Examples
    --------
    With ``r`` from the module example:

    >>> r.tests()[["measure", "method"]].values.tolist()
    [['subset_acc', 'bootstrap'], ['auc', 'bootstrap']]
    >>> print(r.summary().splitlines()[0])  # doctest: +ELLIPSIS
    a is better than b on subset_acc (+0.383, 95% CI ...
    """

    _multiclass = True
    _design: MultiLabelDesign  # type: ignore[assignment]
    average: str | None
    _columns: list[Column]   # set by init_rows

    def __init__(self, *, names: list[str], design: MultiLabelDesign, columns: list[Column],
                 values: list[dict[str, float]], average: str | None, level: float | None,
                 n_boot: int, random_state: Any, ci_method: str | None,
                 progress: bool | None, n_jobs: int, weight: np.ndarray | None) -> None:
        init_rows(self, design.Y, design.inclusive, names=names, design=design,
                  columns=columns, values=values, average=average, level=level,
                  n_boot=n_boot, random_state=random_state, ci_method=ci_method,
                  progress=progress, n_jobs=n_jobs, weight=weight)
        self.notes = []
        self.labels = design.labels

    def __repr__(self) -> str:
        def _names(xs: list[str]) -> str:
            return ", ".join(xs[:6]) + (f", … ({len(xs)} in all)" if len(xs) > 6 else "")

        k = len(self.names)
        d = self._design
        head = (f"MultiLabelComparison of {k} model{'s' if k != 1 else ''} "
                f"({_names(list(self.names))}) on {d.n:,} cases, multi-label with {d.L} "
                f"labels ({_names([str(c) for c in d.labels])}), average={self.average!r}")
        how = ("values only (ci=None)" if self.level is None else
               f"{self.level:.0%} intervals, paired bootstrap n_boot={self.n_boot}, "
               f"random_state={self.random_state!r}")
        body = (self.values().round(4).to_string() if self.level is None
                else self.summary())
        return "\n".join([f"{head}; {how}", body,
                          "Tables: .values() .intervals() .tests() .per_label(); page: "
                          ".to_html(path)"])

    # --------------------------------------------------------------- machinery
    def _methods(self) -> dict[str, str]:
        method = self.ci_method or "bootstrap-bca"
        return dict.fromkeys(self._names_m, method)

    def _pair_method(self, k: str) -> str:
        return "bootstrap"

    def _smaller(self) -> int:
        """The fewest cases with, or without, any one label."""
        return int(self._design.label_counts().min())

    def _case_counts(self) -> tuple[int, int]:
        return self._design.n, int(self._design.Y.any(axis=1).sum())

    def _run_boot(self, need: list[str], ms: list[Measure], bca: bool) -> bt.BootstrapRun:
        cols = [self._columns[self._names_m.index(x)] for x in need]
        return run_multilabel(self._design, cols, self.average, self.n_boot,
                              self.random_state, jackknife=bca, progress=self._progress,
                              n_jobs=self._n_jobs)

    def _with_evidence(self, method: str, j: int, lo: float, hi: float,
                       **kind: bool) -> tuple[str, bool]:
        return judged(method, self._measures[j], bounds=(lo, hi), level=self._need_level(),
                      multilabel=True, design=ev.design_name(False, weighted=self._weighted),
                      average=self.average, smaller=self._smaller(), **kind)

    def _analytic(self, a: int, k: str, value: float, method: str, level: float
                  ) -> iv.Interval:  # pragma: no cover - every interval is a bootstrap one
        raise MeasurelabError(f"no analytic interval for the multi-label {k}")

    # ------------------------------------------------------------ per label
    def per_label(self, measures: Any = None) -> MultiLabelComparison:
        """The per-label values of ``measures`` (default: the per-label measures among this
        comparison's rows) as a comparison of their own, rows ``measure[label]``, on the same
        cases, replicates and seed; Holm's adjustment runs over its rows (a family apart
        from this comparison's).

        Examples
        --------
        With ``r`` from the module example:

        >>> p = r.per_label()
        >>> p.values().index.tolist()
        ['auc[0]', 'auc[1]', 'auc[2]']
        """
        if measures is None:
            base = list(dict.fromkeys(m.name for m in self._measures))
            measures = [x for x in base if x.partition("@")[0] in PER_LABEL]
        key = ("per_label", tuple(measures))
        if key in self._cache:
            return self._cache[key]
        chosen = resolve_ml(measures)
        bad = [m.name for m in chosen if m.name.partition("@")[0] not in PER_LABEL]
        if bad:
            raise MeasurelabError(f"{bad[0]} has no per-label value; per-label measures are "
                                  f"{', '.join(PER_LABEL)}")
        d = self._design
        columns: list[Column] = [(f"{m.name}[{lab}]", m, c) for m in chosen
                                 for c, lab in enumerate(d.labels)]
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = []
            for a in range(len(self.names)):
                view = d.view(a, np.ones((1, d.n)))
                got = {m.name: ml_values(m, view, None)[0] for m in chosen}
                values.append({col: float(got[m.name][c]) for col, m, c in columns})
        out = MultiLabelComparison(
            names=self.names, design=d, columns=columns, values=values, average=None,
            level=self.level, n_boot=self.n_boot, random_state=self.random_state,
            ci_method=self.ci_method, progress=self._progress, n_jobs=self._n_jobs,
            weight=self._w)
        self._cache[key] = out
        return out

    # ------------------------------------------------------------- not binary
    def verdicts(self) -> Any:
        """Sokolova's verdicts compare two classes: an empty table for multi-label input."""
        from measurelab.inference._reprs import noted_empty_frame

        return noted_empty_frame(
            ["a", "b", "verdict", "dp_a", "dp_b", "dp_band_a", "dp_band_b"],
            "No verdicts: Sokolova's likelihood verdicts are binary; compare one label's "
            "column with compare_classifiers(Y[:, j], {name: S[:, j]}).")

    def plot(self, *, n_boot: int | None = None) -> Any:
        """The forest plot of every row (:meth:`plot_intervals`)."""
        return self.plot_intervals()

    def calibration(self, n_resamples: int = 999, method: str = "auto") -> Any:
        raise MeasurelabError("calibration() is for binary probabilities; test one label's "
                              "column with measurelab.calibration_test(Y[:, j], S[:, j])")

    def to_html(self, path: Any, *, title: str = "Comparing multi-label classifiers",
                files: bool = False) -> Any:
        """Write the comparison as one self-contained HTML page: the answer (a sentence
        per pair, the best model per measure), the forest plot of the rows, a forest plot
        per per-label measure (a row per label), then every table.

        Examples
        --------
        With ``r`` from the module example:

        >>> import tempfile, pathlib
        >>> p = r.to_html(pathlib.Path(tempfile.mkdtemp()) / "ml.html")
        >>> "per label" in p.read_text()
        True
        """
        from measurelab.inference.classifiers._multilabel_page import write_page

        return write_page(self, path, title=title, files=files)

    def _repr_html_(self) -> str:
        """A notebook shows what was compared, the summary and the forest plot."""
        from measurelab.inference.classifiers._multilabel_page import repr_html

        return repr_html(self)
