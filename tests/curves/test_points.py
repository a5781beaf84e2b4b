"""Curves from the score table against scikit-learn, brute force and hand computations."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from scipy.spatial import ConvexHull
from sklearn import metrics as skm

import measurelab as ml
from measurelab import curves

matplotlib.use("Agg")


def _data(seed: int, n: int = 300, weighted: bool = False, zero_weights: bool = False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) + 0.3 * y, 1)  # coarse: many tied scores
    w = None
    if weighted:
        w = rng.random(n) * 3
        if zero_weights:
            w[rng.random(n) < 0.2] = 0.0
    return y, s, w


CASES = [
    (0, False, False),
    (1, False, False),
    (2, True, False),
    (3, True, True),
]


def _same(got, want, weighted):
    assert got.shape == want.shape
    if weighted:  # sums over groups vs over examples: float association only
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed,weighted,zeros", CASES)
@pytest.mark.parametrize("pos_label", [1, 0])
def test_roc_pr_det_equal_sklearn_point_for_point(seed, weighted, zeros, pos_label):
    y, s, w = _data(seed, weighted=weighted, zero_weights=zeros)
    got = ml.roc_curve(y, s, pos_label=pos_label, sample_weight=w)
    want = skm.roc_curve(y, s, pos_label=pos_label, sample_weight=w, drop_intermediate=False)
    for g, e in zip(got, want, strict=True):
        _same(g, e, weighted)
    got = ml.precision_recall_curve(y, s, pos_label=pos_label, sample_weight=w)
    want = skm.precision_recall_curve(y, s, pos_label=pos_label, sample_weight=w)
    for g, e in zip(got, want, strict=True):
        _same(g, e, weighted)
    got = ml.curves.det_curve(y, s, pos_label=pos_label, sample_weight=w)
    want = skm.det_curve(y, s, pos_label=pos_label, sample_weight=w)
    for g, e in zip(got, want, strict=True):
        _same(g, e, weighted)


def test_string_labels_and_both_label_orders():
    y, s, _ = _data(7, n=120)
    names = np.array(["neg", "pos"])[y]
    for pos in ("pos", "neg"):
        got = ml.roc_curve(names, s, pos_label=pos)
        want = skm.roc_curve(names, s, pos_label=pos, drop_intermediate=False)
        for g, e in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, e)
    # swapping the classes and negating the scores mirrors the ROC curve
    a = ml.roc_curve(y, s)
    b = ml.roc_curve(1 - y, -s)
    np.testing.assert_allclose(a.fpr, 1 - b.tpr[::-1], rtol=0, atol=1e-15)  # two roundings


def test_det_when_fpr_zero_is_reached_at_a_finite_threshold():
    y = [1, 1, 0, 1, 0, 0]
    s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    for g, e in zip(ml.curves.det_curve(y, s), skm.det_curve(y, s), strict=True):
        np.testing.assert_array_equal(g, e)


def test_curves_are_named_tuples_and_shapes():
    y, s, _ = _data(4, n=50)
    roc = ml.roc_curve(y, s)
    assert roc.thresholds[0] == np.inf and roc.fpr[0] == roc.tpr[0] == 0
    assert roc.fpr.size == np.unique(s).size + 1
    pr = ml.precision_recall_curve(y, s)
    assert pr.precision.size == pr.thresholds.size + 1 == np.unique(s).size + 1


def _brute_gain(y, s, w, pos_label=1):
    """For each distinct score t (decreasing): share of cases and of positives with s >= t."""
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    pos = np.asarray(y) == pos_label
    keep = w > 0
    thr = np.unique(s[keep])[::-1]
    depth, gain = [], []
    for t in thr:
        top = s >= t
        depth.append(sum(wi for wi, ti in zip(w, top, strict=True) if ti) / w.sum())
        gain.append(sum(wi for wi, ti, pi in zip(w, top, pos, strict=True) if ti and pi)
                    / w[pos].sum())
    return np.array(depth), np.array(gain), thr


@pytest.mark.parametrize("seed,weighted,zeros", CASES)
def test_gain_and_lift_against_brute_force_sort(seed, weighted, zeros):
    y, s, w = _data(seed, n=150, weighted=weighted, zero_weights=zeros)
    depth, gain, thr = _brute_gain(y, s, w)
    g = ml.curves.cumulative_gain_curve(y, s, sample_weight=w)
    assert (g.depth[0], g.gain[0], g.thresholds[0]) == (0.0, 0.0, np.inf)
    np.testing.assert_allclose(g.depth[1:], depth, rtol=1e-12)
    np.testing.assert_allclose(g.gain[1:], gain, rtol=1e-12)
    np.testing.assert_array_equal(g.thresholds[1:], thr)
    lc = ml.curves.lift_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(lc.lift, gain / depth, rtol=1e-12)
    np.testing.assert_array_equal(lc.thresholds, thr)
    if not weighted:  # Caruana's lift@q at the depth of every distinct score
        for d, value in zip(lc.depth, lc.lift, strict=True):
            assert value == pytest.approx(ml.metrics.lift(y, s, q=float(d)), rel=1e-12)


def test_gain_with_pos_label_zero_is_brute_force_of_the_other_class():
    y, s, _ = _data(9, n=80)
    depth, gain, _ = _brute_gain(y, s, None, pos_label=0)
    g = ml.curves.cumulative_gain_curve(y, s, pos_label=0)
    np.testing.assert_allclose(g.gain[1:], gain, rtol=1e-12)
    np.testing.assert_allclose(g.depth[1:], depth, rtol=1e-12)


# ----------------------------------------------------------------------- cost curves
def test_cost_curve_hand_checked_example():
    # ranking (best first) + − + − −: ROC points (0,0) (0,½) (⅓,½) (⅓,1) (⅔,1) (1,1);
    # hull (0,0) (0,½) (⅓,1) (1,1). Edge (0,½)→(⅓,1): PC = ⅓/(⅓+½) = 0.4, where the lines
    # of (FPR 0, FNR ½) and (FPR ⅓, FNR 0) cross at NE = ½·0.4 = ⅓·0.6 = 0.2.
    y = [1, 0, 1, 0, 0]
    s = [0.9, 0.8, 0.7, 0.6, 0.5]
    cc = ml.curves.cost_curve(y, s)
    np.testing.assert_allclose(cc.pc, [0.0, 0.4, 1.0], rtol=1e-15)
    np.testing.assert_allclose(cc.cost, [0.0, 0.2, 0.0], rtol=1e-15, atol=1e-16)
    assert cc.thresholds[cc.segment_points].tolist() == [0.9, 0.7]
    np.testing.assert_allclose(cc.fpr, [0, 0, 1 / 3, 1 / 3, 2 / 3, 1])
    np.testing.assert_allclose(cc.fnr, [1, 0.5, 0.5, 0, 0, 0])
    # at PC = 0.4 every line is at least 0.2; at PC = 0.2 the best is FNR ½ alone: 0.1
    assert min(cc.line(i, 0.4) for i in range(cc.fpr.size)) == pytest.approx(0.2)
    assert cc.envelope(0.2) == pytest.approx(0.1)


def _upper_hull_scipy(fpr, tpr):
    """Vertices of the ROC convex hull by Qhull: add (1, 0) so the lower chain is the
    square's corner; the remaining vertices are the upper-left hull."""
    pts = np.column_stack([fpr, tpr])
    uniq = np.unique(pts, axis=0)
    h = ConvexHull(np.vstack([uniq, [1.0, 0.0]]))
    verts = [tuple(uniq[i]) for i in h.vertices if i < len(uniq)]
    return {v for v in verts if not (v[1] == 0.0 and v[0] > 0) or v == (0.0, 0.0)}


