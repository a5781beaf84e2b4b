"""Bayesian comparison of two classifiers (Benavoli, Corani, Demšar & Zaffalon 2017).

Instead of a p-value, :func:`bayes_compare` gives the posterior probability that
classifier *a* is practically better than *b*, that the two are practically equivalent
(the difference lies inside a *region of practical equivalence*, the **rope**, given in the
measure's units: 0.01 is one point of accuracy or AUC), or that *b* is practically better.
Four models (SPEC §9):

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

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab._util.validation import (
    DEFAULT_RANDOM_STATE,
    UNSET,
    check_flag,
    check_int,
    make_rng,
    random_state_of,
    short_repr,
    show,
    warn_undefined,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import model_names

__all__ = ["METHODS", "VERDICTS", "BayesComparison", "bayes_compare", "bayes_pairs"]

#: the models :func:`bayes_compare` fits
METHODS: tuple[str, ...] = ("correlated-t", "signed-rank", "sign", "hierarchical")
#: the verdicts :meth:`BayesComparison.verdict` gives
VERDICTS: tuple[str, ...] = ("a better", "equivalent", "b better", "undecided")
#: prior strength of the pseudo-observation at 0 (signed-rank) or of the rope (sign test)
DEFAULT_PRIOR = {"signed-rank": 0.5, "sign": 1.0}
#: posterior draws by default: 50,000 for the Monte Carlo tests; the hierarchical model's
#: NUTS draws are far less correlated than they are expensive (4 chains × 2,500)
DEFAULT_SAMPLES = {"correlated-t": 50_000, "signed-rank": 50_000, "sign": 50_000,
                   "hierarchical": 10_000}
#: baycomp's ε added to every Dirichlet parameter of the sign test
SIGN_EPSILON = 1e-4
#: elements of a block of Dirichlet draws × data sets held at once (signed-rank)
_BLOCK = 1 << 21
#: the jitter given to a data set whose fold differences are all equal (hierarchical), as
#: a share of the mean within-set standard deviation of the other data sets
_JITTER = 0.1


# ------------------------------------------------------------------------------ result
@dataclass(frozen=True, eq=False, repr=False)
class BayesComparison:
    """The outcome of :func:`bayes_compare`.

    Not a test: a posterior over the difference, so it has no ``statistic``, ``pvalue`` or
    ``confidence_interval``; it answers with the probabilities of the three regions (and
    the posterior sample, whose quantiles are credible intervals).

    Attributes
    ----------
    p_a_better, p_rope, p_b_better : float
        Posterior probabilities that a is practically better, that the two are practically
        equivalent (the difference inside ±rope) and that b is practically better; they
        sum to 1.
    sample : ndarray
        The posterior sample: for ``'correlated-t'`` draws of the mean difference b − a (in
        the measure's units, whatever ``higher_is_better``); for the other methods an
        (n, 3) array of draws of (θ_a better, θ_rope, θ_b better), each row on the simplex.
    rope : float
        Half-width of the region of practical equivalence, in the measure's units.
    method : str
        One of :data:`METHODS`.
    higher_is_better : bool
        False when the smaller score is the better one (losses).
    names : tuple of str
        Names of a and b.
    runs : int
        Repetitions of cross-validation (``'correlated-t'`` and ``'hierarchical'``).
    details : dict
        What the model computed: for the t-test ``mean`` (of b − a), ``scale``, ``df``,
        ``folds``, ``rho``; for the sign test the counts; for the hierarchical model the
        chains, divergences, the largest split R̂ of (δ₀, σ₀, ν), the ``scale`` the data
        were divided by and ``delta0_mean``, the posterior mean of δ₀ in the measure's
        units (positive when b is better).
    """

    p_a_better: float
    p_rope: float
    p_b_better: float
    sample: np.ndarray
    rope: float
    method: str
    higher_is_better: bool
    names: tuple[str, str]
    runs: int = 1
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def probabilities(self) -> tuple[float, float, float]:
        """``(p_a_better, p_rope, p_b_better)``."""
        return (self.p_a_better, self.p_rope, self.p_b_better)

    def verdict(self, threshold: float = 0.95) -> str:
        """'a better', 'equivalent' or 'b better' when that probability reaches
        ``threshold``, else 'undecided'.

        Examples
        --------
        >>> r = bayes_compare([0.8, 0.7, 0.9, 0.6], [0.8, 0.72, 0.9, 0.6], rope=0.01,
        ...                   method="sign")
        >>> round(r.p_rope, 3), r.verdict(), r.verdict(threshold=0.9)
        (0.939, 'undecided', 'equivalent')
        """
        return verdict_of(*self.probabilities, threshold=threshold)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the method, names, rope, direction, the three probabilities, the
        verdict at 0.95, the number of posterior draws and ``details`` (the sample itself
        is left out).

        Examples
        --------
        >>> r = bayes_compare([0.81, 0.79, 0.84, 0.80, 0.83], [0.78, 0.77, 0.80, 0.79, 0.80],
        ...                   rope=0.01, method="correlated-t")
        >>> d = r.to_dict()
        >>> d["method"], d["names"], d["verdict"], round(d["p_a_better"], 4)
        ('correlated-t', ['a', 'b'], 'undecided', 0.9477)
        """
        from measurelab.jsonable import to_jsonable

        return to_jsonable({
            "method": self.method,
            "names": list(self.names),
            "rope": self.rope,
            "higher_is_better": self.higher_is_better,
            "runs": self.runs,
            "p_a_better": self.p_a_better,
            "p_rope": self.p_rope,
            "p_b_better": self.p_b_better,
            "verdict": self.verdict(),
            "n_samples": int(self.sample.shape[0]),
            "details": self.details,
        })

    def __repr__(self) -> str:
        a, b = self.names
        return (f"BayesComparison({self.method}, a={a!r}, b={b!r}, rope={self.rope:g}, "
                f"{'higher' if self.higher_is_better else 'lower'} is better: "
                f"P(a better)={self.p_a_better:.4f}, P(rope)={self.p_rope:.4f}, "
                f"P(b better)={self.p_b_better:.4f})")

    def plot(self, ax: Any = None) -> Any:
        """Draw the posterior and return the matplotlib Figure.

        ``'correlated-t'``: the posterior density of the mean difference b − a, the rope
        shaded and the three probabilities written in. The other methods: the triangle
        (simplex) of the posterior draws of (θ_a better, θ_rope, θ_b better) — corners
        *a better* (bottom left), *rope* (top), *b better* (bottom right) — each draw
        coloured by its largest θ, the lines between the three regions and the shares.

        Examples
        --------
        >>> r = bayes_compare([0.8, 0.7, 0.9, 0.6], [0.82, 0.71, 0.9, 0.64], rope=0.01,
        ...                   method="signed-rank", n_samples=2000)
        >>> fig = r.plot()
        >>> len(fig.axes)
        1
        """
        from measurelab.inference._figures import pyplot

        plt = pyplot()
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 4.2) if self.method == "correlated-t"
                                 else (5.6, 5.2))
        if self.method == "correlated-t":
            _plot_density(self, ax)
        else:
            _plot_simplex(self, ax)
        return ax.figure


