"""Measures on statistics: :func:`compute_measures` evaluates measures on a statistics
bundle already built (the step shared by every front end — :func:`measurelab.evaluate`,
the streaming :class:`~measurelab.Evaluator`, the comparison engine) and returns an
:class:`EvaluationResult`.

Examples
--------
>>> from measurelab.measures.compute import compute_measures
>>> from measurelab.stats.bundle import BinaryStats
>>> from measurelab.stats.confusion import BinaryCounts
>>> dict(compute_measures(BinaryStats(given_counts=BinaryCounts(3, 1, 1, 5)), ["acc"]))
{'acc': 0.8}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from measurelab._util.validation import show
from measurelab.exceptions import MeasurelabError, MissingMeasureError
from measurelab.jsonable import to_jsonable
from measurelab.measures import _fused
from measurelab.measures.base import Measure, check_average, registry
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats, MultiStats
from measurelab.stats.scoretable import ScoreTable

MeasureSpec = str | Measure


@versioned_pickle
class EvaluationResult(Mapping[str, Any]):
    """Measure values by name; behaves like a read-only dict.

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc", "auc"])
    >>> dict(r)
    {'acc': 0.75, 'auc': 1.0}
    >>> r.to_frame().loc["auc", "direction"]
    'higher'
    """

    def __init__(self, values: dict[str, Any], measures: dict[str, Measure],
                 classes: tuple[Any, ...] | None = None,
                 intervals: dict[str, Any] | None = None,
                 shares: dict[str, tuple[float, float]] | None = None,
                 task: str | None = None) -> None:
        self._values = values
        #: what kind of input the values are of when it is not binary or k-class:
        #: ``'multi-label'`` (stated in the repr), else None
        self.task = task
        self._measures = measures
        #: class labels in column order (multi-class input), naming per-class arrays
        self.classes = classes
        self._intervals = intervals
        #: per measure, the shares of infinite and undefined bootstrap replicates
        self._shares = shares or {}
        #: readings added by a layer above (the test of accuracy against the
        #: no-information rate, :func:`measurelab.inference.acc_vs_nir`), by measure
        self._more_notes: dict[str, str] = {}

    def __getitem__(self, name: str) -> Any:
        """The value of measure ``name`` (a name or alias the registry knows).

        A measure the result does not hold raises :class:`~measurelab.exceptions.
        MissingMeasureError`, a :class:`KeyError` (so ``get`` and ``in`` work as for a dict)
        that is also a :class:`~measurelab.exceptions.MeasurelabError`.

        Examples
        --------
        >>> import measurelab as ml
        >>> r = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc"])
        >>> r["acc"], r.get("auc"), "auc" in r, "no such measure" in r
        (0.75, None, False, False)
        >>> r["auc"]
        Traceback (most recent call last):
        ...
        measurelab.exceptions.MissingMeasureError: 'auc' is not in this result (it holds 'acc')
        """
        try:
            if name in self._values:
                return self._values[name]
        except TypeError:  # unhashable: no measure name
            pass
        try:
            m = registry.get(name)  # an alias or spec of a measure held
        except MeasurelabError as e:
            raise MissingMeasureError(str(e)) from None
        if m.name in self._values:
            return self._values[m.name]
        held = ", ".join(map(repr, list(self._values)[:8]))
        more = ", ..." if len(self._values) > 8 else ""
        raise MissingMeasureError(
            f"{show(name)} is not in this result (it holds {held or 'no measure'}{more})"
        )

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={_fmt(v)}" if np.ndim(v) == 0 else f"{k}={np.round(v, 6)}"
                         for k, v in self._values.items())
        if self.task is not None:
            body = f"{self.task}, {len(self.classes or ())} labels: {body}"
        return f"EvaluationResult({body})"

    def __str__(self) -> str:
        """What ``print()`` shows: every value (with its interval after ``ci=``) and its
        note, one measure a line, then where the tables are.

        Examples
        --------
        >>> import measurelab as ml
        >>> print(ml.evaluate([0, 1, 1, 0, 1, 0], [0.2, 0.7, 0.4, 0.1, 0.8, 0.6],
        ...                   measures=["acc", "auc", "dp"], ci=0.95))
        Evaluation of 3 measures, with intervals:
          acc  0.6667  interval 0.3 to 0.9032 (wilson)
          auc  0.8889  interval 0.4681 to 0.9854 (newcombe-score)
          dp   0.7643  interval −0.9908 to 2.664 (dirichlet-posterior); poor
        Tables: .to_frame() .intervals() .notes(); figure: .plot(); page: .to_html(path)
        """
        from measurelab._util.words import counted, num

        ivs = self._intervals or {}
        notes = self.notes()
        width = max((len(k) for k in self._values), default=0)
        lines = [f"Evaluation of {counted(len(self._values), 'measure')}"
                 + (", with intervals:" if ivs else ":")]
        for k, v in self._values.items():
            if np.ndim(v) == 1:
                val = ", ".join(f"{c}: {num(float(x))}"
                                for c, x in zip(self._class_names(v), v, strict=True))
            else:
                val = num(float(v))
            iv = ivs.get(k)
            extra = ("" if iv is None else
                     f"  interval {num(iv.lo)} to {num(iv.hi)} ({iv.method})")
            note = f"; {notes[k]}" if k in notes else ""
            lines.append(f"  {k:<{width}}  {val}{extra}{note}".rstrip())
        lines.append("Tables: .to_frame()" + (" .intervals()" if ivs else "") + " .notes(); "
                     "figure: .plot(); page: .to_html(path)")
        return "\n".join(lines)

    def measure(self, name: str) -> Measure:
        return self._measures[name]

    def _class_names(self, values: Any) -> list[Any]:
        if self.classes is not None and len(self.classes) == len(values):
            return list(self.classes)
        return list(range(len(values)))

    def notes(self) -> dict[str, str]:
        """Verbal readings of some values: the DP band of Sokolova 2006, the two-sided
        p-value of Spiegelhalter's z, (with ``ci``) whether the Brier miscalibration's
        interval reaches 0 (for the test of calibration see
        :func:`measurelab.calibration_test`) and, for k classes, when the accuracy does
        not beat the no-information rate (:func:`measurelab.inference.acc_vs_nir`).

        Examples
        --------
        >>> import measurelab as ml
        >>> r = ml.evaluate([0, 1, 0, 1, 0], [0.1, 0.9, 0.21, 0.9, 0.5],
        ...                 measures=["spiegelhalter_z"])
        >>> r.notes()
        {'spiegelhalter_z': 'two-sided p = 0.449'}
        """
        from measurelab.measures.calibration.spiegelhalter import spiegelhalter_p_value
        from measurelab.measures.likelihood import dp_band

        out: dict[str, str] = {}
        if "dp" in self._values and np.ndim(self._values["dp"]) == 0:
            out["dp"] = dp_band(float(self._values["dp"]))
        z = self._values.get("spiegelhalter_z")
        if z is not None and np.ndim(z) == 0 and not np.isnan(z):
            out["spiegelhalter_z"] = f"two-sided p = {spiegelhalter_p_value(float(z)):.3g}"
        iv = (self._intervals or {}).get("brier_mcb")
        if iv is not None and np.isfinite(iv.lo):
            out["brier_mcb"] = ("consistent with calibrated (its interval reaches 0)"
                                if iv.lo <= 0 else
                                "miscalibrated (its interval excludes 0)")
        out.update(getattr(self, "_more_notes", {}))
        return out

    def intervals(self) -> Any:
        """A DataFrame of ``measure, value, lo, hi, method, se, infinite, undefined``
        (``evaluate(..., ci=)``): ``se`` is DeLong's standard error (AUC); ``infinite`` and
        ``undefined`` the shares of bootstrap replicates that are ±inf or undefined (NaN
        for analytic intervals).

        Examples
        --------
        >>> import measurelab as ml
        >>> r = ml.evaluate([0, 1, 1, 0, 1, 0], [0.2, 0.7, 0.4, 0.1, 0.8, 0.6],
        ...                 measures=["acc", "auc"], ci=0.95)
        >>> r.intervals()[["lo", "hi"]].round(3).values.tolist()   # Wilson, Newcombe
        [[0.3, 0.903], [0.468, 0.985]]
        """
        import pandas as pd

        if self._intervals is None:
            raise MeasurelabError("no intervals: evaluate with ci=0.95 (or another level)")
        shares = getattr(self, "_shares", {})
        rows = [{"measure": k, **iv._asdict(),
                 **dict(zip(("infinite", "undefined"),
                            shares.get(k, (float("nan"), float("nan"))), strict=True))}
                for k, iv in self._intervals.items()]
        return pd.DataFrame(rows, columns=["measure", "value", "lo", "hi", "method", "se",
                                           "infinite", "undefined"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready ``{name: number}``; two-level values give their display number,
        undefined values (NaN) become ``None`` (JSON ``null``), infinities the strings 'inf' and
        '-inf'; adds ``dp_band``. Per-class values (``average=None``) become
        ``{class: number}`` in label order."""
        out: dict[str, Any] = {}
        for k, v in self._values.items():
            if np.ndim(v) == 1:
                out[k] = {str(c): to_jsonable(float(x)) for c, x in zip(self._class_names(v), v,
                                                                       strict=True)}
                continue
            out[k] = to_jsonable(float(v))
        if "dp" in self.notes():
            out["dp_band"] = self.notes()["dp"]
        return out

    def plot(self, measures: Iterable[str] | None = None) -> Any:
        """A matplotlib Figure: a row per measure on its own x-axis (measures live on
        different scales), the value as a point and, after ``evaluate(..., ci=)``, its
        interval; per-class values give a row per class.

        Examples
        --------
        >>> import measurelab as ml
        >>> r = ml.evaluate([0, 1, 1, 0, 1, 0], [0.2, 0.7, 0.4, 0.1, 0.8, 0.6],
        ...                 measures=["acc", "auc"], ci=0.95)
        >>> [ax.get_yticklabels()[0].get_text() for ax in r.plot().axes]
        ['acc', 'auc']
        """
        from measurelab.measures import _result_page

        return _result_page.plot(self, None if measures is None else row_names(measures))

    def to_html(self, path: Any = None, *, title: str = "Evaluation") -> Any:
        """One self-contained HTML page (the shared measurelab look): the figure of
        :meth:`plot`, then the values (and intervals) as a sortable table. Written to
        ``path`` (returned as a Path), or returned as text when ``path`` is None.

        Examples
        --------
        >>> import measurelab as ml
        >>> page = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["auc"]).to_html()
        >>> page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page
        True
        """
        from measurelab.measures import _result_page

        return _result_page.to_html(self, path, title)

    def _repr_html_(self) -> str:
        """A notebook shows the values (and intervals) as a table."""
        from measurelab.measures import _result_page

        return _result_page.repr_html(self)

    def to_frame(self) -> Any:
        """A DataFrame: value, kind, range, direction and source of each measure."""
        import pandas as pd

        notes = self.notes()
        rows: list[dict[str, Any]] = []
        for k, v in self._values.items():
            m = self._measures[k]
            if np.ndim(v) == 1:  # per-class values: one row per class, 'name[class]'
                per = [(f"{k}[{c}]", float(x)) for c, x in zip(self._class_names(v), v,
                                                             strict=True)]
            else:
                per = [(k, float(v))]
            rows.extend(
                {
                    "measure": key,
                    "value": value,
                    "kind": m.kind,
                    "range": f"[{m.range[0]:g}, {m.range[1]:g}]",
                    "direction": m.direction,
                    "note": notes.get(k, ""),
                    "source": m.source,
                }
                for key, value in per
            )
        return pd.DataFrame(rows).set_index("measure")


