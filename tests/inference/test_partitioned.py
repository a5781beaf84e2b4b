"""A comparison over parts of the cases (inference/classifiers/partitioned.py and
distributed.py) against the one-machine comparison: pass two's sums merged over parts
equal the whole's per-case variances, and the comparison's JSON equals
compare_classifiers' (values exactly, intervals to 1e-9). In this process: the Dask
cluster's runs are tests/io/test_distributed_compare.py."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import numpy as np
import pytest

from measurelab.exceptions import MeasurelabError
from measurelab.inference import compare_classifiers
from measurelab.inference import delong as dlm
from measurelab.inference import influence as inf
from measurelab.inference.classifiers import distributed as dist
from measurelab.inference.classifiers.distributed import compare_parts, in_process
from measurelab.inference.classifiers.partitioned import (
    SumsPlan,
    merge_one,
    merge_sums,
    moments_variance,
    pass_one,
    pass_two,
    tree_merge,
)
from measurelab.measures.base import registry

pytestmark = pytest.mark.filterwarnings("ignore")

CUTS = [0, 1700, 6100, 6100, 11000, 14000]   # five parts, one of them empty


def _data(n: int = 14000, seed: int = 1) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """Labels, three models' probabilities (rounded: many ties) and weights; enough cases
    that the influence method is the default of ap, brier and mxe."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    models = [np.round(1 / (1 + np.exp(-rng.normal(k * (2 * y - 1), 1.2))), d)
              for k, d in ((1.2, 3), (0.9, 3), (0.7, 2))]
    return y, models, rng.uniform(0.2, 3.0, n)


def _parts(y: np.ndarray, models: list[np.ndarray], w: np.ndarray | None) -> list[Any]:
    return [(y[i:j], [m[i:j] for m in models], None if w is None else w[i:j])
            for i, j in itertools.pairwise(CUTS)]


def assert_same_json(local: str, parts: str, *, values_tol: float = 0.0,
                     tol: float = 1e-9) -> None:
    """Every key and text equal; the values (``value``, ``diff``) to ``values_tol``, every
    other number (interval ends, se, z, p) to ``tol``."""
    bad: list[Any] = []

    def walk(a: Any, b: Any, path: list[Any]) -> None:
        if isinstance(a, dict):
            assert set(a) == set(b), (path, set(a) ^ set(b))
            for k in a:
                walk(a[k], b[k], [*path, k])
        elif isinstance(a, list):
            assert len(a) == len(b), path
            for i, (u, v) in enumerate(zip(a, b, strict=True)):
                walk(u, v, [*path, i])
        elif isinstance(a, float) and isinstance(b, float):
            limit = values_tol if path[-1] in ("value", "diff") else tol
            if not (abs(a - b) <= limit or (math.isnan(a) and math.isnan(b))):
                bad.append((path, a, b))
        elif a != b:
            bad.append((path, a, b))

    walk(json.loads(local), json.loads(parts), [])
    assert not bad, bad[:5]


# ------------------------------------------------------------------- pass two's sums
@pytest.mark.parametrize("design", ["random", "fixed"])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_sums_of_parts_give_the_case_variance_of_the_whole(design: str,
                                                               weighted: bool) -> None:
    """The influence sums of the parts, merged, give case_variance of all the cases (one
    model and a paired difference), and DeLong's paired test from the summed placement
    differences equals the one from the placements."""
    y, (a, b, _c), w = _data()
    w = w if weighted else None
    parts = _parts(y, [a, b], w)
    one = tree_merge([pass_one(i, p, 2, True, 0.5, False) for i, p in enumerate(parts)],
                     merge_one)
    ta, tb = one.tables
    fixed = design == "fixed"
    ap = registry.get("ap")
    plan = SumsPlan(True, 2, [ta.scores, tb.scores], fixed=fixed)
    plan.influence = {(0, "ap"): inf.row_influence(ap, ta), (1, "ap"): inf.row_influence(ap, tb)}
    centres = [dist._centres(t, *plan.influence[(x, "ap")], fixed) for x, t in ((0, ta), (1, tb))]
    plan.single = [(0, "ap", centres[0])]
    plan.pairs = [(0, 1, "ap", centres[0] - centres[1])]
    plan.placements = {0: dlm.delong_placements(ta), 1: dlm.delong_placements(tb)}
    c = dist._placement_centre(ta, plan.placements[0]) - \
        dist._placement_centre(tb, plan.placements[1])
    plan.delong = [(0, 1, c)]
    sums = tree_merge([pass_two(i, p, plan) for i, p in enumerate(parts)], merge_sums)

    rows = [np.searchsorted(t.scores, s) for t, s in ((ta, a), (tb, b))]
    case = [inf.case_influence(*plan.influence[(x, "ap")], rows[x], y) for x in (0, 1)]
    whole_single = inf.case_variance(case[0], y, w, design=design)
    whole_pair = inf.case_variance(case[0] - case[1], y, w, design=design)
    assert moments_variance(sums[("single", 0, "ap")]) == pytest.approx(whole_single,
                                                                        rel=1e-12)
    assert moments_variance(sums[("pair", 0, 1, "ap")]) == pytest.approx(whole_pair,
                                                                         rel=1e-12)
    if not weighted:   # whole counts: the one-model variance is also the table's
        assert whole_single == pytest.approx(
            inf.table_variance(ta, *plan.influence[(0, "ap")], design=design), rel=1e-12)
    from measurelab.inference.classifiers.partitioned import CaseSums

    cs = CaseSums(2, one.joint, sums, {("delong", 0, 1): c})
    _auc, p10, p01 = dlm.delong_components([ta, tb], rows, y)
    np.testing.assert_allclose(cs.delong_pair(0, 1, 0.95),
                               dlm.delong_paired_placements(p10, p01, 0, 1, 0.95),
                               rtol=1e-11, atol=1e-14)


