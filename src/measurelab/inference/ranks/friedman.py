"""Comparing several classifiers over many data sets (Demšar 2006).

Demšar (2006, JMLR 7:1–30) recommends, for k classifiers on N data sets:

* **average ranks**: rank the classifiers on each data set (1 = best, tied values share
  the mean of their ranks) and average over data sets;
* the **Friedman test** of "all classifiers are equivalent",
  χ²_F = 12N/(k(k+1)) · (Σ_j R_j² − k(k+1)²/4), and Iman & Davenport's less conservative
  **F_F = (N−1)χ²_F / (N(k−1) − χ²_F)** on (k−1, (k−1)(N−1)) degrees of freedom;
* the **Nemenyi post-hoc test**: two classifiers differ significantly when their average
  ranks differ by at least the **critical difference CD = q_α √(k(k+1)/(6N))**, with q_α
  the studentized range quantile over √2 (Demšar's Table 5a); the **Bonferroni–Dunn**
  variant for comparisons with one control uses q_α = z_{1−α/(2(k−1))} (Table 5b);
* the **critical-difference diagram**;
* for two classifiers, the **Wilcoxon signed-rank test** and counts of wins, draws and
  losses (with the sign test).

All statistics come from the ranks of the given values, so the order of the rows does not
matter. Values equal in the table are tied exactly (``decimals=`` rounds first, e.g. to the
precision a paper printed).

Examples
--------
Demšar's own example (his Table 6: AUC of four C4.5 variants on 14 data sets). With the
table as printed, the voting data set has a tie between C4.5+cf and C4.5+m+cf; the paper's
ranks (3.143, 2.000, 2.893, 1.964) follow from its unrounded values, where C4.5+cf is
slightly ahead — see ``tests/inference/test_friedman.py``.

>>> import pandas as pd
>>> from measurelab.inference import demsar
>>> t = pd.DataFrame({"A": [0.90, 0.80, 0.70, 0.85], "B": [0.85, 0.82, 0.60, 0.80],
...                   "C": [0.70, 0.60, 0.65, 0.70]})
>>> r = demsar(t)
>>> r.avg_ranks.round(3).to_dict()
{'A': 1.25, 'B': 2.0, 'C': 2.75}
>>> round(r.cd, 3)                                  # 2.343 * sqrt(3*4 / (6*4))
1.657
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.results import ConfidenceInterval, no_interval
from measurelab._util.validation import (
    UNSET,
    check_flag,
    check_int,
    check_random_state,
    short_repr,
    show,
)
from measurelab._util.words import num, p_words
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import check_level, check_title, model_names
from measurelab.pickling import versioned_pickle


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Critical value q_α of the Nemenyi test for k classifiers (Demšar's Table 5a).

    The studentized range quantile with k groups and infinite degrees of freedom, divided
    by √2.

    Examples
    --------
    >>> round(nemenyi_q(4), 3), round(nemenyi_q(4, alpha=0.10), 3)   # Demšar Table 5a
    (2.569, 2.291)
    """
    from scipy import stats

    k, alpha = _check_k_alpha(k, alpha)
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / math.sqrt(2.0))


def bonferroni_dunn_q(k: int, alpha: float = 0.05) -> float:
    """Critical value q_α of the Bonferroni–Dunn test against one control (Table 5b).

    The two-sided normal quantile at α/(k−1): z_{1 − α/(2(k−1))}.

    Examples
    --------
    >>> round(bonferroni_dunn_q(4), 3), round(bonferroni_dunn_q(4, alpha=0.10), 3)
    (2.394, 2.128)
    """
    from scipy import stats

    k, alpha = _check_k_alpha(k, alpha)
    return float(stats.norm.ppf(1.0 - alpha / (2.0 * (k - 1))))


#: the most decimals ``demsar`` rounds to (a float64 holds about 17 significant digits)
MAX_DECIMALS = 20

#: the most classifiers a critical value is computed for (the studentized range's
#: quantile slows down with k)
MAX_MODELS = 10_000


def _check_k_alpha(k: Any, alpha: Any) -> tuple[int, float]:
    k = check_int(k, "k (the number of classifiers)", minimum=2, maximum=MAX_MODELS)
    return k, check_level(alpha, "alpha")