def row_names(measures: Any) -> list[str]:
    """``measures`` of a figure: one name or a list of names, as text.

    Examples
    --------
    >>> row_names("auc"), row_names(["acc", "auc"])
    (['auc'], ['acc', 'auc'])
    """
    if isinstance(measures, str):
        return [measures]
    try:
        return [str(m) for m in measures]
    except TypeError:
        from measurelab._util.validation import short_repr
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError("measures must be a name or a list of names, got "
                              f"{short_repr(measures)}") from None



def _fmt(v: Any) -> str:
    return f"{float(v):.6g}"


def resolve_measures(measures: Iterable[MeasureSpec] | MeasureSpec | None) -> list[Measure] | None:
    if measures is None or (isinstance(measures, str) and measures == "all"):
        return None  # every measure that applies
    if isinstance(measures, str | Measure):
        measures = [measures]
    try:
        items = list(measures)
    except TypeError:
        raise MeasurelabError(
            f"measures must be a name, a Measure or a list of them, got {show(measures)[:60]}"
        ) from None
    return [registry.resolve(m)[0] for m in items]


def compute_measures(
    stats: BinaryStats | MultiStats,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
    *,
    average: str | None = "macro",
    probabilities_ok: bool | None = None,
) -> EvaluationResult:
    """Evaluate measures on already-built statistics (the step shared by every front end).

    ``measures=None`` means the default set: every registered measure that applies and
    whose cost fits the budget (:attr:`Measure.in_default_set
    <measurelab.measures.base.Measure.in_default_set>`; a 'heavy' measure is computed
    only when named): those whose statistic is present, binary-only measures skipped for
    multi-class input, probability measures skipped when the scores are not all in
    [0, 1]. Explicitly requested measures that do not apply raise
    :class:`MeasurelabError`.
    """
    chosen = resolve_measures(measures)
    explicit = chosen is not None
    average = check_average(average)
    if probabilities_ok is None:
        probabilities_ok = scores_are_probabilities(stats)
    if chosen is None:
        chosen = [
            m
            for m in registry
            if m.in_default_set and m.applies_to(stats)
            and (probabilities_ok or not m.needs_probabilities)
        ]
    values: dict[str, Any] = {}
    used: dict[str, Measure] = {}
    multi = isinstance(stats, MultiStats)
    check_total(stats)
    if not multi:
        _fused.prime(stats, chosen)  # one compiled pass for a large table (else nothing)
    for m in chosen:
        if explicit:
            if isinstance(stats, MultiStats) and not m.supports_multiclass:
                raise MeasurelabError(
                    f"{m.name} is defined for binary tasks only, but the input has "
                    f"{stats.counts.k} classes"
                )
            if not m.applies_to(stats):
                raise MeasurelabError(
                    f"{m.name} needs scores, but only confusion counts were given"
                )
            if m.needs_probabilities and not probabilities_ok:
                lo, hi = score_range(stats)
                bad = lo if lo < 0 else hi
                raise MeasurelabError(
                    f"{m.name} is a probability measure and needs scores in [0, 1], "
                    f"got {show(bad)}"
                )
        v = m.compute(stats, average=average) if multi else m.compute(stats)
        values[m.name] = plain_value(v)
        used[m.name] = m
    if isinstance(stats, MultiStats):
        _warn_row_sums(stats, used.values())
        return EvaluationResult(values, used, classes=tuple(stats.counts.labels))
    return EvaluationResult(values, used)


