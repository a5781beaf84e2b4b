"""The hierarchical model of Corani et al. (2017) over data sets × folds, fitted by NUTS
in NumPyro (the optional extra ``pip install 'measurelab[bayes]'``).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from measurelab._util.validation import (
    warn_undefined,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference.bayes._checks import _folds
from measurelab.inference.bayes.result import BayesComparison, _winner_shares

#: the jitter given to a data set whose fold differences are all equal (hierarchical), as
#: a share of the mean within-set standard deviation of the other data sets
_JITTER = 0.1


def equicorrelated_loglik(xp: Any, mean: Any, ss: Any, n: Any, rho: Any, delta: Any,
                          sigma: Any) -> Any:
    """Log density of n values with mean ``mean`` and sum of squares about it ``ss`` under
    MVN(δ·1, σ²·M), M = (1 − ρ)I + ρ11ᵀ (unit diagonal, off-diagonals ρ).

    With M⁻¹ = (I − ρ/(1 + (n − 1)ρ)·11ᵀ)/(1 − ρ) and det M = (1 + (n − 1)ρ)(1 − ρ)ⁿ⁻¹ the
    quadratic form is ss/(1 − ρ) + n(mean − δ)²/(1 + (n − 1)ρ): the values enter only
    through (mean, ss), centred, so single precision keeps its digits. ``xp`` is numpy or
    jax.numpy.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> x = np.array([0.3, -0.1, 0.4, 0.2]); rho = 0.25
    >>> M = (1 - rho) * np.eye(4) + rho
    >>> ours = equicorrelated_loglik(np, x.mean(), ((x - x.mean()) ** 2).sum(), 4, rho,
    ...                              0.1, 0.5)
    >>> bool(np.isclose(ours, stats.multivariate_normal(np.full(4, 0.1), 0.25 * M).logpdf(x)))
    True
    """
    quad = ss / (1.0 - rho) + n * (mean - delta) ** 2 / (1.0 + (n - 1.0) * rho)
    logdet = (2.0 * n * xp.log(sigma) + xp.log1p((n - 1.0) * rho)
              + (n - 1.0) * xp.log1p(-rho))
    return -0.5 * (n * math.log(2.0 * math.pi) + logdet + quad / sigma**2)


def _hierarchical_model(mean: Any, ss: Any, n: Any, rho: Any, delta_hi: Any,
                        std0_hi: Any, std_hi: Any) -> None:
    """The hierarchical model of Corani et al. 2017 (docs/METHODS.md#hierarchical) in NumPyro;
    the data set means δᵢ = δ₀ + σ₀·zᵢ with
    zᵢ ~ t(ν, 0, 1), which is δᵢ ~ t(ν, δ₀, σ₀) written so that NUTS does not meet the
    funnel of σ₀ → 0 (the non-centred form: the same model)."""
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    delta0 = numpyro.sample("delta0", dist.Uniform(-delta_hi, delta_hi))
    std0 = numpyro.sample("std0", dist.Uniform(0.0, std0_hi))
    alpha = numpyro.sample("alpha", dist.Uniform(1.0, 2.0))
    beta = numpyro.sample("beta", dist.Uniform(0.01, 0.1))
    nu = numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta)) + 1.0
    with numpyro.plate("datasets", mean.shape[0]):
        sigma = numpyro.sample("sigma", dist.Uniform(0.0, std_hi))
        z = numpyro.sample("z", dist.StudentT(nu, 0.0, 1.0))
    delta = delta0 + std0 * z
    numpyro.factor("folds", jnp.sum(equicorrelated_loglik(jnp, mean, ss, n, rho, delta,
                                                          sigma)))


#: compiled NUTS programs by (data sets, chains, warm-up, draws per chain): one compile
#: per shape and process; the oldest is dropped beyond :data:`_MAX_PROGRAMS`
_PROGRAMS: dict[tuple[int, int, int, int], Any] = {}
_MAX_PROGRAMS = 8


def _hierarchical_program(q: int, chains: int, n_warmup: int, per_chain: int) -> Any:
    """One jitted function (chain keys, data) → draws of (δ₀, σ₀, ν − 1) and divergences:
    NumPyro's NUTS kernel (step size and diagonal mass matrix adapted in warm-up), its
    iterations a ``lax.scan``, the chains vectorised. Compiled once per shape (NumPyro's
    MCMC driver would compile anew on every call)."""
    key = (q, chains, n_warmup, per_chain)
    program = _PROGRAMS.get(key)
    if program is not None:
        return program
    import jax
    from numpyro.infer import NUTS

    kernel = NUTS(_hierarchical_model, target_accept_prob=0.9)

    def one_chain(rng_key: Any, data: tuple[Any, ...]) -> Any:
        state = kernel.init(rng_key, n_warmup, model_args=data, model_kwargs={})

        def step(s: Any, _: Any) -> Any:
            s = kernel.sample(s, data, {})
            return s, (s.z, s.diverging)

        _, (zs, diverging) = jax.lax.scan(step, state, None, length=n_warmup + per_chain)
        zs = jax.tree.map(lambda v: v[n_warmup:], zs)
        post = jax.vmap(kernel.postprocess_fn(data, {}))(zs)
        return (post["delta0"], post["std0"], post["nu_minus_one"]), diverging[n_warmup:]

    program = jax.jit(jax.vmap(one_chain, in_axes=(0, None)))
    while len(_PROGRAMS) >= _MAX_PROGRAMS:
        del _PROGRAMS[next(iter(_PROGRAMS))]
    _PROGRAMS[key] = program
    return program


def _hierarchical(d: np.ndarray, runs: int, n_samples: int, chains: int, n_warmup: int,
                  rng: np.random.Generator, common: dict[str, Any]) -> BayesComparison:
    from scipy import stats

    q, n = d.shape
    k = _folds(n, runs, "hierarchical")
    try:
        import jax
        import numpyro  # noqa: F401
    except ImportError:
        raise MeasurelabError("method='hierarchical' needs NumPyro and JAX, an optional "
                              "extra: pip install 'measurelab[bayes]'") from None
    d = d.copy()
    sds = d.std(axis=1)
    flat = np.flatnonzero(sds == 0)
    if flat.size == q:
        raise MeasurelabError("'hierarchical' needs fold-to-fold variation in at least one "
                              "data set, but every data set's fold differences are constant; "
                              "compare the mean scores with method='signed-rank'")
    if flat.size:
        # a constant data set would pull its σᵢ to 0, where the likelihood has no bound: a
        # symmetric jitter (±c alternating, one value kept when n is odd) keeps its mean
        c = _JITTER * float(np.mean(sds[sds > 0]))
        pattern = np.where(np.arange(n) % 2 == 0, c, -c)
        if n % 2:
            pattern[-1] = 0.0
        d[flat] += pattern
        sets = "data set" if flat.size == 1 else "data sets"
        warn_undefined(f"hierarchical model: the fold differences of {sets} "
                       f"{', '.join(map(str, flat.tolist()))} are constant; given a jitter "
                       f"of ±{c:.3g} that keeps their mean")
    rope = common["rope"]
    scale = float(np.mean(d.std(axis=1)))  # the mean within-set sd: data in its units
    x = d / scale
    r = rope / scale
    means = x.mean(axis=1)
    ss = ((x - means[:, None]) ** 2).sum(axis=1)
    std_within = float(np.mean(x.std(axis=1)))
    std_among = float(np.std(means)) or std_within
    data = tuple(jax.numpy.asarray(v, dtype=jax.numpy.float32) for v in (
        means, ss, float(n), 1.0 / k, float(np.max(np.abs(x))), 1000.0 * std_among,
        1000.0 * std_within))
    per_chain = -(-n_samples // chains)
    program = _hierarchical_program(q, chains, n_warmup, per_chain)
    seed_int = int(rng.integers(2**31))
    keys = jax.random.split(jax.random.PRNGKey(seed_int), chains)
    (mu, std0, nu1), diverging = program(keys, data)
    mu, std0, nu = (np.asarray(v, dtype=np.float64) for v in (mu, std0, nu1))
    nu = nu + 1.0
    # σ₀ may round to 0 in single precision: a t that narrow is a point mass at δ₀
    std0 = np.maximum(std0, np.finfo(np.float64).tiny)
    left = stats.t.cdf(-r, nu.ravel(), mu.ravel(), std0.ravel())
    right = stats.t.sf(r, nu.ravel(), mu.ravel(), std0.ravel())
    theta = np.column_stack([left, np.zeros_like(left) if rope == 0 else
                             np.clip(1.0 - left - right, 0.0, 1.0), right])
    if rope == 0:
        theta[:, 0] = 1.0 - right
    n_div = int(np.asarray(diverging).sum())
    r_hat = _max_r_hat(mu, std0, nu)
    if r_hat > 1.05:
        warnings.warn(f"hierarchical model: the {chains} chains disagree (split R-hat "
                      f"{r_hat:.3f} > 1.05); raise n_warmup or n_samples", RuntimeWarning,
                      stacklevel=3)
    if n_div > 0.01 * theta.shape[0]:
        warnings.warn(f"hierarchical model: {n_div} of {theta.shape[0]} draws diverged; "
                      "the probabilities may be off", RuntimeWarning, stacklevel=3)
    details = {"n_datasets": q, "n_folds": n, "folds": k, "rho": 1.0 / k, "chains": chains,
               "n_warmup": n_warmup, "divergences": n_div, "r_hat": r_hat, "scale": scale,
               "delta0_mean": float(np.mean(mu)) * scale}
    return BayesComparison(*_winner_shares(theta, rope), sample=theta, runs=runs,
                           details=details, **common)


def _max_r_hat(*draws: np.ndarray) -> float:
    """The largest split R̂ (Gelman–Rubin, NumPyro's) of (chains, draws) arrays; NaN with
    one chain."""
    if draws[0].shape[0] < 2 or draws[0].shape[1] < 4:
        return math.nan
    from numpyro.diagnostics import split_gelman_rubin

    return float(max(split_gelman_rubin(v) for v in draws))
