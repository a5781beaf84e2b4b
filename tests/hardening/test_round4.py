"""Round four of bad input (issue 46): the last silent answers a new user met. Each case is
reproduced from its description and asserts one clear line naming the value and where it
is, or a warning that says what the number means."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabTypeError, UndefinedMeasureWarning
from tests.hardening.contract import assert_cli_refused, assert_refused


def _three(n: int = 60, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, n), rng.dirichlet([1, 1, 1], n)


# ----------------------------------------------------- k-class probabilities given as text
@pytest.mark.parametrize("cell", ["0_1", "zz", "\uff10.1", "0x1p-1"])
def test_text_probability_cell_is_refused_naming_row_and_column(cell):
    y, P = _three()
    text = P.astype(str)
    text[4, 2] = cell
    exc = assert_refused(lambda: ml.evaluate(y, text), "y_score")
    assert repr(cell) in str(exc) and "row 5, column 3" in str(exc)


def test_text_probabilities_in_plain_notation_equal_the_numbers():
    y, P = _three()
    text = np.array([[repr(float(v)) for v in row] for row in P])
    assert ml.evaluate(y, text).to_dict() == ml.evaluate(y, P).to_dict()


def test_text_probability_cell_in_a_comparison_names_the_model():
    y, P = _three()
    text = P.astype(object)
    text[0, 0] = "0_1"
    exc = assert_refused(lambda: ml.compare_classifiers(y, {"a": P, "bee": text}, ci=None),
                         "bee")
    assert "'0_1'" in str(exc) and "row 1, column 1" in str(exc)


# ------------------------------------------------------------- complex Bayesian scores
@pytest.mark.parametrize("method", ["correlated-t", "signed-rank", "sign"])
def test_complex_scores_are_refused_by_bayes_compare(method):
    a = np.array([0.8, 0.7, 0.9, 0.85, 0.8, 0.75]) + 1j
    b = np.array([0.7, 0.72, 0.88, 0.8, 0.79, 0.74])
    exc = assert_refused(lambda: ml.inference.bayes_compare(a, b, method=method, rope=0.01),
                         "a")
    assert "complex" in str(exc)


def test_text_score_of_bayes_compare_is_read_under_the_one_number_rule():
    b = np.array([0.7, 0.72, 0.88, 0.8, 0.79, 0.74])
    good = ml.inference.bayes_compare(b.astype(str), b[::-1], method="sign", rope=0.01,
                                      random_state=0)
    want = ml.inference.bayes_compare(b, b[::-1], method="sign", rope=0.01, random_state=0)
    assert good.probabilities == want.probabilities
    bad = b.astype(str)
    bad[2] = "0_88"
    exc = assert_refused(lambda: ml.inference.bayes_compare(bad, b, method="sign", rope=0.01),
                         "a")
    assert "'0_88'" in str(exc)


# --------------------------------------------- reliability band from fractional weights
def test_band_from_a_table_of_fractional_weights_warns_what_it_assumed():
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, 100), rng.random(100)
    table = ml.ScoreTable.from_arrays(y, p, sample_weight=np.full(100, 0.005))
    with pytest.warns(UserWarning, match=r"total, 0\.5, as the number of cases \(1 drawn"):
        ml.curves.reliability_diagram(table, n_boot=50)


def test_band_from_weighted_cases_resamples_the_cases_quietly():
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, 100), rng.random(100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        small = ml.curves.reliability_diagram(y, p, sample_weight=np.full(100, 0.005),
                                              n_boot=200)
        ones = ml.curves.reliability_diagram(y, p, sample_weight=np.ones(100), n_boot=200)
    # the band does not depend on the weights' scale: the same cases are redrawn
    np.testing.assert_allclose(small[["lo", "hi"]], ones[["lo", "hi"]], rtol=1e-12)


# ------------------------------------------------- labels= naming a class with no case
def test_comparison_warns_of_a_named_class_without_cases():
    y, P = _three()
    keep = y != 2
    with pytest.warns(UndefinedMeasureWarning, match=r"labels= names 2, with no case"):
        ml.compare_classifiers(y[keep], {"a": P[keep], "b": P[::-1][keep]},
                               labels=[0, 1, 2], ci=None)


def test_binary_truth_with_three_probability_columns_warns():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 80)
    models = {"a": rng.dirichlet([1, 1, 1], 80), "b": rng.dirichlet([1, 1, 1], 80)}
    with pytest.warns(UndefinedMeasureWarning, match=r"labels= names 2"):
        ml.compare_classifiers(y, models, labels=[0, 1, 2], ci=None)


def test_no_warning_when_every_named_class_has_cases():
    y, P = _three()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMeasureWarning)
        ml.compare_classifiers(y, {"a": P, "b": P[::-1]}, labels=[0, 1, 2], ci=None)


# ------------------------------------------------------------------- ragged k-class rows
def test_ragged_rows_name_the_model():
    y, P = _three()
    rows = [list(r) for r in P]
    rows[3] = rows[3][:2]
    exc = assert_refused(lambda: ml.compare_classifiers(y, {"a": P, "bee": rows}, ci=None),
                         "'bee'")
    assert "different lengths" in str(exc)


# --------------------------------------------------- a page path that cannot be written
@pytest.mark.parametrize("where", ["comparison", "evaluate"])
def test_unwritable_page_path_names_the_users_path(where, tmp_path):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 100)
    if where == "comparison":
        res = ml.compare_classifiers(y, {"a": rng.random(100), "b": rng.random(100)},
                                     n_boot=200)
    else:
        res = ml.evaluate(y, rng.random(100))
    page = Path("/proc/measurelab-page.html")  # a folder nobody (not even root) may write
    exc = assert_refused(lambda: res.to_html(page), str(page))
    assert ".tmp" not in str(exc)


def test_report_writes_all_or_nothing(tmp_path, monkeypatch):
    import os

    from measurelab.lab.report.page import Report

    r = Report("x", "A report")
    r.add_text("Hello")
    r.add_table("t", pd.DataFrame({"a": [1, 2]}))
    calls = {"n": 0}
    real_replace = os.replace

    def failing_replace(src, dst):  # the disk fills up at the third file
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(28, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(ml.MeasurelabError, match="No space left on device"):
        r.write(tmp_path / "out")
    monkeypatch.setattr(os, "replace", real_replace)
    left = [p.name for p in (tmp_path / "out").rglob("*")] if (tmp_path / "out").exists() \
        else []
    assert left == []
    written = r.write(tmp_path / "out")
    assert {p.name for p in written} == {p.name for p in (tmp_path / "out").iterdir()}


# ------------------------------------------------------------------------- wrong types
@pytest.mark.parametrize("score", [None, 3, ["brier"]])
def test_decompose_score_name_of_wrong_type_is_a_type_error(score):
    exc = assert_refused(lambda: ml.metrics.decompose_score([0, 1, 1], [.2, .7, .9], score),
                         "score")
    assert isinstance(exc, MeasurelabTypeError)


@pytest.mark.parametrize("threshold", ["high", None, [0.5]])
def test_threshold_of_wrong_type_is_a_type_error(threshold):
    exc = assert_refused(lambda: ml.evaluate([0, 1, 1], [.2, .7, .9], threshold=threshold),
                         "threshold")
    assert isinstance(exc, MeasurelabTypeError)


def test_scores_given_as_none_are_a_type_error():
    exc = assert_refused(lambda: ml.evaluate([0, 1, 1], None), "y_score")
    assert isinstance(exc, MeasurelabTypeError) and "None" in str(exc)


# --------------------------------------------------------------- the CLI: one line each
def test_unknown_command_is_one_line(tmp_path):
    assert_cli_refused(["compare", "a.csv"], "compare", folder=tmp_path)