def prime_block(stats: Any, measures: Iterable[Measure]) -> None:
    """Prepare a :class:`~measurelab.stats.block.BlockStats` for the block formulas of
    ``measures`` (:meth:`Measure.compute_block <measurelab.measures.base.Measure.compute_block>`):
    one compiled walk over every table of the block computes the rank and probability sums
    they read (their lift and ECE parameters, BEP, APR), kept in the block's memo. Without
    numba nothing is done and the block formulas take their numpy route; the values are the
    same either way up to rounding (docs/DECISIONS.md).

    Examples
    --------
    >>> import numpy as np
    >>> from measurelab.stats.block import BlockStats, TableBlock
    >>> blk = TableBlock(np.array([0.2, 0.7]), np.array([[0.0, 1], [1, 1]]),
    ...                  np.array([[1.0, 0], [0, 1]]), integer=True)
    >>> bs = BlockStats(blk)
    >>> auc = registry.get("auc")
    >>> prime_block(bs, [auc])
    >>> auc.compute_block(bs).tolist()
    [1.0, 0.25]
    """
    _fused.prime_block(stats, measures)


def _warn_row_sums(stats: MultiStats, used: Iterable[Measure]) -> None:
    """Rows that do not sum to 1 are used as given, with a warning naming the worst row."""
    rows = stats.rows
    if rows is None or not rows.n_off or not any(m.needs_probabilities for m in used):
        return
    import warnings

    from measurelab.stats.probrows import SUM_TOLERANCE

    warnings.warn(
        f"{rows.n_off} of {rows.n_rows} probability rows do not sum to 1 within the "
        f"tolerance {SUM_TOLERANCE:g} (used as given, not renormalised); the worst is data "
        f"row {rows.worst_row + 1}, which sums to {rows.worst_sum!r}",
        UserWarning,
        stacklevel=3,
    )