def verdict_of(p_a_better: float, p_rope: float, p_b_better: float, *,
               threshold: float = 0.95) -> str:
    """The verdict of three posterior probabilities: the one reaching ``threshold``
    (in (0.5, 1], so at most one can), else 'undecided'.

    Examples
    --------
    >>> verdict_of(0.02, 0.96, 0.02), verdict_of(0.5, 0.3, 0.2)
    ('equivalent', 'undecided')
    """
    try:
        t = float(threshold)
    except (TypeError, ValueError):
        raise MeasurelabError(f"threshold must be a number in (0.5, 1], got "
                              f"{short_repr(threshold)}") from None
    if not 0.5 < t <= 1.0:
        raise MeasurelabError(f"threshold must be in (0.5, 1] (e.g. 0.95), got {show(threshold)}")
    for p, v in zip((p_a_better, p_rope, p_b_better), VERDICTS[:3], strict=True):
        if p >= t:
            return v
    return VERDICTS[3]


# ---------------------------------------------------------------------------- the call
def bayes_compare(
    a: Any,
    b: Any,
    *,
    rope: float,
    method: str,
    runs: int = 1,
    higher_is_better: bool = True,
    names: tuple[str, str] = ("a", "b"),
    prior: float | None = None,
    n_samples: int | None = None,
    chains: int = 4,
    n_warmup: int = 1000,
    random_state: Any = DEFAULT_RANDOM_STATE,
    seed: Any = UNSET,
) -> BayesComparison:
    """Posterior probabilities that a is practically better than b, equivalent, or worse.

    Parameters
    ----------
    a, b : array-like
        Paired scores of the two classifiers. ``'correlated-t'``: 1-d, the n = k·runs fold
        scores of k-fold cross-validation repeated ``runs`` times on one data set (the
        same folds for a and b). ``'signed-rank'`` and ``'sign'``: 1-d, one score per data
        set. ``'hierarchical'``: 2-d, data sets × fold scores (a DataFrame is fine).
    rope : float
        Half-width of the region of practical equivalence in the measure's units, ≥ 0:
        differences within ±rope count as equivalent (0.01 for accuracy or AUC is one
        point; ``docs/BAYESIAN.md`` discusses the choice). With 0 the rope is empty and
        ``p_rope`` is 0.
    method : {'correlated-t', 'signed-rank', 'sign', 'hierarchical'}
        The model (see the module's description).
    runs : int, default 1
        Repetitions of cross-validation (``'correlated-t'``, ``'hierarchical'``); the
        number of fold scores must be a multiple of it, k = n / runs ≥ 2 and ρ = 1/k.
    higher_is_better : bool, default True
        ``False`` when the smaller score is better (a loss, an error rate).
    names : pair of str, default ("a", "b")
        Names of a and b (shown by :meth:`BayesComparison.plot` and ``repr``).
    prior : float, optional
        Prior strength: of the pseudo-observation at 0 for ``'signed-rank'`` (default 0.5),
        of the rope for ``'sign'`` (default 1). Not used by the other methods.
    n_samples : int, optional
        Posterior draws: default 50,000; 10,000 for ``'hierarchical'`` (split over the
        chains, rounded up to a multiple of ``chains``). For ``'correlated-t'`` they are
        only the returned sample: the probabilities come from the t distribution itself.
    chains, n_warmup : int, default 4 and 1000
        NUTS chains (run vectorised) and warm-up iterations per chain (``'hierarchical'``).
    random_state : int, numpy Generator or None, default 0
        Seeds the draws: the same seed gives the same answer (for ``'hierarchical'`` it
        seeds JAX's random key).
    seed : int, numpy Generator or None, optional
        The deprecated former name of ``random_state``.

    Returns
    -------
    BayesComparison

    Raises
    ------
    MeasurelabError
        Unequal lengths or shapes, too few data sets (fewer than 2) or folds, a non-finite
        score, a rope below 0 or not a number, ``runs`` not dividing the number of fold
        scores, an unknown method; NumPyro missing for ``'hierarchical'``.

    Warns
    -----
    UndefinedMeasureWarning
        The correlated t-test's fold differences are all equal (the posterior is then a
        point mass at their value), or a data set's are (hierarchical: they get a small
        symmetric jitter that keeps their mean); no draw away from the empty rope (sign
        test, ``rope=0``).
    RuntimeWarning
        The hierarchical model's chains disagree (split R̂ > 1.05) or more than 1% of its
        draws diverged.

    Examples
    --------
    Ten folds of one data set (baycomp's ``two_on_single`` gives the same numbers):

    >>> a = [0.81, 0.79, 0.84, 0.80, 0.83, 0.82, 0.80, 0.85, 0.79, 0.81]
    >>> b = [0.78, 0.77, 0.80, 0.79, 0.80, 0.80, 0.78, 0.81, 0.78, 0.79]
    >>> r = bayes_compare(a, b, rope=0.01, method="correlated-t")
    >>> [round(p, 4) for p in r.probabilities]
    [0.9902, 0.0098, 0.0]
    >>> r.verdict()
    'a better'

    The same numbers as losses (lower is better), names for the display:

    >>> r = bayes_compare(a, b, rope=0.01, method="correlated-t", higher_is_better=False,
    ...                   names=("svm", "tree"))
    >>> r.verdict(), round(r.p_b_better, 4)
    ('b better', 0.9902)

    The hierarchical model needs the extra (``pip install 'measurelab[bayes]'``):

    >>> import numpy as np
    >>> g = np.random.default_rng(0)
    >>> A = g.normal(0.80, 0.02, (12, 10)); B = A + g.normal(0.03, 0.01, (12, 10))
    >>> bayes_compare(A, B, rope=0.01, method="hierarchical").verdict()  # doctest: +SKIP
    'b better'
    """
    method = _check_method(method)
    rope = _check_rope(rope)
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    names = _check_names(names)
    runs = check_int(runs, "runs", minimum=1)
    if method in ("signed-rank", "sign") and runs != 1:
        raise MeasurelabError(f"runs={runs} applies to fold scores ('correlated-t', "
                              f"'hierarchical'); {method!r} takes one score per data set")
    if n_samples is None:
        n_samples = DEFAULT_SAMPLES[method]
    n_samples = check_int(n_samples, "n_samples", minimum=1, maximum=10**8)
    if prior is None:
        prior = DEFAULT_PRIOR.get(method, math.nan)
    elif method in DEFAULT_PRIOR:
        prior = _check_prior(prior)
    random_state = random_state_of(random_state, seed, "bayes_compare")
    rng = _rng(random_state)
    x, y = _paired(a, b, ndim=2 if method == "hierarchical" else 1, method=method)
    # d: b − a oriented so that positive means b is better
    d = (y - x) if higher_is_better else (x - y)
    common = {"rope": rope, "method": method, "higher_is_better": higher_is_better,
              "names": names}
    if method == "correlated-t":
        return _correlated_t(x, y, runs, n_samples, rng, common)
    if method == "signed-rank":
        probs, sample = _signed_rank(d, rope, prior, n_samples, rng)
        return BayesComparison(*probs, sample=sample, **common,
                               details={"n_datasets": int(d.size), "prior": prior})
    if method == "sign":
        return _sign(d, rope, prior, n_samples, rng, common)
    chains = check_int(chains, "chains", minimum=1, maximum=64)
    n_warmup = check_int(n_warmup, "n_warmup", minimum=1, maximum=10**6)
    return _hierarchical(d, runs, n_samples, chains, n_warmup, rng, common)


