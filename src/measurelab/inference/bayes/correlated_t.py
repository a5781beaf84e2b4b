"""The Bayesian correlated t-test: one data set, the fold scores of repeated k-fold
cross-validation; the posterior of the mean difference is Student t with Nadeau &
Bengio's correction for the folds' overlap (Benavoli et al. 2017, baycomp's
``two_on_single``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import (
    warn_undefined,
)
from measurelab.inference.bayes._checks import _folds
from measurelab.inference.bayes.result import BayesComparison


def _correlated_t(x: np.ndarray, y: np.ndarray, runs: int, n_samples: int,
                  rng: np.random.Generator, common: dict[str, Any]) -> BayesComparison:
    from scipy import stats

    n = x.size
    k = _folds(n, runs, "correlated-t")
    diff = y - x  # b − a in the measure's units
    mean = float(np.mean(diff))
    var = float(np.var(diff, ddof=1)) * (1.0 / n + 1.0 / (k - 1))  # ρ/(1 − ρ) = 1/(k − 1)
    df = n - 1
    scale = math.sqrt(var)
    rope = common["rope"]
    sign = 1.0 if common["higher_is_better"] else -1.0
    loc = sign * mean  # posterior of the oriented difference: positive = b better
    if scale == 0.0:
        warn_undefined(f"correlated t-test: every fold difference b − a is {mean:g}, so the "
                       "posterior is a point mass there (zero variance)")
        if rope == 0:
            pb = float(loc > 0) + 0.5 * float(loc == 0)
            probs = (1.0 - pb, 0.0, pb)
        else:
            pa, pb = float(loc < -rope), float(loc > rope)
            probs = (pa, 1.0 - pa - pb, pb)
        sample = np.full(n_samples, mean)
    else:
        pa = float(stats.t.cdf(-rope, df, loc, scale))
        pb = float(stats.t.sf(rope, df, loc, scale))
        probs = (pa, 0.0 if rope == 0 else max(0.0, 1.0 - pa - pb), pb)
        sample = mean + scale * rng.standard_t(df, n_samples)
    details = {"mean": mean, "scale": scale, "df": df, "n": n, "folds": k, "rho": 1.0 / k,
               "mean_a": float(np.mean(x)), "mean_b": float(np.mean(y))}
    return BayesComparison(*probs, sample=sample, runs=runs, details=details, **common)
