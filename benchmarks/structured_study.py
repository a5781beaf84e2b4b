"""Simulation study: do the intervals of clustered test sets (``groups=``) and of subgroups
(``by=``) cover? (issue 31)

**Clusters.** Each test set has I clusters of ``size`` cases. A case's label is
1[√ρ·v_c + √(1−ρ)·e > 0] (prevalence ½) and model a scores it μ_a·y + √ρ·u_c + √(1−ρ)·ε_a;
model b μ_b·y + √ρ·u_c + √(1−ρ)·(r·ε_a + √(1−r²)·ε_b) — v_c, u_c cluster effects, ρ the
intra-cluster correlation of labels and scores, r = 0.6 the correlation of the two models'
noise. The noise of a score is N(0, 1) whatever ρ, so the population values are exact:
AUC = Φ(μ/√2); at the threshold t, TPR = Φ(μ − t), FPR = 1 − Φ(t), acc = ½(TPR + 1 − FPR),
F1 = 2·TPR / (2·TPR + (1 − TPR) + FPR). For each (size, ρ) cell the study draws ``sims``
test sets and compares a and b twice: with ``groups=`` (clustered DeLong for AUC, the
cluster bootstrap for acc and F1 and the paired F1, the cluster-robust paired test for acc)
and without (today's case intervals: DeLong, Wilson, McNemar/Tango, the case bootstrap).

**Subgroups.** Three groups of ``n_g`` cases (independent cases), with μ = 0.8, 1.2, 1.6
(AUC 0.714, 0.802, 0.871): coverage of every per-group interval (AUC, acc) and of the
largest gap (max − min over groups) of AUC and acc.

Coverage = the share of test sets whose interval holds the population value (an undefined
interval counts as a miss); ± its Monte Carlo standard error. Each finished cell is written
atomically to ``--cache`` (one JSON per cell) and a rerun resumes; simulation i of a cell
always draws the same data.

Run (the run shipped in docs/structured_coverage.md: about 30 minutes on one crowded
shared core; with one case per cluster the ICC has no effect, so size 1 runs at ICC 0)::

    nice -n 15 .venv/bin/python benchmarks/structured_study.py --sims 60 --n-boot 200 \\
        --clusters 60 --cells 1:0 5:0.3 5:0.6 20:0 20:0.3 20:0.6 \\
        --out docs/structured_coverage.md \\
        --evidence src/measurelab/data/coverage/structured.json

The full grid (every size × ICC, 200 test sets a cell, 400 replicates) drops ``--cells``
and raises ``--sims`` and ``--n-boot``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import norm

MU_A, MU_B, THRESHOLD, NOISE_R = 1.4, 1.0, 0.5, 0.6
SIZES = (1, 5, 20)
ICCS = (0.0, 0.3, 0.6)
GROUP_SIZES = (50, 500, 5000)
GROUP_MU = (0.8, 1.2, 1.6)


def truth(mu: float, t: float = THRESHOLD) -> dict[str, float]:
    """Population AUC, acc and F1 of a model μ·y + N(0, 1) at threshold t (prevalence ½)."""
    tpr, fpr = norm.cdf(mu - t), 1 - norm.cdf(t)
    return {"auc": float(norm.cdf(mu / math.sqrt(2))), "acc": float(0.5 * (tpr + 1 - fpr)),
            "f1": float(2 * tpr / (2 * tpr + (1 - tpr) + fpr))}


def draw_clustered(n_clusters: int, size: int, icc: float, rng: np.random.Generator
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Labels, the two models' scores and the cluster ids of one test set."""
    cid = np.repeat(np.arange(n_clusters), size)
    n = cid.size
    a, b = math.sqrt(icc), math.sqrt(1 - icc)
    y = (a * rng.normal(size=n_clusters)[cid] + b * rng.normal(size=n) > 0).astype(int)
    u = a * rng.normal(size=n_clusters)[cid]
    ea, eb = rng.normal(size=n), rng.normal(size=n)
    sa = MU_A * y + u + b * ea
    sb = MU_B * y + u + b * (NOISE_R * ea + math.sqrt(1 - NOISE_R ** 2) * eb)
    return y, sa, sb, cid


def _covers(lo: float, hi: float, v: float) -> bool:
    return bool(np.isfinite(lo) and np.isfinite(hi) and lo <= v <= hi)