@versioned_pickle
class RankTestResult(NamedTuple):
    """An omnibus test on the ranks of k models over N data sets (Friedman's, or Iman and
    Davenport's): the ``statistic``, its ``pvalue``, the degrees of freedom ``df`` and the
    ``method``.

    Examples
    --------
    >>> r = RankTestResult(9.28, 0.0257, 3, "friedman")
    >>> r.statistic, r.pvalue
    (9.28, 0.0257)
    """

    statistic: float
    pvalue: float
    df: Any
    method: str

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Refused: the test is of "all k models rank alike" and estimates no single
        quantity to bound (the pairs' differences are in ``wdl`` and the critical
        difference)."""
        no_interval("RankTestResult", "a test that k models rank alike estimates no single "
                    "quantity to bound")

    def __str__(self) -> str:
        """The answer: the test of "every model ranks alike", its statistic and p.

        Examples
        --------
        >>> print(RankTestResult(9.28, 0.0257, 3, "friedman"))
        Friedman's test that every model ranks alike: statistic 9.28 on 3 df, p = 0.0257.
        """
        name = {"friedman": "Friedman's test",
                "iman-davenport": "Iman and Davenport's F"}.get(self.method, self.method)
        df = (" and ".join(map(str, self.df)) if isinstance(self.df, tuple | list)
              else str(self.df))
        return (f"{name} that every model ranks alike: statistic {num(self.statistic)} on "
                f"{df} df, {p_words(self.pvalue)}.")


@versioned_pickle
@dataclass(frozen=True)
class DemsarResult:
    """The outcome of :func:`demsar`.

    Attributes
    ----------
    table : DataFrame
        The values used (after ``decimals`` rounding), rows = data sets, columns = models.
    ranks : DataFrame
        Rank of each model on each data set (1 = best, ties averaged).
    avg_ranks : Series
        Average rank of each model over the data sets (1 = best), sorted best first.
    friedman : RankTestResult
        Friedman's test: ``.statistic`` χ²_F, ``.pvalue`` (χ² with ``.df`` = k − 1
        degrees of freedom).
    iman_davenport : RankTestResult
        Iman & Davenport's test: ``.statistic`` F_F, ``.pvalue`` (F with ``.df`` =
        (k − 1, (k − 1)(N − 1))); NaN when χ²_F reaches its maximum N(k − 1) (every data
        set ranks alike).
    alpha, q_alpha, cd : float
        Level of the post-hoc test, the Nemenyi critical value and the critical difference.
    wdl : DataFrame
        One row per pair (a, b): wins, draws and losses of a against b over the data sets,
        the two-sided sign-test p-value (draws split evenly, Demšar §3.1.3) and the
        Wilcoxon signed-rank p-value.
    measure : Measure or None
        The registered measure whose rule ordered the scores (``demsar(measure=...)``).
    """

    table: Any
    ranks: Any
    avg_ranks: Any
    friedman: RankTestResult
    iman_davenport: RankTestResult
    alpha: float
    q_alpha: float
    cd: float
    higher_is_better: bool
    tie_correction: bool
    wdl: Any = field(repr=False)
    measure: Any = field(default=None, repr=False)

    @property
    def direction(self) -> str:
        """Which scores were better: 'higher', 'lower' or the measure's 'closer to T'."""
        if self.measure is not None:
            return str(self.measure.direction)
        return "higher" if self.higher_is_better else "lower"

    @property
    def n_datasets(self) -> int:
        return int(self.table.shape[0])

    @property
    def n_models(self) -> int:
        return int(self.table.shape[1])

    def __repr__(self) -> str:
        from measurelab.inference._reprs import demsar_repr

        return demsar_repr(self)

    def cd_bonferroni_dunn(self, alpha: float | None = None) -> float:
        """Critical difference of the Bonferroni–Dunn test (comparisons with one control)."""
        a = self.alpha if alpha is None else check_level(alpha, "alpha")
        k, n = self.n_models, self.n_datasets
        return bonferroni_dunn_q(k, a) * math.sqrt(k * (k + 1) / (6.0 * n))

    def significant_pairs(self) -> Any:
        """Pairs of models whose average ranks differ by at least CD (Nemenyi).

        Returns a DataFrame with columns ``a, b, rank_a, rank_b, diff, significant``,
        ``a`` the better-ranked model.
        """
        import pandas as pd

        r = self.avg_ranks
        rows = []
        names = list(r.index)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                d = float(r[b] - r[a])
                rows.append(
                    {"a": a, "b": b, "rank_a": float(r[a]), "rank_b": float(r[b]),
                     "diff": d, "significant": d >= self.cd}
                )
        return pd.DataFrame(rows, columns=["a", "b", "rank_a", "rank_b", "diff", "significant"])

    def bayes(self, rope: float, method: str = "signed-rank", *, threshold: float = 0.95,
              prior: float | None = None, n_samples: int | None = None,
              random_state: Any = 0) -> Any:
        """Bayesian comparison of every pair of models over the data sets (Benavoli et al.
        2017): :func:`~measurelab.inference.bayes.bayes_compare` on the table's columns.

        Parameters
        ----------
        rope : float
            Half-width of the region of practical equivalence, in the measure's units
            (e.g. 0.01 for accuracy or AUC).
        method : {'signed-rank', 'sign'}, default 'signed-rank'
            The table holds one score per data set, so the Bayesian signed-rank or sign
            test (for fold scores call ``bayes_compare(..., method='hierarchical')``).
        threshold : float, default 0.95
            The probability a verdict needs.
        prior, n_samples, random_state
            As :func:`~measurelab.inference.bayes.bayes_compare`; one generator seeded once
            draws for every pair in turn.

        Returns
        -------
        DataFrame
            One row per pair (a, b) in column order: ``a, b, p_a_better, p_rope,
            p_b_better, verdict`` ('a better', 'equivalent', 'b better' or 'undecided').

        Examples
        --------
        >>> import pandas as pd
        >>> t = pd.DataFrame({"nb": [0.80, 0.71, 0.92, 0.65, 0.88, 0.77],
        ...                   "tree": [0.83, 0.74, 0.95, 0.67, 0.91, 0.80]})
        >>> demsar(t).bayes(rope=0.01).round(3).values.tolist()
        [['nb', 'tree', 0.0, 0.0, 1.0, 'b better']]
        """
        import pandas as pd

        from measurelab.inference.bayes import bayes_compare, verdict_of

        if not isinstance(method, str) or method not in ("signed-rank", "sign"):
            raise MeasurelabError(
                f"DemsarResult.bayes compares one score per data set: method must be "
                f"'signed-rank' or 'sign', got {short_repr(method)} (for fold scores call "
                "bayes_compare(..., method='hierarchical'))")
        verdict_of(0.0, 0.0, 0.0, threshold=threshold)  # check the threshold first
        rng = np.random.default_rng(check_random_state(random_state))
        names = list(self.table.columns)
        values = self.table.to_numpy(dtype=np.float64)
        higher = self.higher_is_better
        if self.measure is not None and self.measure.target is not None:
            values, higher = self.measure.badness(values), False  # distances to the target
        rows = []
        for i, a in enumerate(names):
            for j in range(i + 1, len(names)):
                r = bayes_compare(values[:, i], values[:, j], rope=rope, method=method,
                                  higher_is_better=higher,
                                  names=(str(a), str(names[j])), prior=prior,
                                  n_samples=n_samples, random_state=rng)
                rows.append({"a": a, "b": names[j], "p_a_better": r.p_a_better,
                             "p_rope": r.p_rope, "p_b_better": r.p_b_better,
                             "verdict": r.verdict(threshold)})
        cols = ["a", "b", "p_a_better", "p_rope", "p_b_better", "verdict"]
        out = pd.DataFrame(rows, columns=cols)
        out.attrs.update(rope=float(rope), method=method, threshold=threshold)  # for pages
        return out

    def groups(self) -> list[list[str]]:
        """Maximal runs of models (in rank order) whose ranks lie within CD of each other.

        These are the thick bars of the critical-difference diagram: models joined by a
        bar are not significantly different by the Nemenyi test.
        """
        names = list(self.avg_ranks.index)
        r = self.avg_ranks.to_numpy()
        spans: list[tuple[int, int]] = []
        for i in range(len(names)):
            j = i
            while j + 1 < len(names) and r[j + 1] - r[i] < self.cd:
                j += 1
            if j > i and not (spans and spans[-1][1] >= j):
                spans.append((i, j))
        return [names[i : j + 1] for i, j in spans]

    def summary(self) -> str:
        """A short Markdown summary: ranks, the omnibus tests and CD."""
        lines = [
            f"Demšar (2006) over {self.n_datasets} data sets and {self.n_models} models "
            f"({self.direction} is better).",
            "",
            "| model | average rank |",
            "|---|---|",
        ]
        lines += [f"| {m} | {v:.3f} |" for m, v in self.avg_ranks.items()]
        lines += [
            "",
            f"Friedman χ²_F = {self.friedman.statistic:.3f} (p = {self.friedman.pvalue:.4g}); "
            f"Iman–Davenport F_F = {self.iman_davenport.statistic:.3f} "
            f"(p = {self.iman_davenport.pvalue:.4g}).",
            f"Nemenyi CD at α = {self.alpha:g}: {self.cd:.3f} (q_α = {self.q_alpha:.3f}).",
        ]
        groups = self.groups()
        if groups:
            lines.append(
                "Not significantly different (within CD): "
                + "; ".join("{" + ", ".join(g) + "}" for g in groups)
                + "."
            )
        return "\n".join(lines)

    def sentences(self) -> list[str]:
        """The analysis in words: the ranking, Friedman's verdict at ``alpha``, and the
        pairs whose average ranks differ by more than the critical difference.

        Examples
        --------
        >>> import pandas as pd
        >>> t = pd.DataFrame({"a": [.9, .8, .85, .7, .9, .8], "b": [.8, .7, .8, .6, .8, .85],
        ...                   "c": [.7, .75, .6, .65, .7, .6]})
        >>> demsar(t).sentences()[0]
        'Average ranks over 6 data sets (1 = best): a 1.17, b 2.17, c 2.67.'
        """
        from measurelab.inference.ranks.report import sentences

        return sentences(self)

    def to_html(self, path: Any = None, *, title: str = "Comparing classifiers over data sets",
                bayes: Any = None, files: bool = True) -> Any:
        """One page in the shared measurelab look: the answer in words, the critical
        difference diagram, the Bayesian verdicts when given (``bayes``: the table of
        :meth:`bayes`), then every table collapsed. Written to ``path`` (with the diagram as
        ``STEM-cd.png`` beside it when ``files``), or returned as text when
        ``path`` is None.

        Examples
        --------
        >>> import pandas as pd
        >>> t = pd.DataFrame({"a": [.9, .8, .85, .7], "b": [.8, .7, .8, .6]})
        >>> page = demsar(t).to_html()
        >>> page.startswith("<!DOCTYPE html>") and "Critical difference" in page
        True
        """
        import pandas as pd

        from measurelab.inference.ranks.report import to_html

        check_title(title)
        need = {"a", "b", "p_a_better", "p_rope", "p_b_better", "verdict"}
        if bayes is not None and not (isinstance(bayes, pd.DataFrame)
                                      and need <= set(bayes.columns)):
            raise MeasurelabError("bayes must be the table of DemsarResult.bayes (columns a, "
                                  "b, p_a_better, p_rope, p_b_better, verdict), got "
                                  f"{short_repr(bayes)}")
        return to_html(self, path, title=title, bayes=bayes, files=files)

    def _repr_html_(self) -> str:
        """A notebook shows the sentences and the critical difference diagram."""
        from measurelab.inference.ranks.report import repr_html

        return repr_html(self)

    def plot(self, ax: Any = None, *, title: str | None = None) -> Any:
        """Draw the critical-difference diagram (Demšar 2006, Fig. 1) and return the Axes.

        The rank axis runs from 1 (best, left) to k; each model hangs from its average
        rank; thick bars join models within CD of each other; the CD is drawn above.
        """
        import matplotlib.pyplot as plt

        from measurelab.inference._figures import literal

        check_title(title, optional=True)
        names = list(self.avg_ranks.index)
        r = self.avg_ranks.to_numpy()
        k = len(names)
        if ax is None:
            height = 1.6 + 0.3 * ((k + 1) // 2)
            _, ax = plt.subplots(figsize=(7.0, height))
        ax.set_xlim(0.5, k + 0.5)
        half = (k + 1) // 2
        ax.set_ylim(-(half + 1.2), 1.6)
        ax.axis("off")
        # rank axis
        ax.plot([1, k], [0, 0], color="black", lw=1)
        for t in range(1, k + 1):
            ax.plot([t, t], [0, 0.12], color="black", lw=1)
            ax.text(t, 0.2, str(t), ha="center", va="bottom", fontsize=9)
        # CD segment
        ax.plot([1, 1 + self.cd], [1.1, 1.1], color="black", lw=1.5)
        for x in (1, 1 + self.cd):
            ax.plot([x, x], [1.0, 1.2], color="black", lw=1)
        ax.text(1 + self.cd / 2, 1.25, f"CD = {self.cd:.2f}", ha="center", va="bottom",
                fontsize=9)
        # models: the better half to the left, the rest to the right
        for i, (name, rank) in enumerate(zip(names, r, strict=True)):
            left = i < half
            level = -(i + 1) if left else -(k - i)
            xend = 0.6 if left else k + 0.4
            ax.plot([rank, rank, xend], [0, level, level], color="black", lw=0.8)
            shown = literal(name)  # names drawn literally
            ax.text(xend + (-0.05 if left else 0.05), level, f"{shown} ({rank:.2f})",
                    ha="right" if left else "left", va="center", fontsize=9)
        # bars of non-significant groups
        for j, g in enumerate(self.groups()):
            lo = float(self.avg_ranks[g[0]])
            hi = float(self.avg_ranks[g[-1]])
            y = -0.35 - 0.2 * j
            ax.plot([lo - 0.03, hi + 0.03], [y, y], color="black", lw=3.5,
                    solid_capstyle="butt")
        ax.set_title(literal(title) if title
                     else f"Critical difference (Nemenyi, α = {self.alpha:g})",
                     fontsize=10)
        return ax


def demsar(
    table: Any,
    *,
    higher_is_better: bool = UNSET,
    measure: Any = None,
    alpha: float = 0.05,
    decimals: int | None = None,
    tie_correction: bool = False,
) -> DemsarResult:
    """Average ranks, Friedman / Iman–Davenport tests and Nemenyi CD over many data sets.

    Parameters
    ----------
    table : DataFrame or 2-d array-like
        One row per data set, one column per model (column names are the model names),
        each cell the model's score on that data set (e.g. mean AUC over folds).
    higher_is_better : bool, default True
        ``False`` for losses and error rates: the smallest value then gets rank 1.
    measure : str or Measure, optional
        The registered measure the scores are values of: its rule orders them instead of
        ``higher_is_better`` (give one or the other). A measure whose ideal is a target
        value (``spiegelhalter_z``: 0) ranks by the distance to it, and
        :meth:`DemsarResult.bayes` compares those distances.
    alpha : float, default 0.05
        Level of the Nemenyi critical difference (Demšar tabulates 0.05 and 0.10).
    decimals : int, optional
        Round the values first (e.g. to the precision a paper printed), so that values
        equal at that precision tie.
    tie_correction : bool, default False
        Divide χ²_F by 1 − Σ(t³ − t)/(N(k³ − k)) over tie groups t, as
        ``scipy.stats.friedmanchisquare`` and R's ``friedman.test`` do. Demšar's formulas
        (and his worked example) use the uncorrected statistic, the default here.

    Returns
    -------
    DemsarResult

    Raises
    ------
    MeasurelabError
        Fewer than two models or two data sets, a missing or non-finite value, a model
        name given twice.

    References
    ----------
    J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets", JMLR 7
    (2006) 1–30. R. L. Iman and J. M. Davenport, "Approximations of the critical region of
    the Friedman statistic", Comm. Statist. (1980).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"nb": [0.8, 0.7, 0.9], "tree": [0.75, 0.72, 0.85]},
    ...                  index=["d1", "d2", "d3"])
    >>> r = demsar(t)
    >>> r.avg_ranks.to_dict()
    {'nb': 1.3333333333333333, 'tree': 1.6666666666666667}
    >>> r.wdl[["a", "b", "wins", "draws", "losses"]].to_dict("records")
    [{'a': 'nb', 'b': 'tree', 'wins': 2, 'draws': 0, 'losses': 1}]
    """
    import pandas as pd
    from scipy import stats

    alpha = check_level(alpha, "alpha")
    m = None
    if measure is not None:
        from measurelab.measures.base import registry

        if higher_is_better is not UNSET:
            raise MeasurelabError(
                "give measure= or higher_is_better=, not both: the measure's registry entry "
                "says which scores are better")
        try:
            m = registry.resolve(measure)[0]
        except MeasurelabError as exc:
            raise MeasurelabError(f"measure: {exc}") from None
        higher_is_better = m.higher_is_better
    higher_is_better = check_flag(True if higher_is_better is UNSET else higher_is_better,
                                  "higher_is_better")
    tie_correction = check_flag(tie_correction, "tie_correction")
    if decimals is not None:
        decimals = check_int(decimals, "decimals", minimum=0, maximum=MAX_DECIMALS)
    df = _as_frame(table)
    if decimals is not None:
        df = df.round(decimals)
    n, k = df.shape
    _check_k_alpha(k, alpha)
    values = df.to_numpy(dtype=np.float64)
    # higher = better: the values, their negatives, or −|v − target| (exact for target 0)
    signed = m.goodness(values) if m is not None else (values if higher_is_better
                                                       else -values)
    # rank 1 = best; tied values share the mean of their ranks (exactly equal cells only)
    ranks = np.vstack([stats.rankdata(-row) for row in signed])
    avg = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(avg**2)) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        ties = sum(
            float(np.sum(c**3 - c)) for c in (np.unique(row, return_counts=True)[1]
                                                for row in signed)
        )
        denom = 1.0 - ties / (n * (k**3 - k))
        chi2 = chi2 / denom if denom > 0 else math.nan
    chi2 = max(chi2, 0.0) if not math.isnan(chi2) else chi2
    friedman_p = float(stats.chi2.sf(chi2, k - 1))
    denom = n * (k - 1) - chi2
    if denom > 0:
        f_f = (n - 1) * chi2 / denom
        id_p = float(stats.f.sf(f_f, k - 1, (k - 1) * (n - 1)))
    else:
        f_f, id_p = math.nan, math.nan
    q = nemenyi_q(k, alpha)
    cd = q * math.sqrt(k * (k + 1) / (6.0 * n))
    ranks_df = pd.DataFrame(ranks, index=df.index, columns=df.columns)
    avg_s = pd.Series(avg, index=df.columns, name="average rank")
    avg_s = avg_s.iloc[np.argsort(avg, kind="stable")]
    return DemsarResult(
        table=df,
        ranks=ranks_df,
        avg_ranks=avg_s,
        friedman=RankTestResult(float(chi2), friedman_p, k - 1, "friedman"),
        iman_davenport=RankTestResult(float(f_f), id_p, (k - 1, (k - 1) * (n - 1)),
                                      "iman-davenport"),
        alpha=float(alpha),
        q_alpha=q,
        cd=float(cd),
        higher_is_better=bool(higher_is_better),
        tie_correction=bool(tie_correction),
        wdl=_pairwise(df, signed),
        measure=m,
    )


