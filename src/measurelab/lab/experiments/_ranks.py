"""A Demšar (2006) section for the cross-validation reproductions: average ranks over
data sets, the Friedman / Iman–Davenport tests, the Nemenyi critical difference and the
critical-difference diagram (:func:`measurelab.inference.demsar`).

This is *not* the test the papers used (they count per-data-set t-tests), so it is shown
beside the verdicts, never in place of them. Means over folds are rounded to 10 decimals
before ranking, so models whose means are equal tie exactly (two means of different
per-fold values can differ in the last bits).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from measurelab.lab.report.page import Report

DECIMALS = 10


def add_demsar(rep: Report, tables: dict[str, pd.DataFrame], *, alpha: float = 0.05,
               name: str = "demsar") -> dict[str, Any]:
    """Add ranks, tests and a CD diagram per measure to ``rep``; returns the results.

    ``tables``: measure label → DataFrame (rows = data sets, columns = models, values =
    mean test score, higher is better).

    Examples
    --------
    >>> t = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.8, 0.7, 0.72]}, index=list("xyz"))
    >>> rep = Report("demo", "demo")
    >>> res = add_demsar(rep, {"acc": t})
    >>> res["acc"].avg_ranks.round(3).to_dict(), sorted(rep.tables)
    ({'A': 1.333, 'B': 1.667}, ['demsar_ranks', 'demsar_tests'])
    """
    from measurelab.inference import demsar

    results, ranks, tests, texts = {}, [], [], []
    for meas, table in tables.items():
        r = demsar(table, alpha=alpha, decimals=DECIMALS)
        results[meas] = r
        for model, v in r.avg_ranks.items():
            ranks.append({"measure": meas, "model": model, "average rank": float(v)})
        idp = r.iman_davenport.pvalue
        omnibus_p = idp if idp == idp else r.friedman.pvalue
        sig = r.significant_pairs()
        sig = sig[sig["significant"]]
        tests.append({"measure": meas, "data sets": r.n_datasets, "models": r.n_models,
                      "Friedman χ²": r.friedman.statistic, "Friedman p": r.friedman.pvalue,
                      "Iman–Davenport F": r.iman_davenport.statistic,
                      "Iman–Davenport p": r.iman_davenport.pvalue, "Nemenyi CD": r.cd,
                      "pairs ≥ CD": "; ".join(f"{a} > {b}" for a, b in
                                             zip(sig["a"], sig["b"], strict=True))})
        order = ", ".join(f"{m} {v:.2f}" for m, v in r.avg_ranks.items())
        if omnibus_p < alpha:
            post = (f"the models differ (p < {alpha:g}); pairs at least CD = {r.cd:.2f} "
                    "apart (Nemenyi): "
                    + ("; ".join(f"{a} better than {b}" for a, b in
                                 zip(sig["a"], sig["b"], strict=True)) or "none"))
        else:
            post = (f"no significant difference among the {r.n_models} models (p ≥ "
                    f"{alpha:g}), so no post-hoc test is applied (CD would be {r.cd:.2f})")
        texts.append(
            f"by {meas}, average ranks (1 = best) {order}; Friedman χ²_F = "
            f"{r.friedman.statistic:.3f} (p = {r.friedman.pvalue:.3g}), Iman–Davenport F_F = "
            f"{r.iman_davenport.statistic:.3f} (p = {r.iman_davenport.pvalue:.3g}): {post}")
    n = next(iter(results.values())).n_datasets
    rep.add_text(
        f"Demšar (2006) over the {n} data sets (not the paper's test; means over folds, "
        f"ranked per data set, ties share ranks): " + " | ".join(texts) + "."
    )
    rep.add_table(f"{name}_ranks", pd.DataFrame(ranks).set_index(["measure", "model"]),
                  "Demšar: average rank over data sets (1 = best)")
    rep.add_table(f"{name}_tests", pd.DataFrame(tests).set_index("measure"),
                  "Demšar: Friedman / Iman–Davenport tests and the Nemenyi CD")
    rep.add_figure(f"{name}_cd", _figure(results))
    return results


def _figure(results: dict[str, Any]) -> Any:
    import matplotlib.pyplot as plt

    k = max(r.n_models for r in results.values())
    h = 1.6 + 0.3 * ((k + 1) // 2)
    fig, axes = plt.subplots(len(results), 1, figsize=(7.0, h * len(results)),
                             squeeze=False)
    for ax, (meas, r) in zip(axes[:, 0], results.items(), strict=True):
        r.plot(ax=ax, title=f"{meas}: critical difference (Nemenyi, α = {r.alpha:g}), "
                            f"{r.n_datasets} data sets")
    fig.tight_layout()
    return fig
