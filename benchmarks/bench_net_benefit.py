"""Benchmark: decision curves by measurelab and by dcurves (the anchor), in one process.

Cases: n = 500, 5,000 and 50,000 cases, two models, the 99 thresholds 0.01–0.99 (dcurves'
grid); measurelab's ``curves.decision_curve`` per model against ``dcurves.dca`` on a
DataFrame of both models (which also computes treat-all and treat-none). Reports the best
of a few runs of each, their ratio (dcurves / measurelab), and the largest difference of
the net benefits. Then the bootstrap of net benefit at the 99 thresholds inside a
comparison (2,000 replicates, two models) and the analytic power (``power_roc_test``), for
scale (no anchor runs either in Python).

Run: ``.venv/bin/python benchmarks/bench_net_benefit.py [--quick]``
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np


def _best(f, reps: int) -> tuple[object, float]:
    best, out = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return out, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 500 and 5,000 only")
    args = ap.parse_args(argv)
    import dcurves
    import pandas as pd

    import measurelab as ml
    from measurelab.inference import power_roc_test

    thresholds = [i / 100 for i in range(1, 100)]
    sizes = (500, 5_000) if args.quick else (500, 5_000, 50_000)
    print(f"{'cases':>8} {'measurelab s':>13} {'dcurves s':>10} {'ratio':>7} {'max |diff|':>11}")
    for n in sizes:
        g = np.random.default_rng(n)
        y = g.random(n) < 0.3
        a = 1 / (1 + np.exp(-(g.normal(size=n) + 1.5 * y - 1.2)))
        b = np.clip(a + g.normal(0, 0.1, n), 0.001, 0.999)
        df = pd.DataFrame({"y": y.astype(int), "a": a, "b": b})

        def ours(y=y, a=a, b=b):
            return [ml.curves.decision_curve(y, s, thresholds=thresholds) for s in (a, b)]

        def theirs(df=df):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return dcurves.dca(data=df, outcome="y", modelnames=["a", "b"],
                                   thresholds=thresholds)

        mine, t_ours = _best(ours, 5)
        ref, t_ref = _best(theirs, 3 if n < 50_000 else 1)
        diff = 0.0
        for name, dc in zip("ab", mine, strict=True):
            want = ref[ref.model == name].sort_values("threshold")["net_benefit"].to_numpy()
            diff = max(diff, float(np.max(np.abs(dc.net_benefit - want))))
        print(f"{n:>8} {t_ours:>13.4f} {t_ref:>10.3f} {t_ref / t_ours:>7.0f} {diff:>11.1e}")
    n = 1000
    g = np.random.default_rng(1)
    y = g.random(n) < 0.3
    a = 1 / (1 + np.exp(-(g.normal(size=n) + 1.5 * y - 1.2)))
    b = np.clip(a + g.normal(0, 0.1, n), 0.001, 0.999)
    cmp = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["auc"], progress=False)
    _, t_nb = _best(lambda: ml.compare_classifiers(
        y, {"a": a, "b": b}, measures=["auc"], progress=False).net_benefit(), 3)
    print(f"net benefit of a comparison ({n} cases, 2 models, {cmp.n_boot} replicates, "
          f"104 thresholds, intervals, differences, bands): {t_nb:.2f} s")
    _, t_pw = _best(lambda: power_roc_test(auc=0.73, ncases=41, ncontrols=72), 20)
    print(f"power_roc_test (one curve): {1e6 * t_pw:.0f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
