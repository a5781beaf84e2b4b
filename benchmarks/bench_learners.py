"""Benchmark of measurelab.compare_learners (a script, not a test).

Three scikit-learn learners (logistic regression, naive Bayes, a decision tree, each behind
the same preprocessing: impute, scale, one-hot) on ten bundled binary data sets,
stratified 10-fold cross-validation repeated 10 times (3,000 fits), in one process, one
core:

1. the anchor: scikit-learn's ``cross_validate`` on the same splits with the same three
   scores (acc, auc, brier) — the hand-written loop a user would otherwise write, and which
   gives fold scores only;
2. ``compare_learners(..., datasets=...)``: the fits (the predictions kept), then the
   statistics: fold scores, values, intervals, tests with Holm, the Bayesian correlated t
   of every pair on every data set, Demšar's ranks per measure and the summary. Target:
   the statistics add under 5% to the time of the fits, and the whole run is within a few
   per cent of the anchor's.
3. the memory the result holds (its fold predictions) against the data's.

The hierarchical model over data sets × folds (NumPyro's NUTS, one run per pair and
measure) is timed apart: it is a model fitted by sampling, not arithmetic on the fold
scores (``benchmarks/bench_bayes.py`` times it alone).

Run: ``nice .venv/bin/python benchmarks/bench_learners.py [--quick] [--hierarchical]``
(``--quick``: three data sets, 5×2cv).
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import pickle  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

import measurelab as ml  # noqa: E402
from measurelab.io import datasets  # noqa: E402

DATASETS = ("australian", "breast-w", "credit-a", "diabetes", "german", "heart-statlog",
            "hepatitis", "ionosphere", "sonar", "vote")
MEASURES = ("acc", "auc", "brier")


def learners() -> dict[str, object]:
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    def prep():
        return make_column_transformer(
            (make_pipeline(SimpleImputer(strategy="median"), StandardScaler()),
             make_column_selector(dtype_include="number")),
            (make_pipeline(SimpleImputer(strategy="most_frequent"),
                           OneHotEncoder(handle_unknown="ignore", sparse_output=False)),
             make_column_selector(dtype_exclude="number")))

    return {"lr": make_pipeline(prep(), LogisticRegression(max_iter=1000)),
            "nb": make_pipeline(prep(), GaussianNB()),
            "tree": make_pipeline(prep(), DecisionTreeClassifier(min_samples_leaf=5,
                                                                 random_state=0))}


def load(names: tuple[str, ...]) -> dict[str, tuple[object, np.ndarray]]:
    out = {}
    for n in names:
        X, y = datasets.load(n)
        out[n] = (X, y.astype(str).to_numpy())
    return out


def splitter(quick: bool):
    from sklearn.model_selection import RepeatedStratifiedKFold

    return RepeatedStratifiedKFold(n_splits=2 if quick else 10, n_repeats=5 if quick else 10,
                                   random_state=0)


def anchor(data, ests, cv) -> float:
    from sklearn.model_selection import cross_validate

    t = time.perf_counter()
    for X, y in data.values():
        for est in ests.values():
            cross_validate(est, X, y, cv=cv, scoring=["accuracy", "roc_auc",
                                                      "neg_brier_score"])
    return time.perf_counter() - t


def ours(data, ests, cv) -> tuple[float, float, object]:
    t = time.perf_counter()
    res = ml.compare_learners(ests, datasets=data, cv=cv, measures=list(MEASURES),
                              progress=False)
    fits = time.perf_counter() - t
    t = time.perf_counter()
    res.fold_scores()
    res.values()
    res.intervals()
    res.tests()
    res.bayes(0.01, method="correlated-t")
    for m in MEASURES:
        res.ranks(m)
    res.summary()
    return fits, time.perf_counter() - t, res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--hierarchical", action="store_true",
                    help="also time the hierarchical model (NumPyro)")
    args = ap.parse_args()
    names = DATASETS[:3] if args.quick else DATASETS
    data = load(names)
    ests = learners()
    cv = splitter(args.quick)
    n_fits = len(names) * len(ests) * cv.get_n_splits()
    warnings.simplefilter("ignore")
    # warm up once (imports, the compiled walks of the measures), as a user's second call
    ml.compare_learners(ests, datasets=load(names[:2]), cv=2, measures=list(MEASURES),
                        progress=False).tests()
    a = anchor(data, ests, cv)
    fits, stats, res = ours(data, ests, cv)
    size_x = sum(X.memory_usage(deep=True).sum() for X, _ in data.values())
    size_res = len(pickle.dumps(res))
    print(f"{len(ests)} learners × {len(names)} data sets × {cv.get_n_splits()} folds = "
          f"{n_fits:,} fits, one process:")
    print(f"  anchor: scikit-learn cross_validate (fold scores only)  {a:8.1f} s")
    print(f"  compare_learners, the fits (predictions kept)           {fits:8.1f} s")
    print(f"  compare_learners, every statistic and the summary       {stats:8.2f} s")
    print(f"  statistics / fits: {100 * stats / fits:.2f}% (target < 5%)")
    print(f"  ours (fits + statistics) / anchor: {(fits + stats) / a:.3f}")
    print(f"  memory: the result pickles to {size_res / 1e6:.2f} MB, the data take "
          f"{size_x / 1e6:.2f} MB (the result holds fold predictions, not the data)")
    if args.hierarchical:
        t = time.perf_counter()
        b = res.bayes(0.01)
        print(f"  hierarchical model, {len(b)} pairs × measures: {time.perf_counter() - t:.1f} s")
        print(b.round(3).to_string(index=False))
    print()
    print(res.summary())


if __name__ == "__main__":
    main()
