"""The result of a Bayesian comparison (:class:`BayesComparison`: the three posterior
probabilities, the draws, the verdict) and the verdict rule shared by every model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab._util.validation import (
    short_repr,
    show,
    warn_undefined,
)
from measurelab._util.words import num
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle

#: the models :func:`bayes_compare` fits
METHODS: tuple[str, ...] = ("correlated-t", "signed-rank", "sign", "hierarchical")
#: the verdicts :meth:`BayesComparison.verdict` gives
VERDICTS: tuple[str, ...] = ("a better", "equivalent", "b better", "undecided")


@versioned_pickle
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
        >>> from measurelab.inference.bayes import bayes_compare
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
        >>> from measurelab.inference.bayes import bayes_compare
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

    def __str__(self) -> str:
        """The answer: the three probabilities and the verdict at 0.95.

        Examples
        --------
        >>> from measurelab.inference.bayes import bayes_compare
        >>> print(bayes_compare([0.8, 0.7, 0.9, 0.6], [0.8, 0.72, 0.9, 0.6], rope=0.01,
        ...                     method="sign"))
        Bayesian sign test of a against b (rope ±0.01, higher is better): P(a better) 0, P(equivalent) 0.939, P(b better) 0.0615 — undecided at 0.95.
        """  # noqa: E501
        a, b = self.names
        name = {"correlated-t": "correlated t-test", "signed-rank": "signed-rank test",
                "sign": "sign test", "hierarchical": "hierarchical model"}.get(self.method,
                                                                               self.method)
        v = self.verdict()
        said = {"a better": f"{a} is better", "b better": f"{b} is better",
                "equivalent": "practically equivalent"}.get(v, v)
        return (f"Bayesian {name} of {a} against {b} (rope ±{self.rope:g}, "
                f"{'higher' if self.higher_is_better else 'lower'} is better): "
                f"P({a} better) {num(self.p_a_better, 3)}, P(equivalent) "
                f"{num(self.p_rope, 3)}, P({b} better) {num(self.p_b_better, 3)} — {said} "
                "at 0.95.")

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
        >>> from measurelab.inference.bayes import bayes_compare
        >>> r = bayes_compare([0.8, 0.7, 0.9, 0.6], [0.82, 0.71, 0.9, 0.64], rope=0.01,
        ...                   method="signed-rank", n_samples=2000)
        >>> fig = r.plot()
        >>> len(fig.axes)
        1
        """
        from measurelab.inference._figures import pyplot
        from measurelab.inference.bayes.figures import plot_density, plot_simplex

        plt = pyplot()
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 4.2) if self.method == "correlated-t"
                                 else (5.6, 5.2))
        if self.method == "correlated-t":
            plot_density(self, ax)
        else:
            plot_simplex(self, ax)
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
