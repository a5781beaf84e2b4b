"""The analyses of a finished study, each as data (DataFrames) and as a figure.

* normalized test scores per problem (baseline → 0, best observed → 1; CAL against its mean,
  see :mod:`measurelab.metaeval.metric_space`), models below baseline on any measure except
  CAL dropped;
* MDS of the measures three ways — Euclidean on normalized scores without CAL, Euclidean on
  standardized scores with CAL (the paper's two plots), and on 1 − mean Spearman correlation
  — with the stress-versus-dimensions curve and 2-D maps;
* the mean Spearman rank correlation table across problems;
* the normalized score of each algorithm on each measure (per problem, the algorithm's model
  that is best *on the validation set* by that measure, scored on the test set; mean over
  problems);
* model selection by each measure (select on validation, report every measure on test);
* the last two per problem as well (``algorithms_by_problem``, ``selection_by_problem``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from measurelab.exceptions import MeasurelabTypeError
from measurelab.lab.learn.selection import best_per_group, selection_matrix
from measurelab.lab.study.store import ResultStore
from measurelab.lab.study.zoo import MEASURES
from measurelab.metaeval import metric_space as msp
from measurelab.validation import check_flag, check_output_folder, check_seed

COLUMNS: list[str] = list(MEASURES)
#: the nine measures the paper averages in its "mean" columns (SAR apart)
BASE: list[str] = [c for c in COLUMNS if c != "sar"]
GROUPS: dict[str, str] = {
    "acc": "threshold", "fsc": "threshold", "lft": "ordering", "auc": "ordering",
    "apr": "ordering", "bep": "ordering", "rms": "probability", "mxe": "probability",
    "cal": "probability", "sar": "composite",
}
_COLORS = {"threshold": "tab:blue", "ordering": "tab:green", "probability": "tab:red",
           "composite": "black"}
MDS_VARIANTS: dict[str, str] = {
    "normalized": "Euclidean, normalized scores, CAL excluded",
    "standardized": "Euclidean, mean-0 / sd-1 scores, CAL included",
    "rank": "1 − mean Spearman rank correlation, CAL included",
}


@dataclass
class Analysis:
    """Tables (data), their captions, and matplotlib figures of one study."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    captions: dict[str, str] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    normalized: pd.DataFrame | None = None

    def write(self, folder: str | Path) -> list[Path]:
        """Each table as CSV, the normalized scores as Parquet, each figure as PNG and SVG."""
        import os

        from measurelab.io.files import atomic_write_text
        from measurelab.lab.study.store import atomic_write_parquet

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name, df in self.tables.items():
            p = folder / f"{name}.csv"
            atomic_write_text(p, df.to_csv())
            written.append(p)
        if self.normalized is not None:
            p = folder / "normalized_scores.parquet"
            atomic_write_parquet(self.normalized, p)
            written.append(p)
        for name, fig in self.figures.items():
            for ext in ("png", "svg"):
                p = folder / f"{name}.{ext}"
                tmp = p.with_name(f".{p.name}.tmp.{ext}")
                fig.savefig(tmp, bbox_inches="tight", dpi=120)
                os.replace(tmp, p)
                written.append(p)
        return written


def _pivot(df: pd.DataFrame, split: str) -> pd.DataFrame:
    part = df[df["split"] == split].set_index("model")
    return part[COLUMNS].astype(float).sort_index()


