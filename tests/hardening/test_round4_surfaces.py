"""Round four of bad input (issue 46, part 2): the same care on every surface this release
added. The small-count interval methods, the operating-point measures and
``best_threshold``'s constraints, costs and interval, the confusion-matrix catalogue with
``labels=`` in any order, a forced ``ci_method`` where the method does not apply, and the
distributed ``versus --scheduler``: a bad value is refused in one line naming it; an
unreachable constraint is NaN with an UndefinedMeasureWarning; nothing is a silent number.
Values are checked against brute force from the definitions."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabTypeError, UndefinedMeasureWarning
from tests.hardening.contract import assert_cli_refused, assert_refused

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.8, 0.3, 0.7, 0.95, 0.4, 0.9, 0.85])
OPERATING = ["sens_at_spec", "spec_at_sens", "prec_at_recall", "recall_at_prec", "pauc",
             "spauc"]


def _rates(y: np.ndarray, s: np.ndarray) -> list[tuple[float, float, float]]:
    """(sensitivity, specificity, precision) of every rule "positive when s > t"."""
    out = []
    for t in [*sorted(set(s.tolist()), reverse=True), -math.inf]:
        pred = s > t
        tp, fp = np.sum(pred & (y == 1)), np.sum(pred & (y == 0))
        prec = tp / (tp + fp) if tp + fp else math.nan
        out.append((tp / np.sum(y == 1), 1 - fp / np.sum(y == 0), prec))
    return out


# ------------------------------------------------------------ operating-point measures
@pytest.mark.parametrize("name", OPERATING)
@pytest.mark.parametrize("after", ["abc", "", "0.5x", "0.5@0.2", "1,5"])
def test_text_after_the_at_sign_is_refused_naming_it(name, after):
    spec = f"{name}@{after}"
    exc = assert_refused(lambda: ml.evaluate(Y, S, measures=[spec]), [repr(spec)])
    assert repr(after) in str(exc)


@pytest.mark.parametrize("name", OPERATING)
@pytest.mark.parametrize("after", ["nan", "inf", "-inf", "1.5", "-0.1", "2"])
def test_a_number_out_of_range_after_the_at_sign_is_refused(name, after):
    exc = assert_refused(lambda: ml.evaluate(Y, S, measures=[f"{name}@{after}"]), name)
    assert "expected" in str(exc)


@pytest.mark.parametrize("name", ["pauc", "spauc"])
def test_a_partial_auc_to_fpr_zero_is_refused(name):
    assert_refused(lambda: ml.evaluate(Y, S, measures=[f"{name}@0"]), "max_fpr")


def test_the_ends_zero_and_one_equal_brute_force():
    rates = _rates(Y, S)
    got = ml.evaluate(Y, S, measures=["sens_at_spec@0", "sens_at_spec@1", "spec_at_sens@1",
                                      "recall_at_prec@1", "pauc@1"])
    assert got["sens_at_spec@0"] == max(r[0] for r in rates)
    assert got["sens_at_spec@1"] == max(r[0] for r in rates if r[1] >= 1)
    assert got["spec_at_sens@1"] == max(r[1] for r in rates if r[0] >= 1)
    assert got["recall_at_prec@1"] == max(r[0] for r in rates if r[2] >= 1)
    pos, neg = S[Y == 1], S[Y == 0]
    auc = np.mean((pos[:, None] > neg) + 0.5 * (pos[:, None] == neg))
    assert got["pauc@1"] == pytest.approx(auc)


@pytest.mark.parametrize("spec", ["sens_at_spec@0.5", "prec_at_recall@0.5", "pauc@0.3",
                                  "spauc@0.3", "spec_at_sens@0.5", "recall_at_prec@0.5"])
def test_one_class_only_is_nan_with_a_warning(spec):
    with pytest.warns(UndefinedMeasureWarning):
        got = ml.evaluate([0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4], measures=[spec])
    assert math.isnan(got[spec])


def test_an_unreachable_precision_is_nan_with_a_warning():
    y = np.array([0, 1, 0, 1])
    s = np.array([0.9, 0.8, 0.7, 0.1])  # the top score is a negative: precision < 1 always
    with pytest.warns(UndefinedMeasureWarning, match="precision"):
        got = ml.evaluate(y, s, measures=["recall_at_prec@1"])
    assert math.isnan(got["recall_at_prec@1"])


def test_weights_that_zero_every_positive_give_nan_with_a_warning():
    with pytest.warns(UndefinedMeasureWarning, match="no positive"):
        got = ml.evaluate(Y, S, measures=["sens_at_spec@0.9"],
                          sample_weight=np.where(Y == 1, 0.0, 1.0))
    assert math.isnan(got["sens_at_spec@0.9"])


# ------------------------------------------------------------------ best_threshold
@pytest.mark.parametrize("param", ["min_sens", "min_spec", "cost_fn", "cost_fp", "prevalence",
                                   "ci"])
@pytest.mark.parametrize("bad", ["high", True, [0.5], {"a": 1}])
def test_best_threshold_wrong_types_name_the_parameter(param, bad):
    kw = {param: bad}
    if param in ("cost_fn", "cost_fp", "prevalence"):
        kw["measure"] = "cost"
    exc = assert_refused(lambda: ml.best_threshold(Y, S, **kw), param)
    assert isinstance(exc, MeasurelabTypeError)


@pytest.mark.parametrize("bad", [3, 0.5, None, ["youden"]])
def test_best_threshold_measure_of_a_wrong_type_is_a_type_error(bad):
    exc = assert_refused(lambda: ml.best_threshold(Y, S, measure=bad), "measure")
    assert isinstance(exc, MeasurelabTypeError)


@pytest.mark.parametrize("param, bad", [("min_sens", 1.5), ("min_spec", -0.1),
                                        ("min_sens", math.nan), ("cost_fn", 0),
                                        ("cost_fp", -1), ("cost_fn", math.inf),
                                        ("prevalence", 1.0), ("ci", 1.5), ("ci", 0.0)])
def test_best_threshold_values_out_of_range_name_the_parameter(param, bad):
    kw = {param: bad}
    if param.startswith("cost") or param == "prevalence":
        kw["measure"] = "cost"
    assert_refused(lambda: ml.best_threshold(Y, S, **kw), param)


def test_an_infinite_cost_is_not_offered_as_in_range():
    exc = assert_refused(lambda: ml.best_threshold(Y, S, measure="cost", cost_fn=-1), "cost_fn")
    assert "inf]" not in str(exc)  # the message's range does not offer what is refused


def test_costs_without_measure_cost_are_refused():
    assert_refused(lambda: ml.best_threshold(Y, S, cost_fn=1, cost_fp=2), "cost_fn")


@pytest.mark.parametrize("kw", [dict(min_sens=0.9, min_spec=0.99),
                                dict(min_sens=1.0, min_spec=1.0)])
def test_contradictory_constraints_are_nan_with_a_warning(kw):
    rates = _rates(Y, S)
    assert not any(r[0] >= kw["min_sens"] and r[1] >= kw["min_spec"] for r in rates)
    with pytest.warns(UndefinedMeasureWarning, match="no threshold reaches"):
        best = ml.best_threshold(Y, S, **kw)
    assert math.isnan(best.threshold) and math.isnan(best.value)


def test_an_unreachable_min_sens_is_nan_with_a_warning_and_a_reachable_one_is_right():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.9, 0.2, 0.8, 0.05, 0.3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        best = ml.best_threshold(y, s, min_sens=2 / 3)  # reachable: no warning
    assert (s[y == 1] > best.threshold).mean() >= 2 / 3
    with pytest.warns(UndefinedMeasureWarning):  # sens 1 only with spec 0: kept, no NaN
        ml.best_threshold(y, s, min_sens=1.0, min_spec=0.5)


# ---------------------------------------------------- the confusion-matrix catalogue
CATALOGUE = ["kappa_linear", "kappa_quadratic", "dor", "markedness", "fdr", "for_rate",
             "jaccard", "fowlkes_mallows", "scott_pi", "gwet_ac1"]
Y3 = np.array([0, 1, 2, 0, 1, 2, 1, 0, 2, 2])
P3 = np.array([0, 1, 2, 1, 1, 2, 0, 0, 2, 1])


@pytest.mark.parametrize("labels", [[0, 1, 1, 2], [2, 0, 2, 1], ["a", "a"]])
def test_a_class_named_twice_in_labels_is_refused(labels):
    exc = assert_refused(lambda: ml.evaluate(Y3, P3, measures=CATALOGUE, labels=labels),
                         "labels")
    assert "twice" in str(exc)
    assert_refused(lambda: ml.compare_classifiers(Y3, {"m": P3}, labels=labels, ci=None),
                   "labels")


def test_a_label_missing_from_labels_is_refused_naming_it():
    exc = assert_refused(lambda: ml.evaluate(Y3, P3, measures=CATALOGUE, labels=[0, 1]),
                         "y_true")
    assert "2" in str(exc)


def _weighted_kappa(y: np.ndarray, p: np.ndarray, order: list[int], power: int) -> float:
    """Cohen's weighted kappa from its definition, the classes in ``order``."""
    idx = {c: i for i, c in enumerate(order)}
    k = len(order)
    m = np.zeros((k, k))
    for a, b in zip(y, p, strict=True):
        m[idx[a], idx[b]] += 1
    m /= m.sum()
    i, j = np.indices((k, k))
    w = (np.abs(i - j) / (k - 1)) ** power
    return 1 - (w * m).sum() / (w * np.outer(m.sum(1), m.sum(0))).sum()


