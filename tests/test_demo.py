"""`measurelab demo`: runs end to end and its table agrees with scikit-learn."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, log_loss, roc_auc_score

from measurelab.cli import main
from measurelab.cli.demo import fit_models, run_demo


def test_demo_writes_report_and_agrees_with_sklearn(tmp_path):
    buf = io.StringIO()
    res = run_demo(tmp_path, reproductions=("sokolova2006",), file=buf)
    assert res["failed"] == [] and res["ran"] == ["sokolova2006"]
    for name in ("demo.md", "demo-measures.csv", "demo-curves.png"):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / "sokolova2006" / "sokolova2006.md").exists()
    table = pd.read_csv(tmp_path / "demo-measures.csv", index_col="measure")
    y, scores = fit_models()
    for model, s in scores.items():
        assert table.loc["auc", model] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        assert table.loc["acc", model] == pytest.approx(accuracy_score(y, s > 0.5), abs=1e-12)
        assert table.loc["mxe", model] == pytest.approx(log_loss(y, s), abs=1e-9)
    assert "logistic regression" in buf.getvalue()


def test_demo_command(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path), "--no-reproductions"]) == 0
    assert "demo written to" in capsys.readouterr().out
