"""The operating point on a comparison's page (issue 42): each binary model's best-Youden
point on its ROC curve with its sensitivity/specificity interval as a cross (from the
replicates that draw the curve bands), the k-class page's micro and macro averages, and
best_threshold's method column reading the coverage study. The figures are checked by
their data (the artists' coordinates), never by pixels."""

from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer

import measurelab as ml
from measurelab.inference import evidence as ev
from measurelab.inference.classifiers import _operating as op
from measurelab.stats.scoretable import ScoreTable

matplotlib.use("Agg")


@pytest.fixture
def no_evidence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No study at all: every interval is shown (with its note), none withheld, so the
    figure's crosses have their arms whatever the shipped studies say."""
    (tmp_path / "coverage").mkdir()
    monkeypatch.setattr(ev, "_OVERRIDE", tmp_path / "coverage")


def _binary(n: int = 160, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    g = np.random.default_rng(seed)
    y = (g.random(n) < 0.4).astype(int)
    a = np.round(1 / (1 + np.exp(-(1.4 * y + g.normal(size=n) - 0.6))), 2)  # ties
    b = np.round(1 / (1 + np.exp(-(0.8 * y + g.normal(size=n) - 0.4))), 3)
    return y, {"a": a, "b": b}


def _crosses(ax: object) -> dict[str, ErrorbarContainer]:
    return {c.get_label().split(":")[0]: c for c in ax.containers  # type: ignore[attr-defined]
            if isinstance(c, ErrorbarContainer)}


def test_each_model_has_its_best_youden_point_and_cross(no_evidence: None) -> None:
    import matplotlib.pyplot as plt

    y, models = _binary()
    r = ml.compare_classifiers(y, models, measures=["auc"], n_boot=150, progress=False)
    fig = r.plot()
    crosses = _crosses(fig.axes[0])
    assert sorted(crosses) == ["a", "b"]
    ops = r.curve_bands()["operating"]
    for name, s in models.items():
        best = ml.best_threshold(y, s)           # the public route, on all the cases
        c = crosses[name]
        (x,), (yy,) = c.lines[0].get_data()
        assert x == pytest.approx(1 - best.spec, abs=1e-12)
        assert yy == pytest.approx(best.sens, abs=1e-12)
        assert f"t = {best.threshold:.3g}" in c.get_label()
        # the arms: the specificity interval across, the sensitivity interval up and down
        (h, v) = c.lines[2]
        (hx0, hy0), (hx1, hy1) = h.get_segments()[0]
        (vx0, vy0), (vx1, vy1) = v.get_segments()[0]
        p = ops[name]
        assert sorted([hx0, hx1]) == pytest.approx([1 - p["hi"]["spec"], 1 - p["lo"]["spec"]])
        assert hy0 == hy1 == pytest.approx(best.sens)
        assert sorted([vy0, vy1]) == pytest.approx([p["lo"]["sens"], p["hi"]["sens"]])
        assert vx0 == vx1 == pytest.approx(1 - best.spec)
        for k in op.QUANTITIES:
            assert p["lo"][k] <= p[k] + 1e-12 and p[k] <= p["hi"][k] + 1e-12
        assert p["replicates"] == 150 and p["threshold"] == best.threshold
        # the artists carry the model's name, so a reader of the figure can find them
        assert {a.get_gid() for a in c.get_children()} == {f"operating-point:{name}"}
    plt.close(fig)


def test_one_resampling_serves_the_bands_and_the_crosses(no_evidence: None) -> None:
    """The bands are computed once (the page's figure and its table read the same
    replicates), and the crosses' intervals are percentiles of the replicates' own
    best-Youden choices."""
    y, models = _binary(seed=1)
    r = ml.compare_classifiers(y, models, measures=["auc"], n_boot=100, progress=False)
    assert r.curve_bands() is r.curve_bands()
    t = op.table(r.curve_bands()["operating"])
    assert list(t.columns) == ["model", "quantity", "value", "lo", "hi", "method",
                               "replicates"]
    assert t["quantity"].tolist() == list(op.QUANTITIES) * 2
    assert t["method"].eq("bootstrap-percentile (no coverage evidence)").all()


def test_replicate_point_is_best_threshold_on_the_drawn_cases() -> None:
    """A replicate's table (cases not drawn kept with zero counts) gives the point
    best_threshold gives on the cases drawn, repeated by their multiplicities."""
    g = np.random.default_rng(7)
    y = (g.random(90) < 0.5).astype(int)
    s = np.round(g.normal(y * 0.9, 1), 1)
    for _ in range(20):
        mult = g.multinomial(y.size, np.full(y.size, 1 / y.size))
        t = ScoreTable.from_arrays(y, s, mult.astype(float))
        got = op.replicate_point(t)
        keep = np.repeat(np.arange(y.size), mult)
        if len(set(y[keep])) < 2:
            assert np.isnan(got).all()
            continue
        b = ml.best_threshold(y[keep], s[keep])
        assert got.tolist() == [b.threshold, b.sens, b.spec, b.value]


def test_summarize_takes_percentiles_of_the_replicates() -> None:
    g = np.random.default_rng(3)
    reps = g.random((60, 2, 4))
    reps[5, 1] = np.nan                       # a replicate without a class
    pts = np.full((2, 4), 0.5)
    s = op.summarize(["a", "b"], pts, reps, 0.9)
    for a, name in enumerate(["a", "b"]):
        ok = ~np.isnan(reps[:, a, 1])
        for j, k in enumerate(op.QUANTITIES):
            lo, hi = np.quantile(reps[ok, a, j], [(1 - 0.9) / 2, 1 - (1 - 0.9) / 2])
            assert (s[name]["lo"][k], s[name]["hi"][k]) == (lo, hi)
    assert (s["a"]["replicates"], s["b"]["replicates"]) == (60, 59)


def test_separated_scores_give_a_point_cross(no_evidence: None) -> None:
    """Every replicate of perfectly separated scores chooses sens = spec = 1."""
    y = np.array([0] * 20 + [1] * 20)
    s = np.r_[np.linspace(0.0, 0.4, 20), np.linspace(0.6, 1.0, 20)]
    r = ml.compare_classifiers(y, {"m": s}, measures=["auc"], n_boot=100, progress=False)
    p = r.curve_bands()["operating"]["m"]
    assert (p["sens"], p["spec"]) == (1.0, 1.0)
    assert (p["lo"]["sens"], p["hi"]["sens"], p["lo"]["spec"], p["hi"]["spec"]) == (1, 1, 1, 1)


def test_page_says_which_threshold_and_has_the_table(tmp_path: Path) -> None:
    y, models = _binary(n=120, seed=2)
    r = ml.compare_classifiers(y, models, measures=["auc"], n_boot=100, progress=False)
    page = r.to_html(tmp_path / "p.html", files=False).read_text(encoding="utf-8")
    assert "best-Youden operating point" in page
    assert "not the comparison's threshold 0.5" in page
    assert "Operating points (best Youden threshold), with intervals" in page
    assert page.count("<td>youden</td>") == 2


def test_best_threshold_method_column_reads_the_study(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """best_threshold's rows are judged as every interval: plain where the study covers in
    the test set's regime, withheld (NaN, the reason in the column) where it fell short;
    a constrained search was never studied."""
    fields = ["generator", "n", "param", "average", "model", "coverage", "mcse",
              "undefined", "smaller"]

    def entry(q: str, short: bool) -> dict[str, object]:
        rows = [["binormal", 300, 0.2, "", m, 0.80 if short else 0.95, 0.01, 0, 60]
                for m in ("a", "b")]
        rows += [["binormal", 1000, 0.5, "", m, 0.95, 0.01, 0, 500] for m in ("a", "b")]
        low = min(r[5] for r in rows)
        return {"measure": f"best_threshold.youden.{q}", "classes": "binary",
                "design": "random", "kind": "single", "averages": [],
                "methods": ["bootstrap-percentile"], "cells": 2, "lowest": low,
                "where": "n=300, π=0.2", "mean": 0.9, "covers": low >= 0.9,
                "figures": rows}

    doc = {"schema": 1, "source": "test", "preliminary": False, "level": 0.95,
           "cell_fields": fields,
           "entries": [entry("threshold", True), entry("sens", False),
                       entry("spec", False), entry("youden", False)]}
    folder = tmp_path / "coverage"
    folder.mkdir()
    (folder / "test.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(ev, "_OVERRIDE", folder)
    g = np.random.default_rng(4)
    y = (g.random(300) < 0.2).astype(int)      # about 60 positives: the short bracket
    s = g.normal(y * 1.0, 1)
    with pytest.warns(ml.UndefinedMeasureWarning, match="the threshold of best_threshold"):
        b = ml.best_threshold(y, s, ci=0.95, n_boot=200)
    t = b.intervals().set_index("quantity")
    assert t.loc["threshold", "method"].startswith("no interval: coverage 0.800 < 0.90")
    assert math.isnan(t.loc["threshold", "lo"]) and math.isnan(t.loc["threshold", "hi"])
    assert (t.loc[["sens", "spec", "youden"], "method"] == "bootstrap-percentile").all()
    # the cases resampled by class: the fixed design, which this study never ran
    fixed = ml.best_threshold(y, s, ci=0.95, n_boot=200, stratify=True).intervals()
    assert fixed["method"].eq("bootstrap-percentile (no coverage evidence)").all()
    limited = ml.best_threshold(y, s, ci=0.95, n_boot=200, min_sens=0.5).intervals()
    assert limited["method"].eq("bootstrap-percentile (no coverage evidence)").all()


# ------------------------------------------------------------------ k classes
def _multi(n: int = 240, k: int = 3, seed: int = 0) -> tuple[np.ndarray, dict]:
    g = np.random.default_rng(seed)
    y = g.integers(0, k, n)
    out = {}
    for name, sc in (("lr", 1.0), ("gb", 0.6)):
        z = sc * (np.eye(k)[y] * 1.5 + g.normal(size=(n, k)))
        e = np.exp(z - z.max(axis=1, keepdims=True))
        out[name] = e / e.sum(axis=1, keepdims=True)
    return y, out


def test_k_class_page_draws_micro_and_macro_averages_with_bands() -> None:
    import matplotlib.pyplot as plt
    from sklearn.metrics import precision_recall_curve, roc_auc_score, roc_curve
    from sklearn.preprocessing import label_binarize

    y, models = _multi()
    r = ml.compare_classifiers(y, models, measures=["acc"], n_boot=100, progress=False)
    fig = r.plot()
    lines = {ln.get_gid(): ln for ax in fig.axes for ln in ax.get_lines() if ln.get_gid()}
    bands = {c.get_gid() for ax in fig.axes for c in ax.collections if c.get_gid()}
    Y = label_binarize(y, classes=[0, 1, 2])
    for name, P in models.items():
        fpr, tpr, _ = roc_curve(Y.ravel(), P.ravel(), drop_intermediate=False)
        x, v = lines[f"roc:micro:{name}"].get_data()
        assert np.allclose(x, fpr) and np.allclose(v, tpr)
        x, v = lines[f"roc:macro:{name}"].get_data()   # its area: the mean of the AUCs
        assert np.trapezoid(v, x) == pytest.approx(
            roc_auc_score(y, P, multi_class="ovr", average="macro"), abs=1e-12)
        prec, rec, _ = precision_recall_curve(Y.ravel(), P.ravel())
        x, v = lines[f"pr:micro:{name}"].get_data()    # recall increasing here
        assert np.allclose(x, rec[::-1]) and np.allclose(v, prec[::-1])
        for key in ("roc", "pr"):
            for avg in ("micro", "macro"):
                assert f"band:{key}:{avg}:{name}" in bands
                cur = r.curve_bands()["averages"][key][name][avg]
                ok = ~np.isnan(cur["lo"])
                assert ok.mean() > 0.9 and (cur["lo"][ok] <= cur["hi"][ok]).all()
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[3:5] == ["micro average", "macro average"]
    assert "over 100 replicates" in fig.texts[0].get_text()
    plt.close(fig)


def test_pr_envelope_is_the_largest_precision_at_that_recall_or_more() -> None:
    """What the macro precision–recall band averages over the classes of a replicate."""
    from measurelab.inference.classifiers._figures import pr_envelope

    t = ScoreTable.from_arrays([1, 1, 0, 1, 0], [0.9, 0.7, 0.6, 0.4, 0.2])
    prec = {1 / 3: 1.0, 2 / 3: 1.0, 1.0: 0.75}
    got = pr_envelope(t, np.array([0.2, 0.5, 0.9, 1.0]))
    assert got.tolist() == [prec[1 / 3], prec[2 / 3], prec[1.0], prec[1.0]]