def analyze(root: str | Path, *, problems: list[str] | None = None, seed: int = 0,
            figures: bool = True, extra: pd.DataFrame | None = None) -> Analysis:
    """All analyses of the study stored in ``root``; ``extra`` adds measure rows of more
    models (:func:`~measurelab.lab.study.runner.extend_study`) to the study's, models the
    study already has left out.

    Examples
    --------
    >>> import tempfile
    >>> from measurelab.lab.study import run_study
    >>> out = tempfile.mkdtemp()
    >>> _ = run_study(["sonar"], out=out, grid_name="tiny", workers=1, progress=False)
    >>> a = analyze(out, figures=False)
    >>> a.tables["rank_correlation"].shape
    (10, 11)
    """
    check_output_folder(root, "root")
    if problems is not None and (isinstance(problems, str) or
                                 not all(isinstance(p, str) for p in problems)):
        raise MeasurelabTypeError(f"problems must be a list of problem names or None, got "
                                  f"{problems!r:.60}")
    seed = check_seed(seed)
    figures = check_flag(figures, "figures")
    store = ResultStore(root)
    df = store.measures(problems)
    if extra is not None and len(extra):
        # models the study has, problems it has not, and repeated rows are left out
        keys = set(zip(df["problem"], df["model"], strict=True))
        new = extra[[k not in keys for k in zip(extra["problem"], extra["model"],
                                                  strict=True)]]
        new = new[new["problem"].isin(df["problem"].unique())]
        new = new.drop_duplicates(["problem", "model", "split"])
        df = pd.concat([df, new[df.columns]], ignore_index=True)
    higher = msp.directions(MEASURES)
    an = Analysis()
    norms, kept, valids, tests, rows, base_rows = {}, {}, {}, {}, [], []
    for prob in sorted(df["problem"].unique()):
        part = df[df["problem"] == prob]
        test, valid = _pivot(part, "test"), _pivot(part, "valid")
        with np.load(store.root / "problems" / prob / "data.npz") as z:
            y_test = z["y_test"]
        base = msp.baseline_scores(y_test, MEASURES)
        norm = msp.normalize_scores(test, base, higher)
        drop = msp.below_baseline(norm)
        norms[prob], kept[prob] = norm, norm[~drop]
        valids[prob], tests[prob] = valid, test
        info = json.loads((store.root / "problems" / prob / "info.json").read_text())
        rows.append({"problem": prob, "positive": info["positive"], "rows": info["rows"],
                     "features": info["n_features"], "train": info["train"],
                     "valid": info["valid"], "test": info["test"],
                     "pos_rate_test": info["pos_rate_test"], "models": len(norm),
                     "kept": int((~drop).sum())})
        for m in COLUMNS:
            best = test[m].max() if higher[m] else test[m].min()
            base_rows.append({"problem": prob, "measure": m, "baseline": base[m],
                              "cal_mean_baseline": test[m].mean() if m == "cal" else np.nan,
                              "best": best, "higher_is_better": higher[m]})
    algos = df.drop_duplicates("model").set_index("model")["algo"]
    an.normalized = pd.concat(
        {p: n.assign(algo=algos.reindex(n.index).to_numpy(),
                     kept=n.index.isin(kept[p].index)) for p, n in norms.items()},
        names=["problem", "model"]).reset_index()

    an.tables["problems"] = pd.DataFrame(rows).set_index("problem")
    an.captions["problems"] = "Problems, splits and models (kept = not below baseline)"
    an.tables["baselines"] = pd.DataFrame(base_rows).set_index(["problem", "measure"])
    an.captions["baselines"] = ("Baseline (positive rate for every case) and best observed "
                                "raw test value per problem and measure")

    # -- rank correlation
    rc = msp.mean_rank_correlation(kept[p] for p in kept)
    rc = rc.loc[COLUMNS, COLUMNS]
    off = rc.where(~np.eye(len(COLUMNS), dtype=bool))
    an.tables["rank_correlation"] = rc.assign(mean=off.mean(axis=1))
    an.captions["rank_correlation"] = ("Mean Spearman rank correlation across problems "
                                       "(models above baseline); mean = over the other measures")

    # -- MDS three ways
    dists = {
        "normalized": msp.euclidean_distances(
            pd.concat([kept[p][[c for c in COLUMNS if c != "cal"]] for p in kept],
                      ignore_index=True).T),
        "standardized": msp.euclidean_distances(
            pd.concat([msp.standardize(kept[p]).fillna(0.0) for p in kept],
                      ignore_index=True).T),
        "rank": 1.0 - rc.clip(-1, 1).fillna(0.0),
    }
    stress = {}
    coords = {}
    for name, D in dists.items():
        D = _symmetric(D)
        stress[name] = msp.stress_curve(D, 6, random_state=seed)
        xy, _ = msp.mds(D, 2, random_state=seed)
        coords[name] = _orient(xy)
        an.tables[f"mds_{name}"] = coords[name].assign(group=[GROUPS[m] for m in xy.index])
        an.captions[f"mds_{name}"] = f"2-D MDS coordinates: {MDS_VARIANTS[name]}"
    an.tables["mds_stress"] = pd.DataFrame(stress).rename_axis("dimensions")
    an.captions["mds_stress"] = "Kruskal stress-1 of MDS versus the number of dimensions"
    an.tables["mds_distance_rank"] = dists["rank"]
    an.captions["mds_distance_rank"] = "1 − mean rank correlation between measures"

    # -- per-algorithm normalized scores (best on validation per measure)
    per = {}
    for p in norms:
        groups = algos.reindex(norms[p].index)
        per[p] = best_per_group(valids[p], norms[p], groups, higher)[COLUMNS]
    by_prob = pd.concat(per, names=["problem", "algo"])
    by_prob.insert(len(BASE), "mean", by_prob[BASE].mean(axis=1))
    an.tables["algorithms_by_problem"] = by_prob
    an.captions["algorithms_by_problem"] = ("Normalized test score of each algorithm on each "
                                            "measure, per problem (its best model on "
                                            "validation by that measure); mean = over the "
                                            "nine measures, SAR apart")
    alg = pd.concat(per.values()).groupby(level=0).mean()[COLUMNS]
    alg.insert(len(BASE), "mean", alg[BASE].mean(axis=1))
    an.tables["algorithms"] = alg.sort_values("mean", ascending=False)
    an.captions["algorithms"] = ("Normalized test score of each algorithm on each measure "
                                 "(its best model on validation by that measure; mean over "
                                 "problems); mean = over the nine measures, SAR apart")

    # -- model selection by measure
    sel = {}
    for p in norms:
        s = selection_matrix(valids[p], norms[p], higher).drop(columns="model")
        sel[p] = s.astype(float).loc[COLUMNS, COLUMNS]
    sel_prob = pd.concat(sel, names=["problem", "selected_by"])
    sel_prob["mean"] = sel_prob[BASE].mean(axis=1)
    an.tables["selection_by_problem"] = sel_prob
    an.captions["selection_by_problem"] = ("Model selection by each measure, per problem: "
                                           "normalized test scores of the model best on "
                                           "validation by the row's measure")
    st = pd.concat(sel.values()).groupby(level=0).mean().loc[COLUMNS, COLUMNS]
    st["mean"] = st[BASE].mean(axis=1)
    st = st.rename_axis("selected_by")
    an.tables["selection"] = st.sort_values("mean", ascending=False)
    an.captions["selection"] = ("Model selection by each measure: the model best on validation "
                                "by the row's measure, its normalized test score on every "
                                "measure (mean over problems); mean = over the nine measures")
    if figures:
        _figures(an, stress, coords, kept, seed)
    return an


