"""``measurelab evaluate`` comparing k-class models given as probability column groups
(repeated ``--proba-cols``), CSV, Parquet and standard input, JSON and HTML (issue 19)."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main

CLASSES = ["cat", "dog", "eel"]


@pytest.fixture
def frame():
    g = np.random.default_rng(5)
    n = 150
    yi = g.integers(0, 3, n)
    df = pd.DataFrame({"y": np.array(CLASSES)[yi]})
    probs = {}
    for m, q in (("lr", 1.4), ("rf", 0.9)):
        L = g.normal(size=(n, 3))
        L[np.arange(n), yi] += q
        P = np.exp(L)
        P /= P.sum(axis=1, keepdims=True)
        probs[m] = P
        for j, c in enumerate(CLASSES):
            df[f"{m}_{c}"] = P[:, j]
    df["w"] = g.integers(1, 4, n).astype(float)
    return df, probs


def cols(m: str) -> str:
    return ",".join(f"{m}_{c}" for c in CLASSES)


def run(capsys, *argv):
    code = main(["evaluate", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_ci_json_equals_the_api(capsys, frame, tmp_path):
    df, probs = frame
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    html = tmp_path / "c.html"
    code, out, _ = run(capsys, p, "--proba-cols", cols("lr"), "--proba-cols", cols("rf"),
                       "--ci", "0.9", "--measures", "acc,f1,auc,mxe", "--n-boot", "200",
                       "--seed", "3", "--json", "--html", html)
    assert code == 0
    api = ml.compare_classifiers(df.y, probs, measures=["acc", "f1", "auc", "mxe"], ci=0.9,
                                 n_boot=200, random_state=3)
    assert json.loads(out) == json.loads(api.to_json())
    page = html.read_text()
    # forest, curves, top-label calibration panels (issue 33), confusion
    assert page.count("data:image/png;base64,") == 4 and "3 classes" in page


def test_parquet_named_groups_per_class_rows_and_weights(capsys, frame, tmp_path):
    df, probs = frame
    p = tmp_path / "m.parquet"
    df.to_parquet(p)
    code, out, _ = run(capsys, p, "--label-col", "y", "--proba-cols", "A=" + cols("lr"),
                       "--proba-cols", "B=" + cols("rf"), "--weight-col", "w",
                       "--measures", "f1", "--average", "none", "--json")
    assert code == 0
    got = json.loads(out)
    for name, m in (("A", "lr"), ("B", "rf")):
        want = ml.evaluate(df.y, probs[m], measures=["f1"], average=None,
                           sample_weight=df.w)["f1"]
        assert [got["models"][name][f"f1[{c}]"] for c in CLASSES] == pytest.approx(
            list(want), rel=1e-12)


def test_stdin_and_reordered_group(capsys, frame, monkeypatch):
    df, probs = frame
    order = ["y", *[f"lr_{c}" for c in CLASSES], "rf_eel", "rf_cat", "rf_dog"]
    text = df[order].to_csv(index=False).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    code, out, _ = run(capsys, "-", "--proba-cols", cols("lr"),
                       "--proba-cols", "rf_eel,rf_cat,rf_dog", "--measures", "acc,auc",
                       "--json")
    assert code == 0
    got = json.loads(out)["models"]
    for m in ("lr", "rf"):
        e = ml.evaluate(df.y, probs[m], measures=["acc", "auc"])
        assert got[m] == pytest.approx(dict(e), rel=1e-12)


def test_one_group_keeps_the_evaluate_contract(capsys, frame, tmp_path):
    df, probs = frame
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    code, out, _ = run(capsys, p, "--proba-cols", cols("lr"), "--measures", "acc", "--json")
    assert code == 0
    assert json.loads(out) == {"acc": pytest.approx(ml.evaluate(df.y, probs["lr"],
                                                                measures=["acc"])["acc"])}


def test_text_output_has_no_empty_verdicts(capsys, frame, tmp_path):
    df, _ = frame
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    code, out, _ = run(capsys, p, "--proba-cols", cols("lr"), "--proba-cols", cols("rf"),
                       "--ci", "0.95", "--measures", "acc,auc", "--n-boot", "100")
    assert code == 0
    assert "paired tests" in out and "Empty DataFrame" not in out and "verdicts" not in out


@pytest.mark.parametrize("argv,message", [
    (["--proba-cols", cols("lr"), "--proba-cols", "rf_cat,rf_dog,rf_nope"],
     "no column 'rf_nope'"),
    (["--proba-cols", cols("lr"), "--proba-cols", "rf_cat,rf_dog"],
     "the models give different numbers of classes (columns: 'lr' 3, 'rf' 2)"),
    (["--proba-cols", cols("lr"), "--proba-cols", cols("rf"), "--classes", "a,b,c"],
     "the label 'eel' in column 'y' has no probability column (classes: a, b, c)"),
    (["--proba-cols", "x=" + cols("lr"), "--proba-cols", "x=" + cols("rf")],
     "two column groups are both named 'x'"),
    (["--proba-cols", cols("lr"), "--proba-cols", "lr_cat,rf_dog,rf_eel"],
     "column 'lr_cat' is in two column groups"),
    (["--proba-cols", cols("lr"), "--proba-cols", cols("rf"), "--threshold", "0.3"],
     "--threshold does not apply to --proba-cols"),
    (["--proba-cols", cols("lr"), "--proba-cols", cols("rf"), "--score-col", "lr_cat"],
     "give either --score-col (binary) or --proba-cols (k classes)"),
    (["--proba-cols", "=" + cols("lr"), "--proba-cols", cols("rf")],
     "has an empty model name before '='"),
])
def test_bad_input_one_line_exit_2(capsys, frame, tmp_path, argv, message):
    df, _ = frame
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    code, out, err = run(capsys, p, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_rows_not_summing_to_one_named(capsys, frame, tmp_path):
    df, _ = frame
    df.loc[4, "rf_dog"] = 0.99
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    code, _out, err = run(capsys, p, "--proba-cols", cols("lr"), "--proba-cols", cols("rf"))
    assert code == 2
    assert "probability rows of model 'rf' must sum to 1 (tolerance" in err
    assert "row 5 sums to" in err


def test_html_to_a_directory_refused_before_computing(capsys, frame, tmp_path):
    df, _ = frame
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    code, _out, err = run(capsys, p, "--proba-cols", cols("lr"), "--proba-cols", cols("rf"),
                         "--html", tmp_path)
    assert code == 2 and "is a folder" in err
    assert not list(tmp_path.glob("*.tmp"))
