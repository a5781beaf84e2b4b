"""Benchmark: the operating-point measures against the AUC on the same data (issue 42).

Case: n = 10⁷ distinct scores (binormal, 30% positives; ``--n`` to change). Times
``evaluate(y, s, measures=["auc"])`` and ``evaluate(y, s, measures=[the four
operating-point measures, "spauc@0.2"])`` — each from the raw arrays, so both pay the one
sort that builds the score table — and reports the best of ``--repeat`` runs of each and
their ratio (the issue's goal: within 1.5×). Then the measures alone on a table already
built (what they add to the sort), and scikit-learn's ``roc_auc_score(max_fpr=0.2)`` on the
same data for scale, with the largest difference from ``spauc@0.2``.

Run: ``.venv/bin/python benchmarks/bench_operating_point.py [--n 10000000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

OPERATING = ["sens_at_spec@0.9", "spec_at_sens@0.9", "prec_at_recall@0.8",
             "recall_at_prec@0.8", "spauc@0.2"]


def _best(f, reps: int) -> tuple[object, float]:
    best, out = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return out, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000, help="cases (distinct scores)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    ap.add_argument("--no-sklearn", action="store_true", help="skip scikit-learn")
    args = ap.parse_args(argv)

    import measurelab as ml
    from measurelab.measures.compute import compute_measures
    from measurelab.stats.bundle import BinaryStats

    g = np.random.default_rng(0)
    n = args.n
    y = g.random(n) < 0.3
    s = g.normal(1.0 * y, 1.0)
    assert np.unique(s).size == n, "the scores must be distinct"
    ml.evaluate(y[:1000], s[:1000], measures=["auc", *OPERATING])  # imports, warm caches

    auc, t_auc = _best(lambda: ml.evaluate(y, s, measures=["auc"]), args.repeat)
    ops, t_ops = _best(lambda: ml.evaluate(y, s, measures=OPERATING), args.repeat)
    _both, t_both = _best(lambda: ml.evaluate(y, s, measures=["auc", *OPERATING]),
                         args.repeat)
    print(f"n = {n:,} distinct scores, best of {args.repeat}")
    print(f"{'evaluate(measures=...)':<44} {'s':>7} {'vs auc':>7}")
    print(f"{'auc':<44} {t_auc:>7.3f} {1.0:>7.2f}")
    print(f"{'the four operating-point measures + spauc@0.2':<44} {t_ops:>7.3f} "
          f"{t_ops / t_auc:>7.2f}")
    print(f"{'auc and the five together':<44} {t_both:>7.3f} {t_both / t_auc:>7.2f}")

    # the measures alone, on a table already built (the sort is shared)
    table = ml.ScoreTable.from_arrays(y, s)

    def alone() -> dict[str, float]:
        t = ml.ScoreTable(table.scores, table.pos, table.neg)  # fresh memo
        return dict(compute_measures(BinaryStats(table=t), OPERATING))

    _, t_alone = _best(alone, args.repeat)

    def auc_alone() -> dict[str, float]:
        t = ml.ScoreTable(table.scores, table.pos, table.neg)
        return dict(compute_measures(BinaryStats(table=t), ["auc"]))

    _, t_auc_alone = _best(auc_alone, args.repeat)
    print(f"on a built table: auc {t_auc_alone:.3f} s, the five {t_alone:.3f} s")
    for k, v in ops.items():
        print(f"  {k} = {v:.6f}")
    print(f"  auc = {auc['auc']:.6f}")
    if not args.no_sklearn:
        from sklearn.metrics import roc_auc_score

        ref, t_sk = _best(lambda: roc_auc_score(y, s, max_fpr=0.2), 1)
        print(f"scikit-learn roc_auc_score(max_fpr=0.2): {t_sk:.3f} s, "
              f"|diff| from spauc@0.2 = {abs(ref - ops['spauc@0.2']):.1e}")
    print(f"ratio (goal <= 1.5): {t_ops / t_auc:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