def _symmetric(D: pd.DataFrame) -> pd.DataFrame:
    M = np.array(D, dtype=float)
    M = (M + M.T) / 2
    np.fill_diagonal(M, 0.0)
    return pd.DataFrame(M, index=D.index, columns=D.columns)


def _orient(xy: pd.DataFrame) -> pd.DataFrame:
    """Fix MDS's arbitrary sign: AUC (if present) in the upper right."""
    xy = xy.copy()
    if "auc" in xy.index:
        for c in xy.columns:
            if xy.loc["auc", c] < 0:
                xy[c] = -xy[c]
    return xy


def _figures(an: Analysis, stress: dict[str, pd.Series], coords: dict[str, pd.DataFrame],
             kept: dict[str, pd.DataFrame], seed: int) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    for name, s in stress.items():
        ax.plot(s.index, s.values, marker="o", label=MDS_VARIANTS[name])
    ax.set_xlabel("MDS dimensions")
    ax.set_ylabel("Kruskal stress-1")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7)
    ax.set_title("Stress vs number of dimensions")
    an.figures["mds_stress"] = fig

    fig, axes = plt.subplots(1, 3, figsize=(14, 4.6))
    for ax, (name, xy) in zip(axes, coords.items(), strict=True):
        _scatter(ax, xy)
        ax.set_title(MDS_VARIANTS[name], fontsize=9)
    handles = [plt.Line2D([], [], marker="o", ls="", color=c, label=g)
               for g, c in _COLORS.items()]
    axes[-1].legend(handles=handles, fontsize=7, loc="best")
    fig.suptitle("MDS of the ten measures (2-D)")
    an.figures["mds_maps"] = fig

    probs = list(kept)
    ncol = min(4, len(probs))
    nrow = -(-len(probs) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol, 3.4 * nrow), squeeze=False)
    for ax, p in zip(axes.flat, probs, strict=False):
        rc = msp.rank_correlation(kept[p]).loc[COLUMNS, COLUMNS]
        D = _symmetric(1.0 - rc.clip(-1, 1).fillna(0.0))
        _scatter(ax, _orient(msp.mds(D, 2, random_state=seed)[0]))
        ax.set_title(f"{p} ({len(kept[p])} models)", fontsize=9)
    for ax in list(axes.flat)[len(probs):]:
        ax.axis("off")
    fig.suptitle("MDS per problem (1 − rank correlation)")
    an.figures["mds_per_problem"] = fig

    an.figures["rank_correlation"] = _heatmap(
        an.tables["rank_correlation"], "Mean Spearman rank correlation across problems",
        vmin=-1, vmax=1, cmap="RdBu_r")
    an.figures["algorithms"] = _heatmap(
        an.tables["algorithms"], "Normalized score per algorithm and measure", vmin=0, vmax=1,
        cmap="viridis")
    an.figures["selection"] = _heatmap(
        an.tables["selection"], "Select on validation by row, normalized test score by column",
        vmin=0, vmax=1, cmap="viridis")


