"""``measurelab evaluate`` with several --score-col, --ci and --html: output equals the
Python API, the JSON shapes of issue 8, bad input gives one line and exit status 2."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main
from measurelab.inference.evidence import plain_method


@pytest.fixture
def csv(tmp_path):
    g = np.random.default_rng(3)
    n = 200
    y = g.integers(0, 2, n)
    df = pd.DataFrame({"y": y,
                       "lr": np.clip(g.normal(0.4, 0.2, n) + 0.2 * y, 0, 1).round(3),
                       "gb": np.clip(g.normal(0.4, 0.2, n) + 0.25 * y, 0, 1).round(3),
                       "k": 0.5})
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    return p, df


def run(capsys, *argv):
    code = main(["evaluate", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_several_models_without_ci(capsys, csv):
    p, df = csv
    code, out, _ = run(capsys, p, "--score-col", "lr", "--score-col", "gb", "--json",
                       "--measures", "auc,acc")
    assert code == 0
    got = json.loads(out)
    assert got == {"models": {c: dict(ml.evaluate(df.y, df[c], measures=["auc", "acc"]))
                              for c in ("lr", "gb")}}


def test_single_column_output_unchanged(capsys, csv):
    p, df = csv
    code, out, _ = run(capsys, p, "--score-col", "lr", "--json", "--measures", "auc,acc")
    assert code == 0
    assert json.loads(out) == dict(ml.evaluate(df.y, df.lr, measures=["auc", "acc"]))


def test_ci_json_equals_the_api(capsys, csv, tmp_path):
    p, df = csv
    html = tmp_path / "c.html"
    code, out, _ = run(capsys, p, "--score-col", "lr", "--score-col", "gb", "--ci", "0.9",
                       "--measures", "auc,acc,f1", "--n-boot", "100", "--seed", "4", "--json",
                       "--html", html)
    assert code == 0
    got = json.loads(out)
    api = ml.compare_classifiers(df.y, {"lr": df.lr, "gb": df.gb}, measures=["auc", "acc", "f1"],
                                 ci=0.9, n_boot=100, random_state=4)
    assert got == json.loads(api.to_json())
    assert set(got["models"]["lr"]["auc"]) == {"value", "lo", "hi", "method", "se"}
    assert {"se", "z"} <= set(got["pairs"][0]) and got["pairs"][0]["measure"] == "auc"
    assert html.read_text().startswith("<!DOCTYPE html>")


def test_n_jobs_gives_the_same_json(capsys, csv):
    """Threads evaluate the replicates; the draws stay in order, so the output is equal."""
    p, _ = csv
    argv = ["--score-col", "lr", "--score-col", "gb", "--ci", "0.9", "--measures",
            "auc,apr,f1,cal", "--n-boot", "100", "--seed", "2", "--json"]
    code1, one, _ = run(capsys, p, *argv)
    code2, two, _ = run(capsys, p, *argv, "--n-jobs", "2")
    assert code1 == code2 == 0 and one == two


def test_ci_method_forced(capsys, csv):
    p, _ = csv
    code, out, _ = run(capsys, p, "--score-col", "lr", "--ci", "0.95", "--measures", "acc",
                       "--ci-method", "clopper-pearson", "--json")
    assert code == 0
    assert plain_method(json.loads(out)["models"]["lr"]["acc"]["method"]) == "clopper-pearson"


def test_perf_text_single_model_with_ci(capsys, tmp_path, csv):
    _, df = csv
    p = tmp_path / "m.txt"
    p.write_text("".join(f"{a} {b}\n" for a, b in zip(df.y, df.lr, strict=True)))
    code, out, _ = run(capsys, p, "--ci", "0.95", "--measures", "auc", "--json")
    assert code == 0
    entry = json.loads(out)["models"]["score"]["auc"]
    assert plain_method(entry["method"]) == "delong-logit"
    assert entry["value"] == ml.metrics.auc(df.y, df.lr)


def test_constant_model_null_and_warning(capsys, csv):
    p, _ = csv
    code, out, err = run(capsys, p, "--score-col", "lr", "--score-col", "k", "--ci", "0.95",
                         "--measures", "auc", "--json")
    assert code == 0
    k = json.loads(out)["models"]["k"]["auc"]
    assert k["lo"] == k["hi"] == k["value"] == 0.5
    assert "auc of model 'k': DeLong interval is the point AUC = 0.5" in err
    assert "constant scores" in err


@pytest.mark.parametrize("argv,message", [
    (["--score-col", "lr", "--score-col", "lr"], "--score-col 'lr' is given twice"),
    (["--score-col", "lr", "--ci", "1.5"], "--ci must be in (0, 1)"),
    (["--score-col", "lr", "--ci", "0"], "--ci must be in (0, 1)"),
    (["--score-col", "lr", "--ci", "x"], "--ci must be a number in (0, 1), got 'x'"),
    (["--score-col", "lr", "--ci", "0.9", "--n-boot", "0"],
     "--n-boot must be a positive integer, got '0'"),
    (["--score-col", "lr", "--score-col", "nope"], "no column 'nope'"),
    (["--score-col", "lr", "--ci", "0.9", "--n-jobs", "0"],
     "--n-jobs must be a positive integer or -1, got '0'"),
    (["--score-col", "lr", "--ci", "0.9", "--n-jobs", "two"],
     "--n-jobs must be an integer, got 'two'"),
])
def test_bad_input_one_line_exit_2(capsys, csv, argv, message):
    p, _ = csv
    code, out, err = run(capsys, p, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_models_of_different_lengths(capsys, tmp_path):
    p = tmp_path / "gap.csv"
    p.write_text("y,a,b\n1,0.9,0.8\n0,0.2,\n1,0.7,0.6\n")
    code, _, err = run(capsys, p, "--score-col", "a", "--score-col", "b")
    assert code == 2 and "row" in err and "'b'" in err and err.count("\n") == 1


def test_perf_text_refuses_several_models(capsys, tmp_path):
    p = tmp_path / "m.txt"
    p.write_text("1 0.9\n0 0.2\n")
    code, _, err = run(capsys, p, "--score-col", "a", "--score-col", "b")
    assert code == 2 and "perf text holds one model" in err


# the file's scores include exact 0 and 1: the clipping note is the measure's, expected here
@pytest.mark.filterwarnings("ignore:cal_slope:UserWarning", "ignore:cal_intercept:UserWarning")
def test_calibration_slope_and_intercept(capsys, csv):
    """--measures cal_slope,cal_intercept: the values of the API, and with --ci their
    Wald intervals (method 'influence') and the paired test of the distances to 1 and 0."""
    p, df = csv
    code, out, _ = run(capsys, p, "--score-col", "lr", "--json", "--measures", "cal_slope")
    assert code == 0
    assert json.loads(out) == dict(ml.evaluate(df.y, df.lr, measures=["cal_slope"]))
    code, out, _ = run(capsys, p, "--score-col", "lr", "--score-col", "gb", "--ci", "0.95",
                       "--measures", "cal_slope,cal_intercept", "--json")
    assert code == 0
    got = json.loads(out)
    api = ml.compare_classifiers(df.y, {"lr": df.lr, "gb": df.gb},
                                 measures=["cal_slope", "cal_intercept"], ci=0.95)
    assert got == json.loads(api.to_json())
    assert plain_method(got["models"]["lr"]["cal_slope"]["method"]) == "influence"
    slope = {c: ml.metrics.cal_slope(df.y, df[c]) for c in ("lr", "gb")}
    pair = next(r for r in got["pairs"] if r["measure"] == "cal_slope")
    assert pair["diff"] == pytest.approx(abs(slope["lr"] - 1) - abs(slope["gb"] - 1),
                                         abs=1e-12)
