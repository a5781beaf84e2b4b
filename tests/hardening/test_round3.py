"""Round three of bad input (issue 34): float32 probabilities, sizes bounded before
allocating, pages written as a set, wrong types, degenerate Bayesian inputs, colliding
class labels. Each case is reproduced from its description and asserts one clear line or
a correct, stated result."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError


def _softmax32(n: int = 600, k: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, k)).astype(np.float32)
    e = np.exp(z)
    P = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    y = np.array([rng.choice(k, p=p / p.sum()) for p in P.astype(np.float64)])
    return y, P


# ------------------------------------------------------------------ float32 probabilities
def test_float32_softmax_rows_are_off_by_more_than_float64_rounding():
    _, P = _softmax32()
    dev = np.abs(P.sum(axis=1, dtype=np.float64) - 1)
    assert 1e-8 < dev.max() < 1e-6  # the case of the issue: refused by the old √eps rule


def test_float32_softmax_is_accepted_and_equals_its_float64_copy():
    y, P = _softmax32()
    Q = P[:, [1, 0, 2]]
    with pytest.warns(UserWarning, match=r"renormalised .* tolerance 1e-06"):
        c32 = ml.compare_classifiers(y, {"net": P, "b": Q}, ci=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        c64 = ml.compare_classifiers(y, {"net": P.astype(np.float64),
                                         "b": Q.astype(np.float64)}, ci=None)
        e32, e64 = ml.evaluate(y, P), ml.evaluate(y, P.astype(np.float64))
    t32, t64 = c32.values(), c64.values()
    np.testing.assert_allclose(t32.to_numpy(dtype=float), t64.to_numpy(dtype=float),
                               atol=1e-6, equal_nan=True)
    for m in ("brier", "mxe", "auc", "acc"):
        assert abs(e32[m] - e64[m]) <= 1e-6
    # renormalised rows: the Brier score of the rows divided by their sums (brute force)
    R = P.astype(np.float64) / P.astype(np.float64).sum(axis=1, keepdims=True)
    onehot = np.eye(3)[y]
    assert e32["brier"] == pytest.approx(np.mean(np.sum((R - onehot) ** 2, axis=1)), abs=1e-12)


def test_row_beyond_the_tolerance_is_refused_with_its_full_sum():
    y = [0, 1, 2, 0]
    P = np.array([[.6, .3, .1], [.2, .7, .1], [.1, .1, .8], [.5, .3, .19999]])
    with pytest.raises(MeasurelabError) as e:
        ml.compare_classifiers(y, {"a": P})
    msg = str(e.value)
    assert "tolerance 1e-06" in msg and "row 4" in msg and "0.99999" in msg
    with pytest.warns(UserWarning, match=r"1 of 4 .* tolerance 1e-06 .* row 4, which sums to "
                                         r"0\.99999"):
        ml.evaluate(y, P)


def test_tolerance_grows_with_columns_of_a_coarse_type():
    from measurelab.stats.probrows import SUM_TOLERANCE, row_sum_tolerance

    assert SUM_TOLERANCE == 1e-6
    assert row_sum_tolerance(np.float64, 3) == 1e-6
    assert row_sum_tolerance(np.float32, 1000) == pytest.approx(1000 * 2.0**-23)


def _leaves(x, out):
    if isinstance(x, dict):
        for k in sorted(x):
            _leaves(x[k], out)
    elif isinstance(x, list):
        for v in x:
            _leaves(v, out)
    elif isinstance(x, int | float) and not isinstance(x, bool):
        out.append(float(x))
    return out


def test_cli_versus_and_evaluate_accept_float32_softmax(tmp_path, capsys):
    import json

    import pandas as pd

    from measurelab.cli import main

    y, P = _softmax32()
    runs = {}
    for dtype in (np.float32, np.float64):
        Q = P.astype(dtype)
        d = pd.DataFrame({"y": y, **{f"n{j}": Q[:, j] for j in range(3)},
                          **{f"m{j}": Q[:, (j + 1) % 3] for j in range(3)}})
        path = tmp_path / f"p{np.dtype(dtype).itemsize}.parquet"
        d.to_parquet(path)
        capsys.readouterr()
        assert main(["versus", str(path), "--label-col", "y", "--proba-cols", "net=n0,n1,n2",
                     "--proba-cols", "m=m0,m1,m2", "--n-boot", "100", "--json"]) in (0, None)
        runs[dtype] = _leaves(json.loads(capsys.readouterr().out), [])
        assert main(["evaluate", str(path), "--label-col", "y", "--proba-cols",
                     "n0,n1,n2"]) in (0, None)
    a, b = runs[np.float32], runs[np.float64]
    assert len(a) == len(b) > 20
    np.testing.assert_allclose(a, b, atol=1e-6)


# ------------------------------------------------------------------------------- Bayes
def test_signed_rank_on_per_case_scores_is_refused_before_allocating():
    a = np.random.default_rng(0).random(20_000)
    with pytest.raises(MeasurelabError, match=r"20,000 scores, more than the 5,000 data sets"):
        ml.bayes_compare(a, a + 0.01, rope=0.01, method="signed-rank")


@pytest.mark.parametrize("method", ["signed-rank", "sign"])
def test_identical_models_are_a_stated_tie_not_a_coin_flip(method):
    a = [0.81, 0.74, 0.9, 0.66, 0.79]
    # (the sign test also says its posterior cannot leave the empty rope: every set ties)
    with pytest.warns(ml.UndefinedMeasureWarning, match="identical on every data set"), \
            warnings.catch_warnings():
        warnings.filterwarnings("ignore", "no posterior draw leaves the empty rope")
        r = ml.bayes_compare(a, list(a), rope=0, method=method)
    assert r.p_a_better == r.p_b_better == 0.5 and r.p_rope == 0
    with pytest.warns(ml.UndefinedMeasureWarning, match="identical"), \
            warnings.catch_warnings():
        warnings.filterwarnings("ignore", "no posterior draw leaves the empty rope")
        r2 = ml.bayes_compare(list(a), a, rope=0, method=method, names=("b", "a"))
    assert r2.probabilities == r.probabilities  # the order of the arguments decides nothing


def test_identical_models_through_demsar():
    table = {"a": [0.81, 0.74, 0.9, 0.66, 0.79], "b": [0.81, 0.74, 0.9, 0.66, 0.79],
             "c": [0.7, 0.7, 0.8, 0.6, 0.7]}
    with pytest.warns(ml.UndefinedMeasureWarning, match="identical"):
        t = ml.demsar(pd.DataFrame(table)).bayes(rope=0, method="signed-rank")
    row = t[(t.a == "a") & (t.b == "b")].iloc[0]
    assert row.p_a_better == row.p_b_better == 0.5


def test_within_rope_is_said():
    with pytest.warns(ml.UndefinedMeasureWarning, match="within the rope"):
        r = ml.bayes_compare([0.8, 0.7, 0.9], [0.805, 0.7, 0.895], rope=0.01,
                             method="signed-rank")
    assert r.p_rope > r.p_a_better and r.p_rope > r.p_b_better


@pytest.mark.parametrize("kw,cls,pattern", [
    ({"rope": "0.01"}, MeasurelabTypeError, "rope must be a number"),
    ({"rope": None}, MeasurelabTypeError, "rope must be a number"),
    ({"method": None}, MeasurelabTypeError, "method must be one of"),
    ({"method": "correlated-t", "prior": "abc"}, MeasurelabError, "not used by 'correlated-t'"),
    ({"method": "correlated-t", "prior": 2.0}, MeasurelabError, "not used by 'correlated-t'"),
    ({"n_samples": 10**9}, MeasurelabError, "n_samples must be at most"),
])
def test_bayes_compare_refusals(kw, cls, pattern):
    args = {"rope": 0.01, "method": "signed-rank", **kw}
    with pytest.raises(cls, match=pattern):
        ml.bayes_compare([0.8, 0.7, 0.9, 0.6], [0.7, 0.7, 0.8, 0.65], **args)


@pytest.mark.parametrize("kw,pattern", [({"n_sample": 100}, "unexpected option 'n_sample'"),
                                        ({"names": ("x", "y")}, "names is not an option")])
def test_bayes_pairs_options(kw, pattern):
    with pytest.raises(MeasurelabTypeError, match=pattern):
        ml.inference.bayes_pairs({"a": [.8, .7, .9], "b": [.7, .7, .8]}, rope=0.01,
                       method="signed-rank", **kw)


# ------------------------------------------------------------------ reliability diagram
def _calibrated(n: int = 300, seed: int = 0):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    return rng.random(n) < p, p


@pytest.mark.parametrize("w", [1e9, 1e5, 1e-3])
def test_reliability_weights_scale_nothing(w):
    """Weights multiply resampled cases (the library's rule): a constant weight, of any
    size, gives the band of the unit weights, and allocates nothing per unit of weight."""
    y, p = _calibrated()
    a = ml.reliability_diagram(y, p, sample_weight=np.full(p.size, w), n_boot=100)
    b = ml.reliability_diagram(y, p, sample_weight=np.ones(p.size), n_boot=100)
    np.testing.assert_allclose(a[["lo", "hi"]].to_numpy(), b[["lo", "hi"]].to_numpy(),
                               atol=1e-12)
    assert (a.hi - a.lo).mean() < 0.5  # not the one-case band of width 1


def test_reliability_weighted_band_is_the_case_bootstrap():
    """Brute force from the definition: resample the cases, multiply by their weights,
    y ~ Bernoulli(x), weighted PAV; the same draws in the same order."""
    from scipy.optimize import isotonic_regression

    y, p = _calibrated(60)
    p = np.round(p, 1)
    w = np.random.default_rng(1).uniform(0.5, 3, p.size)
    rd = ml.reliability_diagram(y, p, sample_weight=w, n_boot=50, random_state=3)
    x = np.unique(p)
    rng = np.random.default_rng(3)
    vals = []
    for _ in range(50):
        pick = rng.integers(0, p.size, p.size)
        out = rng.random(p.size) < p[pick]
        ws = {v: 0.0 for v in x}
        ps = {v: 0.0 for v in x}
        for i, o in zip(pick, out, strict=True):
            ws[p[i]] += w[i]
            ps[p[i]] += w[i] * o
        hit = [v for v in x if ws[v] > 0]
        fit = isotonic_regression([ps[v] / ws[v] for v in hit], weights=[ws[v] for v in hit]).x
        vals.append([fit[max(np.searchsorted(hit, v, side="right") - 1, 0)] for v in x])
    q = np.quantile(np.array(vals), [0.05, 0.95], axis=0)
    np.testing.assert_allclose(rd.lo, q[0], atol=1e-12)
    np.testing.assert_allclose(rd.hi, q[1], atol=1e-12)


def test_reliability_draws_bounded_for_a_table_of_huge_counts():
    t = ml.ScoreTable.from_arrays(np.array([0, 1]), np.array([0.2, 0.7]),
                                  np.array([1e9, 1e9]))
    with pytest.raises(MeasurelabError, match=r"n_boot × total count .* more than"):
        ml.reliability_diagram(t, n_boot=1000)


def test_plot_reliability_ax_and_plot_intervals_empty():
    import matplotlib

    matplotlib.use("Agg")
    y, p = _calibrated(40)
    with pytest.raises(MeasurelabTypeError, match="ax must be a matplotlib Axes"):
        ml.curves.plot_reliability(y, {"a": p}, ax="x", n_boot=10)
    cmp = ml.compare_classifiers(y, {"a": p, "b": 1 - p}, measures=["acc", "auc"], n_boot=100)
    with pytest.raises(MeasurelabError, match="measures is empty"):
        cmp.plot_intervals(measures=[])


# ------------------------------------------------------------------- types, labels, rows
_Y, _S = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.6, 0.8, 0.4, 0.3]
_YK = [0, 1, 2, 0, 1, 2]
_PK = np.array([[.6, .3, .1], [.2, .7, .1], [.1, .1, .8]] * 2)


def test_class_labels_whose_text_collides_are_refused():
    y = np.array([1, "1", 2, 1, "1", 2], dtype=object)
    pred = np.array([1, "1", 2, 2, 1, 2], dtype=object)
    for call in (lambda: ml.compare_classifiers(y, {"a": pred}, ci=None, average=None),
                 lambda: ml.evaluate(y, pred, average=None)):
        with pytest.raises(MeasurelabError, match=r"class labels 1 and '1' are the same text"):
            call()


def test_threshold_with_k_class_probabilities_is_refused():
    with pytest.raises(MeasurelabError, match=r"threshold=0\.3 does not apply to k classes"):
        ml.compare_classifiers(_YK, {"a": _PK}, threshold=0.3, ci=None)


def test_ragged_complex_and_text_rows():
    rows = [list(r) for r in _PK]
    rows[1] = [.2, .8]
    with pytest.raises(MeasurelabError, match=r"different lengths \(\[2, 3\]\)"):
        ml.compare_classifiers(_YK, {"a": rows}, ci=None)
    with pytest.raises(MeasurelabError, match="real numbers, got complex"):
        ml.compare_classifiers(_Y, {"a": np.array(_S) + 1j}, ci=None)
    text = _PK.astype(str).astype(object)
    text[0, 2] = "0_1"
    with pytest.raises(MeasurelabError, match=r"got '0_1' at row 1, column 3"):
        ml.compare_classifiers(_YK, {"a": text}, ci=None)
    with pytest.raises(MeasurelabError, match=r"y_score must be numeric, got .*'0_1'"):
        ml.ScoreTable.from_arrays(np.array([0, 1]), np.array(["0_1", "0.5"]))
    t = ml.ScoreTable.from_arrays(np.array([0, 1]), np.array(["0.25", "0.5"]))
    assert t.scores.tolist() == [0.25, 0.5]


def test_unpaired_lengths_name_the_parameters():
    with pytest.raises(MeasurelabError, match=r"^s_a has 3 scores but y_a has 4 cases"):
        ml.compare_unpaired([0, 1, 0, 1], [.1, .2, .3], [0, 1, 0, 1], [.1, .2, .3, .4])
    with pytest.raises(MeasurelabError, match=r"^s_b has 3 scores but y_b has 4 cases"):
        ml.compare_unpaired([0, 1, 0, 1], [.1, .2, .3, .5], [0, 1, 0, 1], [.1, .2, .3])


def test_wrong_types_raise_the_type_error():
    cmp = ml.compare_classifiers(_Y, {"a": _S}, ci=None)
    with pytest.raises(MeasurelabTypeError, match="path must be a file path"):
        cmp.to_html(123)
    with pytest.raises(MeasurelabTypeError, match="threshold must be a number"):
        ml.evaluate(_Y, _S, threshold="high")


# ---------------------------------------------------------------------- pages as a set
def _cmp():
    return ml.compare_classifiers(_Y, {"a": _S, "b": [.3, .6, .4, .4, .7, .2]},
                                  measures=["acc", "auc"], n_boot=100)


def test_page_named_as_its_own_json_is_refused(tmp_path):
    with pytest.raises(MeasurelabError, match="also the name of the page's JSON"):
        _cmp().to_html(tmp_path / "cmp.json")
    assert list(tmp_path.iterdir()) == []


def test_side_file_taken_by_a_folder_leaves_nothing(tmp_path):
    (tmp_path / "c-forest.png").mkdir()
    with pytest.raises(MeasurelabError, match=r"'c-forest.png' written beside the page, .* "
                                              "is a folder"):
        _cmp().to_html(tmp_path / "c.html")
    assert [p.name for p in tmp_path.iterdir()] == ["c-forest.png"]


def test_page_set_failure_mid_write_removes_everything(tmp_path, monkeypatch):
    import os

    from measurelab._util import pageset

    real = os.replace
    calls = []

    def failing(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(dst))
        return real(src, dst)

    monkeypatch.setattr(pageset.os, "replace", failing)
    with pytest.raises(MeasurelabError, match="No space left on device; nothing was written"), \
            pytest.warns(ml.UndefinedMeasureWarning, match="no interval for the difference"):
        _cmp().to_html(tmp_path / "c.html")  # (six cases: the study withholds AUC's)
    assert list(tmp_path.iterdir()) == []


def test_cli_page_checks_its_side_files_before_work(tmp_path, capsys):
    import pandas as pd

    from measurelab.cli import main

    pd.DataFrame({"y": _Y, "a": _S, "b": [.3, .6, .4, .4, .7, .2]}).to_csv(
        tmp_path / "s.csv", index=False)
    (tmp_path / "cmp.json").mkdir()
    assert main(["versus", str(tmp_path / "s.csv"), "--label-col", "y", "--score-col", "a",
                 "--score-col", "b", "--html", str(tmp_path / "cmp.html")]) == 2
    err = capsys.readouterr().err
    assert "--html" in err and "is a folder" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cmp.json", "s.csv"]
    assert main(["versus", str(tmp_path / "s.csv"), "--label-col", "y", "--score-col", "a",
                 "--score-col", "b", "--html", str(tmp_path / "cmp.json")]) == 2
    pd.DataFrame({"a": [.8, .7, .9], "b": [.7, .7, .8]}).to_csv(tmp_path / "r.csv",
                                                                index=False)
    (tmp_path / "r-cd.png").mkdir()
    assert main(["ranks", str(tmp_path / "r.csv"), "--html", str(tmp_path / "r.html")]) == 2
    assert not (tmp_path / "r.html").exists()


def test_ranks_reads_local_files_and_names_compressed_content(tmp_path, capsys):
    import gzip

    from measurelab.cli import main

    assert main(["ranks", "http://example.com/x.csv"]) == 2
    assert "local files only" in capsys.readouterr().err
    (tmp_path / "r.csv").write_bytes(gzip.compress(b"a,b\n0.8,0.7\n0.9,0.6\n"))
    assert main(["ranks", str(tmp_path / "r.csv")]) == 2
    assert "looks gzip-compressed" in capsys.readouterr().err


def test_every_figure_of_the_comparison_page_goes_through_the_page_set(tmp_path):
    """The figures main's pages gained (subgroups, calibration panels) are side files the
    page set checks first and writes with the rest."""
    from measurelab._util.pageset import COMPARISON_FIGURES
    from measurelab.inference.classifiers._report import figures

    g = np.random.default_rng(3)
    y = g.integers(0, 2, 120)
    s = np.clip(0.35 * y + 0.65 * g.random(120), 0.0, 1.0)
    t = np.clip(0.25 * y + 0.75 * g.random(120), 0.0, 1.0)
    r = ml.compare_classifiers(y, {"a": s, "b": t}, measures=["acc", "auc", "brier"],
                               n_boot=100, by=np.where(g.random(120) < 0.5, "f", "m"))
    stems = [stem for stem, *_ in figures(r)]
    assert {"groups", "calibration"} <= set(stems) and set(stems) <= set(COMPARISON_FIGURES)
    for stem in ("groups", "calibration"):
        (tmp_path / f"c-{stem}.png").mkdir()
        with pytest.raises(MeasurelabError, match=rf"'c-{stem}.png' written beside the page"):
            r.to_html(tmp_path / "c.html")
        assert [p.name for p in tmp_path.iterdir()] == [f"c-{stem}.png"]
        (tmp_path / f"c-{stem}.png").rmdir()
    r.to_html(tmp_path / "c.html")
    assert {f"c-{stem}.png" for stem in stems} <= {p.name for p in tmp_path.iterdir()}


def test_predict_proba_row_off_by_more_than_the_tolerance_prints_its_sum_in_full():
    from measurelab._util.validation import _ROW_SUM_TOLERANCE
    from measurelab.stats.probrows import SUM_TOLERANCE

    assert _ROW_SUM_TOLERANCE == SUM_TOLERANCE  # one tolerance, binary and k classes
    P = np.array([[0.5, 0.5000011], [0.4, 0.6], [0.3, 0.7], [0.8, 0.2]])
    with pytest.raises(MeasurelabError, match=r"row 0 \(0\.5, 0\.5000011; sum 1\.0000011\)"):
        ml.compare_classifiers([0, 1, 1, 0], {"x": P})
    P32 = np.array([[0.3, 0.7000001], [0.6, 0.4], [0.2, 0.8], [0.9, 0.1]], dtype=np.float32)
    a = ml.compare_classifiers([0, 1, 1, 0], {"x": P32}, ci=None).values()
    b = ml.compare_classifiers([0, 1, 1, 0], {"x": P32.astype(np.float64)}, ci=None).values()
    pd.testing.assert_frame_equal(a, b)
