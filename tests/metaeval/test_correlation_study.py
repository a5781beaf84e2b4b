"""Paired t-tests over runs: the t-test of measurelab.inference, scipy's numbers where
scipy's are defined."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from measurelab.inference.ranks.significance import paired_ttest
from measurelab.metaeval.correlation_study import best_group, paired_ttests


@pytest.mark.parametrize("seed", range(6))
def test_paired_ttests_equal_scipy_and_paired_ttest(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 12))
    runs = pd.DataFrame({c: rng.normal(0.5, 0.1, n) for c in "abc"})
    got = paired_ttests(runs, alpha=0.1)
    assert list(got.index) == [("a", "b"), ("a", "c"), ("b", "c")]
    for (a, b), row in got.iterrows():
        ref = stats.ttest_rel(runs[a], runs[b])
        assert row["t"] == pytest.approx(ref.statistic, rel=1e-12)
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-10)
        assert row["mean_diff"] == pytest.approx(float(np.mean(runs[a] - runs[b])), rel=1e-15)
        assert row["significant"] == (ref.pvalue < 0.1)
        one = paired_ttest(runs[a], runs[b], alpha=0.1)
        assert (row["t"], row["p"], row["mean_diff"]) == (one.statistic, one.pvalue,
                                                          one.mean_diff)


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")  # scipy on constant d
def test_zero_variance_rule_is_the_ttests() -> None:
    """Identical columns: t = 0, p = 1 (scipy: NaN); a constant non-zero difference:
    t = ±inf, p = 0 (as scipy)."""
    runs = pd.DataFrame({"a": [0.5, 0.25, 0.75], "b": [0.5, 0.25, 0.75],
                         "c": [1.5, 1.25, 1.75]})
    got = paired_ttests(runs)
    assert (got.loc[("a", "b"), "t"], got.loc[("a", "b"), "p"]) == (0.0, 1.0)
    assert not got.loc[("a", "b"), "significant"]
    for pair, sign in ((("a", "c"), -1), (("b", "c"), -1)):
        t, p = got.loc[pair, "t"], got.loc[pair, "p"]
        ref = stats.ttest_rel(runs[pair[0]], runs[pair[1]])
        assert t == ref.statistic == sign * math.inf and p == ref.pvalue == 0.0
        assert got.loc[pair, "significant"]
    assert best_group(runs[["a", "b"]]) == ["a", "b"]