def coverage_cell(size: int, icc: float, n_clusters: int, sims: int, n_boot: int,
                  seed: int = 0) -> dict[str, Any]:
    """Coverage of every interval of one (cluster size, ICC) cell."""
    from measurelab import compare_classifiers

    ta, tb = truth(MU_A), truth(MU_B)
    hits: dict[str, int] = {}

    def hit(key: str, ok: bool) -> None:
        hits[key] = hits.get(key, 0) + int(ok)

    for i in range(sims):
        rng = np.random.default_rng([seed, int(size), round(icc * 100), i])
        y, sa, sb, cid = draw_clustered(n_clusters, size, icc, rng)
        if y.min() == y.max():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for tag, kw in (("cluster", {"groups": cid}), ("case", {})):
                r = compare_classifiers(y, {"a": sa, "b": sb}, measures=["auc", "acc", "f1"],
                                        threshold=THRESHOLD, n_boot=n_boot, random_state=i,
                                        progress=False, **kw)
                iv = r.intervals().set_index(["model", "measure"])
                for m in ("auc", "acc", "f1"):
                    for name, t in (("a", ta), ("b", tb)):
                        row = iv.loc[(name, m)]
                        hit(f"{tag} {m} single", _covers(row["lo"], row["hi"], t[m]))
                te = r.tests().set_index("measure")
                for m in ("auc", "acc", "f1"):
                    hit(f"{tag} {m} paired", _covers(te.loc[m, "lo"], te.loc[m, "hi"],
                                                     ta[m] - tb[m]))
    out: dict[str, Any] = {"size": size, "icc": icc, "clusters": n_clusters, "sims": sims}
    for k, v in hits.items():
        denom = 2 * sims if k.endswith("single") else sims
        out[k] = v / denom
    out["clustered-delong single"] = out["cluster auc single"]
    out["clustered-delong paired"] = out["cluster auc paired"]
    out["delong single"] = out["case auc single"]
    return out


def subgroup_cell(n_g: int, sims: int, n_boot: int, seed: int = 0) -> dict[str, Any]:
    """Coverage of the per-group intervals and of the largest gap, groups of n_g cases."""
    from measurelab import compare_classifiers

    truths = [truth(mu) for mu in GROUP_MU]
    gap = {m: max(t[m] for t in truths) - min(t[m] for t in truths) for m in ("auc", "acc")}
    hits: dict[str, int] = {}
    for i in range(sims):
        rng = np.random.default_rng([seed, 7, n_g, i])
        grp = np.repeat(np.arange(3), n_g)
        y = rng.integers(0, 2, grp.size)
        s = np.array(GROUP_MU)[grp] * y + rng.normal(size=grp.size)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = compare_classifiers(y, {"m": s}, measures=["auc", "acc"],
                                    threshold=THRESHOLD, by=grp, n_boot=n_boot,
                                    random_state=i, progress=False)
            bg = r.by_group()
            gp = r.gaps().set_index("measure")
        for row in bg.itertuples():
            k = f"group {row.measure}"
            hits[k] = hits.get(k, 0) + int(_covers(row.lo, row.hi,
                                                   truths[int(row.group)][row.measure]))
        for m in ("auc", "acc"):
            k = f"gap {m}"
            hits[k] = hits.get(k, 0) + int(_covers(gp.loc[m, "lo"], gp.loc[m, "hi"], gap[m]))
    out: dict[str, Any] = {"n_g": n_g, "sims": sims}
    for k, v in hits.items():
        out[k] = v / (3 * sims if k.startswith("group") else sims)
    return out