@pytest.mark.parametrize("seed,weighted,zeros", CASES)
def test_cost_envelope_is_the_roc_convex_hull_in_cost_space(seed, weighted, zeros):
    y, s, w = _data(seed, n=200, weighted=weighted, zero_weights=zeros)
    cc = ml.curves.cost_curve(y, s, sample_weight=w)
    roc = ml.roc_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(cc.fpr, roc.fpr)
    np.testing.assert_allclose(cc.fnr, 1 - roc.tpr, atol=1e-15)
    # the operating points of the envelope, with the two trivial ones, are the vertices
    # of Qhull's convex hull of the ROC points
    hull = np.unique(np.concatenate([[0, cc.fpr.size - 1], cc.segment_points]))
    got = {(roc.fpr[i], roc.tpr[i]) for i in hull}
    want = _upper_hull_scipy(roc.fpr, roc.tpr)
    assert {(round(a, 12), round(b, 12)) for a, b in got} == {
        (round(a, 12), round(b, 12)) for a, b in want}
    # envelope = pointwise minimum over the lines of ALL operating points = over hull ones
    grid = np.unique(np.concatenate([np.linspace(0, 1, 401), cc.pc]))
    all_lines = np.min(cc.fnr[:, None] * grid + cc.fpr[:, None] * (1 - grid), axis=0)
    hull_lines = np.min(cc.fnr[hull, None] * grid + cc.fpr[hull, None] * (1 - grid), axis=0)
    np.testing.assert_allclose(cc.envelope(grid), all_lines, atol=1e-12)
    np.testing.assert_allclose(hull_lines, all_lines, atol=1e-15)
    # each envelope segment lies on the line of its operating point, a hull vertex
    assert set(cc.segment_points.tolist()) <= set(hull.tolist())
    for j, i in enumerate(cc.segment_points):
        ends = cc.pc[j : j + 2]
        np.testing.assert_allclose(cc.line(i, ends), cc.cost[j : j + 2], atol=1e-12)
    # breakpoints: PC = ΔFPR / (ΔFPR + ΔTPR) of consecutive hull vertices
    dfpr, dtpr = np.diff(roc.fpr[hull]), np.diff(roc.tpr[hull])
    inner = dfpr / (dfpr + dtpr)
    np.testing.assert_allclose(cc.pc[1:-1], inner[(inner > 0) & (inner < 1)], rtol=1e-12)


