"""Bayesian comparison of two classifiers (Benavoli, Corani, Demšar & Zaffalon 2017),
shaped like baycomp: the entry points and the result (:mod:`.compare`, :mod:`.result`),
one module per model (:mod:`.correlated_t`, :mod:`.dirichlet` for the signed-rank and
sign tests, :mod:`.hierarchical`), the figures (:mod:`.figures`) and the input checks
(:mod:`._checks`).

Instead of a p-value, :func:`bayes_compare` gives the posterior probability that
classifier *a* is practically better than *b*, that the two are practically equivalent
(the difference lies inside a *region of practical equivalence*, the **rope**, given in the
measure's units: 0.01 is one point of accuracy or AUC), or that *b* is practically better.
Four models (docs/METHODS.md#bayesian):

* ``'correlated-t'`` — one data set, the fold scores of k-fold cross-validation repeated
  ``runs`` times: the posterior of the mean difference is Student t with n − 1 degrees of
  freedom, location d̄ and scale² s²(1/n + ρ/(1 − ρ)), ρ = 1/k (Nadeau & Bengio's
  correction for the folds' overlap); the probabilities are t masses below −rope, inside
  and above +rope.
* ``'signed-rank'`` — several data sets, one (mean) score each: the Bayesian signed-rank
  test, a Dirichlet process with prior strength 0.5 on a pseudo-observation at 0. Each
  posterior draw w ~ Dir(0.5, 1, …, 1) over z = (0, d₁, …, d_N) gives
  θ_b = Σᵢⱼ wᵢwⱼ H(zᵢ + zⱼ − 2·rope), θ_a = Σᵢⱼ wᵢwⱼ H(−zᵢ − zⱼ − 2·rope) (H(0) = ½, the
  diagonal included) and θ_rope = 1 − θ_a − θ_b. The draws are computed as matrix products
  (no Python loop over draws), in blocks that bound memory.
* ``'sign'`` — the Bayesian sign test: (θ_a, θ_rope, θ_b) ~ Dirichlet(n_a + ε,
  n_rope + ε + 1, n_b + ε), ε = 10⁻⁴, the prior's unit of mass on the rope.
* ``'hierarchical'`` — several data sets × folds: the hierarchical model of Corani et al.
  (2017), fitted by NUTS in NumPyro (the optional extra ``pip install 'measurelab[bayes]'``);
  each posterior draw of (δ₀, σ₀, ν) gives the t(ν, δ₀, σ₀) masses below −rope, inside
  and above +rope for a new data set.

For the three sampled models, the reported probabilities are the shares of posterior
draws in which each θ is the largest (ties go to the first of *a better*, *rope*, *b
better*), baycomp's convention; with ``rope=0`` the rope is empty and the two shares are
baycomp's two-way probabilities. ``higher_is_better=False`` (losses, error rates) makes
the smaller score the better one. The results agree with baycomp (``two_on_single``,
``SignedRankTest``, ``SignTest``; tests compare them) — the signed-rank test many times
faster (``benchmarks/bench_bayes.py``).

Examples
--------
Accuracy of two classifiers on ten data sets; b is better by two points on every one:

>>> a = [0.80, 0.71, 0.92, 0.65, 0.88, 0.77, 0.83, 0.69, 0.95, 0.74]
>>> b = [x + 0.02 for x in a]
>>> r = bayes_compare(a, b, rope=0.01, method="signed-rank", random_state=0)
>>> r.p_b_better, r.verdict()
(1.0, 'b better')

References
----------
A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis", JMLR 18(77) (2017) 1–36.
G. Corani, A. Benavoli, J. Demšar, F. Mangili, M. Zaffalon, "Statistical comparison of
classifiers through Bayesian hierarchical modelling", Machine Learning 106 (2017).
C. Nadeau, Y. Bengio, "Inference for the generalization error", Machine Learning 52 (2003).
"""

from measurelab.inference.bayes.compare import (
    DEFAULT_PRIOR,
    DEFAULT_SAMPLES,
    bayes_compare,
    bayes_pairs,
)
from measurelab.inference.bayes.dirichlet import SIGN_EPSILON, signed_rank_theta
from measurelab.inference.bayes.hierarchical import equicorrelated_loglik
from measurelab.inference.bayes.result import METHODS, VERDICTS, BayesComparison, verdict_of

__all__ = [
    "DEFAULT_PRIOR",
    "DEFAULT_SAMPLES",
    "METHODS",
    "SIGN_EPSILON",
    "VERDICTS",
    "BayesComparison",
    "bayes_compare",
    "bayes_pairs",
    "equicorrelated_loglik",
    "signed_rank_theta",
    "verdict_of",
]