def _atomic_json(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(tmp, path)


def _mcse(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-12) / n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--group-sims", type=int, default=None)
    ap.add_argument("--n-boot", type=int, default=400)
    ap.add_argument("--clusters", type=int, default=100)
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--iccs", type=float, nargs="+", default=list(ICCS))
    ap.add_argument("--cells", nargs="+", default=None, metavar="SIZE:ICC",
                    help="the (cluster size, ICC) cells to run instead of --sizes × --iccs")
    ap.add_argument("--group-sizes", type=int, nargs="+", default=list(GROUP_SIZES))
    ap.add_argument("--cache", default="benchmarks/.structured-cache")
    ap.add_argument("--out", default=None)
    ap.add_argument("--evidence", default=None)
    a = ap.parse_args(argv)
    from measurelab.progress import progress_bar

    cache = Path(a.cache)
    gsims = a.group_sims or a.sims
    pairs = ([(int(c.split(":")[0]), float(c.split(":")[1])) for c in a.cells] if a.cells
             else [(s, r) for s in a.sizes for r in a.iccs])
    a.sizes = sorted({s for s, _r in pairs})
    a.iccs = sorted({r for _s, r in pairs})
    cells = [("cluster", s, r) for s, r in pairs] + [("group", g, None) for g in a.group_sizes]
    results = []
    t0 = time.time()
    with progress_bar(len(cells), desc="structured study", unit="cell") as bar:
        for kind, x, icc in cells:
            name = (f"cluster-s{x}-icc{icc:g}-I{a.clusters}" if kind == "cluster"
                    else f"group-n{x}") + f"-sims{a.sims if kind == 'cluster' else gsims}" \
                f"-B{a.n_boot}.json"
            path = cache / name
            if path.exists():
                res = json.loads(path.read_text())
            else:
                res = (coverage_cell(x, icc, a.clusters, a.sims, a.n_boot)
                       if kind == "cluster" else subgroup_cell(x, gsims, a.n_boot))
                res["kind"] = kind
                _atomic_json(path, res)
            results.append(res)
            bar.update(1)
    elapsed = time.time() - t0
    cmd = "python benchmarks/structured_study.py " + " ".join(argv or sys.argv[1:])
    text = report(results, a, cmd, elapsed)
    print(text)
    if a.out:
        Path(a.out).write_text(text)
    if a.evidence:
        _atomic_json(Path(a.evidence), evidence(results, a, cmd))
    return 0


_ROWS = [("auc", "single", "clustered DeLong (logit)", "DeLong (logit)"),
         ("auc", "paired", "clustered DeLong", "DeLong"),
         ("acc", "single", "cluster bootstrap (BCa)", "Wilson"),
         ("acc", "paired", "cluster-robust paired (Obuchowski)", "McNemar / Tango"),
         ("f1", "single", "cluster bootstrap (BCa)", "case bootstrap (BCa)"),
         ("f1", "paired", "cluster bootstrap (BCa)", "case bootstrap (BCa)")]


def report(results: list[dict[str, Any]], a: Any, cmd: str, elapsed: float) -> str:
    cl = [r for r in results if r["kind"] == "cluster"]
    gr = [r for r in results if r["kind"] == "group"]
    lines = ["# Coverage of intervals on clustered test sets and subgroups", "",
             f"Made by `{cmd}` ({elapsed / 60:.1f} min).", "",
             f"Clusters: I = {a.clusters} clusters per test set, {a.sims} test sets per "
             f"cell, {a.n_boot} bootstrap replicates, level 0.95; each cell shows the "
             "coverage with clusters taken into account (groups=) / with the cases "
             "resampled as if independent (today's intervals). Monte Carlo SE about "
             f"{_mcse(0.95, a.sims):.3f}.", ""]
    head = "| measure | kind | method (groups=) | " + " | ".join(
        f"size {r['size']}, ICC {r['icc']:g}" for r in cl) + " |"
    lines += [head, "|" + "---|" * (3 + len(cl))]
    for m, kind, meth, case in _ROWS:
        cells = [f"{r[f'cluster {m} {kind}']:.3f} / {r[f'case {m} {kind}']:.3f}" for r in cl]
        lines.append(f"| {m} | {kind} | {meth} vs {case} | " + " | ".join(cells) + " |")
    if gr:
        lines += ["", f"Subgroups: three groups (AUC 0.714, 0.802, 0.871), "
                  f"{gr[0]['sims']} test sets per cell.", "",
                  "| interval | " + " | ".join(f"{r['n_g']} cases a group" for r in gr) + " |",
                  "|---|" + "---|" * len(gr)]
        for k, label in (("group auc", "per-group AUC (DeLong)"),
                         ("group acc", "per-group acc (Wilson)"),
                         ("gap auc", "largest gap of AUC (bootstrap of the max, BCa)"),
                         ("gap acc", "largest gap of acc (bootstrap of the max, BCa)")):
            lines.append(f"| {label} | " + " | ".join(f"{r[k]:.3f}" for r in gr) + " |")
    return "\n".join(lines) + "\n"


def evidence(results: list[dict[str, Any]], a: Any, cmd: str) -> dict[str, Any]:
    """The verdicts measurelab reads (design 'cluster'), schema 1."""
    methods = {("auc", "single"): ["clustered-delong-logit"],
               ("auc", "paired"): ["clustered-delong"],
               ("acc", "single"): ["cluster-bootstrap-bca"],
               ("acc", "paired"): ["clustered-wald"],
               ("f1", "single"): ["cluster-bootstrap-bca"],
               ("f1", "paired"): ["cluster-bootstrap-bca"]}
    cl = [r for r in results if r["kind"] == "cluster"]
    entries = []
    for (m, kind), meth in methods.items():
        vals = [(r[f"cluster {m} {kind}"], f"size={r['size']}, ICC={r['icc']:g}") for r in cl]
        low, where = min(vals)
        entries.append({"measure": m, "classes": "binary", "design": "cluster", "kind": kind,
                        "averages": [], "methods": meth, "cells": len(vals),
                        "lowest": low, "where": where,
                        "mean": float(np.mean([v for v, _w in vals])),
                        "mcse_lowest": _mcse(low, a.sims * (2 if kind == "single" else 1)),
                        "covers": low >= 0.90})
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    import measurelab

    return {"schema": 1, "source": "structured", "title": "clustered test sets (issue 31)",
            "preliminary": False, "level": 0.95, "bar": 0.9, "sims": a.sims,
            "n_boot": a.n_boot, "commit": commit,
            "measurelab": getattr(measurelab, "__version__", ""), "command": cmd,
            "date": time.strftime("%Y-%m-%d"),
            "grid": {"sizes": a.sizes, "iccs": a.iccs, "clusters": a.clusters},
            "entries": entries}


if __name__ == "__main__":
    sys.exit(main())
