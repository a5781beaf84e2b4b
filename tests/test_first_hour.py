"""A user's first hour (issue 33): the four workflows of the issue on small data, each from
scikit-learn's outputs as they come to a printed answer and a page — no reshaping, no
encoding by hand — with every number checked against an independent route.

1. a hold-out comparison of three scikit-learn models from ``predict_proba``;
2. a cross-validation study over bundled data sets (``datasets.load(encode=True)``);
3. a calibration check (panels, numbers, ranges off the band), the figure in Chromium;
4. a 3- and a 6-class comparison.
"""

from __future__ import annotations

import html as html_lib
import re
import shutil
import subprocess
import warnings

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import measurelab as ml
from measurelab.cli import main
from measurelab.exceptions import MeasurelabError
from measurelab.inference import demsar
from measurelab.io import datasets
from measurelab.measures.base import registry

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--disable-dev-shm-usage", "--window-size=1280,900"]


def _models() -> dict:
    return {"lr": make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
            "nb": GaussianNB(),
            "rf": RandomForestClassifier(n_estimators=30, min_samples_leaf=5, random_state=0)}


@pytest.fixture(scope="module")
def holdout():
    d = datasets.load("diabetes", encode=True)   # numbers and a stated positive class
    X, y = d
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    proba = {k: m.fit(X_tr, y_tr).predict_proba(X_te) for k, m in _models().items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y_te, proba, n_boot=300)   # (n, 2) as it comes
        cmp.tests()
    return d, y_te.to_numpy(), proba, cmp


# ---------------------------------------------------------------- 1. hold-out, binary
def test_predict_proba_as_it_comes_equals_scikit_learn(holdout):
    _d, y, proba, cmp = holdout
    v = cmp.values()
    for name, P in proba.items():
        assert P.shape == (y.size, 2)
        assert v.loc["auc", name] == pytest.approx(skm.roc_auc_score(y, P[:, 1]), abs=1e-12)
        assert v.loc["brier", name] == pytest.approx(skm.brier_score_loss(y, P[:, 1]),
                                                     abs=1e-12)
        assert v.loc["mxe", name] == pytest.approx(skm.log_loss(y, P), rel=1e-9)
        assert v.loc["acc", name] == pytest.approx(
            skm.accuracy_score(y, P.argmax(axis=1)), abs=1e-12)
    assert len(cmp.notes) == 3 and all("column 1" in n for n in cmp.notes)


def test_print_answers(holdout):
    d, y, _proba, cmp = holdout
    text = repr(cmp)
    first = text.splitlines()[0]
    assert first.startswith("ClassifierComparison of 3 models (lr, nb, rf) on "
                            f"{y.size} cases ({int(y.sum())} positive, pos_label=1")
    assert "n_boot=300" in first and "random_state=0" in first
    assert cmp.summary() in text   # the answer, not an object address
    assert "object at 0x" not in text
    assert d.positive == "tested_positive" and "1 = 'tested_positive'" in repr(d)


def test_page_explains_itself(holdout, tmp_path):
    *_, cmp = holdout
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = cmp.to_html(tmp_path / "cmp.html").read_text(encoding="utf-8")
    prov = re.search(r"<p class='provenance'>(.*?)</p>", page).group(1)
    for key in ("input", "n: ", "positives: ", "threshold: ", "positive label: ", "n_boot: 300",
                "seed: 0", "level: 95%", "measurelab: ", "date: "):
        assert key in prov, key
    # a glossary entry for every measure on the page, with its direction
    gloss = page.split("Glossary", 1)[1].split("</table>", 1)[0]
    for m in cmp.values().index:
        assert f"<td>{m}</td>" in gloss, m
        assert registry.get(m).direction + " is better" in gloss
    assert "log_loss" in gloss and "Mean cross-entropy" in gloss   # mxe is log loss
    # one level across the page: no 90% band anywhere
    assert "90%" not in page and "95% bands" in page
    titles = [ax.get_title() for ax in cmp.plot().axes] + [cmp.plot_calibration()._suptitle
                                                            .get_text()]
    assert not any("90%" in t for t in titles) and "95% consistency bands" in titles[-1]
    # p-values below 0.001 are "< 0.001", never a bare 0
    assert "&lt; 0.001" in page or "< 0.001" in html_lib.unescape(page)


def test_preferences_columns_say_what_they_compare(holdout):
    *_, cmp = holdout
    p = cmp.preferences()
    assert (p["p_holm_vs_runner_up"].fillna(-1) == p["p_holm"].fillna(-1)).all()
    assert (p["better_than_runner_up"] == p["significant"]).all()
    assert (p["significantly_better_than"] == p["beats"]).all()
    t = cmp.tests()
    for r in p.itertuples():
        if not r.prefers:
            continue
        pair = t[(t["measure"] == r.measure) & t["a"].isin([r.prefers, r.runner_up])
                 & t["b"].isin([r.prefers, r.runner_up])]
        assert pair["p_holm"].iloc[0] == pytest.approx(r.p_holm_vs_runner_up)