def _scatter(ax: Any, xy: pd.DataFrame) -> None:
    pts = xy[["dim1", "dim2"]].astype(float)
    for m, (x, y) in pts.iterrows():
        ax.scatter(x, y, color=_COLORS[GROUPS.get(m, "composite")], s=30)
    ax.set_aspect("equal", adjustable="datalim")
    ax.margins(0.15)
    ax.set_xticks([])
    ax.set_yticks([])
    _place_labels(ax, pts)


def _place_labels(ax: Any, pts: pd.DataFrame, fontsize: float = 8.0) -> None:
    """Label each point where the label overlaps no other label or point (greedy over a
    ring of candidate offsets); a label moved away from its point gets a thin leader line."""
    fig = ax.figure
    fig.canvas.draw()  # fixes the limits and the aspect, so data → pixel is final
    px = fig.dpi / 72.0
    xy = ax.transData.transform(pts.to_numpy())
    dots = [(x - 4 * px, y - 4 * px, x + 4 * px, y + 4 * px) for x, y in xy]
    boxes: list[tuple[float, float, float, float]] = []
    steps = [(4, 3), (4, -11), (-4, 3), (-4, -11), (4, 13), (4, -21), (-4, 13), (-4, -21),
             (4, 23), (4, -31), (-4, 23), (-4, -31), (4, 33), (4, -41), (14, 43), (14, -51)]

    def overlap(b: tuple[float, float, float, float]) -> float:
        tot = 0.0
        for o in boxes + dots:
            w = min(b[2], o[2]) - max(b[0], o[0])
            h = min(b[3], o[3]) - max(b[1], o[1])
            if w > 0 and h > 0:
                tot += w * h
        return tot

    order = np.argsort(xy[:, 0], kind="stable")
    for i in order:
        label = str(pts.index[i]).upper()
        w, h = 0.62 * fontsize * len(label) * px, fontsize * px
        x, y = xy[i]
        best = None
        for k, (dx, dy) in enumerate(steps):
            x0 = x + dx * px if dx > 0 else x + dx * px - w
            b = (x0, y + dy * px, x0 + w, y + dy * px + h)
            own = dots[i]
            cost = overlap(b) - max(0.0, min(b[2], own[2]) - max(b[0], own[0])) * max(
                0.0, min(b[3], own[3]) - max(b[1], own[1]))
            if best is None or cost < best[0] - 1e-9:
                best = (cost, k, b, dx, dy)
            if cost <= 0:
                break
        assert best is not None
        _, k, b, dx, dy = best
        boxes.append(b)
        ax.annotate(label, tuple(pts.iloc[i]), textcoords="offset points", xytext=(dx, dy),
                    ha="left" if dx > 0 else "right", fontsize=fontsize,
                    arrowprops={"arrowstyle": "-", "lw": 0.4, "color": "0.55"}
                    if k >= 4 else None)


def _heatmap(df: pd.DataFrame, title: str, *, vmin: float, vmax: float, cmap: str) -> Any:
    import matplotlib.pyplot as plt

    data = df.to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=(0.62 * data.shape[1] + 2.2, 0.42 * data.shape[0] + 1.4))
    im = ax.imshow(data, vmin=vmin, vmax=vmax, cmap=cmap, aspect="auto")
    ax.set_xticks(range(data.shape[1]), [str(c).upper() for c in df.columns], fontsize=8)
    ax.set_yticks(range(data.shape[0]), [str(i).upper() for i in df.index], fontsize=8)
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            v = data[i, j]
            if np.isfinite(v):
                mid = (vmin + vmax) / 2
                color = "white" if (v < mid if cmap == "viridis" else abs(v) > 0.6) else "black"
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color=color)
    fig.colorbar(im, ax=ax, fraction=0.04)
    ax.set_title(title, fontsize=10)
    return fig
