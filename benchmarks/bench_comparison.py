"""Benchmark of the comparison engine (issue 17's targets; a script, not a test).

1. A 3-model comparison of the full suite (``measures='all'``), B = 2000, at n = 300,
   1,000 and 10,000, against a scikit-learn bootstrap loop over six measures (auc, ap, f1,
   mcc, brier, log-loss) for the same three models (timed on a few replicates, scaled to
   B). Also the default (headline) comparison. Target: at least 50x.
2. The full suite of one model, B = 1000, n = 10^6 distinct scores (``evaluate(ci=)``),
   against a scikit-learn loop over auc, ap and log-loss. Target: at least 20x; peak
   memory under 1 GB.
3. A paired auc + acc comparison of two models at n = 10^6, defaults (DeLong + McNemar).
   Target: at most 10 s.

Everything on one thread, in one process; the ratio is what to quote.

Run: ``.venv/bin/python benchmarks/bench_comparison.py [--quick]``.
"""

from __future__ import annotations

import argparse
import resource
import time
import warnings

import numpy as np

import measurelab as ml


def _models(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.3
    base = g.normal(size=n)
    ms = {f"m{i}": 1 / (1 + np.exp(-(mu * y + 0.6 * base + g.normal(0, 0.8, n) - 1)))
          for i, mu in enumerate((1.6, 1.3, 1.0)[:k])}
    return y.astype(int), ms


def _sklearn_loop(y: np.ndarray, ms: dict[str, np.ndarray], reps: int,
                  which: tuple[str, ...]) -> float:
    """Seconds for ``reps`` bootstrap replicates of scikit-learn's metrics (cases drawn
    with replacement, every model on the same draw)."""
    from sklearn import metrics as skm

    fns = {"auc": skm.roc_auc_score, "ap": skm.average_precision_score,
           "f1": lambda t, s: skm.f1_score(t, s > 0.5),
           "mcc": lambda t, s: skm.matthews_corrcoef(t, s > 0.5),
           "brier": skm.brier_score_loss, "logloss": skm.log_loss}
    g = np.random.default_rng(1)
    n = y.size
    t0 = time.perf_counter()
    for _ in range(reps):
        idx = g.integers(0, n, n)
        yy = y[idx]
        for s in ms.values():
            ss = s[idx]
            for w in which:
                fns[w](yy, ss)
    return time.perf_counter() - t0


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_small(sizes: list[int], n_boot: int) -> None:
    print(f"1. three models, B = {n_boot}, one thread; scikit-learn: 6 measures x 3 models")
    six = ("auc", "ap", "f1", "mcc", "brier", "logloss")
    for n in sizes:
        y, ms = _models(n, 3)

        def run(measures, y=y, ms=ms):
            r = ml.compare_classifiers(y, ms, measures=measures, n_boot=n_boot,
                                       progress=False)
            r.intervals()
            r.tests()
            return r

        run("all")  # warm-up (imports, caches)
        t_all = _time(lambda: run("all"))
        t_def = _time(lambda: run(None))
        k = len(run("all").values())
        reps = 40 if n <= 1000 else 10
        t_sk = _sklearn_loop(y, ms, reps, six) / reps * n_boot
        print(f"   n = {n:>6,}: measurelab full suite ({k} measures) {t_all:6.2f} s, "
              f"headline {t_def:5.2f} s; scikit-learn loop {t_sk:7.1f} s; "
              f"ratio {t_sk / t_all:5.1f}x (full), {t_sk / t_def:5.1f}x (headline)")


def bench_large(n: int, n_boot: int, jobs: list[int]) -> None:
    print(f"2. one model, full suite, B = {n_boot}, n = {n:,} distinct scores")
    y, ms = _models(n, 1)
    s = ms["m0"]
    k = len(ml.evaluate(y, s))
    reps = 8  # scikit-learn's loop varies by ±10 % from run to run: average a few more
    t_sk = _sklearn_loop(y, {"m": s}, reps, ("auc", "ap", "logloss")) / reps * n_boot
    print(f"   scikit-learn auc+ap+log-loss on one thread: {t_sk:.1f} s (scaled from {reps})")
    for nj in jobs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_ml = _time(lambda nj=nj: ml.evaluate(y, s, ci=0.95, n_boot=n_boot,
                                                   progress=False, n_jobs=nj))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"   measurelab {k} measures, n_jobs={nj}: {t_ml:.1f} s; ratio "
              f"{t_sk / t_ml:.1f}x; process peak RSS so far {peak:.0f} MB")


def bench_paired(n: int) -> None:
    print(f"3. two models, auc + acc, defaults, n = {n:,}")
    y, ms = _models(n, 2)
    t = _time(lambda: ml.compare_classifiers(y, ms, measures=["auc", "acc"],
                                             progress=False).tests())
    print(f"   {t:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    ap.add_argument("--part", type=int, choices=[1, 2, 3], action="append",
                    help="run only these parts (default all)")
    ap.add_argument("--n-jobs", type=int, nargs="+", default=[1, 2],
                    help="threads for part 2 (default 1 2)")
    args = ap.parse_args()
    # the full suite's withheld calibration intervals warn on every run: the timings are
    # what this script reports
    warnings.simplefilter("ignore")
    if args.quick:
        bench_small([300], 200)
        bench_paired(10**5)
        return
    parts = set(args.part or [1, 2, 3])
    if 1 in parts:
        bench_small([300, 1000, 10_000], 2000)
    if 3 in parts:
        bench_paired(10**6)
    if 2 in parts:
        bench_large(10**6, 1000, args.n_jobs)


if __name__ == "__main__":
    main()