@pytest.mark.parametrize("order", [[0, 1, 2], [2, 0, 1], [1, 2, 0]])
def test_weighted_kappa_follows_the_order_labels_gives(order):
    got = ml.evaluate(Y3, P3, measures=["kappa_linear", "kappa_quadratic"], labels=order)
    assert got["kappa_linear"] == pytest.approx(_weighted_kappa(Y3, P3, order, 1))
    assert got["kappa_quadratic"] == pytest.approx(_weighted_kappa(Y3, P3, order, 2))


def test_order_free_measures_do_not_change_with_the_order_of_labels():
    free = [m for m in CATALOGUE if not m.startswith("kappa_")]
    a = ml.evaluate(Y3, P3, measures=free, labels=[0, 1, 2]).to_dict()
    b = ml.evaluate(Y3, P3, measures=free, labels=[2, 0, 1]).to_dict()
    assert a == pytest.approx(b)


# the empty class's fdr is 0/0 by design of the case: that note is expected alongside
@pytest.mark.filterwarnings(
    "ignore:false discovery rate:measurelab.exceptions.UndefinedMeasureWarning")
def test_a_class_with_no_case_and_no_prediction_is_named_in_a_warning():
    with pytest.warns(UndefinedMeasureWarning, match="no case of the class"):
        ml.evaluate(Y3, P3, measures=["fdr"], labels=[0, 1, 2, 3])