@pytest.mark.parametrize("seed,weighted", [(0, False), (4, True), (9, False)])
def test_cost_curve_against_brute_force_from_the_definition(seed, weighted):
    """Drummond & Holte 2006 from scratch: every threshold (predict positive iff score >=
    t, t over +inf and every score) is a classifier with expected cost
    p·FNR·C(−|+) + (1 − p)·FPR·C(+|−); divided by its largest value p·C(−|+) + (1 −
    p)·C(+|−) it depends on the costs and prior only through PC(+) = p·C(−|+) / (p·C(−|+)
    + (1 − p)·C(+|−)); the lower envelope is the best threshold's."""
    y, s, w = _data(seed, n=120, weighted=weighted)
    w = np.ones(y.size) if w is None else w
    cc = ml.curves.cost_curve(y, s, sample_weight=w)
    pos_w, neg_w = w[y == 1].sum(), w[y == 0].sum()
    rates = []
    for t in [np.inf, *sorted(set(s.tolist()), reverse=True)]:
        pred = s >= t
        rates.append((w[(y == 0) & pred].sum() / neg_w, w[(y == 1) & ~pred].sum() / pos_w))
    rng = np.random.default_rng(seed)
    for _ in range(200):
        prior, c_fn, c_fp = rng.random(), rng.uniform(0.1, 10), rng.uniform(0.1, 10)
        norm = prior * c_fn + (1 - prior) * c_fp
        pc = prior * c_fn / norm
        costs = [(prior * fnr * c_fn + (1 - prior) * fpr * c_fp) / norm for fpr, fnr in rates]
        assert cc.envelope(pc) == pytest.approx(min(costs), abs=1e-12)
        assert costs == pytest.approx(
            [cc.line(i, pc) for i in range(cc.fpr.size)], abs=1e-12)


