"""``measurelab demo``: runs into a folder, writes its report, and its numbers agree with
scikit-learn on the prediction files it wrote."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, average_precision_score, log_loss, roc_auc_score

from measurelab.cli import main
from measurelab.cli.demo import QUICK_REPRODUCTIONS
from measurelab.lab import experiments


def test_demo_writes_report_and_agrees_with_sklearn(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    assert "Traceback" not in err and "failed" not in err

    for name in ("demo.md", "demo-measures.csv", "demo-curves.png"):
        assert (out / name).stat().st_size > 0
    assert (out / "demo-curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = pd.read_csv(out / "demo-measures.csv", index_col="measure")
    models = [c for c in table.columns if c not in ("kind", "better")]
    assert len(models) == 3
    md = (out / "demo.md").read_text()
    page = (out / "demo.html").read_text()
    from measurelab import pages

    assert f"<style>{pages.STYLESHEET}</style>" in page and "class='summary'" in page
    assert "href='demo-comparison.html'" in page and "href='index.html'" in page
    assert "demo-curves.png" in md and "| auc " in md

    for model in models:
        f = out / "predictions" / f"{model.replace(' ', '-')}.txt"
        data = np.loadtxt(f)
        y, s = data[:, 0], data[:, 1]
        col = table[model]
        assert col["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        assert col["ap"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
        assert col["acc"] == pytest.approx(accuracy_score(y, s > 0.5), abs=1e-12)
        assert col["mxe"] == pytest.approx(log_loss(y, s), rel=1e-9)
        assert model in printed

    # every cheap reproduction that is installed ran and wrote its report
    for name in set(QUICK_REPRODUCTIONS) & set(experiments.available()):
        assert any((out / name).glob("*.md")), name
        assert f"[{name}]" in md
    # the demo ends by printing the path of the contents page over its reproductions
    assert printed.strip().splitlines()[-1] == (
        f"index of the reproductions: {out / 'index.html'}")
    index = (out / "index.html").read_text()
    for name in set(QUICK_REPRODUCTIONS) & set(experiments.available()):
        assert f"{name}/{name}.html" in index


def test_demo_curves_are_the_curves_modules_points():
    """The figure's ROC and PR lines (from measurelab.curves) equal the points the demo
    computed itself before: counts at every distinct score, from (0, 0) and (0, 1)."""
    from measurelab.cli.demo import curves_figure
    from measurelab.stats.scoretable import ScoreTable

    rng = np.random.default_rng(3)
    y = (rng.random(200) < 0.4).astype(int)
    scores = {"a": np.round(rng.random(200) * 0.7 + y * 0.3, 2), "b": rng.random(200)}
    fig = curves_figure(y, scores)
    roc_ax, pr_ax, _ = fig.axes
    for i, s in enumerate(scores.values()):
        t = ScoreTable.from_arrays(y == 1, s)
        c = t.counts_all_thresholds()
        tpr = np.concatenate([[0.0], c.tp / t.n_pos])
        fpr = np.concatenate([[0.0], c.fp / t.n_neg])
        precision = np.concatenate([[1.0], c.tp / (c.tp + c.fp)])
        roc, pr = roc_ax.get_lines()[i], pr_ax.get_lines()[i]
        np.testing.assert_array_equal(roc.get_xdata(), fpr)
        np.testing.assert_array_equal(roc.get_ydata(), tpr)
        np.testing.assert_array_equal(pr.get_xdata(), tpr)  # recall
        np.testing.assert_array_equal(pr.get_ydata(), precision)
        assert f"AUC {np.trapezoid(tpr, fpr):.3f}" in roc.get_label()
    import matplotlib.pyplot as plt

    plt.close(fig)