# ------------------------------------------------------------------ interval methods
@pytest.mark.parametrize("bad", [3, 0.95, True, ["wilson"]])
def test_ci_method_of_a_wrong_type_is_a_type_error(bad):
    exc = assert_refused(lambda: ml.compare_classifiers(Y, {"a": S}, ci_method=bad),
                         "ci_method")
    assert isinstance(exc, MeasurelabTypeError)


@pytest.mark.parametrize("bad", ["tango-score", "mcnemar", "debiased-wald", "none", "Wilson"])
def test_ci_method_not_forceable_is_refused_with_the_choices(bad):
    exc = assert_refused(lambda: ml.compare_classifiers(Y, {"a": S}, ci_method=bad),
                         "ci_method")
    assert "'wilson'" in str(exc)


#: where each forced method applies (the registry's settings, written out from the
#: method table in docs/METHODS.md)
PROPORTIONS = {"acc", "sens"}


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson", "agresti-coull",
                                    "dirichlet-posterior", "newcombe-score", "influence"])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_forced_method_is_named_only_where_it_applies(method, weighted):
    """Forced where it applies, the default elsewhere, and the method column says which:
    a proportion method never claims the AUC, weights, or a weighted kappa; the score
    methods of whole counts never claim weighted cases."""
    rng = np.random.default_rng(3)
    y = np.array([0, 1] * 20)
    a = np.clip(0.3 + 0.3 * y + rng.normal(0, 0.25, 40), 0, 1)
    w = rng.uniform(0.5, 2, 40) if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        iv = ml.compare_classifiers(y, {"a": a}, measures=["acc", "sens", "auc", "brier",
                                                           "kappa_quadratic"],
                                    ci_method=method, n_boot=200, sample_weight=w).intervals()
    used = dict(zip(iv["measure"], iv["method"].str.split(" ").str[0], strict=True))
    whole_counts = method in ("wilson", "clopper-pearson", "agresti-coull",
                              "dirichlet-posterior", "newcombe-score")
    for m, name in used.items():
        if name == method:
            assert not (weighted and whole_counts), (m, name)
            if method in ("wilson", "clopper-pearson", "agresti-coull"):
                assert m in PROPORTIONS, (m, name)
            if method == "newcombe-score":
                assert m == "auc", (m, name)
    lo, hi, v = iv["lo"].to_numpy(), iv["hi"].to_numpy(), iv["value"].to_numpy()
    ok = ~(np.isnan(lo) | np.isnan(hi))
    assert np.all(lo[ok] <= v[ok] + 1e-12) and np.all(v[ok] <= hi[ok] + 1e-12)


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson", "agresti-coull",
                                    "dirichlet-posterior"])