# -------------------------------------------------------------------------- validation
def bayes_pairs(
    scores: Any,
    *,
    rope: float,
    method: str,
    runs: int = 1,
    higher_is_better: bool = True,
    threshold: float = 0.95,
    random_state: Any = DEFAULT_RANDOM_STATE,
    seed: Any = UNSET,
    **kwargs: Any,
) -> Any:
    """The Bayesian verdict for every pair of several classifiers: :func:`bayes_compare` on
    each pair of ``scores``.

    Parameters
    ----------
    scores : mapping {model: scores} or DataFrame (one column per model)
        Per model: fold scores of one data set (``'correlated-t'``), one score per data set
        (``'signed-rank'``, ``'sign'``), or data sets × folds (``'hierarchical'``: a mapping
        of 2-d arrays); the same cells for every model.
    rope, method, runs, higher_is_better
        As :func:`bayes_compare`.
    threshold : float, default 0.95
        The probability a verdict needs.
    random_state, seed
        One generator seeded once draws for every pair in turn (``seed``: its deprecated
        former name).
    **kwargs
        Passed on to :func:`bayes_compare` (``prior``, ``n_samples``, ``chains``, ...).

    Returns
    -------
    DataFrame
        One row per pair (a, b) in the models' order: ``a, b, p_a_better, p_rope,
        p_b_better, verdict``.

    Examples
    --------
    >>> folds = {"lr": [0.81, 0.79, 0.84, 0.80, 0.83, 0.78, 0.82, 0.80, 0.81, 0.79],
    ...          "nb": [0.76, 0.75, 0.80, 0.74, 0.78, 0.73, 0.77, 0.76, 0.75, 0.74],
    ...          "rf": [0.82, 0.78, 0.85, 0.80, 0.84, 0.77, 0.83, 0.81, 0.80, 0.80]}
    >>> t = bayes_pairs(folds, rope=0.01, method="correlated-t")
    >>> t[["a", "b", "verdict"]].values.tolist()
    [['lr', 'nb', 'a better'], ['lr', 'rf', 'undecided'], ['nb', 'rf', 'b better']]
    """
    from collections.abc import Mapping

    import pandas as pd

    if isinstance(scores, pd.DataFrame):
        items = [(c, scores[c].to_numpy()) for c in scores.columns]
    elif isinstance(scores, Mapping):
        items = list(scores.items())
    else:
        raise MeasurelabError("scores must be a mapping {model: scores} or a DataFrame with "
                              f"one column per model, got {type(scores).__name__}")
    if len(items) < 2:
        raise MeasurelabError(f"scores holds {len(items)} model(s); a comparison needs two or "
                              "more")
    model_names([n for n, _ in items], "scores")
    method = _check_method(method)
    items = [(str(k), _scores(v, f"scores: the scores of model {str(k)!r}",
                              2 if method == "hierarchical" else 1, method))
             for k, v in items]
    verdict_of(0.0, 0.0, 0.0, threshold=threshold)  # check the threshold first
    rng = _rng(random_state_of(random_state, seed, "bayes_pairs"))
    rows = []
    for i, (a, va) in enumerate(items):
        for b, vb in items[i + 1:]:
            r = bayes_compare(va, vb, rope=rope, method=method, runs=runs,
                              higher_is_better=higher_is_better, names=(a, b),
                              random_state=rng, **kwargs)
            rows.append({"a": a, "b": b, "p_a_better": r.p_a_better, "p_rope": r.p_rope,
                         "p_b_better": r.p_b_better, "verdict": r.verdict(threshold)})
    return pd.DataFrame(rows, columns=["a", "b", "p_a_better", "p_rope", "p_b_better",
                                       "verdict"])