def test_one_class_is_an_error_for_det_and_cost_and_nan_for_roc():
    with pytest.raises(ml.MeasurelabError, match="one class"):
        ml.curves.det_curve([1, 1, 1], [0.2, 0.5, 0.9])
    with pytest.raises(ml.MeasurelabError, match="one class"):
        ml.curves.cost_curve([0, 0], [0.2, 0.5])
    with pytest.warns(ml.UndefinedMeasureWarning):
        roc = ml.roc_curve([1, 1, 1], [0.2, 0.5, 0.9])
    assert np.isnan(roc.fpr).all() and roc.tpr[-1] == 1.0
    with pytest.raises(ml.MeasurelabError, match="zero"):
        ml.roc_curve([0, 1], [0.2, 0.5], sample_weight=[0, 0])


# ----------------------------------------------------------------------------- plots
@pytest.mark.parametrize(
    "plot",
    [
        ml.curves.plot_roc_curve,
        ml.curves.plot_precision_recall_curve,
        ml.curves.plot_det_curve,
        ml.curves.plot_lift_curve,
        ml.curves.plot_cumulative_gain_curve,
        ml.curves.plot_cost_curve,
    ],
)
def test_plot_helpers_draw_every_model_and_return_the_axes(plot):
    import matplotlib.pyplot as plt

    y, s, _ = _data(5, n=100)
    rng = np.random.default_rng(0)
    models = {"first": s, "second": rng.random(100), "third": s + rng.random(100)}
    fig, ax = plt.subplots()
    out = plot(y, models, ax=ax)
    assert out is ax
    labels = " ".join(ax.get_legend_handles_labels()[1])
    assert all(name in labels for name in models)
    plt.close(fig)


def test_plotted_data_are_the_curves():
    import matplotlib.pyplot as plt

    y, s, _ = _data(6, n=80)
    ax = ml.curves.plot_roc_curve(y, {"m": s}, chance_level=False)
    roc = ml.roc_curve(y, s)
    np.testing.assert_array_equal(ax.get_lines()[0].get_xdata(), roc.fpr)
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), roc.tpr)
    ax2 = ml.curves.plot_cost_curve(y, {"m": s}, trivial=False)
    cc = ml.curves.cost_curve(y, s)
    np.testing.assert_array_equal(ax2.get_lines()[0].get_xdata(), cc.pc)
    plt.close("all")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_roc_convex_hull_on_counts_equals_qhull(seed):
    y, s, _ = _data(seed, n=120)
    t = ml.ScoreTable.from_arrays(y == 1, s)
    fps = np.concatenate([[0.0], t.cum_neg_desc])
    tps = np.concatenate([[0.0], t.cum_pos_desc])
    hull = curves.roc_convex_hull(fps, tps)
    assert hull[0] == 0 and hull[-1] == fps.size - 1
    got = {(fps[i] / t.n_neg, tps[i] / t.n_pos) for i in hull}
    want = _upper_hull_scipy(fps / t.n_neg, tps / t.n_pos)
    assert {(round(a, 12), round(b, 12)) for a, b in got} == {
        (round(a, 12), round(b, 12)) for a, b in want}
    # collinear points are not vertices
    assert curves.roc_convex_hull(np.array([0, 1, 2, 3.0]), np.array([0, 1, 2, 3.0])).tolist() \
        == [0, 3]


def test_roc_convex_hull_of_a_regular_staircase_and_a_wavy_curve():
    # + − − repeated: every corner lies on one line from (0, 1) to (N − 2, P)
    n = 300
    y = (np.arange(n) % 3 == 0)
    t = ml.ScoreTable.from_arrays(y, -np.arange(n, dtype=float))
    fps = np.concatenate([[0.0], t.cum_neg_desc])
    tps = np.concatenate([[0.0], t.cum_pos_desc])
    hull = curves.roc_convex_hull(fps, tps)
    assert [(fps[i], tps[i]) for i in hull] == [(0, 0), (0, 1), (198, 100), (200, 100)]
    # a concave-and-convex wave needs several filtering passes before the chain
    x = np.linspace(0, 1, 2001)
    yv = np.sqrt(x) + 0.01 * np.sin(60 * x)
    yv = np.maximum.accumulate(yv)
    hull = curves.roc_convex_hull(x, yv)
    want = _upper_hull_scipy(x, yv)
    assert {(round(x[i], 12), round(yv[i], 12)) for i in hull} == {
        (round(a, 12), round(b, 12)) for a, b in want}


