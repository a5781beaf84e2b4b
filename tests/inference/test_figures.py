"""Figures of a comparison (forest plot, confusion matrices, k-class one-vs-rest curves
with bands) and the k-class HTML page, against independent routes (scikit-learn)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, roc_curve

import measurelab as ml
from measurelab.exceptions import MeasurelabError
from measurelab.inference._figures import literal


def _multi(n: int = 150, k: int = 3, seed: int = 3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    models = {}
    for name, s in (("a", 1.6), ("$b$", 0.8)):
        L = rng.normal(size=(n, k))
        L[np.arange(n), y] += s
        P = np.exp(L)
        models[name] = P / P.sum(axis=1, keepdims=True)
    return y, models


@pytest.fixture(scope="module")
def multi():
    y, models = _multi()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(y, models, measures=["acc", "f1", "auc", "mxe"], n_boot=200)
    return y, models, r


def test_confusion_matrices_equal_sklearn(multi):
    y, models, r = multi
    got = r.confusion_matrices()
    for name, P in models.items():
        want = confusion_matrix(y, P.argmax(axis=1), labels=[0, 1, 2])
        assert np.array_equal(got[name].to_numpy(), want)
        assert list(got[name].index) == [0, 1, 2]


def test_binary_confusion_at_threshold_equals_sklearn():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 80)
    s = rng.random(80)
    r = ml.compare_classifiers(y, {"m": s}, threshold=0.3, ci=None, measures=["acc"])
    want = confusion_matrix(y, (s > 0.3).astype(int))
    assert np.array_equal(r.confusion_matrices()["m"].to_numpy(), want)


def test_ovr_curves_equal_sklearn_and_bands_hold_them(multi):
    y, models, r = multi
    b = r.curve_bands()
    assert b["classes"] == [0, 1, 2]
    for name, P in models.items():
        for c in range(3):
            fpr, tpr, _ = roc_curve(y == c, P[:, c], drop_intermediate=False)
            cur = b["roc"][name][c]
            assert np.allclose(cur["x"], fpr) and np.allclose(cur["y"], tpr)
            for key in ("roc", "pr"):
                lo, hi = b[key][name][c]["lo"], b[key][name][c]["hi"]
                assert lo.shape == hi.shape == (101,)
                assert np.all(lo <= hi + 1e-12)
    # the ROC of a class drawn through its band at most grid points
    cur = b["roc"]["a"][1]
    inside = (np.interp(b["grid"], cur["x"], cur["y"]) >= cur["lo"] - 1e-12) & \
             (np.interp(b["grid"], cur["x"], cur["y"]) <= cur["hi"] + 1e-12)
    assert inside.mean() > 0.8


def test_curve_bands_do_not_depend_on_row_order(multi):
    y, models, r = multi
    perm = np.random.default_rng(9).permutation(y.size)
    r2 = ml.compare_classifiers(y[perm], {k: P[perm] for k, P in models.items()},
                                measures=["acc", "f1", "auc", "mxe"], n_boot=200)
    b1, b2 = r.curve_bands(), r2.curve_bands()
    for key in ("roc", "pr"):
        for c in range(3):
            assert np.array_equal(b1[key]["a"][c]["lo"], b2[key]["a"][c]["lo"], equal_nan=True)
            assert np.array_equal(b1[key]["a"][c]["hi"], b2[key]["a"][c]["hi"], equal_nan=True)


def test_plot_shows_names_literally(multi):
    _y, _models, r = multi
    fig = r.plot()
    assert [ax.get_title() for ax in fig.axes[:3]] == [f"class {c} vs rest" for c in range(3)]
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["a", r"\$b\$"]   # drawn as typed: '$b$', not an italic b
    fig.canvas.draw()


def test_forest_plot_rows_and_pairs(multi):
    _y, _models, r = multi
    fig = r.plot_intervals()
    assert len(fig.axes) == 2 * 4
    assert [t.get_text() for t in fig.axes[1].get_yticklabels()] == [r"a − \$b\$"]
    fig = r.plot_intervals(measures=["auc"])
    assert len(fig.axes) == 2
    with pytest.raises(MeasurelabError, match="'kappa' is not a row"):
        r.plot_intervals(measures=["kappa"])
    fig.canvas.draw()


def test_forest_plot_needs_intervals():
    r = ml.compare_classifiers([0, 1, 0, 1], {"a": [0.1, 0.9, 0.2, 0.8]}, ci=None,
                               measures=["acc"])
    with pytest.raises(MeasurelabError, match="no intervals"):
        r.plot_intervals()


def test_one_model_forest_has_no_difference_column():
    y, models = _multi()
    r = ml.compare_classifiers(y, {"a": models["a"]}, measures=["acc", "auc"], n_boot=100)
    assert len(r.plot_intervals().axes) == 2


def test_multiclass_html_has_figures_before_tables(multi, tmp_path):
    _y, _models, r = multi
    page = r.to_html(tmp_path / "cmp.html").read_text()
    # forest, curves, the top-label calibration panels (issue 33), confusion
    assert page.count("data:image/png;base64,") == 4
    assert page.index("<img") < page.index("<table")
    assert "3 classes" in page and "$b$" in page
    assert not list(tmp_path.glob("*.tmp"))


def test_literal_escapes_dollars():
    assert literal("$\\alpha$") == "\\$\\alpha\\$"
    assert literal(1) == "1"


def test_grid_is_checked(multi):
    _y, _models, r = multi
    with pytest.raises(MeasurelabError, match="grid must be at least 2"):
        r.curve_bands(grid=0)
    with pytest.raises(MeasurelabError, match="grid must be an integer"):
        r.curve_bands(grid=1.5)


def test_html_png_decodes(multi, tmp_path):
    import base64
    import io

    import matplotlib.image as mpimg

    _y, _models, r = multi
    page = r.to_html(tmp_path / "p.html").read_text()
    for data in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page):
        img = mpimg.imread(io.BytesIO(base64.b64decode(data)), format="png")
        assert img.shape[0] > 100 and img.shape[1] > 100


def test_to_html_refuses_bad_paths_before_computing(multi, tmp_path):
    _y, _models, r = multi
    for bad, msg in ((tmp_path, "is a folder"), ("", "path is empty"),
                     (tmp_path / "f.txt" / "x.html", "is a file, not a folder"),
                     (3, "path must be a file path")):
        if msg.startswith("is a file"):
            (tmp_path / "f.txt").write_text("x")
        with pytest.raises(MeasurelabError, match=msg):
            r.to_html(bad)
    with pytest.raises(MeasurelabError, match="files must be True or False"):
        r.to_html(tmp_path / "a.html", files="no")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_to_html_creates_missing_folder(multi, tmp_path):
    _y, _models, r = multi
    p = r.to_html(tmp_path / "new" / "cmp.html", files=False)
    assert p.is_file() and sorted(x.name for x in p.parent.iterdir()) == ["cmp.html"]
