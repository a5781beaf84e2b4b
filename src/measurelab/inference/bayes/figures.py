"""Figures of a Bayesian comparison: the posterior density of the mean difference
(correlated t) and the simplex of the posterior draws (the other models).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def _labels(r: Any) -> tuple[str, str, str]:
    from measurelab.inference._figures import literal

    a, b = (literal(n) for n in r.names)
    return f"{a} better", "equivalent", f"{b} better"


def plot_density(r: Any, ax: Any) -> None:
    from scipy import stats

    from measurelab.inference._figures import colour, literal

    mean, scale, df = r.details["mean"], r.details["scale"], r.details["df"]
    rope = r.rope
    la, le, lb = _labels(r)
    # in b − a units: a is better to the left when higher is better, to the right if not
    left_lab, right_lab = (la, lb) if r.higher_is_better else (lb, la)
    left_col, right_col = (colour(0), colour(1)) if r.higher_is_better else \
        (colour(1), colour(0))
    if scale > 0:
        lo = min(float(stats.t.ppf(0.0005, df, mean, scale)), -1.5 * rope)
        hi = max(float(stats.t.ppf(0.9995, df, mean, scale)), 1.5 * rope)
        xs = np.linspace(lo, hi, 400)
        ys = stats.t.pdf(xs, df, mean, scale)
        ax.plot(xs, ys, color="black", lw=1.2)
        for mask, col in ((xs <= -rope, left_col), (np.abs(xs) <= rope, "grey"),
                          (xs >= rope, right_col)):
            ax.fill_between(xs, ys, where=mask, color=col, alpha=0.35, lw=0)
    else:
        ax.axvline(mean, color="black", lw=1.5)
        span = max(1.5 * rope, abs(mean) * 1.5, 1e-3)
        ax.set_xlim(-span, span)
    if rope > 0:
        ax.axvspan(-rope, rope, color="grey", alpha=0.15, lw=0,
                   label=f"rope ±{rope:g}")
        ax.legend(loc="upper left", fontsize=8, frameon=False)
    p_left, p_right = (r.p_a_better, r.p_b_better) if r.higher_is_better else \
        (r.p_b_better, r.p_a_better)
    ax.text(0.99, 0.97, f"P({left_lab}) = {p_left:.3f}\nP({le}) = {r.p_rope:.3f}\n"
            f"P({right_lab}) = {p_right:.3f}", transform=ax.transAxes, ha="right",
            va="top", fontsize=9)
    ax.set_xlabel(f"mean difference {literal(r.names[1])} − {literal(r.names[0])} "
                  f"({'higher' if r.higher_is_better else 'lower'} is better)")
    ax.set_ylabel("posterior density")
    ax.set_yticks([])
    ax.set_title(f"Bayesian correlated t-test ({r.details['folds']} folds × {r.runs} "
                 f"run{'s' if r.runs != 1 else ''})", fontsize=10)


#: corners of the triangle: a better (bottom left), rope (top), b better (bottom right)
_CORNERS = np.array([[0.0, 0.0], [0.5, math.sqrt(3.0) / 2.0], [1.0, 0.0]])


def plot_simplex(r: Any, ax: Any) -> None:
    from measurelab.inference._figures import colour

    theta = r.sample
    if theta.shape[0] > 5000:  # a readable cloud; the shares come from every draw
        idx = np.random.default_rng(0).choice(theta.shape[0], 5000, replace=False)
        theta = theta[np.sort(idx)]
    pts = theta @ _CORNERS
    win = np.argmax(theta, axis=1)
    cols = (colour(0), "grey", colour(1))
    for j in range(3):
        m = win == j
        if m.any():
            ax.scatter(pts[m, 0], pts[m, 1], s=3, color=cols[j], alpha=0.3, lw=0,
                       rasterized=True)
    tri = np.vstack([_CORNERS, _CORNERS[:1]])
    ax.plot(tri[:, 0], tri[:, 1], color="black", lw=1)
    centre = _CORNERS.mean(axis=0)
    for i, j in ((0, 1), (1, 2), (0, 2)):  # where two θ are equal and the largest
        mid = (_CORNERS[i] + _CORNERS[j]) / 2
        ax.plot([centre[0], mid[0]], [centre[1], mid[1]], color="black", lw=0.6, ls=":")
    la, le, lb = _labels(r)
    ax.text(-0.03, -0.05, f"{la}\np = {r.p_a_better:.3f}", ha="left", va="top", fontsize=9,
            color=cols[0])
    ax.text(0.5, math.sqrt(3.0) / 2 + 0.03, f"{le} (rope ±{r.rope:g})\n"
            f"p = {r.p_rope:.3f}", ha="center", va="bottom", fontsize=9)
    ax.text(1.03, -0.05, f"{lb}\np = {r.p_b_better:.3f}", ha="right", va="top", fontsize=9,
            color=cols[2])
    ax.set_xlim(-0.08, 1.08)
    ax.set_ylim(-0.2, math.sqrt(3.0) / 2 + 0.18)
    ax.set_aspect("equal")
    ax.axis("off")
    title = {"signed-rank": "Bayesian signed-rank test", "sign": "Bayesian sign test",
             "hierarchical": "Bayesian hierarchical model"}[r.method]
    ax.set_title(f"{title}: posterior draws", fontsize=10)