def test_string_labels_and_errors_that_do_not_contradict():
    g = np.random.default_rng(0)
    y = np.where(g.random(200) < 0.4, "yes", "no")
    pred = np.where(g.random(200) < 0.7, y, np.where(y == "yes", "no", "yes"))
    r = ml.evaluate(y, pred, pos_label="yes", measures=["acc", "f1", "sens"])
    assert r["acc"] == pytest.approx(skm.accuracy_score(y, pred), abs=1e-12)
    assert r["f1"] == pytest.approx(skm.f1_score(y, pred, pos_label="yes"), abs=1e-12)
    assert r["sens"] == pytest.approx(skm.recall_score(y, pred, pos_label="yes"), abs=1e-12)
    p = g.random(200)
    yi = (y == "yes").astype(int)
    ici = ml.evaluate(yi, np.c_[1 - p, p], measures=["ici"])["ici"]
    assert ici == ml.evaluate(yi, p, measures=["ici"])["ici"]
    with pytest.raises(MeasurelabError, match=r"^scores of 'x' is an \(n, 2\) array whose "
                       r"row 0 .*not a pair of class probabilities") as e:
        ml.compare_classifiers(yi, {"x": np.c_[p, p]})
    assert "\n" not in str(e.value)


def test_decompose_score_takes_every_name_of_the_log_loss():
    g = np.random.default_rng(1)
    y = g.integers(0, 2, 300)
    p = np.clip(0.3 * y + 0.7 * g.random(300), 0.01, 0.99)
    ref = ml.decompose_score(y, p, "log")
    assert ref.score == pytest.approx(skm.log_loss(y, p), rel=1e-9)
    for name in ("logloss", "log_loss", "mxe", "cross-entropy", "Cross_Entropy"):
        assert ml.decompose_score(y, p, score=name) == ref
    assert ml.decompose_score(y, p, score="brier_score").score == pytest.approx(
        skm.brier_score_loss(y, p), abs=1e-12)


