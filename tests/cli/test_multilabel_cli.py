"""``measurelab evaluate`` and ``measurelab versus`` of multi-label files (--label-cols,
--score-cols): the numbers equal the API's (and scikit-learn's); a missing column is one
line and exit code 2."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

import measurelab as ml
from measurelab.cli import main


@pytest.fixture
def csv(tmp_path):
    g = np.random.default_rng(5)
    n = 120
    Y = g.random((n, 3)) < 0.4
    A = np.round(np.clip(0.45 * Y + 0.6 * g.random((n, 3)), 0, 1), 3)
    B = np.round(np.clip(0.2 * Y + 0.8 * g.random((n, 3)), 0, 1), 3)
    df = pd.DataFrame(Y.astype(int), columns=["a", "b", "c"])
    for j, c in enumerate("abc"):
        df[f"lr_{c}"] = A[:, j]
        df[f"rf_{c}"] = B[:, j]
    p = tmp_path / "tags.csv"
    df.to_csv(p, index=False)
    return p, Y, A, B


def run(capsys, *argv):
    code = main([*map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_evaluate_equals_sklearn(capsys, csv):
    p, Y, A, _B = csv
    code, out, _ = run(capsys, "evaluate", p, "--label-cols", "a,b,c", "--score-cols",
                       "lr_a,lr_b,lr_c", "--measures", "f1,lrap,hamming_loss",
                       "--average", "samples", "--json")
    assert code == 0
    got = json.loads(out)
    assert got["f1"] == pytest.approx(skm.f1_score(Y, A > 0.5, average="samples",
                                                   zero_division=0), abs=1e-12)
    assert got["lrap"] == pytest.approx(skm.label_ranking_average_precision_score(Y, A),
                                        abs=1e-12)
    assert got["hamming_loss"] == pytest.approx(skm.hamming_loss(Y, A > 0.5), abs=1e-12)


def test_versus_compares_two_models_of_one_csv(capsys, csv, tmp_path):
    p, Y, A, B = csv
    html = tmp_path / "v.html"
    code, out, _ = run(capsys, "versus", p, "--label-cols", "a,b,c", "--score-cols",
                       "lr_a,lr_b,lr_c", "--score-cols", "rf=rf_a,rf_b,rf_c", "--measures",
                       "f1,auc", "--n-boot", "200", "--json", "--html", html)
    assert code == 0
    api = ml.compare_classifiers(Y, {"lr": A, "rf": B}, measures=["f1", "auc"], n_boot=200,
                                 labels=["a", "b", "c"])
    assert json.loads(out) == json.loads(api.to_json())
    assert "auc per label" in html.read_text()
    code, out, _ = run(capsys, "versus", p, "--label-cols", "a,b,c", "--score-cols",
                       "lr_a,lr_b,lr_c", "--score-cols", "rf=rf_a,rf_b,rf_c", "--measures",
                       "f1", "--n-boot", "100")
    assert code == 0 and "multi-label with 3 labels (a, b, c)" in out


@pytest.mark.parametrize("argv,message", [
    (["--label-cols", "a,b,d", "--score-cols", "lr_a,lr_b,lr_c"],
     "has no column 'd' (--label-cols); its columns are a, b, c"),
    (["--label-cols", "a,b,c", "--score-cols", "lr_a,lr_b,lr_x"],
     "has no column 'lr_x' (--score-cols of model 'lr')"),
    (["--label-cols", "a,b,c", "--score-cols", "lr_a,lr_b"],
     "--score-cols of model 'lr' names 2 columns but --label-cols names 3"),
    (["--label-cols", "a,lr_b,c", "--score-cols", "lr_a,lr_b,lr_c"],
     "column 'lr_b' (--label-cols) holds"),
    (["--label-cols", "a,b,c"], "needs both --label-cols"),
    (["--label-cols", "a,b,c", "--score-cols", "lr_a,lr_b,lr_c", "--measures", "brier"],
     "'brier' is not a multi-label measure"),
])
@pytest.mark.parametrize("command", ["evaluate", "versus"])
def test_bad_input_is_one_line_and_exit_2(capsys, csv, command, argv, message):
    p, *_ = csv
    code, out, err = run(capsys, command, p, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
