"""Is a DeLong-type variance for the partial AUC worth a method? A check, not a method
(issue 42, item 3; docs/DECISIONS.md, "The partial AUC's variance").

The partial area pAUC(f) = ∫₀ᶠ ROC(t) dt is a smooth functional of the two classes'
score distributions where the ROC curve is continuous at f; its influence function (the
placements of DeLong's variance, restricted to FPR ≤ f) is, for a positive case of score
y and a negative case of score x (FPR(s) = P(negative score ≥ s), TPR(s) = P(positive
score > s)):

    ψ₁(y) = (f − FPR(y))₊ − pAUC
    ψ₀(x) = TPR(x) − (1 − f)·ROC(f) − pAUC     if FPR(x) < f   (x above the cut-off)
            f·ROC(f) − pAUC                      otherwise

The second line is the cut-off's own uncertainty (the (1 − f) quantile of the negatives
is estimated): the height of the curve at f, where the linear interpolation sits, enters
every negative's placement. For f = 1 both lines are DeLong's placements. The variance is
var(ψ₁)/n₁ + var(ψ₀)/n₀.

This script draws test sets from the coverage study's binormal generator (continuous
scores: no ties at the cut-off), computes pauc@f with measurelab, the placements from
the empirical curves, and counts how often the Wald interval pAUC ± z·SE (and the same on
the logit scale of pAUC/f, bounded like the measure) contains the exact population value.
No bootstrap: a few seconds of CPU.

Run: ``python benchmarks/pauc_variance_check.py [--sims 2000]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy import integrate
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parent))

from covstudy.generators import generator

import measurelab as ml

Z = float(norm.ppf(0.975))


def exact_pauc(mu: float, f: float) -> float:
    """∫₀ᶠ ROC(t) dt of the equal-variance binormal, ROC(t) = Φ(μ + Φ⁻¹(t))."""
    return float(integrate.quad(lambda t: norm.cdf(mu + norm.ppf(t)), 0.0, f,
                                epsabs=1e-13, epsrel=1e-11, limit=200)[0])


def placements_se(y: np.ndarray, s: np.ndarray, f: float, est: float) -> float:
    """The DeLong-type standard error of pauc@f (module doc; continuous scores)."""
    pos, neg = np.sort(s[y == 1]), np.sort(s[y == 0])
    n1, n0 = pos.size, neg.size
    fpr_of_pos = (n0 - np.searchsorted(neg, pos, side="left")) / n0     # P(neg ≥ y)
    tpr_of_neg = (n1 - np.searchsorted(pos, neg, side="right")) / n1    # P(pos > x)
    fpr_of_neg = (n0 - np.searchsorted(neg, neg, side="left")) / n0
    # the empirical curve's height at FPR = f (linear between its vertices)
    fpr_v = np.r_[0.0, np.arange(1, n0 + 1) / n0]
    tpr_v = np.r_[0.0, (n1 - np.searchsorted(pos, neg[::-1], side="right")) / n1]
    roc_f = float(np.interp(f, fpr_v, tpr_v))
    psi1 = np.maximum(f - fpr_of_pos, 0.0) - est
    psi0 = np.where(fpr_of_neg <= f, tpr_of_neg - (1 - f) * roc_f, f * roc_f) - est
    return math.sqrt(psi1.var(ddof=1) / n1 + psi0.var(ddof=1) / n0)


def run(sims: int, seed: int = 0) -> list[dict[str, object]]:
    gen = generator("binary", "binormal")
    rows = []
    settings = [(n, pi, f) for f in (0.2, 0.1) for n, pi in
                ((300, 0.2), (1000, 0.2), (300, 0.5), (1000, 0.5), (1000, 0.05))]
    for n, pi, f in settings:
        rng = np.random.default_rng([seed, n, round(pi * 1000), round(f * 1000)])
        targets = [exact_pauc(m, f) for m in gen.mu]
        hit = np.zeros((2, 2))
        for _ in range(sims):
            y, s_a, s_b = gen.draw("random", n, pi, rng)
            for k, s in enumerate((s_a, s_b)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est = float(ml.evaluate(y, s, measures=[f"pauc@{f:g}"])[f"pauc@{f:g}"])
                se = placements_se(np.asarray(y, int), s, f, est)
                t = targets[k]
                hit[k, 0] += abs(est - t) <= Z * se
                # logit of pauc/f, the delta method's SE, back-transformed
                p = min(max(est / f, 1e-9), 1 - 1e-9)
                half = Z * se / f / (p * (1 - p))
                lo = f / (1 + math.exp(-(math.log(p / (1 - p)) - half)))
                hi = f / (1 + math.exp(-(math.log(p / (1 - p)) + half)))
                hit[k, 1] += lo <= t <= hi
        cov = hit / sims
        rows.append({"n": n, "pi": pi, "f": f, "wald_a": cov[0, 0], "wald_b": cov[1, 0],
                     "logit_a": cov[0, 1], "logit_b": cov[1, 1]})
        print(f"n={n:5d} π={pi:<4g} f={f:<4g} Wald a {cov[0, 0]:.3f} b {cov[1, 0]:.3f}; "
              f"logit a {cov[0, 1]:.3f} b {cov[1, 1]:.3f}", flush=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"{args.sims} test sets per setting; Monte Carlo SE near 0.95: "
          f"{math.sqrt(0.95 * 0.05 / args.sims):.3f}")
    run(args.sims, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