def test_the_joint_cells_are_the_whole_cases_cells() -> None:
    from measurelab.inference.confusion_posterior import joint_counts

    y, (a, b, c), _w = _data(3000)
    one = tree_merge([pass_one(i, p, 3, 1, 0.4, True)
                      for i, p in enumerate(_parts(y, [a, b, c], None))], merge_one)
    for p, (i, j) in enumerate(((0, 1), (0, 2), (1, 2))):
        m = [a, b, c]
        np.testing.assert_array_equal(one.joint[p], joint_counts(y, m[i] >= 0.4, m[j] >= 0.4))
    assert (one.n, one.n1, one.weighted) == (y.size, int(y.sum()), False)


# ------------------------------------------------------------ the whole comparison
@pytest.mark.parametrize("stratify", [False, True])
def test_parts_give_the_one_machine_comparison(stratify: bool) -> None:
    """Default measures and methods at 14,000 cases (DeLong, influence, the posterior of
    the cells, Wilson, McNemar): every value exactly, every interval to 1e-9."""
    y, models, _w = _data()
    names = ["a", "b", "c"]
    whole = compare_classifiers(y, dict(zip(names, models, strict=True)), stratify=stratify)
    r = compare_parts(_parts(y, models, None), names, stratify=stratify)
    assert set(r.intervals()["method"].str.split().str[0]) >= {"delong-logit", "influence",
                                                               "dirichlet-posterior", "wilson"}
    assert set(r.tests()["method"]) == {"delong", "influence", "dirichlet-posterior",
                                        "mcnemar"}
    assert r.values().equals(whole.values())
    assert_same_json(whole.to_json(), r.to_json())
    assert r.preferences().drop(columns=["p_holm", "p_holm_vs_runner_up"]).equals(
        whole.preferences().drop(columns=["p_holm", "p_holm_vs_runner_up"]))


def test_weighted_parts_give_the_one_machine_influence_intervals() -> None:
    """Weighted cases, the influence method everywhere: the one-model intervals need the
    summed weighted influence too. The weight sums of the merged tables add in another
    order than one pass, so values agree to rounding."""
    y, models, w = _data()
    whole = compare_classifiers(y, {"a": models[0], "b": models[1]}, sample_weight=w,
                                ci_method="influence")
    r = compare_parts(_parts(y, models[:2], w), ["a", "b"], ci_method="influence")
    assert set(r.intervals()["method"].str.split().str[0]) == {"influence"}
    assert_same_json(whole.to_json(), r.to_json(), values_tol=1e-12)


def test_poisson_bootstrap_is_the_same_whatever_runs_the_parts() -> None:
    """A forced resampling method runs the Poisson bootstrap in pass two: its replicates
    depend on the parts (each case's count is drawn from the stream of its part and the
    replicate), not on the order the parts are computed in; and it agrees with the
    one-machine bootstrap to Monte Carlo error."""
    y, models, _w = _data(6000)
    parts = [(y[i:j], [m[i:j] for m in models[:2]], None)
             for i, j in itertools.pairwise([0, 1500, 3900, 3900, 6000])]
    kw = dict(measures=["auc", "brier", "f1"], ci_method="bootstrap-percentile",
              n_boot=200, random_state=7)

    def backwards(task: Any, ps: Any, merge: Any, shared: tuple) -> Any:
        done = {i: task(i, p, *shared) for i, p in reversed(list(enumerate(ps)))}
        return tree_merge([done[i] for i in range(len(ps))], merge)

    r = compare_parts(parts, ["a", "b"], **kw)
    again = compare_parts(parts, ["a", "b"], map_reduce=backwards, **kw)
    assert r.to_json() == again.to_json()
    assert any("Poisson bootstrap" in n for n in r.notes)
    whole = compare_classifiers(y, {"a": models[0], "b": models[1]}, **kw)
    # 200 replicates: the ends' Monte Carlo error is a few 10^-3 on these scales
    np.testing.assert_allclose(r.intervals()[["lo", "hi"]], whole.intervals()[["lo", "hi"]],
                               atol=0.01)
    np.testing.assert_allclose(r.tests()[["lo", "hi"]], whole.tests()[["lo", "hi"]],
                               atol=0.01)


