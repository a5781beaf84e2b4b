"""``measurelab versus``: comparing classifiers has its own command (issue 22)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.cli import main


@pytest.fixture
def csv(tmp_path):
    g = np.random.default_rng(3)
    n = 200
    y = g.integers(0, 2, n)
    df = pd.DataFrame({"y": y,
                       "lr": np.clip(g.normal(0.4, 0.2, n) + 0.2 * y, 0, 1).round(3),
                       "gb": np.clip(g.normal(0.4, 0.2, n) + 0.25 * y, 0, 1).round(3)})
    p = tmp_path / "m.csv"
    df.to_csv(p, index=False)
    return p, df


def run(capsys, *argv):
    code = main(["versus", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_versus_defaults_to_intervals_and_equals_the_api(capsys, csv, tmp_path):
    p, df = csv
    html = tmp_path / "v.html"
    code, out, _ = run(capsys, p, "--score-col", "lr", "--score-col", "gb", "--measures",
                       "auc,acc", "--n-boot", "200", "--json", "--html", html)
    assert code == 0
    api = ml.compare_classifiers(df.y, {"lr": df.lr, "gb": df.gb}, measures=["auc", "acc"],
                                 n_boot=200)
    assert json.loads(out) == json.loads(api.to_json())
    text = html.read_text()
    assert "class='summary'" in text and (tmp_path / "v.json").exists()


def test_versus_text_and_no_ci(capsys, csv):
    p, _ = csv
    code, out, _ = run(capsys, p, "--score-col", "lr", "--score-col", "gb", "--measures",
                       "auc", "--ci", "none")
    assert code == 0 and "paired tests" not in out and "preferences" in out
    code, out, _ = run(capsys, p, "--score-col", "lr", "--score-col", "gb", "--measures",
                       "auc", "--n-boot", "100")
    assert code == 0 and "paired tests" in out


@pytest.mark.parametrize("argv,message", [
    ([], "give the models: --score-col NAME"),
    (["--score-col", "lr", "--proba-cols", "a,b,c"], "give either --score-col"),
    (["--score-col", "lr", "--measures", "nope"], "nope"),
    (["--score-col", "lr", "--html", "/"], "is a folder"),
])
def test_versus_bad_input(capsys, csv, argv, message):
    p, _ = csv
    code, out, err = run(capsys, p, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_no_progress_silences_every_bar(capsys, csv, monkeypatch):
    # a progress line that prints at every update (the real one waits 20 s): without
    # --no-progress the bootstrap and the calibration test show theirs, with it nothing
    from measurelab import progress

    class Eager(progress.PeriodicLine):
        def __init__(self, total, desc, unit="it", every=0.0, file=None):
            super().__init__(total, desc, unit, every=0.0, file=file)

    monkeypatch.setattr(progress, "PeriodicLine", Eager)
    p, _ = csv
    argv = [p, "--score-col", "lr", "--score-col", "gb", "--measures", "auc,brier",
            "--n-boot", "200"]
    code, _, err = run(capsys, *argv)
    assert code == 0 and "calibration test:" in err and "% (" in err
    code, out, err = run(capsys, *argv, "--no-progress")
    assert code == 0 and "% (" not in err and "Calibration (" in out