def _check_method(method: Any) -> str:
    if not isinstance(method, str) or method not in METHODS:
        raise MeasurelabError(f"method must be one of {', '.join(map(repr, METHODS))}, got "
                              f"{short_repr(method)}")
    return method


def _check_rope(rope: Any) -> float:
    if isinstance(rope, bool | np.bool_) or not isinstance(rope, int | float | np.integer |
                                                            np.floating):
        raise MeasurelabError("rope must be a number >= 0 in the measure's units (e.g. 0.01 "
                              f"for accuracy), got {short_repr(rope)}")
    r = float(rope)
    if not math.isfinite(r) or r < 0:
        raise MeasurelabError("rope must be a finite number >= 0 in the measure's units "
                              f"(e.g. 0.01 for accuracy), got {show(rope)}")
    return r


def _check_prior(prior: Any) -> float:
    if isinstance(prior, bool | np.bool_) or not isinstance(prior, int | float | np.integer |
                                                              np.floating):
        raise MeasurelabError(f"prior must be a positive number, got {short_repr(prior)}")
    p = float(prior)
    if not (math.isfinite(p) and p > 0):
        raise MeasurelabError(f"prior must be a positive finite number, got {show(prior)}")
    return p


def _check_names(names: Any) -> tuple[str, str]:
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != 2:
        raise MeasurelabError(f"names must be a pair of names for a and b, got "
                              f"{short_repr(names)}")
    first, second = model_names(list(names), "names")
    return (first, second)


