"""docs/NET_BENEFIT.md and docs/POWER.md: every Python example runs and prints what the
pages show, and the command-line examples of POWER.md run and agree with the API."""

from __future__ import annotations

import doctest
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from measurelab.cli import main
from measurelab.inference import power_roc_test

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("page", ["NET_BENEFIT.md", "POWER.md"])
def test_examples_run(page):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = doctest.testfile(str(DOCS / page), module_relative=False,
                               optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert res.attempted > 10
    assert res.failed == 0


def test_power_cli_examples(tmp_path, capsys):
    def run(*argv):
        assert main(["power", *argv, "--json", "--no-progress"]) == 0
        return json.loads(capsys.readouterr().out)

    assert run("--auc", "0.73", "--ncases", "41", "--ncontrols", "72")["analytic"][
        "power"] == pytest.approx(0.9897453, abs=5e-8)
    assert run("--auc", "0.8", "--power", "0.9", "--kappa", "1")["analytic"][
        "ncases"] == pytest.approx(16.6192, abs=1e-4)
    two = run("--auc", "0.8", "--auc2", "0.75", "--r", "0.5", "--power", "0.8",
              "--studentized")["analytic"]
    assert two["power"] == pytest.approx(0.8) and two["ncases"] > 0
    rng = np.random.default_rng(0)
    y = (rng.random(300) < 0.35).astype(int)
    lr = 1 / (1 + np.exp(-(rng.normal(size=300) + 1.6 * y - 0.9)))
    g = pd.DataFrame({"y": y, "lr": lr, "nb": np.clip(lr + rng.normal(0, 0.15, 300), 0, 1)})
    f = tmp_path / "pilot.csv"
    g.to_csv(f, index=False)
    got = run(str(f), "--score-col", "lr", "--score-col", "nb", "--power", "0.8",
              "--studentized")["analytic"]
    want = power_roc_test(y_true=g.y, scores={"lr": g.lr, "nb": g.nb}, power=0.8,
                          null_variance=False)
    assert got["ncases"] == pytest.approx(want.ncases, rel=1e-12)
    sim = run("--auc", "0.8", "--auc2", "0.75", "--r", "0.5", "--ncases", "150",
              "--ncontrols", "150", "--simulate", "--measure", "f1", "--sims", "10")
    assert sim["simulated"]["n_sim"] == 10
    sim = run(str(f), "--score-col", "lr", "--score-col", "nb", "--simulate", "--measure",
              "f1", "--n", "100", "--effect", "0.02", "--sims", "10", "--studentized")
    assert sim["simulated"]["effect"] == pytest.approx(0.02, abs=1e-6)
    assert sim["analytic"]["ncases"] == int(y.sum())  # the pilot's own size