def _pairwise(df: Any, signed: np.ndarray) -> Any:
    """Wins/draws/losses, sign test and Wilcoxon for every pair of columns."""
    import pandas as pd
    from scipy import stats

    from measurelab.inference.ranks.significance import wilcoxon_signed_rank

    names = list(df.columns)
    rows = []
    n = signed.shape[0]
    for i, a in enumerate(names):
        for j in range(i + 1, len(names)):
            d = signed[:, i] - signed[:, j]
            wins, losses = int(np.sum(d > 0)), int(np.sum(d < 0))
            draws = n - wins - losses
            # sign test, draws split evenly between the two (one dropped when odd)
            half = draws // 2
            sw, sl = wins + half, losses + half
            sign_p = float(stats.binomtest(sw, sw + sl, 0.5).pvalue) if sw + sl else 1.0
            wil = wilcoxon_signed_rank(d)  # n >= 1 data sets (the CD divides by n)
            rows.append(
                {"a": a, "b": names[j], "wins": wins, "draws": draws, "losses": losses,
                 "sign_p": sign_p, "wilcoxon_p": float(wil.pvalue)}
            )
    cols = ["a", "b", "wins", "draws", "losses", "sign_p", "wilcoxon_p"]
    return pd.DataFrame(rows, columns=cols)