def test_bca_from_the_poisson_bootstrap_and_its_jackknife() -> None:
    y, models, w = _data(5000)
    r = compare_parts(_parts(y[:5000], [m[:5000] for m in models[:2]], w[:5000]), ["a", "b"],
                      measures=["auc", "acc"], n_boot=200)   # weighted: BCa by default
    t = r.intervals()
    assert t["method"].str.startswith("bootstrap-bca").all()
    assert (t["lo"] < t["value"]).all() and (t["value"] < t["hi"]).all()


# ------------------------------------------------------------------------ refusals
def test_what_needs_every_case_is_refused_in_one_line() -> None:
    y, models, _w = _data(800)
    r = compare_parts(_parts(y[:800], [m[:800] for m in models[:2]], None), ["a", "b"],
                      measures=["acc", "brier"])
    for call in (r.calibration, r.plot, r.curve_bands, r.net_benefit,
                 lambda: r.to_html("x.html")):
        with pytest.raises(MeasurelabError, match="needs every case's prediction"):
            call()
    assert "Calibration" not in r.summary()
    assert "<pre" in r._repr_html_()
    assert "calibration test is left out" in repr(r)


def test_more_than_two_classes_of_one_score_is_refused() -> None:
    parts = [([0, 1, 2], [np.array([.1, .5, .9])], None)]
    with pytest.raises(MeasurelabError, match=r"3 classes.*probability of every class"):
        compare_parts(parts, ["m"])
    with pytest.raises(MeasurelabError, match="pos_label='yes' is not a valid label"):
        compare_parts([(["a", "b"], [np.array([.1, .5])], None)], ["m"], pos_label="yes")
    with pytest.raises(MeasurelabError, match="model 1 has 2 scores but y_true has 3"):
        compare_parts([([0, 1, 1], [np.array([.1, .5])], None)], ["m"])


def test_a_bootstrap_too_large_for_memory_is_refused(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    monkeypatch.setattr(dist, "BOOT_BYTES", 10_000)
    y, models, _w = _data(2000)
    with pytest.raises(MeasurelabError, match=r"Poisson bootstrap of auc, ap.*"
                                              r"ci_method='influence' serves auc, ap"):
        compare_parts(_parts(y[:2000], [m[:2000] for m in models[:2]], None), ["a", "b"],
                      measures=["auc", "ap"], ci_method="bootstrap-bca")


def test_dask_collections_in_process() -> None:
    """compare_classifiers on Dask arrays and Series (Dask's threads; no cluster)."""
    da = pytest.importorskip("dask.array")
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    y, models, _w = _data(4000)
    few = ["auc", "f1", "acc"]   # below 10,000 cases ap, brier, mxe would resample
    whole = compare_classifiers(y, {"a": models[0], "b": models[1]}, measures=few)
    arrays = compare_classifiers(da.from_array(y, chunks=1000),
                                 {"a": da.from_array(models[0], chunks=1000),
                                  "b": da.from_array(models[1], chunks=1000)}, measures=few)
    assert type(arrays).__name__ == "DistributedComparison"
    assert_same_json(whole.to_json(), arrays.to_json())
    df = dd.from_pandas(pd.DataFrame({"y": y, "a": models[0], "b": models[1]}),
                        npartitions=4)
    assert_same_json(whole.to_json(),
                     compare_classifiers(df.y, {"a": df.a, "b": df.b}, measures=few).to_json())
    with pytest.raises(MeasurelabError, match="partitioned like"):
        compare_classifiers(y, {"a": da.from_array(models[0], chunks=1000)})
    with pytest.raises(MeasurelabError, match="has 3 partitions but y_true has 4"):
        compare_classifiers(da.from_array(y, chunks=1000),
                            {"a": da.from_array(models[0], chunks=1500)})
    with pytest.raises(MeasurelabError, match="groups= and by="):
        compare_classifiers(df.y, {"a": df.a}, groups=np.zeros(4000))


def test_in_process_map_reduce_is_the_cluster_tree() -> None:
    def merge(*lists: list[int]) -> list[int]:
        return [i for x in lists for i in x]

    assert in_process(lambda i, p: [i], [7, 8, 9], merge, ()) == [0, 1, 2]


@pytest.mark.parametrize("weighted", [False, True])
def test_parts_give_the_one_machine_calibration_slope_and_intercept(weighted: bool) -> None:
    """cal_slope and cal_intercept over parts: the fit of the merged tables is the fit of
    the whole, and the intervals and paired rows (the distances to the target, each
    model's influence signed) are the one-machine comparison's."""
    y, models, w = _data()
    w = w if weighted else None
    # a second model too extreme (slope 0.76 against the first's 1.71: the two sides of 1,
    # where the sign of each model's influence matters)
    x = np.log(models[0] / (1 - models[0]))
    steep = np.round(1 / (1 + np.exp(-(2.2 * x + 1.2))), 3)
    kw: dict[str, Any] = dict(measures=["cal_slope", "cal_intercept"])
    whole = compare_classifiers(y, {"a": models[0], "b": steep}, sample_weight=w, **kw)
    r = compare_parts(_parts(y, [models[0], steep], w), ["a", "b"], **kw)
    assert set(r.tests()["method"]) == {"influence"}
    assert_same_json(whole.to_json(), r.to_json(), values_tol=1e-12)