def _rng(random_state: Any) -> np.random.Generator:
    return make_rng(random_state)


def _scores(v: Any, name: str, ndim: int, method: str) -> np.ndarray:
    if hasattr(v, "to_numpy") and type(v).__module__.startswith("pandas"):
        v = v.to_numpy()
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must hold numbers (scores), got "
                              f"{short_repr(v)}") from None
    if arr.ndim != ndim:
        what = ("a 2-d array, data sets × fold scores" if ndim == 2 else
                "a 1-d array of fold scores of one data set" if method == "correlated-t"
                else "a 1-d array, one score per data set")
        hint = (" (one score per data set: use 'signed-rank' or 'sign')" if ndim == 2 else
                " (data sets × folds: use 'hierarchical', or average the folds)"
                if arr.ndim == 2 else "")
        raise MeasurelabError(f"{method!r} needs {name} as {what}, got {arr.ndim}-d "
                              f"shape {arr.shape}{hint}")
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = (f"data set {idx[0]}, fold {idx[1]}" if ndim == 2 else f"index {idx[0]}")
        raise MeasurelabError(f"{name} must be finite, got {show(arr[idx])} at {where}")
    return arr


def _paired(a: Any, b: Any, *, ndim: int, method: str) -> tuple[np.ndarray, np.ndarray]:
    x = _scores(a, "a", ndim, method)
    y = _scores(b, "b", ndim, method)
    if x.shape != y.shape:
        if ndim == 1:
            raise MeasurelabError(f"a has {x.size} scores and b has {y.size}: they must be "
                                  "paired (the same folds or data sets)")
        raise MeasurelabError(f"a has shape {x.shape} and b {y.shape}: they must be paired "
                              "(the same data sets × folds)")
    if method in ("signed-rank", "sign", "hierarchical") and x.shape[0] < 2:
        raise MeasurelabError(f"{method!r} needs at least 2 data sets, got {x.shape[0]}")
    return x, y


