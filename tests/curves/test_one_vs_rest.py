"""k-class ROC and precision–recall curves (issue 42, item 4): every class against the
rest is scikit-learn's binary curve of ``y == c`` and ``P[:, c]`` point for point, the
micro average is scikit-learn's curve of the pooled (case, class) pairs, the macro ROC
average has the mean of the classes' AUCs as its area and the mean TPR at every FPR, and
the macro precision–recall curve is the mean interpolated precision written out."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import measurelab as ml
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning


def _data(seed, n=300, k=4, ties=True, weighted=False):
    g = np.random.default_rng(seed)
    y = g.integers(0, k, n)
    y[:k] = np.arange(k)
    logits = g.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    if ties:
        P = np.round(P, 1)
    w = g.uniform(0.1, 3, n) if weighted else None
    return y, P, w


CASES = [(0, True, False), (1, False, False), (2, True, True), (3, False, True)]


@pytest.mark.parametrize("seed,ties,weighted", CASES)
def test_each_class_and_the_micro_average_equal_scikit_learn(seed, ties, weighted):
    y, P, w = _data(seed, ties=ties, weighted=weighted)
    k = P.shape[1]
    roc = ml.roc_curve(y, P, sample_weight=w)
    pr = ml.precision_recall_curve(y, P, sample_weight=w)
    assert roc.classes == pr.classes == tuple(range(k))
    for c in range(k):
        want = skm.roc_curve(y == c, P[:, c], sample_weight=w, drop_intermediate=False)
        for got, ref in zip(roc[c], want, strict=True):  # real weights: summed in order
            np.testing.assert_allclose(got, ref, rtol=0 if w is None else 1e-14, atol=0)
        want = skm.precision_recall_curve(y == c, P[:, c], sample_weight=w)
        for got, ref in zip(pr[c], want, strict=True):
            np.testing.assert_allclose(got, ref, rtol=1e-15, atol=0)
    Y = label_binarize(y, classes=range(k)).ravel()
    wr = None if w is None else np.repeat(w, k)
    want = skm.roc_curve(Y, P.ravel(), sample_weight=wr, drop_intermediate=False)
    for got, ref in zip(roc.micro, want, strict=True):
        np.testing.assert_allclose(got, ref, rtol=1e-14, atol=0)
    want = skm.precision_recall_curve(Y, P.ravel(), sample_weight=wr)
    for got, ref in zip(pr.micro, want, strict=True):
        np.testing.assert_allclose(got, ref, rtol=1e-14, atol=0)
    assert np.trapezoid(roc.micro.tpr, roc.micro.fpr) == pytest.approx(
        skm.roc_auc_score(Y, P.ravel(), sample_weight=wr), abs=1e-12)


def _tpr_at(fpr, tpr, x, side):
    """A ROC curve's TPR at FPR x, by its definition: linear between its points; at a
    vertical step the bottom ('low') or the top ('high')."""
    at = np.flatnonzero(fpr == x)
    if at.size:
        return tpr[at[0]] if side == "low" else tpr[at[-1]]
    j = np.searchsorted(fpr, x)
    return tpr[j - 1] + (x - fpr[j - 1]) / (fpr[j] - fpr[j - 1]) * (tpr[j] - tpr[j - 1])


@pytest.mark.parametrize("seed,ties,weighted", CASES)
def test_the_macro_roc_curve_is_the_vertical_average(seed, ties, weighted):
    y, P, w = _data(seed, ties=ties, weighted=weighted)
    roc = ml.roc_curve(y, P, sample_weight=w)
    # its area is the mean of the classes' AUCs (scikit-learn's macro one-vs-rest AUC)
    area = np.trapezoid(roc.macro.tpr, roc.macro.fpr)
    assert area == pytest.approx(np.mean([skm.roc_auc_score(y == c, P[:, c], sample_weight=w)
                                          for c in range(P.shape[1])]), abs=1e-12)
    assert area == pytest.approx(ml.evaluate(y, P, measures=["auc"], average=None,
                                             sample_weight=w)["auc"].mean(), abs=1e-12)
    # at every point of it, and between its points, the mean TPR of the classes
    fpr, tpr = roc.macro.fpr, roc.macro.tpr
    assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0)
    for i in range(fpr.size):
        side = "high" if i + 1 < fpr.size and fpr[i + 1] == fpr[i] else "low"
        side = "high" if i > 0 and fpr[i - 1] == fpr[i] else side
        if i + 1 < fpr.size and fpr[i + 1] == fpr[i]:
            side = "low"
        want = np.mean([_tpr_at(c.fpr, c.tpr, fpr[i], side) for c in roc.per_class])
        assert tpr[i] == pytest.approx(want, abs=1e-12)
    g = np.random.default_rng(seed)
    for x in g.uniform(0, 1, 50):
        want = np.mean([_tpr_at(c.fpr, c.tpr, x, "low") for c in roc.per_class])
        assert np.interp(x, fpr, tpr) == pytest.approx(want, abs=1e-12)
    assert np.isnan(roc.macro.thresholds).all() and roc.macro.thresholds.size == fpr.size


@pytest.mark.parametrize("seed,ties,weighted", CASES)
def test_the_macro_precision_recall_curve_by_its_definition(seed, ties, weighted):
    y, P, w = _data(seed, ties=ties, weighted=weighted)
    pr = ml.precision_recall_curve(y, P, sample_weight=w)
    per = pr.per_class  # each equals scikit-learn's (the test above)
    levels = sorted({float(r) for _, rec, _ in per for r in rec[:-1]}, reverse=True)
    want = [np.mean([max(p for p, r in zip(prec[:-1], rec[:-1], strict=True) if r >= x)
                     for prec, rec, _ in per]) for x in levels]
    np.testing.assert_allclose(pr.macro.recall, [*levels, 0.0], rtol=0, atol=0)
    np.testing.assert_allclose(pr.macro.precision, [*want, 1.0], rtol=1e-14, atol=0)
    assert pr.macro.thresholds.size == pr.macro.recall.size - 1


def test_labels_name_the_columns_and_a_merged_table_gives_the_same_curves():
    y, P, _ = _data(7, k=3)
    names = np.array(["x", "y", "z"])[y]
    a = ml.roc_curve(names, P)
    b = ml.roc_curve(names, P[:, ::-1], labels=["z", "y", "x"])
    assert a.classes == ("x", "y", "z") and b.classes == ("z", "y", "x")
    np.testing.assert_array_equal(a["x"].tpr, b["x"].tpr)
    np.testing.assert_allclose(a.macro.tpr, b.macro.tpr, rtol=1e-15)  # classes summed in
    np.testing.assert_array_equal(a.macro.fpr, b.macro.fpr)            # another order
    t = ml.MultiScoreTable.from_arrays(names[:100], P[:100]) + ml.MultiScoreTable.from_arrays(
        names[100:], P[100:])
    m = ml.precision_recall_curve(t)
    whole = ml.precision_recall_curve(names, P)
    for c in ("x", "y", "z", "micro", "macro"):
        for got, ref in zip(m[c], whole[c], strict=True):
            np.testing.assert_array_equal(got, ref)
    frame = whole.to_frame()
    assert list(frame.columns) == ["curve", "recall", "precision", "threshold"]
    assert frame["curve"].unique().tolist() == ["x", "y", "z", "micro", "macro"]


def test_a_class_without_cases_is_left_out_of_the_macro_average():
    y, P, _ = _data(8, k=3)
    keep = y != 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        roc = ml.roc_curve(y[keep], P[keep], labels=[0, 1, 2])
    msgs = [str(w.message) for w in caught if issubclass(w.category, UndefinedMeasureWarning)]
    assert any("leaves out the classes [2]" in m for m in msgs)
    assert np.isnan(roc[2].tpr).all()
    both = [skm.roc_auc_score(y[keep] == c, P[keep, c]) for c in (0, 1)]
    assert np.trapezoid(roc.macro.tpr, roc.macro.fpr) == pytest.approx(np.mean(both))


def test_refusals():
    y, P, _ = _data(9, k=3)
    with pytest.raises(MeasurelabError, match="pass labels="):
        ml.roc_curve(np.where(y == 2, 1, y), P)
    with pytest.raises(MeasurelabError, match="labels= names the columns"):
        ml.roc_curve(y == 1, P[:, 1], labels=[0, 1])
    with pytest.raises(MeasurelabError, match="finite"):
        ml.precision_recall_curve(y, np.where(P > 0.9, math.inf, P))
    with pytest.raises(MeasurelabError, match="no class 'q'"):
        ml.roc_curve(y, P)["q"]
    # two columns stay binary: predict_proba's positive column
    yy = (y == 1).astype(int)
    two = np.c_[1 - P[:, 1], P[:, 1]]
    np.testing.assert_array_equal(ml.roc_curve(yy, two).tpr, ml.roc_curve(yy, P[:, 1]).tpr)


def test_plots_draw_every_class_and_the_operating_point_cross():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, P, _ = _data(10, k=3)
    ax = ml.curves.plot_roc_curve(y, P)
    roc = ml.roc_curve(y, P)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    macro = next(v for k, v in lines.items() if k.startswith("macro average"))
    np.testing.assert_array_equal(macro.get_xdata(), roc.macro.fpr)
    assert len([k for k in lines if k.startswith(("0 ", "1 ", "2 "))]) == 3
    ax = ml.curves.plot_precision_recall_curve(y, P)
    assert any(t.startswith("micro average (AP = ") for t in ax.get_legend_handles_labels()[1])
    plt.close("all")
    # the operating point at (1 − spec, sens), its intervals as the cross's arms
    yb = y == 1
    b = ml.best_threshold(yb, P[:, 1], ci=0.9, n_boot=200)
    ax = ml.curves.plot_roc_curve(yb, {"m": P[:, 1]}, operating_points={"m": b})
    iv = b.intervals().set_index("quantity")
    bars = ax.containers[-1]
    (x,), (yy,) = bars.lines[0].get_data()
    assert (x, yy) == (1 - b.spec, b.sens)
    segs = [s for c in bars.lines[2] for s in c.get_segments()]
    xs = sorted(v for s in segs for v in s[:, 0] if s[0, 1] == s[1, 1])
    ys = sorted(v for s in segs for v in s[:, 1] if s[0, 0] == s[1, 0])
    assert (xs[0], xs[-1]) == pytest.approx((1 - iv.loc["spec", "hi"], 1 - iv.loc["spec", "lo"]))
    assert (ys[0], ys[-1]) == pytest.approx((iv.loc["sens", "lo"], iv.loc["sens", "hi"]))
    plt.close("all")
    with pytest.raises(MeasurelabError, match="no sens and spec"):
        ml.curves.plot_roc_curve(yb, {"m": P[:, 1]}, operating_points={"m": 0.5})
