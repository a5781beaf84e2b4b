"""Comparing classifiers whose cases are spread over parts — the partitions of Dask
collections, the row groups of a Parquet data set on a Dask cluster
(:func:`measurelab.io.compare_parquet`) — in two passes over the parts
(:mod:`.partitioned`), with no case on the machine that asks.

:func:`compare_parts` builds a :class:`DistributedComparison`: pass one merges every
model's score table and each pair's joint decision cells, which give every value and
every interval that reads a table or the counts exactly as the one-machine
:func:`~measurelab.inference.classifiers.compare.compare_classifiers` (Wilson, DeLong's
interval of one AUC, the posterior of the confusion cells, McNemar with Tango's interval,
the influence interval of whole counts); pass two sums what the paired influence and
DeLong tests (and the influence interval of weighted cases) need, which agree with the
one-machine run to rounding (about 10⁻¹²). A measure whose method resamples (forced, or
the default of weighted cases) gets the **Poisson bootstrap**: every case weighs a
Poisson(1) count drawn from the stream of its part and the replicate, so the replicates
depend on the parts, not on the workers; BCa's acceleration comes from a grouped
jackknife. It holds ``n_boot`` tables of every model's distinct scores, and is refused
in one line where that passes :data:`BOOT_BYTES`.

What needs every case's prediction is not offered here: the calibration test and
figures, the curves' bands, net benefit and the page.

Examples
--------
Three parts of one test set give the one-machine comparison's values and intervals:

>>> import numpy as np
>>> from measurelab.inference import compare_classifiers
>>> rng = np.random.default_rng(0)
>>> y = rng.random(600) < 0.4
>>> a, b = np.round(rng.random((2, 600)) * 0.4 + 0.4 * y, 2)
>>> parts = [(y[i:i + 200], [a[i:i + 200], b[i:i + 200]], None) for i in (0, 200, 400)]
>>> r = compare_parts(parts, ["a", "b"], measures=["auc", "f1", "acc"])
>>> whole = compare_classifiers(y, {"a": a, "b": b}, measures=["auc", "f1", "acc"])
>>> r.values().equals(whole.values())
True
>>> np.allclose(r.tests()[["lo", "hi"]], whole.tests()[["lo", "hi"]], rtol=0, atol=1e-12)
True
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import intervals as iv
from measurelab.inference.classifiers.binary import ClassifierComparison
from measurelab.inference.classifiers.partitioned import (
    BOOT_BYTES,
    JACK_GROUPS,
    CaseSums,
    MapReduce,
    OnParts,
    PassOne,
    SumsPlan,
    in_process,
    merge_one,
    merge_sums,
    pass_one,
    pass_two,
    tree_merge,
)
from measurelab.measures.base import Measure

__all__ = ["BOOT_BYTES", "DistributedComparison", "OnParts", "compare_dask",
           "compare_parts", "in_process", "is_dask"]


class TableDesign:
    """The cases of a comparison over parts as its tables know them: each model's score
    table, whether the class counts are fixed, the cases and the positive cases (there
    are no per-case arrays: those stay on the workers).

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> d = TableDesign([ScoreTable.from_arrays([0, 1], [.2, .7])], stratify=False, n=2, n1=1)
    >>> d.n0, d.stratify
    (1, False)
    """

    def __init__(self, tables: list[Any], *, stratify: bool, n: int, n1: int) -> None:
        self.tables = tables
        self.stratify = bool(stratify)
        self.n, self.n1, self.n0 = int(n), int(n1), int(n) - int(n1)


class DistributedComparison(OnParts, ClassifierComparison):
    """A binary :class:`ClassifierComparison` computed over parts of the cases
    (:func:`compare_parts`): the same values, intervals, tests, preferences, verdicts and
    JSON; the summary leaves out the calibration sentence (a note says so). Methods that
    need every case's prediction (``calibration``, ``plot``, ``curve_bands``,
    ``net_benefit``, ``to_html``, ...) are refused in one line.

    Examples
    --------
    >>> import numpy as np
    >>> parts = [([0, 1, 1, 0], [np.array([.2, .9, .6, .4])], None),
    ...          ([1, 0, 1, 0], [np.array([.7, .1, .3, .5])], None)]
    >>> r = compare_parts(parts, ["m"], measures=["acc", "auc"], ci=None)
    >>> type(r).__name__, float(r.values().loc["acc", "m"])
    ('DistributedComparison', 0.875)
    """

    def __init__(self, *, names: list[str], one: PassOne, stats: list[Any],
                 measures: list[Measure], values: list[Any], level: float | None,
                 n_boot: int, random_state: Any, ci_method: str | None, inclusive: bool,
                 threshold: float, stratify: bool, pos_label: Any,
                 notes: list[str] | None = None) -> None:
        design = TableDesign(one.tables, stratify=stratify, n=one.n, n1=one.n1)
        super().__init__(names=names, y=None, scores=[], weight=None,  # type: ignore[arg-type]
                         design=design,  # type: ignore[arg-type]  # tables, no cases
                         stats=stats, measures=measures, values=values,
                         level=level, n_boot=n_boot, random_state=random_state,
                         ci_method=ci_method, inclusive=inclusive, threshold=threshold,
                         progress=False, notes=notes, pos_label=pos_label)
        self._is_weighted = bool(one.weighted)
        self._sums = CaseSums(len(names), one.joint)
        self._map: Any = None   # the parts and how to run them, while the comparison is built

    # ------------------------------------------------------------ what the cases gave
    def _case_counts(self) -> tuple[int, int]:
        return self._design.n, self._design.n1

    @property
    def _weighted(self) -> bool:
        return self._is_weighted

    def _mcnemar(self, a: int, b: int, level: float) -> tuple[float, float, float]:
        """McNemar's score test and Tango's interval from the pair's joint cells."""
        j = self._sums.joint(a, b)
        nb = int(j[1, 1, 0] + j[0, 0, 1])   # A right, B wrong
        nc = int(j[1, 0, 1] + j[0, 1, 0])   # A wrong, B right
        lo, hi = iv.tango_interval(nb, nc, int(j.sum()), level)
        return iv.mcnemar_score(nb, nc), lo, hi

    def _analytic(self, a: int, k: str, value: float, method: str, level: float
                  ) -> iv.Interval:
        if method == "influence" and self._weighted:   # the sums of the weighted cases
            from measurelab.inference.methods.dirichlet import model_key

            return iv.measure_interval(
                k, value, method, level, table=self._design.tables[a],
                counts=self._stats[a].counts, what=f"{k} of model {self.names[a]!r}",
                design=self._case_design(), random_state=self.random_state,
                key=model_key(a), measure=self._measures[self._names_m.index(k)],
                threshold=self.threshold, inclusive=self._inclusive,
                variance=self._sums.single_variance(a, k))
        return super()._analytic(a, k, value, method, level)

    # ------------------------------------------------------------------ pass two
    def _plan(self) -> SumsPlan:
        """What pass two must sum for the intervals and tests this comparison reports."""
        from measurelab.inference import delong as dlm
        from measurelab.inference import influence as inf

        k = len(self.names)
        tables = self._design.tables
        fixed = self._design.stratify
        plan = SumsPlan(self.pos_label, k, [None] * k, fixed=fixed)
        methods = self._methods()

        def influence(a: int, m: Measure) -> np.ndarray:
            if (a, m.name) not in plan.influence:
                ifp, ifn = inf.row_influence(
                    m, tables[a], threshold=self.threshold, inclusive=self._inclusive)
                # a measure with a target: a pair reports |a − t| − |b − t| (a single
                # model's variance is the same either way)
                sign = inf.distance_sign(m, float(self._vals[a, self._measures.index(m)]))
                plan.influence[(a, m.name)] = (ifp * sign, ifn * sign) if sign != 1.0 \
                    else (ifp, ifn)
                plan.scores[a] = tables[a].scores
            return _centres(tables[a], *plan.influence[(a, m.name)], fixed)

        for j, name in enumerate(self._names_m):
            m = self._measures[j]
            if methods[name] == "influence" and self._weighted:
                plan.single += [(a, name, influence(a, m)) for a in range(k)]
            if k < 2:
                continue
            pm = self._pair_method(name)
            if pm == "influence":
                for a, b in combinations(range(k), 2):
                    c = influence(a, m) - influence(b, m)
                    plan.pairs.append((a, b, name, c))
                    self._sums.centres[("pair", a, b, name)] = c
            elif pm == "delong":
                for x in range(k):
                    if x not in plan.placements:
                        plan.placements[x] = dlm.delong_placements(tables[x])
                        plan.scores[x] = tables[x].scores
                for a, b in combinations(range(k), 2):
                    c = _placement_centre(tables[a], plan.placements[a]) - \
                        _placement_centre(tables[b], plan.placements[b])
                    plan.delong.append((a, b, c))
                    self._sums.centres[("delong", a, b)] = c
            elif pm not in ("mcnemar", "dirichlet-posterior", "bootstrap", "bootstrap-se",
                            "none"):
                raise MeasurelabError(
                    f"the paired {pm} interval of {name} is not offered on a cluster; the "
                    "influence, DeLong, McNemar, posterior and Poisson-bootstrap methods are")
        return plan

    def _second_pass(self, map_reduce: MapReduce, parts: Sequence[Any]) -> None:
        """Pass two over ``parts``: the planned sums and, where a method resamples, the
        Poisson bootstrap (through :meth:`_run_boot`, which the intervals ask for)."""
        self._map = (map_reduce, parts)
        try:
            self._boot()   # runs pass two with the replicates when a method resamples
            if self._map is not None:
                plan = self._plan()
                if not plan.empty:
                    self._sums.sums = map_reduce(pass_two, parts, merge_sums, (plan,))
        finally:
            self._map = None

    def _run_boot(self, need: list[str], ms: list[Measure], bca: bool) -> bt.BootstrapRun:
        """The Poisson bootstrap of the measures ``need``, in the same pass two as the
        other sums."""
        if self._map is None:
            raise MeasurelabError("the bootstrap of a comparison over parts runs while it "
                                  "is built; this one was built without it")
        groups = JACK_GROUPS if bca else 0
        tables = self._design.tables
        size = sum(2 * (self.n_boot + groups) * t.size * 8 for t in tables)
        if size > BOOT_BYTES:
            fast = [x for x in need if _has_influence(self._measures[self._names_m.index(x)])]
            raise MeasurelabError(
                f"the Poisson bootstrap of {', '.join(need)} on a cluster keeps "
                f"{self.n_boot + groups:,} tables of every model's distinct scores "
                f"({', '.join(f'{t.size:,}' for t in tables)}): {size / 2**30:.1f} GB, "
                f"above {BOOT_BYTES / 2**30:g} GB; lower n_boot, round the scores, or use a "
                "method without replicates"
                + (f" (ci_method='influence' serves {', '.join(fast)})" if fast else ""))
        plan = self._plan()
        plan.scores = [t.scores for t in tables]
        return _poisson_run(self, self._poisson_pass(pass_two, plan, groups, need), ms,
                            groups)