def check_total(stats: BinaryStats | MultiStats) -> None:
    """Raise when there is nothing to evaluate, saying why: every sample_weight is 0 (data
    were given), or every count is 0 (confusion counts were given).

    Examples
    --------
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> check_total(BinaryStats(given_counts=BinaryCounts(0, 0, 0, 0)))
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: tp, fp, fn and tn are all 0, so the total weight is 0; expected at least one counted example
    """  # noqa: E501
    if isinstance(stats, MultiStats):  # always built from labels (and weights)
        total = stats.counts.matrix.sum()
        counts_only = False
    else:
        c = stats.counts
        total = c.tp + c.fp + c.fn + c.tn
        counts_only = stats.table is None
    if total > 0:
        return
    if not counts_only:
        raise MeasurelabError(
            "sample_weight is 0 for every example, so the total weight is 0; expected at "
            "least one example with a positive weight")
    raise MeasurelabError("tp, fp, fn and tn are all 0, so the total weight is 0; expected "
                          "at least one counted example")


def plain_value(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    return v


def score_range(stats: BinaryStats | MultiStats) -> tuple[float, float]:
    t = stats.table
    if t is None:
        return (0.0, 1.0)
    if isinstance(t, ScoreTable):
        return (float(t.scores[0]), float(t.scores[-1])) if t.size else (0.0, 1.0)
    los = [float(s[0]) for s in t.scores if s.size]
    his = [float(s[-1]) for s in t.scores if s.size]
    return (min(los, default=0.0), max(his, default=1.0))


def scores_are_probabilities(stats: BinaryStats | MultiStats) -> bool:
    lo, hi = score_range(stats)
    return lo >= 0.0 and hi <= 1.0


def compute_multi_block(
    measure: MeasureSpec, block: Any, average: str | None = "macro", **params: Any
) -> np.ndarray:
    """A multi-class measure on every replicate of a
    :class:`~measurelab.stats.multiblock.MultiBlock`: shape (B,), or (B, k) for per-class
    values (``average=None`` with a per-class measure).

    The measure's block formula when it has one (no warnings: NaN marks an undefined
    replicate); otherwise one scalar evaluation per replicate,
    ``measure.compute(block.stats(b), average=average)``, whose values the block formulas
    equal.

    Examples
    --------
    >>> from measurelab.stats.multiblock import MultiBlock
    >>> P = np.array([[.7, .2, .1], [.3, .5, .2], [.2, .2, .6], [.5, .4, .1]])
    >>> blk = MultiBlock.from_arrays([0, 1, 2, 1], P, np.array([[1., 1, 1, 1], [2, 0, 1, 1]]))
    >>> compute_multi_block("acc", blk).tolist()
    [0.75, 0.75]
    >>> compute_multi_block("sens", blk, average=None).tolist()
    [[1.0, 0.5, 1.0], [1.0, 0.0, 1.0]]
    """
    from measurelab.measures._multiblock import block_value

    m = registry.resolve(measure)[0]
    if params:
        m = m.with_params(**params)
    if not m.supports_multiclass:
        raise MeasurelabError(f"{m.name} is defined for binary tasks only")
    avg = check_average(average)
    out = block_value(m, block, avg, dict(m.params))
    if out is not None:
        return np.asarray(out, dtype=np.float64)
    values = [m.compute(block.stats(b), average=avg) for b in range(block.n_blocks)]
    return np.asarray(values, dtype=np.float64)
