"""The entry points: :func:`bayes_compare` (two classifiers) and :func:`bayes_pairs`
(every pair of a table of scores); the models are :mod:`.correlated_t`,
:mod:`.dirichlet` and :mod:`.hierarchical`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import (
    check_flag,
    check_int,
    check_random_state,
    short_repr,
    warn_undefined,
)
from measurelab._util.words import counted
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference._base import model_names
from measurelab.inference.bayes._checks import (
    _check_method,
    _check_names,
    _check_prior,
    _check_rope,
    _paired,
    _rng,
    _scores,
)
from measurelab.inference.bayes.correlated_t import _correlated_t
from measurelab.inference.bayes.dirichlet import _sign, _signed_rank
from measurelab.inference.bayes.hierarchical import _hierarchical
from measurelab.inference.bayes.result import BayesComparison, verdict_of

#: prior strength of the pseudo-observation at 0 (signed-rank) or of the rope (sign test)
DEFAULT_PRIOR = {"signed-rank": 0.5, "sign": 1.0}
#: posterior draws by default: 50,000 for the Monte Carlo tests; the hierarchical model's
#: NUTS draws are far less correlated than they are expensive (4 chains × 2,500)
DEFAULT_SAMPLES = {"correlated-t": 50_000, "signed-rank": 50_000, "sign": 50_000,
                   "hierarchical": 10_000}
#: posterior draws at most (an (n, 3) sample of float64: 240 MB)
MAX_SAMPLES = 10**7
#: 'signed-rank' holds the (N + 1)² pairwise sums of N data sets (200 MB at this bound)
MAX_SIGNED_RANK_DATASETS = 5000
#: the options of bayes_compare that bayes_pairs passes on
_PAIR_OPTIONS = ("prior", "n_samples", "chains", "n_warmup")


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
    random_state: Any = 0,
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
    n_samples = check_int(n_samples, "n_samples", minimum=1, maximum=MAX_SAMPLES)
    if prior is None:
        prior = DEFAULT_PRIOR.get(method, math.nan)
    elif method in DEFAULT_PRIOR:
        prior = _check_prior(prior)
    else:
        raise MeasurelabError(
            f"prior={short_repr(prior)} is not used by {method!r} (only 'signed-rank' and "
            "'sign' take a prior); leave it out")
    random_state = check_random_state(random_state)
    rng = _rng(random_state)
    x, y = _paired(a, b, ndim=2 if method == "hierarchical" else 1, method=method)
    # d: b − a oriented so that positive means b is better
    d = (y - x) if higher_is_better else (x - y)
    common: dict[str, Any] = {"rope": rope, "method": method,
                              "higher_is_better": higher_is_better, "names": names}
    if method == "correlated-t":
        return _correlated_t(x, y, runs, n_samples, rng, common)
    if method == "signed-rank":
        if d.size > MAX_SIGNED_RANK_DATASETS:
            raise MeasurelabError(
                f"'signed-rank' takes one score per data set; a and b hold {d.size:,} scores, "
                f"more than the {MAX_SIGNED_RANK_DATASETS:,} data sets it allows (per-case "
                "scores of one data set? compare them with compare_classifiers)")
        _warn_within_rope(d, rope, method)
        if rope == 0 and not d.any():  # identical models: the stated tie rule
            return BayesComparison(0.5, 0.0, 0.5, sample=np.tile([0.5, 0.0, 0.5], (n_samples, 1)),
                                   **common, details={"n_datasets": int(d.size),
                                                      "prior": prior, "tie": True})
        probs, sample = _signed_rank(d, rope, prior, n_samples, rng)
        return BayesComparison(*probs, sample=sample, **common,
                               details={"n_datasets": int(d.size), "prior": prior})
    if method == "sign":
        _warn_within_rope(d, rope, method)
        return _sign(d, rope, prior, n_samples, rng, common)
    chains = check_int(chains, "chains", minimum=1, maximum=64)
    n_warmup = check_int(n_warmup, "n_warmup", minimum=1, maximum=10**6)
    return _hierarchical(d, runs, n_samples, chains, n_warmup, rng, common)


def _warn_within_rope(d: np.ndarray, rope: float, method: str) -> None:
    """Identical models (every difference exactly 0) and models whose every difference is
    inside the rope are said to be so: the posterior then only restates the prior."""
    if not d.any():
        tie = (" with rope 0 the two directions are equally likely: reported as 0.5 each "
               "(the tie rule), never decided by rounding" if rope == 0 else
               " so the rope holds every data set")
        warn_undefined(f"{method!r}: a and b are identical on every data set (every "
                       f"difference is 0);{tie}")
    elif rope > 0 and bool(np.all(np.abs(d) <= rope)):
        warn_undefined(f"{method!r}: every difference between a and b is within the rope "
                       f"(±{rope:g}): the models are practically equivalent on every data set")


def bayes_pairs(
    scores: Any,
    *,
    rope: float,
    method: str,
    runs: int = 1,
    higher_is_better: bool = True,
    threshold: float = 0.95,
    random_state: Any = 0,
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
    random_state
        One generator seeded once draws for every pair in turn.
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

    for key in kwargs:
        if key == "names":
            raise MeasurelabTypeError("names is not an option of bayes_pairs: the models are "
                                      "named by the keys (or columns) of scores")
        if key not in _PAIR_OPTIONS:
            raise MeasurelabTypeError(
                f"bayes_pairs got an unexpected option {key!r}; the options passed on to "
                f"bayes_compare are {', '.join(map(repr, _PAIR_OPTIONS))}")
    if isinstance(scores, pd.DataFrame):
        items = [(c, scores[c].to_numpy()) for c in scores.columns]
    elif isinstance(scores, Mapping):
        items = list(scores.items())
    else:
        raise MeasurelabError("scores must be a mapping {model: scores} or a DataFrame with "
                              f"one column per model, got {type(scores).__name__}")
    if len(items) < 2:
        raise MeasurelabError(f"scores holds {counted(len(items), 'model')}; a comparison "
                              "needs two or more")
    model_names([n for n, _ in items], "scores")
    method = _check_method(method)
    items = [(str(k), _scores(v, f"scores: the scores of model {str(k)!r}",
                              2 if method == "hierarchical" else 1, method))
             for k, v in items]
    verdict_of(0.0, 0.0, 0.0, threshold=threshold)  # check the threshold first
    rng = _rng(check_random_state(random_state))
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