def _has_influence(m: Measure) -> bool:
    from measurelab.inference.methods import Setting
    from measurelab.inference.methods.influence import applies

    return applies(Setting(m.name))


def _centres(table: Any, ifp: np.ndarray, ifn: np.ndarray, fixed: bool) -> np.ndarray:
    """The mean influence of each group of cases (positives, negatives; or all), from the
    table: the centre pass two sums around."""
    with np.errstate(all="ignore"):
        sp = float(np.dot(table.pos, np.where(table.pos > 0, ifp, 0.0)))
        sn = float(np.dot(table.neg, np.where(table.neg > 0, ifn, 0.0)))
        if fixed:
            return np.array([sp / table.n_pos if table.n_pos else 0.0,
                             sn / table.n_neg if table.n_neg else 0.0])
        return np.array([(sp + sn) / table.total if table.total else 0.0])


def _placement_centre(table: Any, placements: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The mean placement of the positives and of the negatives, from the table."""
    v10, v01 = placements
    with np.errstate(all="ignore"):
        p = float(np.dot(table.pos, np.nan_to_num(v10))) / table.n_pos if table.n_pos else 0.0
        q = float(np.dot(table.neg, np.nan_to_num(v01))) / table.n_neg if table.n_neg else 0.0
    return np.array([p, q])


def _evaluate(table: Any, pos: np.ndarray, neg: np.ndarray, ms: list[Measure],
              thr: tuple[float, bool], integer: bool | None) -> np.ndarray:
    """Every measure of ``ms`` on the weightings (B, R) of ``table``'s rows, in slices."""
    import warnings

    from measurelab.measures.compute import prime_block
    from measurelab.stats.block import BlockStats, TableBlock

    out = np.empty((pos.shape[0], len(ms)))
    step = max(1, (1 << 22) // max(1, table.size))
    cache: dict[str, Any] = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for s in range(0, pos.shape[0], step):
            blk = TableBlock(table.scores, pos[s:s + step], neg[s:s + step],
                             integer=integer, cache=cache)
            bs = BlockStats(blk, threshold=thr[0], inclusive=thr[1])
            prime_block(bs, ms)
            for j, m in enumerate(ms):
                out[s:s + step, j] = m.compute_block(bs)
    return out


def _poisson_run(cmp: DistributedComparison, sums: dict[tuple[Any, ...], np.ndarray],
                 ms: list[Measure], groups: int) -> bt.BootstrapRun:
    """Replicates, estimates and jackknife of the measures ``ms`` from the merged
    replicate tables (fixed class counts: each replicate's classes rescaled to the
    observed class totals)."""
    tables = cmp._design.tables
    k = len(tables)
    fixed = cmp._design.stratify
    integer = None if (fixed or cmp._weighted) else True
    thr = (cmp.threshold, cmp._inclusive)
    reps = np.empty((cmp.n_boot, k, len(ms)))
    theta = np.empty((k, len(ms)))
    jack = np.empty((groups, k, len(ms)))
    for a, t in enumerate(tables):
        pos, neg = sums[("boot", a)]
        if fixed:
            with np.errstate(all="ignore"):
                pos = pos * (t.n_pos / pos.sum(axis=1, keepdims=True))
                neg = neg * (t.n_neg / neg.sum(axis=1, keepdims=True))
        reps[:, a] = _evaluate(t, pos, neg, ms, thr, integer)
        theta[a] = _evaluate(t, t.pos[None], t.neg[None], ms, thr, integer)[0]
        if groups:
            jp, jn = sums[("jack", a)]
            jack[:, a] = _evaluate(t, np.maximum(t.pos - jp, 0.0),
                                   np.maximum(t.neg - jn, 0.0), ms, thr,
                                   None if cmp._weighted else True)
    return bt.BootstrapRun(reps, theta, jack)


# ---------------------------------------------------------------------------- entries
def compare_parts(
    parts: Sequence[Any],
    names: Sequence[str],
    *,
    map_reduce: MapReduce | None = None,
    measures: Any = None,
    ci: float | None = 0.95,
    n_boot: int = 2000,
    random_state: Any = 0,
    ci_method: str | None = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    inclusive: bool = False,
    stratify: bool = False,
) -> DistributedComparison:
    """Compare binary classifiers whose cases are spread over ``parts``, in two passes.

    Parameters
    ----------
    parts : sequence
        One entry per part: ``(y, [scores of each model], weights or None)``, or a
        callable returning that (read where the part is computed), or whatever
        ``map_reduce`` hands its task.
    names : the models' names, in the order of the score columns
    map_reduce : callable, optional
        ``map_reduce(task, parts, merge, shared)`` returns ``merge`` over
        ``task(i, part, *shared)`` of every part in a balanced tree in part order; default
        in this process (:func:`in_process`). :func:`compare_dask` and
        :func:`measurelab.io.compare_parquet` run it on a cluster.
    measures, ci, n_boot, random_state, ci_method, threshold, pos_label, inclusive, stratify
        As in :func:`~measurelab.inference.classifiers.compare.compare_classifiers`.

    Returns
    -------
    DistributedComparison

    Examples
    --------
    >>> import numpy as np
    >>> parts = [([0, 1, 1, 0], [np.array([.2, .9, .6, .4])], None),
    ...          ([1, 0, 1, 0], [np.array([.7, .1, .3, .5])], None)]
    >>> compare_parts(parts, ["m"], measures=["auc"]).intervals()["method"].tolist()
    ['newcombe-score']
    """
    from measurelab._util.validation import check_flag, check_random_state, model_names
    from measurelab.inference.classifiers.inputs import choose_measures
    from measurelab.measures.compute import compute_measures
    from measurelab.stats.bundle import BinaryStats
    from measurelab.stats.checks import check_threshold_value

    random_state = check_random_state(random_state)
    names = model_names(list(names))
    threshold = check_threshold_value(threshold)
    inclusive = check_flag(inclusive, "inclusive")
    level, n_boot, _jobs, stratify = iv.check_run_options(ci, n_boot, None, stratify,
                                                          ci_method)
    parts = list(parts)
    if not parts:
        raise MeasurelabError("parts is empty: give at least one part of the cases")
    run = map_reduce or in_process
    one = run(pass_one, parts, merge_one, (len(names), pos_label, threshold, inclusive))
    _check_labels(one, pos_label)
    stats = [BinaryStats(table=t, threshold=threshold, inclusive=inclusive)
             for t in one.tables]
    probs = all(0.0 <= float(t.scores[0]) and float(t.scores[-1]) <= 1.0 for t in one.tables)
    chosen = choose_measures(measures, probs)
    first = compute_measures(stats[0], chosen, probabilities_ok=probs)
    used = [first.measure(x) for x in first]
    values = [first] + [compute_measures(st, used, probabilities_ok=probs)
                        for st in stats[1:]]
    notes = [f"computed over {len(parts)} parts in two passes; the calibration test is left "
             "out (it needs every case's prediction)"] if level is not None else []
    cmp = DistributedComparison(
        names=names, one=one, stats=stats, measures=used, values=values, level=level,
        n_boot=n_boot, random_state=random_state, ci_method=ci_method, inclusive=inclusive,
        threshold=threshold, stratify=stratify, pos_label=pos_label, notes=notes)
    if level is not None:
        cmp._second_pass(run, parts)
    return cmp


def _check_labels(one: PassOne, pos_label: Any) -> None:
    from measurelab._util.validation import short_list

    if len(one.labels) > 2:
        raise MeasurelabError(
            f"the labels hold {len(one.labels)}{'+' if len(one.labels) >= 8 else ''} classes "
            f"({short_list(one.labels)}); compare k classes by each model's probability "
            "of every class (an (n, k) matrix, or --proba-cols)")
    if len(one.labels) == 2 and pos_label not in one.labels:
        raise MeasurelabError(f"pos_label={pos_label!r} is not a valid label. It should be "
                              f"one of {one.labels}")
    if one.n == 0:
        raise MeasurelabError("the parts hold no cases to compare")


# ------------------------------------------------------------------------ Dask input
def is_dask(x: Any) -> bool:
    """Whether ``x`` is a Dask collection (told by its type's module: Dask is not
    imported to ask).

    Examples
    --------
    >>> is_dask([0.2, 0.7]), is_dask(np.zeros(2))
    (False, False)
    """
    return type(x).__module__.split(".")[0] == "dask"


def _partitions(x: Any, what: str) -> list[Any]:
    """The delayed partitions of a 1-d Dask array (known chunks) or a Dask Series."""
    import dask.array as da

    if isinstance(x, da.Array):
        if x.ndim != 1:
            raise MeasurelabError(f"{what} must be 1-d, got a Dask array of shape {x.shape}")
        if any(math.isnan(c) for c in x.chunks[0]):
            raise MeasurelabError(f"{what}: a Dask array of unknown chunk sizes; call "
                                  ".compute_chunk_sizes() first")
        return list(x.to_delayed().ravel())
    dd: Any
    try:
        import dask.dataframe as dd
    except ImportError:   # dask without its dataframe extra
        dd = None
    if dd is None or not isinstance(x, dd.Series):
        raise MeasurelabError(f"{what} must be a Dask Series or a 1-d Dask array, got "
                              f"{type(x).__module__.split('.')[0]} {type(x).__name__}")
    return list(x.to_delayed(optimize_graph=False))


def _current_client() -> Any:
    try:
        from distributed import default_client
    except ImportError:
        return None
    try:
        return default_client()
    except ValueError:
        return None


def _dask_map_reduce(task: Callable[..., Any], parts: Sequence[Any],
                     merge: Callable[..., Any], shared: tuple) -> Any:
    """:data:`MapReduce` on the Dask scheduler in use (a ``distributed`` Client's
    cluster, or Dask's threads): a large shared plan is sent to every worker once."""
    import dask

    client = _current_client()
    sent = []
    for s in shared:
        if not isinstance(s, int | float | str | tuple | None):   # a plan of pass two
            s = (client.scatter(s, broadcast=True, hash=False) if client is not None else
                 dask.delayed(s, name=f"measurelab-plan-{uuid.uuid4().hex}", traverse=False))
        sent.append(s)
    tasks = [dask.delayed(task, pure=False)(i, p, *sent) for i, p in enumerate(parts)]
    (out,) = dask.compute(tree_merge(tasks, lambda *x: dask.delayed(merge, pure=False)(*x)))
    return out


def _zip_part(y: Any, scores: list[Any], w: Any) -> tuple[Any, list[Any], Any]:
    return y, scores, w


def _matrix_partitions(x: Any, what: str) -> list[Any]:
    """The delayed row blocks of a 2-d Dask array (one chunk across the columns) or a
    Dask DataFrame: a model's k-class probabilities."""
    import dask.array as da

    if isinstance(x, da.Array):
        if any(math.isnan(c) for c in x.chunks[0]):
            raise MeasurelabError(f"{what}: a Dask array of unknown chunk sizes; call "
                                  ".compute_chunk_sizes() first")
        if len(x.chunks[1]) != 1:
            raise MeasurelabError(f"{what}: the columns are split over {len(x.chunks[1])} "
                                  "chunks; rechunk to one chunk across the classes")
        return list(x.to_delayed()[:, 0])
    return list(x.to_delayed(optimize_graph=False))


def _is_matrix(x: Any) -> bool:
    return getattr(x, "ndim", 1) == 2


def compare_dask(y_true: Any, items: list[tuple[str, Any]], *, sample_weight: Any = None,
                 labels: Any = None, average: Any = "macro", **options: Any) -> Any:
    """:func:`compare_parts` of Dask collections — ``y_true``, every model's scores and
    the weights each a Dask Series or 1-d Dask array, partitioned alike — on the Dask
    scheduler in use (:func:`~measurelab.inference.classifiers.compare.
    compare_classifiers` sends Dask input here).

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array(np.array([0, 1, 1, 0, 1, 0]), chunks=3)
    >>> s = da.from_array(np.array([.2, .9, .6, .4, .7, .1]), chunks=3)
    >>> compare_dask(y, [("m", s)], measures=["auc"], ci=None).values().loc["auc", "m"]
    np.float64(1.0)
    """
    import dask

    if not is_dask(y_true):
        raise MeasurelabError("y_true must be a Dask collection partitioned like the "
                              "models' scores when the scores are Dask collections")
    ys = _partitions(y_true, "y_true")
    multi = any(_is_matrix(s) for _n, s in items)
    cols = []
    for name, s in items:
        if not is_dask(s):
            raise MeasurelabError(f"the scores of model {name!r} must be a Dask collection "
                                  "partitioned like y_true (the other inputs are)")
        if multi and not _is_matrix(s):
            raise MeasurelabError(f"model {name!r} gives one score a case while another "
                                  "gives a probability per class; give every k-class model "
                                  "an (n, k) Dask array or DataFrame")
        cols.append((_matrix_partitions if multi else _partitions)(
            s, f"the scores of model {name!r}"))
    ws = None
    if sample_weight is not None:
        if not is_dask(sample_weight):
            raise MeasurelabError("sample_weight must be a Dask collection partitioned like "
                                  "y_true")
        ws = _partitions(sample_weight, "sample_weight")
    for what, c in [*((f"model {n!r}", c) for (n, _s), c in zip(items, cols, strict=True)),
                    *([("sample_weight", ws)] if ws is not None else [])]:
        if len(c) != len(ys):
            raise MeasurelabError(f"{what} has {len(c)} partitions but y_true has {len(ys)}; "
                                  "partition them alike")
    parts = [dask.delayed(_zip_part, pure=True)(ys[i], [c[i] for c in cols],
                                                None if ws is None else ws[i])
             for i in range(len(ys))]
    if multi:
        from measurelab.inference.classifiers.multi_parts import compare_multi_parts

        for x in ("threshold", "pos_label", "inclusive"):
            options.pop(x, None)   # compare_classifiers' defaults; k classes take none
        return compare_multi_parts(parts, [n for n, _s in items], labels=labels,
                                   average=average, map_reduce=_dask_map_reduce, **options)
    if labels is not None or average != "macro":
        raise MeasurelabError("labels= and average= apply to k classes: give each model's "
                              "probabilities of every class")
    return compare_parts(parts, [n for n, _s in items], map_reduce=_dask_map_reduce,
                         **options)