def test_import_measurelab_stays_lean_and_lazy_names_resolve():
    import subprocess
    import sys

    code = (
        "import sys, measurelab as ml\n"
        "heavy = [m for m in ('sklearn', 'matplotlib', 'measurelab.curves',\n"
        "         'measurelab.metrics.scorers', 'measurelab.metrics.thresholds')\n"
        "         if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "assert 'roc_curve' in dir(ml) and 'make_scorer' in ml.__all__\n"
        "assert ml.roc_curve is ml.curves.roc_curve\n"
        "assert ml.best_threshold.__module__ == 'measurelab.metrics.thresholds'\n"
        "assert 'sklearn' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        ml.nonexistent  # noqa: B018


def test_curves_from_a_merged_table_equal_the_whole_data():
    y, s, w = _data(8, n=200, weighted=True)
    ev = ml.Evaluator(measures=["auc"])
    for part in np.array_split(np.arange(200), 5):
        ev.update(y[part], s[part], sample_weight=w[part])
    whole = ml.ScoreTable.from_arrays(y == 1, s, w)
    for f in (ml.roc_curve, ml.precision_recall_curve, ml.curves.det_curve, ml.curves.lift_curve,
              ml.curves.cumulative_gain_curve, ml.curves.cost_curve):
        merged, direct = f(ev.table), f(y, s, sample_weight=w)
        for a, b in zip(merged, direct, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
        for a, b in zip(f(whole), direct, strict=True):
            np.testing.assert_array_equal(a, b)
    with pytest.raises(ml.MeasurelabError, match="omit y_score"):
        ml.roc_curve(whole, s)
    with pytest.raises(ml.MeasurelabError, match="y_score is missing"):
        ml.roc_curve(y)


# ------------------------------------------------------------------- the threshold rule
def _rates_at(y, s, w, pos_label, t, inclusive):
    """(tpr, fpr, predicted-positive share, precision) of evaluate(threshold=t)."""
    r = ml.evaluate(y, s, threshold=t, inclusive=inclusive, pos_label=pos_label,
                    sample_weight=w, measures=["sens", "spec", "prec"])
    pos = np.asarray(y) == pos_label
    ww = np.ones(len(y)) if w is None else np.asarray(w, float)
    above = (s >= t) if inclusive else (s > t)
    return r["sens"], 1 - r["spec"], ww[above].sum() / ww.sum(), r["prec"], pos


RULE_CASES = [  # seed, weighted, zero weights, scores rounded to one decimal (ties)
    (0, False, False, True),
    (1, False, False, False),
    (2, True, False, True),
    (3, True, True, True),
]


@pytest.mark.parametrize("inclusive", [True, False])
@pytest.mark.parametrize("seed,weighted,zeros,coarse", RULE_CASES)
@pytest.mark.parametrize("pos_label", [1, 0])
def test_evaluate_at_each_curve_threshold_gives_that_point(seed, weighted, zeros, coarse,
                                                           inclusive, pos_label):
    """The one threshold rule: evaluate(..., threshold=thresholds[i], inclusive=inc) gives
    point i of every curve computed with the same inc, ties and zero weights included."""
    y, s, w = _data(seed, n=120, weighted=weighted, zero_weights=zeros)
    if not coarse:
        s = np.round(s + np.random.default_rng(seed).random(s.size) * 1e-3, 4)
    kw = dict(pos_label=pos_label, sample_weight=w, inclusive=inclusive)
    def close(a, b):  # 1 - spec against fpr: one rounding apart
        return a == pytest.approx(b, rel=1e-12, abs=1e-15)

    eq = close if weighted else (lambda a, b: a == b)  # proportions of whole counts: exact
    roc = ml.roc_curve(y, s, **kw)
    gain = ml.curves.cumulative_gain_curve(y, s, **kw)
    cost = ml.curves.cost_curve(y, s, **kw)
    np.testing.assert_array_equal(gain.thresholds, roc.thresholds)
    np.testing.assert_array_equal(cost.thresholds, roc.thresholds)
    assert (np.diff(roc.thresholds) < 0).all()
    for i, t in enumerate(roc.thresholds):
        tpr, fpr, depth, _, _ = _rates_at(y, s, w, pos_label, t, inclusive)
        assert eq(tpr, roc.tpr[i]) and close(fpr, roc.fpr[i]), (i, t)
        assert eq(depth, gain.depth[i]) and eq(tpr, gain.gain[i])
        assert close(1 - tpr, cost.fnr[i]) and close(fpr, cost.fpr[i])
    # the ends: nothing positive and everything positive
    assert roc.tpr[0] == roc.fpr[0] == 0 and roc.tpr[-1] == roc.fpr[-1] == 1
    if inclusive:
        assert roc.thresholds[0] == np.inf and roc.thresholds[-1] == s[w != 0 if zeros else
                                                                        slice(None)].min()
    else:
        assert roc.thresholds[0] == s[w != 0 if zeros else slice(None)].max()
        assert roc.thresholds[-1] == -np.inf
    pr = ml.precision_recall_curve(y, s, **kw)
    for i, t in enumerate(pr.thresholds):
        tpr, _, _, prec, _ = _rates_at(y, s, w, pos_label, t, inclusive)
        assert eq(tpr, pr.recall[i]) and eq(prec, pr.precision[i]), (i, t)
    det = ml.curves.det_curve(y, s, **kw)
    for i, t in enumerate(det.thresholds):
        tpr, fpr, _, _, _ = _rates_at(y, s, w, pos_label, t, inclusive)
        assert close(fpr, det.fpr[i]) and close(1 - tpr, det.fnr[i]), (i, t)
    lift = ml.curves.lift_curve(y, s, **kw)
    for i, t in enumerate(lift.thresholds):
        tpr, _, depth, _, _ = _rates_at(y, s, w, pos_label, t, inclusive)
        assert eq(depth, lift.depth[i]) and lift.lift[i] == pytest.approx(tpr / depth,
                                                                          rel=1e-12)


def test_exclusive_thresholds_are_the_same_points_shifted_down_one_score():
    y, s, _ = _data(5, n=80)
    for f in (ml.roc_curve, ml.precision_recall_curve, ml.curves.det_curve,
              ml.curves.cumulative_gain_curve, ml.curves.lift_curve, ml.curves.cost_curve):
        a, b = f(y, s), f(y, s, inclusive=False)
        for field in a._fields:  # every array but the thresholds
            if field != "thresholds":
                np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        distinct = np.unique(s)  # increasing
        below = {float(v): float(u) for u, v in zip(np.r_[-np.inf, distinct[:-1]], distinct,
                                                    strict=True)}
        below[np.inf] = float(distinct[-1])
        want = [below[float(t)] for t in a.thresholds]
        np.testing.assert_array_equal(b.thresholds, want)
    # the scikit-learn default is unchanged, and best_threshold's rule is the exclusive one
    t, _ = ml.best_threshold(y, s, "youden")
    assert t in ml.roc_curve(y, s, inclusive=False).thresholds
    with pytest.raises(ml.MeasurelabError, match="inclusive must be True or False"):
        ml.roc_curve(y, s, inclusive="no")


def test_the_threshold_rule_is_stated_in_every_docstring():
    for f in (ml.evaluate, ml.roc_curve, ml.precision_recall_curve, ml.curves.det_curve,
              ml.curves.cumulative_gain_curve, ml.curves.lift_curve, ml.curves.cost_curve):
        doc = " ".join(f.__doc__.split())
        assert "score > threshold" in doc or "score > thresholds[i]" in doc, f.__name__
        assert "inclusive" in doc, f.__name__