def _as_frame(table: Any) -> Any:
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        df = table.copy()
    else:
        try:
            arr = np.asarray(table, dtype=np.float64)
        except (TypeError, ValueError):
            raise MeasurelabError(
                "table must be a DataFrame or a 2-d array of numbers (rows = data sets, "
                "columns = models)"
            ) from None
        if arr.ndim != 2:
            raise MeasurelabError(
                f"table must be 2-d (rows = data sets, columns = models), got {arr.ndim}-d"
            )
        df = pd.DataFrame(arr, columns=[f"model{j}" for j in range(arr.shape[1])])
    if df.columns.duplicated().any():
        dup = df.columns[df.columns.duplicated()][0]
        raise MeasurelabError(f"model {dup!r} appears twice among the table's columns")
    model_names(df.columns, "table")  # 1 and '1' would be one model in every output
    n, k = df.shape
    if k < 2:
        raise MeasurelabError(f"need at least 2 models (columns), got {k}")
    if n < 2:
        raise MeasurelabError(f"need at least 2 data sets (rows), got {n}")
    for c in df.columns:
        col = pd.to_numeric(df[c], errors="coerce")
        bad = ~np.isfinite(col.to_numpy(dtype=np.float64))
        if bad.any():
            row = df.index[int(np.flatnonzero(bad)[0])]
            raise MeasurelabError(
                f"table value at data set {row!r}, model {c!r} is {show(df.loc[row, c])}; "
                "expected a finite number"
            )
        df[c] = col.astype(np.float64)
    return df