def test_small_count_intervals_at_zero_and_all_stay_in_the_unit_interval(method):
    y = np.array([0, 1, 0, 1, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in (y.astype(float), 1 - y.astype(float)):  # accuracy 1, then 0
            iv = ml.compare_classifiers(y, {"a": s}, measures=["acc"], ci_method=method,
                                        n_boot=200).intervals().iloc[0]
            assert 0 <= iv["lo"] <= iv["value"] <= iv["hi"] <= 1
            assert iv["lo"] < iv["hi"]  # an interval, not the point


# ------------------------------------------------------------- versus --scheduler
@pytest.fixture()
def parquet(tmp_path: Path) -> Path:
    path = tmp_path / "d.parquet"
    pd.DataFrame({"y": Y, "a": S, "b": S[::-1], "p_0": 1 - S, "p_1": S}).to_parquet(path)
    return path


@pytest.mark.parametrize("extra, named", [
    (["--proba-cols", "p_0,p_1", "--threshold", "0.3"], "--threshold"),
    (["--proba-cols", "p_0,p_1", "--inclusive"], "--inclusive"),
    (["--proba-cols", "p_0,p_1", "--pos-label", "0"], "--pos-label"),
    (["--proba-cols", "p_0,p_1", "--score-col", "a"], "--score-col"),
    (["--score-col", "a", "--html", "page.html"], "--html"),
    (["--score-col", "a", "--group-col", "b"], "--group-col"),
    (["--score-col", "a", "--by-col", "b"], "--by-col"),
    (["--score-col", "a", "--average", "micro"], "--average"),
    (["--score-col", "a", "--score-col", "a"], "--score-col"),
    ([], "--score-col"),
])
def test_versus_scheduler_options_not_offered_are_refused_in_one_line(parquet, extra, named):
    assert_cli_refused(["versus", parquet, "--label-col", "y", *extra, "--scheduler",
                        "tcp://127.0.0.1:1"], named, folder=parquet.parent)


def test_versus_scheduler_on_a_csv_is_refused_naming_parquet(tmp_path):
    path = tmp_path / "d.csv"
    pd.DataFrame({"y": Y, "a": S}).to_csv(path, index=False)
    assert_cli_refused(["versus", path, "--label-col", "y", "--score-col", "a", "--scheduler",
                        "tcp://127.0.0.1:1"], "Parquet", folder=tmp_path)


# ------------------------------------------------ multi-label input, calibration slope
Y2 = np.array([[0, 1, 1], [1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 0, 0]])
S2 = np.random.default_rng(0).random((6, 3))


def _text(cell: str) -> np.ndarray:
    out = S2.astype(object)
    out[1, 2] = cell
    return out


@pytest.mark.parametrize("score, named", [
    (None, "got None"),
    ([np.c_[1 - S2[:, 0], S2[:, 0]], S2[:, 1], S2[:, 2]], "y_score[1] has shape (6,)"),
    ([[0.1, 0.2, 0.3]] * 5 + [[0.1, 0.2]], "rows differ in length"),
    (_text("0_1"), "'0_1' at row 2, column 3"),
    (_text("zz"), "'zz' at row 2, column 3"),
    (np.where(np.arange(18).reshape(6, 3) == 5, np.nan, S2), "nan at row 2, column 3"),
])
def test_multi_label_scores_refused_in_one_line_naming_the_cell(score, named):
    assert_refused(lambda: ml.evaluate(Y2, score, measures=["auc"]), named)


def test_multi_label_indicator_names_its_cell_from_one():
    y = Y2.copy()
    y[1, 2] = 2
    assert_refused(lambda: ml.evaluate(y, S2, measures=["auc"]), "got 2 at row 2, column 3")


def test_multi_label_labels_named_twice_are_refused():
    assert_refused(lambda: ml.compare_classifiers(Y2, {"a": S2}, labels=["x", "y", "x"],
                                                  ci=None), "twice")


def test_a_multi_label_list_of_predict_proba_equals_its_matrix():
    probas = [np.c_[1 - S2[:, j], S2[:, j]] for j in range(3)]
    assert ml.evaluate(Y2, probas, measures=["auc"]).to_dict() == \
        ml.evaluate(Y2, S2, measures=["auc"]).to_dict()


@pytest.mark.parametrize("s", [np.where(Y[:8] == 1, 0.9, 0.1), np.full(8, 0.5)])
def test_calibration_slope_under_separation_or_constant_scores_is_nan_with_a_warning(s):
    with pytest.warns(UndefinedMeasureWarning, match="cal_slope is undefined"):
        got = ml.evaluate(Y, s, measures=["cal_slope"])
    assert math.isnan(got["cal_slope"])


def test_calibration_slope_of_one_class_is_nan_with_a_warning():
    with pytest.warns(UndefinedMeasureWarning, match="one class"):
        got = ml.evaluate([1, 1, 1], [0.2, 0.5, 0.7], measures=["cal_slope", "cal_intercept"])
    assert math.isnan(got["cal_slope"]) and math.isnan(got["cal_intercept"])


def test_calibration_slope_refuses_scores_outside_zero_one():
    assert_refused(lambda: ml.evaluate(Y, S * 2, measures=["cal_slope"]), "cal_slope")
