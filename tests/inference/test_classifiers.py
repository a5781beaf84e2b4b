"""compare_classifiers: values equal evaluate, paired tests by independent routes, Holm over
all rows, verdicts from likelihood ratios, JSON shape, figures and the HTML page, bad input."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from scipy.stats import chi2

import measurelab as ml
from measurelab.inference import intervals as iv
from measurelab.inference.classifiers.binary import reliability
from measurelab.inference.evidence import plain_method
from measurelab.measures.likelihood import dp_band, likelihood_verdict
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable
from tests.conftest import make_binary
from tests.inference.test_intervals import _brute_delong


@pytest.fixture
def three(rng):
    yl, s, _ = make_binary(rng, 240, ties=True)
    y = yl == 1
    a = s
    b = np.clip(np.round(s + rng.normal(0, 0.15, s.size), 2), 0, 1)
    c = np.clip(np.round(rng.random(s.size), 2), 0, 1)
    return y.astype(int), {"a": a, "b": b, "c": c}


def test_values_equal_evaluate_per_model(three):
    y, models = three
    r = ml.compare_classifiers(y, models, ci=None, measures="all")
    v = r.values()
    assert list(v.columns) == ["a", "b", "c"]
    for name, s in models.items():
        assert v[name].to_dict() == dict(ml.evaluate(y, s))
    # the default is the headline set, in its order
    d = ml.compare_classifiers(y, models, ci=None).values()
    assert list(d.index) == list(ml.inference.classifiers.compare.HEADLINE)
    assert d.to_dict() == v.loc[list(d.index)].to_dict()
    # scores that are not probabilities: the headline set without brier and mxe
    z = ml.compare_classifiers(y, {k: 3 * s - 1 for k, s in models.items()}, ci=None)
    assert list(z.values().index) == ["auc", "ap", "f1", "mcc", "acc"]


def test_paired_tests_by_independent_routes(three):
    y, models = three
    r = ml.compare_classifiers(y, models, measures=["acc", "auc", "f1"], n_boot=200,
                               random_state=1)
    t = r.tests()
    assert list(t.columns[:9]) == ["a", "b", "measure", "diff", "lo", "hi", "p", "p_holm",
                                   "method"]
    assert len(t) == 3 * 3
    yb = y == 1
    auc_b, cov_b = _brute_delong(yb, [models["a"], models["b"], models["c"]])
    names = ["a", "b", "c"]
    for row in t.itertuples():
        ia, ib = names.index(row.a), names.index(row.b)
        sa, sb = models[row.a], models[row.b]
        if row.measure == "acc":
            assert row.method == "mcnemar"
            ca, cb = (sa > 0.5) == yb, (sb > 0.5) == yb
            b, c = int(np.sum(ca & ~cb)), int(np.sum(~ca & cb))
            # McNemar's score test (the statistic Tango's interval inverts): z² ~ χ²₁
            expect = chi2.sf((b - c) ** 2 / (b + c), 1) if b + c else 1.0
            assert abs(row.p - expect) < 1e-12
        elif row.measure == "auc":
            assert row.method == "delong"
            var = cov_b[ia, ia] + cov_b[ib, ib] - 2 * cov_b[ia, ib]
            assert abs(row.diff - (auc_b[ia] - auc_b[ib])) < 1e-12
            assert abs(row.se - math.sqrt(var)) < 1e-12
        else:
            assert row.method == "dirichlet-posterior"
            assert row.lo <= row.diff <= row.hi
    np.testing.assert_array_equal(t["p_holm"].to_numpy(), iv.holm(t["p"].to_numpy()))


def test_paired_bootstrap_shares_the_cases(rng):
    # two nearly identical models: the paired difference varies far less than either value
    yl, s, _ = make_binary(rng, 300, ties=False)
    s2 = s + rng.normal(0, 1e-3, s.size)
    r = ml.compare_classifiers(yl, {"a": s, "b": s2}, measures=["apr"], n_boot=300)
    iv_a = r.intervals().set_index("model").loc["a"]
    row = r.tests().iloc[0]
    assert (row.hi - row.lo) < 0.1 * (iv_a.hi - iv_a.lo)


def test_verdicts_use_sokolova_rules(three):
    y, models = three
    r = ml.compare_classifiers(y, models, measures=["acc"], ci=None)
    v = r.verdicts()
    assert len(v) == 3
    for row in v.itertuples():
        t = ScoreTable.from_arrays(y == 1, models[row.a])
        u = ScoreTable.from_arrays(y == 1, models[row.b])
        ca, cb = t.counts_at(0.5), u.counts_at(0.5)
        assert row.verdict == likelihood_verdict(ca, cb)
        assert row.dp_band_a == dp_band(row.dp_a) and row.dp_band_b == dp_band(row.dp_b)


def test_sokolova_svm_nb_from_confusion_matrices():
    # Sokolova 2006 Table 2: SVM tp=1242 fp=390 fn=189 tn=740; NB tp=1108 fp=272 fn=323
    # tn=858 — hard 0/1 predictions that reproduce the two matrices on the same cases
    svm, nb = BinaryCounts(1242, 390, 189, 740), BinaryCounts(1108, 272, 323, 858)
    y = np.r_[np.ones(1431, int), np.zeros(1130, int)]
    p_svm = np.r_[np.ones(1242), np.zeros(189), np.ones(390), np.zeros(740)]
    p_nb = np.r_[np.ones(1108), np.zeros(323), np.ones(272), np.zeros(858)]
    r = ml.compare_classifiers(y, {"svm": p_svm, "nb": p_nb}, measures=["acc"], ci=None)
    row = r.verdicts().iloc[0]
    assert row.verdict == likelihood_verdict(svm, nb)
    assert row.dp_band_a == dp_band(float(ml.evaluate_counts(tp=1242, fp=390, fn=189, tn=740,
                                                             measures=["dp"])["dp"]))


def test_preferences_follow_direction(three):
    y, models = three
    r = ml.compare_classifiers(y, models, measures=["auc", "brier"], n_boot=100)
    p = r.preferences().set_index("measure")
    v = r.values()
    assert p.loc["auc", "prefers"] == v.loc["auc"].idxmax()
    assert p.loc["brier", "prefers"] == v.loc["brier"].idxmin()
    tests = r.tests()
    best, runner = p.loc["auc", "prefers"], p.loc["auc", "runner_up"]
    assert runner == v.loc["auc"].drop(best).idxmax()
    pair = tests[(tests.measure == "auc") & tests.a.isin([best, runner])
                 & tests.b.isin([best, runner])]
    assert p.loc["auc", "p_holm"] == pair["p_holm"].item()
    assert p.loc["auc", "significant"] == bool(pair["p_holm"].item() < 0.05)
    mine = tests[(tests.measure == "auc") & ((tests.a == best) | (tests.b == best))]
    beaten = sorted(set(mine[mine.p_holm < 0.05][["a", "b"]].to_numpy().ravel()) - {best})
    assert sorted(filter(None, p.loc["auc", "beats"].split(", "))) == beaten


def test_json_shapes(three):
    y, models = three
    plain = ml.compare_classifiers(y, models, measures=["acc", "auc"], ci=None).to_dict()
    assert set(plain) == {"models"}
    assert set(plain["models"]["a"]) == {"acc", "auc"}
    assert isinstance(plain["models"]["a"]["acc"], float)
    full = json.loads(ml.compare_classifiers(y, models, measures=["acc", "auc"],
                                             n_boot=100).to_json())
    assert set(full) == {"models", "pairs", "verdicts"}
    assert set(full["models"]["a"]["acc"]) == {"value", "lo", "hi", "method"}
    assert set(full["models"]["a"]["auc"]) == {"value", "lo", "hi", "method", "se"}
    keys = {"a", "b", "measure", "diff", "lo", "hi", "p", "p_holm", "method", "interval"}
    for pr in full["pairs"]:
        assert set(pr) == (keys | {"se", "z"} if pr["measure"] == "auc" else keys)
    assert len(full["verdicts"]) == 3


def test_constant_model_gives_null_and_warning():
    y = np.array([0, 1] * 40)   # 40 cases a class: DeLong's interval (Newcombe's below 30)
    s = np.linspace(0, 1, 80)
    with pytest.warns(ml.UndefinedMeasureWarning, match="constant scores"):
        r = ml.compare_classifiers(y, {"s": s, "k": np.full(80, 0.7)}, measures=["auc"],
                                   n_boot=100)
        d = json.loads(r.to_json())
    # SE 0: the interval is the value itself, and the warning says why
    k_auc = d["models"]["k"]["auc"]
    assert {**k_auc, "method": plain_method(k_auc["method"])} == {
        "value": 0.5, "lo": 0.5, "hi": 0.5, "method": "delong-logit", "se": 0.0}
    assert d["pairs"][0]["p"] is not None


def test_plot_and_html(three, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    y, models = three
    r = ml.compare_classifiers(y, models, measures=["acc", "auc"], n_boot=100)
    fig = r.plot()
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[:3] == ["ROC", "precision–recall", "reliability (CORP; 95% consistency bands)"]
    # the CORP curve of each model is its isotonic recalibration (PAV), drawn in the diagram
    from sklearn.isotonic import IsotonicRegression

    lines = [ln for ln in fig.axes[2].get_lines() if ln.get_label() in models]
    assert len(lines) == 3
    for ln in lines:
        s = np.asarray(models[ln.get_label()], dtype=float)
        iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
        x = np.asarray(ln.get_xdata())
        assert np.allclose(ln.get_ydata(), iso.predict(x), atol=1e-9)
    import matplotlib.pyplot as plt

    plt.close(fig)
    out = r.to_html(tmp_path / "cmp.html")
    html = out.read_text()
    assert "data:image/png;base64," in html and "All paired tests" in html
    # self-contained: the only script is inline (the table sorter); nothing is fetched
    assert "<script src" not in html and "src=\"http" not in html and "src='http" not in html
    assert "href='http" not in html and "@import" not in html


def test_curve_bands_bracket_the_curve_on_average(three):
    y, models = three
    r = ml.compare_classifiers(y, models, measures=["auc"], n_boot=100)
    b = r.curve_bands()
    c = b["roc"]["a"]
    mid = np.interp(b["grid"], c["x"], c["y"])
    assert np.mean((c["lo"] <= mid + 1e-12) & (mid <= c["hi"] + 1e-12)) > 0.9


def test_reliability_from_table_matches_binning():
    g = np.random.default_rng(0)
    s = g.random(500)
    y = g.random(500) < s
    mean_s, frac, lo, hi = reliability(ScoreTable.from_arrays(y, s), bins=5)
    b = np.minimum((s * 5).astype(int), 4)
    for i in range(5):
        assert abs(mean_s[i] - s[b == i].mean()) < 1e-12
        assert abs(frac[i] - y[b == i].mean()) < 1e-12
        assert (lo[i], hi[i]) == iv.proportion_interval(y[b == i].sum(), (b == i).sum())


def test_weighted_comparison_uses_bootstrap(three, rng):
    y, models = three
    w = rng.uniform(0.5, 2, y.size)
    r = ml.compare_classifiers(y, models, measures=["acc", "auc"], n_boot=100, sample_weight=w)
    # weighted cases: a design no coverage study has run
    assert set(r.intervals()["method"]) == {"bootstrap-bca (no coverage evidence)"}
    assert set(r.tests()["method"]) == {"bootstrap"}


def test_bad_input():
    y = [0, 1, 0, 1]
    with pytest.raises(ml.MeasurelabError, match="model 'b' has 3 scores but y_true has 4"):
        ml.compare_classifiers(y, {"a": [0.1, 0.2, 0.3, 0.4], "b": [0.1, 0.2, 0.3]})
    with pytest.raises(ml.MeasurelabError, match="model name 'a' is given twice"):
        ml.compare_classifiers(y, [("a", [0.1, 0.2, 0.3, 0.4]), ("a", [0.4, 0.3, 0.2, 0.1])])
    with pytest.raises(ml.MeasurelabError, match=r"ci must be in \(0, 1\)"):
        ml.compare_classifiers(y, {"a": [0.1, 0.2, 0.3, 0.4]}, ci=0)
    with pytest.raises(ml.MeasurelabError, match="n_boot must be a positive integer"):
        ml.compare_classifiers(y, {"a": [0.1, 0.2, 0.3, 0.4]}, n_boot=0)
    with pytest.raises(ml.MeasurelabError, match="models is empty"):
        ml.compare_classifiers(y, {})
    with pytest.raises(ml.MeasurelabError, match="bootstrap of a comparison needs both classes"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ml.compare_classifiers([1, 1, 1], {"a": [0.1, 0.5, 0.9]}, measures=["ap"]
                                   ).intervals()
    # the posterior of the cells has no interval with one class either: NaN and a warning
    with pytest.warns(ml.UndefinedMeasureWarning, match="the sample has one class"):
        t = ml.compare_classifiers([1, 1, 1], {"a": [0.1, 0.5, 0.9]}, measures=["f1"]
                                   ).intervals()
    assert math.isnan(t.loc[0, "lo"]) and math.isnan(t.loc[0, "hi"])


def test_lazy_top_level_export():
    import subprocess
    import sys

    code = ("import sys, measurelab; assert 'measurelab.inference.classifiers.binary' not in "
            "sys.modules; assert 'scipy' not in sys.modules; measurelab.compare_classifiers")
    subprocess.run([sys.executable, "-c", code], check=True)


# the demo's default set names cal, whose interval is withheld by design (the method column)
@pytest.mark.filterwarnings(
    "ignore:no interval for cal:measurelab.exceptions.UndefinedMeasureWarning")
def test_demo_comparison_section(tmp_path, three):
    import io

    from measurelab.cli.demo import COMPARE_MEASURES, SEED, compare_demo_models

    y, models = three
    buf = io.StringIO()
    md, page, summary = compare_demo_models(y, models, tmp_path, buf)
    assert page.exists() and "data:image/png;base64," in page.read_text()
    assert "## Are the differences real?" in md.splitlines() and "| auc " in md  # the whole line
    api = ml.compare_classifiers(y, models, measures=list(COMPARE_MEASURES), n_boot=1000,
                                 random_state=SEED)
    lr = api.intervals().query("model == 'a' and measure == 'auc'").iloc[0]
    assert f"{lr.value:.3f} [{lr.lo:.3f}, {lr.hi:.3f}]" in md
    assert "mcnemar" in buf.getvalue() and "delong" in buf.getvalue()
    assert summary == api.summary()


def test_models_may_be_a_generator_of_pairs():
    """The pairs are read once: a generator is not consumed by the first look."""
    pairs = ((n, s) for n, s in [("a", [0.1, 0.9, 0.2, 0.8]), ("b", [0.6, 0.4, 0.2, 0.8])])
    r = ml.compare_classifiers([0, 1, 0, 1], pairs, measures=["acc"], ci=None)
    assert r.names == ["a", "b"]


# ------------------------------------------------ a measure with a target value (z: 0)
def _calibrated_and_cautious(n: int = 1500, seed: int = 11):
    """A calibrated model (z near 0), the same probabilities shrunk towards ½ (too
    cautious: z far below 0) and pushed away from ½ (too extreme: z above 0)."""
    g = np.random.default_rng(seed)
    q = g.beta(2, 2, n)
    y = (g.random(n) < q).astype(int)
    return y, {"cal": q, "cautious": 0.5 + 0.4 * (q - 0.5),
               "extreme": 1 / (1 + np.exp(-1.6 * np.log(q / (1 - q))))}


def test_target_measure_ranks_by_distance_in_preferences_tests_and_sentences():
    """spiegelhalter_z is ranked by |z|: the calibrated model is preferred although the
    cautious one has the lowest z; the pair rows test |z_a| − |z_b| (computed here from
    each model's z), and the sentences name the nearer model."""
    from measurelab.inference.classifiers._report import best_sentence, pair_sentences

    y, models = _calibrated_and_cautious()
    r = ml.compare_classifiers(y, models, measures=["spiegelhalter_z", "auc"], n_boot=300,
                               random_state=2)
    z = {k: ml.metrics.spiegelhalter_z(y, p) for k, p in models.items()}
    assert z["cautious"] < -5 < 5 < z["extreme"] and abs(z["cal"]) < 3
    p = r.preferences().set_index("measure")
    assert p.loc["spiegelhalter_z", "direction"] == "closer to 0"
    assert p.loc["spiegelhalter_z", "prefers"] == "cal"
    assert p.loc["spiegelhalter_z", "value"] == z["cal"]
    assert p.loc["spiegelhalter_z", "runner_up"] == min(("cautious", "extreme"),
                                                        key=lambda k: abs(z[k]))
    # a test statistic has no population value to cover: its pair rows report the
    # difference of the distances and no interval or test (so nothing is "beaten")
    assert p.loc["spiegelhalter_z", "beats"] == ""
    t = r.tests()
    t = t[t.measure == "spiegelhalter_z"].set_index(["a", "b"])
    for a, b in t.index:
        row = t.loc[(a, b)]
        assert row["diff"] == pytest.approx(abs(z[a]) - abs(z[b]), rel=1e-12)
        assert row["interval"].startswith("no interval: a test statistic")
        assert math.isnan(row["lo"]) and math.isnan(row["hi"]) and math.isnan(row["p"])
    assert "spiegelhalter_z" not in " ".join(pair_sentences(r, ["spiegelhalter_z", "auc"]))
    assert best_sentence(r, ["spiegelhalter_z"]).startswith(
        "Best model per measure: cal on spiegelhalter_z")
    # a tie in distance is a tie: z and −z
    r2 = ml.compare_classifiers(y, {"a": models["cal"], "b": models["cal"]},
                                measures=["spiegelhalter_z"], ci=None)
    assert r2.preferences().loc[0, "prefers"] == ""
    assert "a and b tie on spiegelhalter_z" in best_sentence(r2, ["spiegelhalter_z"])


def test_forest_plot_says_which_side_is_better():
    from measurelab.inference.classifiers._figures import better_side

    y, models = _calibrated_and_cautious(400)
    r = ml.compare_classifiers(y, {k: models[k] for k in ("cal", "cautious")},
                               measures=["auc", "brier", "spiegelhalter_z"], n_boot=200)
    with pytest.warns(ml.UndefinedMeasureWarning, match="no interval for spiegelhalter_z"):
        fig = r.plot_intervals()
    labels = [ax.get_xlabel() for ax in fig.axes]
    assert labels == ["higher is better →", "a better →", "← lower is better", "← a better",
                      "closer to 0 is better", "← a closer to 0"]
    assert better_side(ml.registry.get("err")) == ("← lower is better", "← a better")
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_unpaired_rows_of_a_target_measure_compare_distances():
    y, models = _calibrated_and_cautious(600, seed=3)
    ya, yb = y[:300], y[300:]
    r = ml.compare_unpaired(ya, models["cautious"][:300], yb, models["cal"][300:],
                            measures=["spiegelhalter_z"], n_boot=300, names=("c", "k"))
    row = r.tests().iloc[0]
    za = ml.metrics.spiegelhalter_z(ya, models["cautious"][:300])
    zb = ml.metrics.spiegelhalter_z(yb, models["cal"][300:])
    assert row["diff"] == pytest.approx(abs(za) - abs(zb), rel=1e-12)
    assert row["interval"].startswith("no interval: a test statistic")
