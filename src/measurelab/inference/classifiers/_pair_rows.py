"""The paired tests of a binary comparison of classifiers: one row per pair of models and
measure (the statistics behind :meth:`ClassifierComparison.tests`; private, kept apart so
the comparison's module holds its state and the choices, this one the arithmetic)."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import numpy as np

from measurelab.inference import bootstrap as bt
from measurelab.inference import delong as dlm
from measurelab.inference import intervals as iv
from measurelab.inference.calibration import replicate_wald
from measurelab.inference.withholding import warn_withheld_by_evidence, withholding_on
from measurelab.measures.base import Measure


def paired_rows(cmp: Any) -> list[dict[str, Any]]:
    """The rows of a comparison's paired tests: every pair of models × every measure,
    by the pair method the registry chose (DeLong, McNemar with Tango's interval, the
    paired bootstrap, its Wald form, clustered forms, or withheld), with Holm over all
    rows; cached on the comparison."""
    key = ("tests", withholding_on())   # the rows as the evidence policy leaves them
    if key in cmp._cache:
        return cmp._cache[key]
    level = cmp._need_level()
    methods = cmp._methods()
    need, run = cmp._boot()
    pairs = list(combinations(range(len(cmp.names)), 2))
    cells = [(a, b, j) for a, b in pairs for j, k in enumerate(cmp._names_m)
             if cmp._pair_method(k) in ("bootstrap", "bootstrap-se")]
    boot = {}
    if cells:
        col = [need.index(cmp._names_m[j]) for _a, _b, j in cells]
        ia = [c[0] for c in cells]
        ib = [c[1] for c in cells]
        # a − b, or the difference of the distances to a measure's target value
        # (Measure.pair_statistic); inf − inf: an undefined difference
        ms = [cmp._measures[j] for _a, _b, j in cells]
        ra, rb = run.reps[:, ia, col], run.reps[:, ib, col]
        ja, jb = run.jack[:, ia, col], run.jack[:, ib, col]
        dr = np.stack([m.pair_statistic(ra[:, i], rb[:, i]) for i, m in enumerate(ms)],
                      axis=1)
        dj = np.stack([m.pair_statistic(ja[:, i], jb[:, i]) for i, m in enumerate(ms)],
                      axis=1)
        diffs = np.array([m.pair_statistic(cmp._vals[a, j], cmp._vals[b, j])
                          for m, (a, b, j) in zip(ms, cells, strict=True)])
        theta = np.array([m.pair_statistic(run.theta[a, c], run.theta[b, c])
                          for m, a, b, c in zip(ms, ia, ib, col, strict=True)])
        bca = np.array([methods[cmp._names_m[j]] != "bootstrap-percentile"
                        for _a, _b, j in cells])
        bi = bt.BootstrapIntervals(
            dr.T, theta, diffs, dj.T, bca, level,
            bt.range_bounds([cmp._measures[j] for _a, _b, j in cells], difference=True))
        for i, c in enumerate(cells):
            boot[c] = (bi.lo[i], bi.hi[i], bi.p[i], _of_distance(ms[i], bi.method[i]),
                       bi.infinite[i], bi.undefined[i], bi.notes(i))
            if cmp._pair_method(cmp._names_m[c[2]]) == "bootstrap-se":
                lo_r, hi_r = cmp._measures[c[2]].range
                lo, hi, _se, p = replicate_wald(float(diffs[i]), dr[:, i], level,
                                                (lo_r - hi_r, hi_r - lo_r))
                boot[c] = (lo, hi, p, "bootstrap-se", bi.infinite[i], bi.undefined[i], {})
    posterior = _PairPosterior(cmp, level)
    rows: list[dict[str, Any]] = []
    withheld: list[str] = []
    for a, b in pairs:
        for j, k in enumerate(cmp._names_m):
            pm = cmp._pair_method(k)
            diff = float(cmp._measures[j].pair_statistic(cmp._vals[a, j],
                                                          cmp._vals[b, j]))
            row = {"a": cmp.names[a], "b": cmp.names[b], "measure": k, "diff": diff,
                   "lo": math.nan, "hi": math.nan, "p": math.nan, "method": pm,
                   "se": math.nan, "z": math.nan, "interval": pm}
            if pm == "delong":
                _d, lo, hi, se, z, p = delong_pair(cmp, a, b, level)
                row.update(lo=lo, hi=hi, se=se, z=z, p=p)
            elif pm.startswith("clustered"):
                row.update(cmp._clustered_pair(a, b, k, level))
            elif pm == "none":
                from measurelab.inference.calibration import withheld_reason

                row.update(interval=withheld_reason(k))
            elif pm == "mcnemar":
                p, lo, hi = cmp._mcnemar(a, b, level)
                if k == "err":
                    lo, hi = -hi, -lo
                row.update(lo=lo, hi=hi, p=p, interval=_paired_label("mcnemar"))
            elif pm == "dirichlet-posterior":
                row.update(posterior.row(a, b, j))
            elif pm == "influence":
                row.update(influence_pair(cmp, a, b, j, diff, level))
            else:
                lo, hi, p, method, inf_share, nan_share, notes = boot[(a, b, j)]
                row.update(lo=float(lo), hi=float(hi), p=float(p), interval=method)
                iv.warn_nonfinite(f"the difference in {k} of {cmp.names[a]!r} and "
                                  f"{cmp.names[b]!r}",
                                  iv.Interval(diff, float(lo), float(hi), method),
                                  inf_share, nan_share, **notes)
            row["interval"], out = cmp._with_evidence(row["interval"], j, row["lo"],
                                                       row["hi"], paired=True)
            if out:
                row.update(lo=math.nan, hi=math.nan, p=math.nan, se=math.nan, z=math.nan)
                withheld.append(f"the difference in {k} of {cmp.names[a]!r} and "
                                f"{cmp.names[b]!r}")
            rows.append(row)
    warn_withheld_by_evidence(withheld)
    adj = iv.holm([r["p"] for r in rows])
    for r, q in zip(rows, adj, strict=True):
        r["p_holm"] = float(q)
    cmp._cache[key] = rows
    return rows


def delong_pair(cmp: Any, a: int, b: int, level: float) -> Any:
    """DeLong's paired test of models ``a`` and ``b``: from the sums of a comparison over
    parts (:attr:`ClassifierComparison._sums`), from the placements of every model when
    the comparison holds them, else from the two models' tables (no k × n arrays kept: a
    comparison of 10**7 cases would hold them to the end)."""
    if cmp._sums is not None:
        return cmp._sums.delong_pair(a, b, level)
    if "delong" in cmp._cache:
        _auc, p10, p01 = cmp._delong()
        return dlm.delong_paired_placements(p10, p01, a, b, level)
    d = cmp._design
    return dlm.delong_paired_rows(d.tables, d.rows, d.n0, a, b, level)


def influence_variances(cmp: Any, j: int) -> tuple[list[float], dict[tuple[int, int], float]]:
    """The variance of every model's value of measure ``j`` from its influence function
    and, for two models with an influence pair row, that of their difference: one pass of
    each model's row influences serves both (cached; a model's interval and the pair's
    test would otherwise compute them twice). More models: the pairs are formed by
    :func:`influence_pair` on demand (holding every model's case influences would cost
    an n-sized array a model)."""
    from measurelab.inference import influence as inf

    key = ("influence", j)
    if key in cmp._cache:
        return cmp._cache[key]
    d = cmp._design
    m = cmp._measures[j]
    design = cmp._case_design()
    k = len(cmp.names)
    paired = cmp._sums is None and k == 2 and cmp.level is not None and \
        cmp._pair_method(cmp._names_m[j]) == "influence"   # parts: pass two's sums
    single: list[float] = []
    pairs: dict[tuple[int, int], float] = {}
    case = None
    # a comparison over parts has tables and no cases; its weighted sums are pass two's
    weight = None if cmp._sums is not None else d.weight
    for a in range(k):
        ifp, ifn = inf.row_influence(m, d.tables[a], threshold=cmp.threshold,
                                     inclusive=cmp._inclusive)
        sign = inf.distance_sign(m, float(cmp._vals[a, j]))   # a target: |v − t|'s
        if sign != 1.0:
            ifp, ifn = ifp * sign, ifn * sign
        if weight is None:
            single.append(inf.table_variance(d.tables[a], ifp, ifn, design=design))
        if weight is not None or paired:
            if weight is not None:
                own = inf.case_influence(ifp, ifn, d.rows[a], d.y, n0=d.n0)
                single.append(inf.case_variance(own, d.y, weight, design=design))
                case = own if case is None else np.subtract(case, own, out=case)
                del own
            else:
                case = inf.case_influence(ifp, ifn, d.rows[a], d.y, minus=case, n0=d.n0)
            if not paired:
                case = None
        del ifp, ifn
    if paired:
        assert case is not None
        pairs[(0, 1)] = inf.case_variance(case, d.y, weight, design=design)
    cmp._cache[key] = (single, pairs)
    return cmp._cache[key]


def influence_pair(cmp: Any, a: int, b: int, j: int, diff: float, level: float
                   ) -> dict[str, float]:
    """lo, hi, se, z and p of the paired difference of measure ``j`` (models ``a`` − ``b``)
    from the difference of the two models' influence at every case (or from its sums over
    the parts of the cases): the z-test and its interval on one standard error."""
    from measurelab.inference import influence as inf
    from measurelab.inference._base import z_test

    if cmp._multiclass:
        var = cmp._influence_variance(j, a, b)
    elif cmp._sums is not None:
        var = cmp._sums.pair_variance(a, b, cmp._measures[j].name)
    else:
        var = influence_variances(cmp, j)[1].get((a, b))
    if var is None:
        d = cmp._design
        m = cmp._measures[j]
        case = None   # IF_a − IF_b per case: one n-sized array, each model's rows released
        for x in (a, b):
            ifp, ifn = inf.row_influence(m, d.tables[x], threshold=cmp.threshold,
                                         inclusive=cmp._inclusive)
            sign = inf.distance_sign(m, float(cmp._vals[x, j]))   # a target: |v − t|'s
            if sign != 1.0:
                ifp, ifn = ifp * sign, ifn * sign
            case = inf.case_influence(ifp, ifn, d.rows[x], d.y, minus=case, n0=d.n0)
            del ifp, ifn
        assert case is not None
        var = inf.case_variance(case, d.y, d.weight, design=cmp._case_design())
    r = z_test(diff, var, level)
    return {"lo": r.lo, "hi": r.hi, "se": r.se, "z": r.statistic, "p": r.pvalue}


def preference_rows(cmp: Any) -> list[dict[str, Any]]:
    """The rows of :meth:`ClassifierComparison.preferences`: per measure, the model it
    prefers (by distance for a measure with a target), the runner-up, the Holm p of the
    two and every model the preferred one is significantly better than."""
    tests = cmp._test_rows() if cmp.level is not None and len(cmp.names) > 1 else []
    alpha = 1.0 - cmp.level if cmp.level is not None else math.nan
    rows = []
    for j, m in enumerate(cmp._measures):
        v = m.goodness(cmp._vals[:, j])
        order = np.argsort(-np.nan_to_num(v, nan=-np.inf), kind="stable")
        best = int(order[0])
        tied = len(order) > 1 and v[order[0]] == v[order[1]]
        best_name = cmp.names[best]
        p_of = {}
        for t in tests:
            if t["measure"] == cmp._names_m[j] and best_name in (t["a"], t["b"]):
                other = t["b"] if t["a"] == best_name else t["a"]
                p_of[other] = t["p_holm"]
        runner = cmp.names[int(order[1])] if len(order) > 1 else ""
        p = p_of.get(runner, math.nan)
        beats = [o for o in cmp.names if o in p_of and p_of[o] < alpha and not tied]
        rows.append({
            "measure": cmp._names_m[j],
            "direction": m.direction,
            "prefers": "" if tied or math.isnan(v[best]) else best_name,
            "value": float(cmp._vals[best, j]),
            "runner_up": runner,
            "p_holm": p,
            "significant": bool(not tied and p < alpha),
            "beats": ", ".join(beats),
            "p_holm_vs_runner_up": p,
            "better_than_runner_up": bool(not tied and p < alpha),
            "significantly_better_than": ", ".join(beats),
        })
    return rows


class _PairPosterior:
    """The posterior of the 8 joint confusion cells of each pair of models (drawn once a
    pair, seeded by the comparison's ``random_state`` and the pair), and the rows of the
    measures it serves."""

    def __init__(self, cmp: Any, level: float) -> None:
        self.cmp, self.level = cmp, level
        self._draws: dict[tuple[int, int], Any] = {}

    def _of(self, a: int, b: int) -> Any:
        from measurelab.inference import confusion_posterior as cp
        from measurelab.inference.methods.dirichlet import pair_key, rng_for

        if (a, b) not in self._draws:
            c = self.cmp
            joint = (c._sums.joint(a, b) if c._sums is not None else
                     cp.joint_counts(c._y, c._predicted(a), c._predicted(b)))
            self._draws[(a, b)] = cp.paired_draws(joint, c._case_design(),
                                                  rng_for(c.random_state, *pair_key(a, b)))
        return self._draws[(a, b)]

    def row(self, a: int, b: int, j: int) -> dict[str, Any]:
        """lo, hi, p and the interval text of measure ``j``'s difference a − b."""
        from measurelab.inference.methods.dirichlet import difference_row

        c = self.cmp
        m = c._measures[j]
        da, db = self._of(a, b)
        r = difference_row(m, da, db, self.level, (c.names[a], c.names[b]))
        return {**r, "interval": _of_distance(m, r["interval"])} if "p" in r else r


def _paired_label(name: str) -> str:
    """The interval text of a paired method (McNemar's test: Tango's interval)."""
    from measurelab.inference.methods import get

    form = get(name).paired
    return name if form is None else form.label


def _of_distance(m: Measure, method: Any) -> str:
    """The interval method of a pair row, saying when its difference is one of distances
    to the measure's target value.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> _of_distance(registry.get("spiegelhalter_z"), "bootstrap-bca")
    'bootstrap-bca (diff of |v − 0|)'
    >>> _of_distance(registry.get("auc"), "bootstrap-bca")
    'bootstrap-bca'
    """
    if m.target is None:
        return str(method)
    return f"{method} (diff of |v − {m.target:g}|)"