# -------------------------------------------------------------- 2. cross-validation
def test_cross_validation_over_bundled_data_sets(capsys, tmp_path):
    rows = []
    for name in ("breast-w", "heart-statlog", "sonar", "ionosphere"):
        X, y = datasets.load(name, encode=True)
        assert X.dtypes.map(lambda t: t.kind == "f").all() and set(y.unique()) == {0, 1}
        rows.append({"dataset": name, **{k: cross_val_score(m, X, y, cv=3,
                                                            scoring="roc_auc").mean()
                                         for k, m in _models().items()}})
    table = pd.DataFrame(rows)
    res = demsar(table.set_index("dataset"))
    assert repr(res).count("\n") == 0 and "DemsarResult: 3 models over 4 data sets" in \
        repr(res)
    f = tmp_path / "auc.csv"
    table.to_csv(f, index=False)
    assert main(["ranks", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.index("Average ranks") < out.index(" a ")   # the answer, then the table
    assert main(["ranks", str(f), "--quiet"]) == 0
    quiet = capsys.readouterr().out
    assert "Average ranks" in quiet and "wins" not in quiet
    assert main(["ranks", str(f), "--tables"]) == 0
    assert "Average ranks" not in capsys.readouterr().out


def test_encoded_features_equal_a_one_hot_by_hand():
    X_raw, _ = datasets.load("credit-a")
    X, y = datasets.load("credit-a", encode=True)
    nominal = [c for c in X_raw.columns if X_raw[c].dtype == object]
    hand = pd.get_dummies(X_raw[nominal], prefix_sep="=").astype(float)
    for c in hand.columns:
        assert (X[c].to_numpy() == hand[c].to_numpy()).all(), c
    num = [c for c in X_raw.columns if c not in nominal]
    for c in num:
        filled = X_raw[c].fillna(X_raw[c].median())
        assert np.array_equal(X[c].to_numpy(), filled.to_numpy(dtype=float))
    raw = datasets.load("credit-a")[1]
    assert int(y.sum()) == int((raw == "+").sum())   # '+' is the rarer class


# --------------------------------------------------------------------- 3. calibration
@pytest.fixture(scope="module")
def calibration(tmp_path_factory):
    g = np.random.default_rng(5)
    n = 600
    y = g.integers(0, 2, n)
    z = 1.3 * y + g.normal(size=(3, n))
    p = 1 / (1 + np.exp(-(z - 0.65) * np.array([[1.0], [0.5], [2.0]])))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, {"lr": p[0], "flat": p[1], "sharp": p[2]},
                                     n_boot=300)
        page = cmp.to_html(tmp_path_factory.mktemp("cal") / "cal.html")
    return y, p, cmp, page


def test_calibration_panels_show_the_numbers(calibration):
    y, p, cmp, _page = calibration
    from measurelab.inference.classifiers import _calibration_figure as cal

    fig = cmp.plot_calibration()
    assert len(fig.axes) == 6   # a panel and a histogram per model
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    table = cmp.calibration().set_index("model")
    for name, s in zip(cmp.names, p, strict=True):
        shown = next(t for t in texts if f"brier_mcb {table.loc[name, 'brier_mcb']:.3f}" in t)
        assert f"95% CI {table.loc[name, 'lo']:.3f} to {table.loc[name, 'hi']:.3f}" in shown
        assert f"smECE {ml.evaluate(y, s, measures=['smece'])['smece']:.3f}" in shown
        verdict = str(table.loc[name, "verdict"]).replace("consistent with calibrated",
                                                          "consistent")
        assert "(no interval)" in shown and f"calibration test: {verdict}" in shown
    labels = {ax.get_ylabel() for ax in fig.axes} | {ax.get_xlabel() for ax in fig.axes}
    assert "observed frequency of positives" in labels and "predicted probability" in labels
    assert not any("CEP" in x for x in labels)
    assert all(len(ax.patches) >= 20 for ax in fig.axes[1::2])   # the histograms
    _ = cal


def test_ranges_off_the_band_by_brute_force(calibration):
    _y, p, cmp, _page = calibration
    from measurelab.inference.classifiers import _calibration_figure as cal

    ranges = cmp.calibration_ranges()
    assert set(ranges["model"]) <= set(cmp.names) and len(ranges)
    for name, s in zip(cmp.names, p, strict=True):
        rd = cal.diagrams(cmp)[name]
        out = (rd["cep"] < rd["lo"]) | (rd["cep"] > rd["hi"])
        mine = ranges[ranges["model"] == name]
        # every point outside lies in one listed range, every listed point is outside
        for x, o in zip(rd["x"], out, strict=True):
            hit = ((mine["from"] <= x) & (x <= mine["to"])).any()
            assert hit == bool(o), (name, x)
        for r in mine.itertuples():
            assert r.cases == ((s >= r._2) & (s <= r.to)).sum()
            below = rd["cep"] < rd["lo"]
            inside = (rd["x"] >= r._2) & (rd["x"] <= r.to)
            assert (below[inside] == (r.observed == "below predicted")).all()


def _chromium() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("chromium is not installed: `make test` installs it "
                    "(apt-get install -y chromium); see README 'Tests'")
    return exe


def test_calibration_figure_with_three_models_in_chromium(calibration, tmp_path):
    *_, page = calibration
    exe = _chromium()
    png = page.with_name(page.stem + "-calibration.png")
    assert png.stat().st_size > 1000
    probe = tmp_path / "probe.html"
    probe.write_text(f"<html><body style='margin:0'><img src='{png.as_uri()}' "
                     "style='width:1280px'></body></html>", encoding="utf-8")
    shot = tmp_path / "cal.png"
    r = subprocess.run([exe, *FLAGS, f"--user-data-dir={tmp_path / 'shot'}",
                        "--virtual-time-budget=5000", f"--screenshot={shot}",
                        probe.as_uri()], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and shot.is_file(), r.stderr[-2000:]
    img = mpimg.imread(shot)[..., :3]
    assert img.shape[:2] == (900, 1280)
    # three panels side by side, each with its own model colour (Okabe–Ito blue,
    # vermillion, bluish green) in its own third of the screen: no muddy overlap
    thirds = np.array_split(np.arange(1280), 3)
    for cols, rgb in zip(thirds, ((0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00),
                                  (0x00, 0x9E, 0x73)), strict=True):
        near = np.abs(img[:, cols] - np.array(rgb) / 255).max(axis=2) < 0.1
        assert near.sum() > 300, rgb
        others = [c for c in ((0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00), (0x00, 0x9E, 0x73))
                  if c != rgb]
        for o in others:
            assert (np.abs(img[:, cols] - np.array(o) / 255).max(axis=2) < 0.05).sum() < \
                near.sum() / 5
    # text on the panels: the number boxes hold dark pixels
    assert float((img.mean(axis=2) < 0.3).mean()) > 0.005


# ---------------------------------------------------------------------- 4. k classes
@pytest.mark.parametrize("k", [3, 6])
def test_k_class_comparison_names_every_measure(k, tmp_path):
    g = np.random.default_rng(k)
    n = 300
    y = g.integers(0, k, n)
    models = {}
    for name, s in (("lr", 1.0), ("rf", 2.0)):
        logits = s * (1.2 * np.eye(k)[y] + g.normal(size=(n, k)))
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        models[name] = e / e.sum(axis=1, keepdims=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, models, n_boot=200)
        rows = list(cmp.values().index)
        assert rows == ["acc", "f1", "mcc", "auc", "mxe", "brier", "ece"]   # no duplicates
        t = cmp.tests()
        tested = t[~t["interval"].astype(str).str.startswith("no interval")]
        # Holm over the rows reported: the smallest p times the number of tested rows
        p_min = tested["p"].min()
        assert tested["p_holm"].min() == pytest.approx(min(1.0, p_min * len(tested)))
        summary = cmp.summary()
        for m in rows:
            assert re.search(rf"\b{m}\b", summary), m
        assert cmp.values().loc["acc", "rf"] == pytest.approx(
            skm.accuracy_score(y, models["rf"].argmax(axis=1)), abs=1e-12)
        page = cmp.to_html(tmp_path / "k.html").read_text(encoding="utf-8")
        assert "top label" in page and f"({k} classes: " in repr(cmp).splitlines()[0]
        v = cmp.verdicts()
        assert len(v) == 0 and "two classes" in v.attrs["note"] and "No verdicts" in repr(v)


@pytest.mark.parametrize("route", ["auc", "calibration_test", "reliability_diagram",
                                   "roc_curve", "compare_unpaired", "decompose_score",
                                   "evaluate_ci"])
def test_every_binary_entry_point_takes_predict_proba(route):
    g = np.random.default_rng(2)
    y = g.integers(0, 2, 150)
    p = np.clip(0.3 * y + 0.7 * g.random(150), 0, 1)
    P = np.c_[1 - p, p]
    call = {
        "auc": lambda s: ml.metrics.auc(y, s),
        "calibration_test": lambda s: tuple(ml.calibration_test(y, s, n_resamples=99)),
        "reliability_diagram": lambda s: ml.reliability_diagram(y, s, n_boot=50),
        "roc_curve": lambda s: ml.roc_curve(y, s),
        "compare_unpaired": lambda s: ml.compare_unpaired(y, s, y[::-1], p[::-1],
                                                          n_boot=100).values(),
        "decompose_score": lambda s: ml.decompose_score(y, s, "logloss"),
        "evaluate_ci": lambda s: ml.evaluate(y, s, measures=["auc", "brier"], ci=0.95,
                                             n_boot=100, sample_weight=np.ones(150))
        .intervals(),
    }[route]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        two, one = call(P), call(p)   # the (n, 2) route and the score vector: identical
    if isinstance(one, pd.DataFrame):
        pd.testing.assert_frame_equal(two, one)
    elif route == "roc_curve":
        for a, b in zip(two, one, strict=True):
            np.testing.assert_array_equal(a, b)
    else:
        assert two == one
    # the column of the positive label: pos_label=0 takes column 0
    if route == "auc":
        assert ml.metrics.auc(y, P, pos_label=0) == pytest.approx(
            skm.roc_auc_score(1 - y, P[:, 0]), abs=1e-12)


def test_every_page_has_provenance_and_glossary(tmp_path):
    g = np.random.default_rng(4)
    y = g.integers(0, 2, 120)
    p = np.clip(0.3 * y + 0.7 * g.random(120), 0, 1)
    pages_ = {"evaluate": ml.evaluate(y, p, measures=["auc", "mxe"], ci=0.9,
                                      n_boot=100).to_html(None)}
    X, yy = datasets.load("sonar", encode=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lc = ml.compare_learners({"nb": GaussianNB(), "lr": LogisticRegression(max_iter=300)},
                                 X.iloc[:, :8], yy, measures=["auc", "brier"])
        pages_["learners"] = lc.to_html(None)
        t = pd.DataFrame({"a": [.8, .7, .9, .6], "b": [.7, .6, .8, .65]})
        pages_["ranks"] = demsar(t).to_html(None, bayes=demsar(t).bayes(rope=0.01))
    for what, page in pages_.items():
        prov = re.search(r"<p class='provenance'>(.*?)</p>", page)
        assert prov and "measurelab: " in prov.group(1) and "date: " in prov.group(1), what
    assert "Glossary" in pages_["evaluate"] and "Mean cross-entropy" in pages_["evaluate"]
    assert "measures: 2" in pages_["evaluate"]
    assert "Glossary" in pages_["learners"] and "Brier score" in pages_["learners"]
    assert "rope: ±0.01" in pages_["ranks"] and "scores: one score per data set" in \
        pages_["ranks"]