def _folds(n: int, runs: int, method: str) -> int:
    """k, the folds per run, of n fold scores from ``runs`` repetitions."""
    if n < 2:
        raise MeasurelabError(f"{method!r} needs at least 2 fold scores, got {n}")
    if n % runs:
        raise MeasurelabError(f"runs={runs} does not divide the {n} fold scores: give k folds "
                              "× runs repetitions, the same for a and b")
    k = n // runs
    if k < 2:
        raise MeasurelabError(f"runs={runs} leaves {k} fold per run ({n} scores): "
                              f"{method!r} needs at least 2 folds per run (ρ = 1/k)")
    return k


def _winner_shares(theta: np.ndarray, rope: float) -> tuple[float, float, float]:
    """Shares of draws in which each θ is the largest (ties to the first); with rope 0 the
    two-way shares (baycomp's convention)."""
    counts = np.bincount(np.argmax(theta, axis=1), minlength=3).astype(np.float64)
    if rope == 0:
        two = counts[0] + counts[2]
        if two == 0:
            warn_undefined("no posterior draw leaves the empty rope (every data set ties); "
                           "reporting 0.5 each way: give a rope > 0")
            return (0.5, 0.0, 0.5)
        return (float(counts[0] / two), 0.0, float(counts[2] / two))
    p = counts / theta.shape[0]
    return (float(p[0]), float(p[1]), float(p[2]))


# ----------------------------------------------------------------------- correlated t
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
    z = np.concatenate(([0.0], d))
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


# ----------------------------------------------------------------------- hierarchical
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
    """SPEC §9's hierarchical model in NumPyro; the data set means δᵢ = δ₀ + σ₀·zᵢ with
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
        warn_undefined(f"hierarchical model: the fold differences of data set(s) "
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


# ---------------------------------------------------------------------------- figures
def _labels(r: BayesComparison) -> tuple[str, str, str]:
    from measurelab.inference._figures import literal

    a, b = (literal(n) for n in r.names)
    return f"{a} better", "equivalent", f"{b} better"


def _plot_density(r: BayesComparison, ax: Any) -> None:
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


def _plot_simplex(r: BayesComparison, ax: Any) -> None:
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
