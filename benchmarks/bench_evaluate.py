"""Benchmark: ``measurelab.evaluate`` of the full binary suite vs scikit-learn.

10**7 random binary predictions with heavy ties (scores rounded to 3 decimals, so about a
thousand distinct values). We time, in the same process:

* ``measurelab.evaluate(y, s)`` — every registered binary measure (about 30);
* scikit-learn's ``roc_auc_score + average_precision_score + log_loss + accuracy_score +
  f1_score + matthews_corrcoef`` (6 measures);
* ``np.sort(s)``, the floor for anything that ranks the scores.

The six shared values must agree within 1e-9; the script prints the ratio of the two
times. Target: measurelab at least 10 times faster than the scikit-learn set.

Run: ``.venv/bin/python benchmarks/bench_evaluate.py [--n N] [--decimals D] [--repeat R]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _best_time(f: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def make_data(n: int, decimals: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels drawn so that the score is calibrated; scores rounded to ``decimals``."""
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n), decimals)
    y = (rng.random(n) < s).astype(np.int64)
    return y, s


def sklearn_suite(y: np.ndarray, s: np.ndarray) -> dict[str, float]:
    from sklearn.metrics import (
        accuracy_score,
        average_precision_score,
        f1_score,
        log_loss,
        matthews_corrcoef,
        roc_auc_score,
    )

    pred = (s > 0.5).astype(np.int64)
    return {
        "auc": roc_auc_score(y, s),
        "ap": average_precision_score(y, s),
        "mxe": log_loss(y, s),
        "acc": accuracy_score(y, pred),
        "f1": f1_score(y, pred),
        "mcc": matthews_corrcoef(y, pred),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--decimals", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    import measurelab as ml

    y, s = make_data(args.n, args.decimals)
    print(f"n = {args.n:,}, scores rounded to {args.decimals} decimals "
          f"({np.unique(s).size:,} distinct), positives {int(y.sum()):,}")

    t_sort, _ = _best_time(lambda: np.sort(s), args.repeat)
    t_ml, res = _best_time(lambda: ml.evaluate(y, s), args.repeat)
    t_sk, ref = _best_time(lambda: sklearn_suite(y, s), max(1, args.repeat - 1))

    worst = 0.0
    for k, v in ref.items():
        diff = abs(float(res[k]) - float(v))
        worst = max(worst, diff)
        assert diff <= 1e-9, f"{k}: measurelab {res[k]!r} != scikit-learn {v!r}"
    print(f"np.sort (floor)              {t_sort:8.3f} s")
    print(f"measurelab.evaluate ({len(res)} measures) {t_ml:8.3f} s  ({t_ml / t_sort:.1f}x sort)")
    print(f"scikit-learn (6 measures)    {t_sk:8.3f} s")
    print(f"speed-up vs scikit-learn     {t_sk / t_ml:8.1f}x  (target >= 10x); "
          f"largest difference {worst:.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
