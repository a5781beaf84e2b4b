"""docs/COMPARING.md: every Python example runs and prints what the page shows, and the
command-line examples run and agree with the API."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "COMPARING.md"


def test_comparing_examples_run():
    res = doctest.testfile(str(DOC), module_relative=False,
                           optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert res.attempted > 10
    assert res.failed == 0


def test_comparing_cli_examples(tmp_path, capsys):
    g = np.random.default_rng(0)
    y = g.integers(0, 2, 120)
    df = pd.DataFrame({"y": y, "lr": np.clip(g.random(120) * 0.7 + 0.3 * y, 0, 1),
                       "nb": np.clip(g.random(120) * 0.8 + 0.2 * y, 0, 1)})
    p = tmp_path / "preds.csv"
    df.to_csv(p, index=False)
    assert main(["evaluate", str(p), "--label-col", "y", "--score-col", "lr",
                 "--score-col", "nb", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["models"]) == {"lr", "nb"}
    html = tmp_path / "cmp.html"
    assert main(["evaluate", str(p), "--label-col", "y", "--score-col", "lr", "--score-col",
                 "nb", "--measures", "acc,f1,auc,apr,rms", "--ci", "0.95", "--n-boot", "200",
                 "--seed", "0", "--html", str(html), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    api = ml.compare_classifiers(df.y, {"lr": df.lr, "nb": df.nb},
                                 measures=["acc", "f1", "auc", "apr", "rms"], n_boot=200)
    assert got == json.loads(api.to_json()) and html.exists()
    assert main(["evaluate", "--counts", "1242", "390", "189", "740", "--measures",
                 "lr_pos,lr_neg,dp"]) == 0


def test_comparing_k_class_cli_example(tmp_path, capsys):
    g = np.random.default_rng(1)
    classes = ["bus", "opel", "saab", "van"]
    yi = g.integers(0, 4, 160)
    df = pd.DataFrame({"class": np.array(classes)[yi]})
    probs = {}
    for m in ("lr", "rf"):
        L = g.normal(size=(160, 4))
        L[np.arange(160), yi] += 1.2
        P = np.exp(L) / np.exp(L).sum(axis=1, keepdims=True)
        probs[m] = P
        for j, c in enumerate(classes):
            df[f"{m}_{c}"] = P[:, j]
    p = tmp_path / "vehicle_preds.csv"
    df.to_csv(p, index=False)
    html = tmp_path / "vehicle.html"
    assert main(["evaluate", str(p), "--label-col", "class",
                 "--proba-cols", "lr_bus,lr_opel,lr_saab,lr_van",
                 "--proba-cols", "rf=rf_bus,rf_opel,rf_saab,rf_van",
                 "--ci", "0.95", "--n-boot", "200", "--json", "--html", str(html)]) == 0
    got = json.loads(capsys.readouterr().out)
    api = ml.compare_classifiers(df["class"], probs, n_boot=200)
    with pytest.warns(ml.UndefinedMeasureWarning, match="no interval for ece"):
        want = json.loads(api.to_json())  # (the command line said it on stderr)
    assert got == want and html.exists()
