"""decompose_score and spiegelhalter_test (metrics/calibration.py), and the new calibration
measures wherever measures are used: evaluate with intervals, compare_classifiers, the
streaming Evaluator and the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference.evidence import plain_method
from measurelab.metrics import decompose_score, spiegelhalter_test

NEW = ["brier_mcb", "brier_dsc", "logloss_mcb", "logloss_dsc", "brier_mcb_insample",
       "brier_dsc_insample", "logloss_mcb_insample", "logloss_dsc_insample", "smece", "ici",
       "e50", "e90", "emax", "spiegelhalter_z"]
#: the calibration numbers with an interval, and its method
WITH_INTERVAL = {"brier_mcb": "debiased-wald", "brier_dsc": "bootstrap-se",
                 "logloss_dsc": "bootstrap-se"}


def _data(seed: int, n: int = 400, grid: int | None = None):
    rng = np.random.default_rng(seed)
    q = rng.beta(2, 2.5, n)
    y = (rng.random(n) < q).astype(int)
    p = q + rng.normal(0.05, 0.1, n)
    if grid is not None:
        p = np.round(p * grid) / grid
    return y, np.clip(p, 0.01, 0.99)


def test_reference_values_by_hand():
    d = decompose_score([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
    assert d.mcb == pytest.approx(0.61 / 6, rel=1e-14) and d.dsc == pytest.approx(0.125)
    assert d.unc == 0.25 and d.score == pytest.approx(1.36 / 6, rel=1e-14)
    assert set(d.to_dict()) == {"mcb", "dsc", "unc", "score"}


@pytest.mark.parametrize("score", ["brier", "log"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("grid", [None, 12])
def test_decompose_score_equals_model_diagnostics(score, weighted, grid):
    md = pytest.importorskip("model_diagnostics.scoring")
    y, p = _data(2, grid=grid)
    w = np.random.default_rng(3).uniform(0.1, 4, y.size) if weighted else None
    want = md.decompose(y, p, weights=w, scoring_function=(
        md.SquaredError() if score == "brier" else md.LogLoss())).row(0, named=True)
    d = decompose_score(y, p, score, sample_weight=w)
    for ours, theirs in (("mcb", "miscalibration"), ("dsc", "discrimination"),
                         ("unc", "uncertainty"), ("score", "score")):
        assert getattr(d, ours) == pytest.approx(want[theirs], abs=1e-9)
    # the in-sample measures give the same numbers; labels by name, pos_label chooses
    names = (("brier_mcb_insample", "brier_dsc_insample") if score == "brier"
             else ("logloss_mcb_insample", "logloss_dsc_insample"))
    r = ml.evaluate(np.where(y == 1, "yes", "no"), p, pos_label="yes", sample_weight=w,
                    measures=list(names))
    assert (r[names[0]], r[names[1]]) == (d.mcb, d.dsc)


def test_log_loss_clips_certain_predictions_as_mxe():
    # model-diagnostics gives inf for a wrong certain prediction; here p is clipped to
    # [eps, 1 - eps] as the log loss (mxe, scikit-learn's log_loss) is
    y, p = [0, 1, 1, 0], [0.0, 0.0, 0.8, 0.3]
    d = decompose_score(y, p, "log")
    assert d.score == pytest.approx(ml.metrics.mxe(y, p), rel=1e-14) and np.isfinite(d.mcb)


def test_decompose_score_input_errors():
    with pytest.raises(ml.MeasurelabError, match="score='bits'"):
        decompose_score([0, 1], [0.2, 0.7], "bits")
    with pytest.raises(ml.MeasurelabError, match=r"probabilities in \[0, 1\]"):
        decompose_score([0, 1], [0.2, 1.7])
    with pytest.raises(ml.MeasurelabError, match="binary"):
        decompose_score([0, 1, 2], np.eye(3))
    t = ml.ScoreTable.from_arrays(np.array([False, True]), np.array([0.2, 0.7]))
    assert decompose_score(t) == decompose_score([0, 1], [0.2, 0.7])


def test_spiegelhalter_test_equals_mapie():
    mapie = pytest.importorskip("mapie.metrics.calibration")
    y, p = _data(4, 1000)
    r = spiegelhalter_test(y, p)
    assert r.statistic == pytest.approx(mapie.spiegelhalter_statistic(y, p), rel=1e-9)
    assert set(r.to_dict()) == {"z", "p_value"} and 0 <= r.pvalue <= 1


def test_new_measures_with_intervals_and_in_comparisons():
    y, p = _data(5, 150, grid=50)
    _, q = _data(6, 150)
    with pytest.warns(ml.UndefinedMeasureWarning, match="no interval for"):
        r = ml.evaluate(y, p, measures=NEW, ci=0.9, n_boot=100)
    iv = r.intervals().set_index("measure")
    assert set(iv.index) == set(NEW)
    has = iv.loc[list(WITH_INTERVAL)]
    assert (has.lo <= has.value + 1e-12).all() and (has.value <= has.hi + 1e-12).all()
    assert has.method.map(plain_method).to_dict() == WITH_INTERVAL
    # every other calibration number: no interval, and the method column says why
    rest = iv.drop(index=list(WITH_INTERVAL))
    assert rest[["lo", "hi"]].isna().all().all()
    assert rest.method.str.startswith("no interval: ").all()
    with pytest.warns(ml.UndefinedMeasureWarning, match="no interval for"):
        cmp = ml.compare_classifiers(y, {"a": p, "b": q}, measures=NEW, n_boot=100)
        table = cmp.intervals().set_index(["model", "measure"])
    assert plain_method(table.loc[("a", "brier_mcb"), "method"]) == "debiased-wald"
    tests = cmp.tests().set_index("measure")
    assert (tests.loc[list(WITH_INTERVAL), "method"] == "bootstrap-se").all()
    assert tests.loc["ici", ["lo", "hi", "p"]].isna().all()
    assert tests.loc["ici", "interval"].startswith("no interval: ")


def test_streaming_equals_whole_and_command_line(tmp_path, capsys):
    from measurelab.cli import main

    y, p = _data(7, 500, grid=40)
    whole = ml.evaluate(y, p, measures=NEW)
    ev = ml.Evaluator(measures=NEW)
    for part in np.array_split(np.arange(y.size), 5):
        ev.update(y[part], p[part])
    assert dict(ev.compute()) == dict(whole)
    f = tmp_path / "preds.txt"
    f.write_text("".join(f"{a} {float(b)!r}\n" for a, b in zip(y, p, strict=True)))
    assert main(["evaluate", str(f), "--measures", ",".join(NEW), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == pytest.approx({k: float(v) for k, v in whole.items()}, rel=1e-12)
    assert main(["evaluate", str(f), "--measures", "spiegelhalter_z"]) == 0
    assert "two-sided p = " in capsys.readouterr().out
