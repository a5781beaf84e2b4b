"""The operating-point measures (issue 42) against brute force written from their
definitions, scikit-learn's ``roc_auc_score(max_fpr=f)`` and the library's own front ends
(``evaluate(ci=)``, ``compare_classifiers``, ``compare_unpaired``, the command line,
scorers). pROC's values are checked in ``test_operating_point_proc.py`` (marker ``r``)."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning

NAMES = ("sens_at_spec", "spec_at_sens", "prec_at_recall", "recall_at_prec", "pauc", "spauc")


# ------------------------------------------------------------------- brute force
def _points(y, s, w):
    """Every operating point by direct comparison ``s > t``, t every distinct score and
    −inf: (TP, FP, P, N) as Fractions of the weights (exact), largest threshold first."""
    y = np.asarray(y, bool)
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    ws = [Fraction(float(x)) for x in w]
    p = sum((wi for wi, yi in zip(ws, y, strict=True) if yi), Fraction(0))
    n = sum((wi for wi, yi in zip(ws, y, strict=True) if not yi), Fraction(0))
    out = []
    for t in [*sorted(set(np.asarray(s, float).tolist()), reverse=True), -math.inf]:
        tp = sum((wi for wi, yi, si in zip(ws, y, s, strict=True) if yi and si > t),
                 Fraction(0))
        fp = sum((wi for wi, yi, si in zip(ws, y, s, strict=True) if not yi and si > t),
                 Fraction(0))
        out.append((tp, fp))
    return out, p, n


def brute(name, y, s, w, x):
    """The measure by its definition: a search over every operating point (rates as the
    floats a user compares with x), or the area under the piecewise-linear ROC curve up
    to FPR = x, integrated segment by segment in exact fractions."""
    pts, p, n = _points(y, s, w)
    if name == "sens_at_spec":
        return max(float(tp / p) for tp, fp in pts if float((n - fp) / n) >= x)
    if name == "spec_at_sens":
        return max(float((n - fp) / n) for tp, fp in pts if float(tp / p) >= x)
    if name == "prec_at_recall":
        return max(float(tp / (tp + fp)) for tp, fp in pts
                   if tp + fp > 0 and float(tp / p) >= x)
    if name == "recall_at_prec":
        ok = [float(tp / p) for tp, fp in pts if tp + fp > 0 and float(tp / (tp + fp)) >= x]
        return max(ok) if ok else math.nan
    f = Fraction(x)
    area = Fraction(0)
    roc = [(fp / n, tp / p) for tp, fp in pts]
    for (x0, y0), (x1, y1) in itertools.pairwise(roc):
        if x1 <= f:
            area += (x1 - x0) * (y0 + y1) / 2
        elif x0 < f:
            yf = y0 + (f - x0) / (x1 - x0) * (y1 - y0)
            area += (f - x0) * (y0 + yf) / 2
    if name == "pauc":
        return float(area)
    lo = f * f / 2
    return float((1 + (area - lo) / (f - lo)) / 2)


def _data(seed, n=70, weighted=False, grid=8):
    g = np.random.default_rng(seed)
    y = g.random(n) < g.uniform(0.25, 0.6)
    y[:2] = (True, False)
    s = np.round(1 / (1 + np.exp(-g.normal(1.1 * y, 1.0))) * grid) / grid  # heavy ties
    w = g.integers(1, 13, n) / 4 if weighted else None  # dyadic: exact float sums
    return y, s, w


PARAMS = {"sens_at_spec": [0.0, 0.5, 0.8, 0.9, 1.0], "spec_at_sens": [0.0, 0.5, 0.9, 1.0],
          "prec_at_recall": [0.0, 0.3, 0.75, 1.0], "recall_at_prec": [0.0, 0.5, 0.7, 0.9],
          "pauc": [0.05, 0.1, 0.25, 0.5, 1.0], "spauc": [0.05, 0.2, 0.5, 1.0]}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed,weighted,grid", [(0, False, 8), (1, False, 30), (2, True, 8),
                                                (3, True, 1000), (4, False, 1000)])
def test_equals_brute_force(name, seed, weighted, grid):
    y, s, w = _data(seed, weighted=weighted, grid=grid)
    for x in PARAMS[name]:
        want = brute(name, y, s, w, x)
        spec = f"{name}@{x}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            got = ml.evaluate(y, s, measures=[spec], sample_weight=w)[spec]
        if math.isnan(want):
            assert math.isnan(got), spec
        elif name in ("pauc", "spauc"):
            assert got == pytest.approx(want, rel=1e-12, abs=1e-15), spec
        else:
            assert got == want, spec  # the same rate at the same threshold: exactly


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_spauc_equals_scikit_learn(seed, weighted):
    from sklearn.metrics import roc_auc_score

    g = np.random.default_rng(100 + seed)
    n = int(g.integers(20, 3000))
    y = g.random(n) < g.uniform(0.05, 0.7)
    y[:2] = (True, False)
    s = g.normal(y * g.uniform(0, 2), 1)
    if seed % 2:
        s = np.round(s, 1)  # ties across the classes
    w = g.uniform(0.1, 3, n) if weighted else None
    for f in (0.01, 0.1, 0.2, 0.37, 0.5, 0.9, 1.0):
        got = ml.metrics.spauc(y, s, max_fpr=f, sample_weight=w)
        assert got == pytest.approx(roc_auc_score(y, s, max_fpr=f, sample_weight=w),
                                    abs=1e-12)


def test_full_range_is_the_auc_and_the_chance_line_is_a_half():
    y, s, _w = _data(5, n=300, grid=20)
    auc = ml.metrics.auc(y, s)
    assert ml.metrics.pauc(y, s, max_fpr=1.0) == pytest.approx(auc, abs=1e-15)
    assert ml.metrics.spauc(y, s, max_fpr=1.0) == pytest.approx(auc, abs=1e-15)
    # one score for every case: the ROC curve is the diagonal, pauc = f²/2, spauc = 1/2
    for f in (0.1, 0.3):
        assert ml.metrics.pauc(y, np.zeros(y.size), max_fpr=f) == pytest.approx(f * f / 2)
        assert ml.metrics.spauc(y, np.zeros(y.size), max_fpr=f) == pytest.approx(0.5)
    # a perfect ranking: pauc = f, spauc = 1, every rate reached
    r = ml.evaluate(y, y.astype(float), measures=["pauc@0.3", "spauc@0.3", "sens_at_spec@1",
                                                  "recall_at_prec@1"])
    assert (r["pauc@0.3"], r["spauc@0.3"], r["sens_at_spec@1"], r["recall_at_prec@1"]) == (
        pytest.approx(0.3), pytest.approx(1.0), 1.0, 1.0)


def test_sens_at_spec_and_spec_at_sens_swap_with_the_classes():
    y, s, _w = _data(6, n=200, grid=12)
    for x in (0.0, 0.6, 0.95):
        a = ml.evaluate(y, s, measures=[f"sens_at_spec@{x}"])[f"sens_at_spec@{x}"]
        b = ml.evaluate(~y, -s, measures=[f"spec_at_sens@{x}"])[f"spec_at_sens@{x}"]
        assert a == b


def test_a_rate_equal_to_the_constraint_reaches_it():
    """Specificity 9/10 reaches s = 0.9 (the float rate compared with the float s, as a
    user compares them), though 0.9 as a binary fraction is a hair above 9/10."""
    y = np.r_[np.zeros(10, bool), np.ones(4, bool)]
    s = np.r_[np.arange(9) / 10, 0.95, [0.5, 0.85, 0.96, 0.99]]
    assert Fraction(0.9) > Fraction(9, 10)
    assert ml.metrics.sens_at_spec(y, s, min_spec=0.9) == 0.75  # above 0.8: 9 of 10 below


# ---------------------------------------------------------------------- undefined
def test_no_threshold_reaching_the_precision_is_nan_with_a_warning():
    y, s = [0, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.2, 0.1]  # best precision 1/2
    with pytest.warns(UndefinedMeasureWarning, match=r"no threshold reaches precision 0\.6 "
                                                     r"\(the largest is 0\.5\)"):
        v = ml.metrics.recall_at_prec(y, s, min_prec=0.6)
    assert math.isnan(v)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.evaluate(y, s, measures=["recall_at_prec@0.6", "recall_at_prec@0.5"])
    assert json.loads(json.dumps(r.to_dict()))["recall_at_prec@0.6"] is None
    assert r["recall_at_prec@0.5"] == 1.0


@pytest.mark.parametrize("name", NAMES)
def test_one_class_is_nan_with_a_warning(name):
    needs_neg = name not in ("prec_at_recall", "recall_at_prec")
    with pytest.warns(UndefinedMeasureWarning, match="no positive examples"):
        assert math.isnan(ml.evaluate([0, 0, 0], [0.1, 0.5, 0.7], measures=[name])[name])
    if needs_neg:
        with pytest.warns(UndefinedMeasureWarning, match="no negative examples"):
            assert math.isnan(ml.evaluate([1, 1], [0.1, 0.5], measures=[name])[name])
    else:  # precision needs no negative: every threshold has precision 1
        assert ml.evaluate([1, 1], [0.1, 0.5], measures=[name])[name] == 1.0


@pytest.mark.parametrize("spec", ["sens_at_spec@1.5", "spec_at_sens@-0.1",
                                  "prec_at_recall@2", "recall_at_prec@nan", "pauc@0",
                                  "spauc@1.01", "pauc@x"])
def test_parameters_are_checked(spec):
    with pytest.raises(MeasurelabError, match=spec.split("@")[0]):
        ml.evaluate([0, 1], [0.2, 0.8], measures=[spec])


def test_registry_metadata():
    for name in NAMES:
        m = ml.registry.get(name)
        assert m.kind == "rank" and m.statistic == "scores" and m.higher_is_better
        assert m.block is not None and m.cost == "sort" and m.main_param and m.when_named
        assert not m.in_default_set
    assert ml.registry.get("precision_at_fixed_recall").name == "prec_at_recall"
    assert ml.registry.resolve("spauc@0.1")[1] == {"max_fpr": 0.1}


# ------------------------------------------------------------- the front ends
@pytest.fixture(scope="module")
def two_models():
    g = np.random.default_rng(42)
    n = 400
    y = g.random(n) < 0.35
    a = 1 / (1 + np.exp(-g.normal(1.6 * y - 0.6, 1)))
    b = 1 / (1 + np.exp(-g.normal(0.6 * y - 0.3, 1)))
    return y, a, b


SPECS = ["sens_at_spec@0.9", "spec_at_sens@0.8", "prec_at_recall@0.5", "recall_at_prec@0.6",
         "pauc@0.2", "spauc@0.2"]


def test_evaluate_with_intervals(two_models):
    y, a, _ = two_models
    r = ml.evaluate(y, a, measures=SPECS, ci=0.95, n_boot=300, random_state=1)
    iv = r.intervals().set_index("measure")
    assert list(iv.index) == SPECS
    # the study's defaults, and spec_at_sens@0.8 at a parameter it also studies (single
    # model, random design: covers)
    studied = {"sens_at_spec@0.9", "spec_at_sens@0.8", "pauc@0.2", "spauc@0.2"}
    for spec in SPECS:
        lo, hi = iv.loc[spec, ["lo", "hi"]]
        assert lo <= r[spec] <= hi
        method = iv.loc[spec, "method"]
        assert method == "bootstrap-bca" if spec in studied else (
            method == "bootstrap-bca (no coverage evidence)"), (spec, method)


def test_an_interval_the_study_found_short_is_withheld(two_models):
    """recall_at_prec@0.9's bootstrap interval covered 0.54–0.78 in the operating-point
    study (docs/coverage_operating_point.md): with 139 positives (the 100–999 bracket) the
    library withholds it and says why; the value stays."""
    y, a, _ = two_models
    with pytest.warns(UndefinedMeasureWarning, match="no interval for recall_at_prec"):
        r = ml.evaluate(y, a, measures=["recall_at_prec", "sens_at_spec"], ci=0.95,
                        n_boot=200, random_state=1)
    iv = r.intervals().set_index("measure")
    assert math.isnan(iv.loc["recall_at_prec", "lo"]) and r["recall_at_prec"] > 0
    assert iv.loc["recall_at_prec", "method"].startswith("no interval: coverage 0.")
    assert iv.loc["sens_at_spec", "method"] == "bootstrap-bca"


def test_compare_classifiers_tests_and_summary(two_models):
    y, a, b = two_models
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, {"a": a, "b": b},
                                     measures=["sens_at_spec@0.9", "spauc@0.2"],
                                     n_boot=300, random_state=0, progress=False)
    t = cmp.tests().set_index("measure")
    assert set(t.index) == {"sens_at_spec@0.9", "spauc@0.2"}
    assert (t["p_holm"] >= t["p"]).all() and t["method"].eq("bootstrap").all()
    # Holm over the two p-values
    p = np.sort(t["p"].to_numpy())
    assert np.sort(t["p_holm"].to_numpy()) == pytest.approx(
        np.maximum.accumulate(np.minimum(1, p * np.array([2, 1]))))
    text = cmp.summary()
    assert "sens_at_spec@0.9" in text and "spauc@0.2" in text
    v = cmp.values()
    assert v.loc["spauc@0.2", "a"] == ml.metrics.spauc(y, a, max_fpr=0.2)
    assert v.loc["sens_at_spec@0.9", "b"] == ml.metrics.sens_at_spec(y, b, min_spec=0.9)


def test_compare_unpaired(two_models):
    y, a, b = two_models
    u = ml.compare_unpaired(y[:200], a[:200], y[200:], b[200:],
                            measures=["pauc@0.1", "spec_at_sens@0.9"], n_boot=200,
                            random_state=0)
    t = u.tests().set_index("measure")
    assert set(t.index) == {"pauc@0.1", "spec_at_sens@0.9"}
    want = ml.metrics.pauc(y[:200], a[:200], max_fpr=0.1) - ml.metrics.pauc(
        y[200:], b[200:], max_fpr=0.1)
    assert t.loc["pauc@0.1", "diff"] == pytest.approx(want, abs=1e-15)


def test_command_line_measures(tmp_path, capsys, two_models):
    from measurelab.cli import main

    y, a, _ = two_models
    f = tmp_path / "p.csv"
    f.write_text("y,p\n" + "\n".join(f"{int(t)},{float(v)!r}" for t, v in zip(y, a, strict=True)))
    code = main(["evaluate", str(f), "--label-col", "y", "--score-col", "p", "--measures",
                 "sens_at_spec@0.9,spauc@0.2,recall_at_prec@1", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["spauc@0.2"] == pytest.approx(ml.metrics.spauc(y, a, max_fpr=0.2), abs=1e-15)
    assert out["sens_at_spec@0.9"] == ml.metrics.sens_at_spec(y, a, min_spec=0.9)


def test_scorer_and_default_set(two_models):
    y, a, _ = two_models
    from measurelab.metrics.scorers import MeasureScore

    assert MeasureScore("spauc@0.2")(y, a) == ml.metrics.spauc(y, a, max_fpr=0.2)
    r = ml.evaluate(y, a)  # the constraint is the user's question: computed when named
    assert not {"sens_at_spec", "spec_at_sens", "prec_at_recall", "recall_at_prec", "pauc",
                "spauc"} & set(r)
    r = ml.evaluate(y, a, measures=["sens_at_spec", "pauc"])  # named: the defaults
    assert r["sens_at_spec"] == ml.metrics.sens_at_spec(y, a, min_spec=0.9)
    assert r["pauc"] == ml.metrics.pauc(y, a, max_fpr=0.2)


def test_streaming_and_merged_chunks_equal_whole(two_models):
    y, a, _ = two_models
    ev = ml.Evaluator(measures=SPECS)
    for i in range(0, y.size, 97):
        ev.update(y[i:i + 97], a[i:i + 97])
    whole = ml.evaluate(y, a, measures=SPECS)
    assert dict(ev.compute()) == dict(whole)
