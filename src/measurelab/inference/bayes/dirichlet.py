"""The Dirichlet tests over several data sets: the Bayesian signed-rank test (a Dirichlet
process with a pseudo-observation at 0) and the Bayesian sign test (a Dirichlet over
the three regions), as baycomp's ``SignedRankTest`` and ``SignTest``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab.inference.bayes.result import BayesComparison, _winner_shares

#: baycomp's ε added to every Dirichlet parameter of the sign test
SIGN_EPSILON = 1e-4
#: elements of a block of Dirichlet draws × data sets held at once (signed-rank)
_BLOCK = 1 << 21


# ------------------------------------------------------------------------ signed-rank
def signed_rank_theta(d: np.ndarray, rope: float, weights: np.ndarray) -> np.ndarray:
    """(θ_a, θ_rope, θ_b) of the Bayesian signed-rank test for each row of ``weights``.

    ``weights`` (draws × (N + 1)) are Dirichlet weights of z = (0, d₁, …, d_N), the
    pseudo-observation first, normalised or not (θ is divided by the squared row sum).
    θ_b = Σᵢⱼ wᵢwⱼ H(zᵢ + zⱼ − 2·rope) and θ_a = Σᵢⱼ wᵢwⱼ H(−zᵢ − zⱼ − 2·rope), H(0) = ½, the
    diagonal included; θ_rope = 1 − θ_a − θ_b (with rope 0, θ_a = 1 − θ_b and θ_rope = 0).

    Computed in O(draws · N) rather than the O(draws · N²) of the double sum: with z
    sorted, each row i of the sums zᵢ + zⱼ rises with j (rounding is monotone), so the j
    with a sum below, at and above 2·rope are three runs, and Σⱼ wⱼ H(·) is read off the
    cumulative sums of the sorted weights at the two run ends — the same comparisons of the
    same floating-point sums as the definition, so the same value to rounding.

    Examples
    --------
    z = (0, 0.02, −0.01), w = (0.2, 0.5, 0.3), rope 0.01: θ_b = w₁² (0.02 + 0.02 > 0.02)
    + 2·w₀w₁·½ (0 + 0.02 = 0.02, on the edge) = 0.35; θ_a = w₂²·½ (−0.01 − 0.01 = −0.02):

    >>> d = np.array([0.02, -0.01]); w = np.array([[0.2, 0.5, 0.3]])
    >>> signed_rank_theta(d, 0.01, w).round(4).tolist()
    [[0.045, 0.605, 0.35]]
    """
    return _theta_of_columns(d, rope, np.ascontiguousarray(np.asarray(weights).T))


def _theta_of_columns(d: np.ndarray, rope: float, w: np.ndarray) -> np.ndarray:
    """:func:`signed_rank_theta` of weights laid out as (N + 1) × draws (a row per
    observation: gathering and summing whole rows is what numpy does fastest)."""
    z = np.concatenate((np.array([0.0]), d))
    order = np.argsort(z, kind="stable")
    zs = z[order]
    ws = w[order]
    sums = zs[:, None] + zs[None, :]  # row i rises with j
    cum = np.zeros((zs.size + 1, w.shape[1]))
    np.cumsum(ws, axis=0, out=cum[1:])
    total = cum[-1]
    norm = total * total

    def below(t: float) -> np.ndarray:
        """Σᵢ wᵢ Σⱼ wⱼ (1[sumᵢⱼ < t] + ½·1[sumᵢⱼ = t]) for every draw."""
        lo = np.count_nonzero(sums < t, axis=1)
        hi = np.count_nonzero(sums <= t, axis=1)
        return 0.5 * (np.einsum("in,in->n", ws, cum[lo]) + np.einsum("in,in->n", ws, cum[hi]))

    theta = np.empty((w.shape[1], 3))
    # H(s − 2r) = 1 − (1[s < 2r] + ½·1[s = 2r])
    theta[:, 2] = (norm - below(2.0 * rope)) / norm
    if rope > 0:
        # H(−s − 2r) = 1[s < −2r] + ½·1[s = −2r]
        theta[:, 0] = below(-2.0 * rope) / norm
        theta[:, 1] = 1.0 - theta[:, 0] - theta[:, 2]
    else:  # H(0) = ½ splits the zero sums: θ_a = 1 − θ_b, as baycomp computes it
        theta[:, 0] = 1.0 - theta[:, 2]
        theta[:, 1] = 0.0
    return theta


def _signed_rank(d: np.ndarray, rope: float, prior: float, n_samples: int,
                 rng: np.random.Generator) -> tuple[tuple[float, float, float], np.ndarray]:
    """Draws of (θ_a, θ_rope, θ_b) of the Bayesian signed-rank test and their shares.

    A Dir(prior, 1, …, 1) draw is a vector of independent Gamma(prior), Exp(1), …, Exp(1)
    draws over its sum; θ takes the unnormalised vector. Blocks of draws bound memory."""
    theta = np.empty((n_samples, 3))
    step = max(1, _BLOCK // (d.size + 1))
    for lo in range(0, n_samples, step):
        m = min(n_samples, lo + step) - lo
        w = np.empty((d.size + 1, m))  # a column per draw
        w[0] = rng.standard_gamma(prior, m)
        w[1:] = rng.standard_exponential((d.size, m))
        theta[lo:lo + m] = _theta_of_columns(d, rope, w)
    return _winner_shares(theta, rope), theta


# ------------------------------------------------------------------------------- sign
def _sign(d: np.ndarray, rope: float, prior: float, n_samples: int,
          rng: np.random.Generator, common: dict[str, Any]) -> BayesComparison:
    n_a = int(np.sum(d < -rope))
    n_b = int(np.sum(d > rope))
    n_rope = int(d.size) - n_a - n_b
    alpha = np.array([n_a, n_rope, n_b], dtype=np.float64) + SIGN_EPSILON
    alpha[1] += prior
    theta = rng.dirichlet(alpha, n_samples)
    details = {"n_datasets": int(d.size), "n_a_better": n_a, "n_rope": n_rope,
               "n_b_better": n_b, "prior": prior}
    return BayesComparison(*_winner_shares(theta, rope), sample=theta, details=details,
                           **common)
