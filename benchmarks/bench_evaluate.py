"""Benchmark: ``measurelab.evaluate`` of the full binary suite vs scikit-learn and a sort.

Two kinds of scores, each at 10**6 and 10**7 predictions (``--sizes``), timed side by side
in one process:

* **distinct** — model-like scores: the logistic of a normal with a class shift (30 %
  positives), every score distinct, as logistic regression, boosting or a neural net
  give;
* **tied** — uniform scores rounded to 3 decimals (about a thousand distinct values),
  labels drawn so the score is calibrated.

For each we time:

* ``measurelab.evaluate(y, s)`` — every registered binary measure ("all");
* ``measurelab.evaluate`` of the six measures scikit-learn is timed on ("six");
* scikit-learn's ``roc_auc_score + average_precision_score + log_loss + accuracy_score +
  f1_score + matthews_corrcoef``;
* torchmetrics' binary AUROC + average precision on CPU, when torchmetrics is installed;
* ``np.sort(s)``, the floor for anything that ranks the scores;
* the score-table build alone, and (distinct, 10**6) one bootstrap replicate: the whole
  suite on a reweighted score table (integer weights, zero rows dropped).

The six shared values must agree with scikit-learn within 1e-9 (checked here). Targets:
all measures >= 10x faster than scikit-learn's six and <= 6x one ``np.sort`` on distinct
scores; >= 40x faster than scikit-learn on tied scores; the score-table build <= 2x one
``np.sort``; a bootstrap replicate at 10**6 in about 40 ms.

Per measure (distinct scores, each size): the statistics are built and the compiled walk
primed outside the timing, then each measure of the default set is timed in registry
order on the same statistics, as ``evaluate`` runs them (measures that share work — ICI,
E50, E90 and Emax share one loess; the four CORP parts one PAV — charge it to the first),
and printed as a ratio to one ``np.sort`` with the measure's declared cost: where the
time of the default set goes. The measures computed only when named (the operating point,
the confusion-matrix catalogue: weighted kappas, Scott's π, Gwet's AC1, DOR, ...) are
timed the same way on a line of their own: they cost the default set nothing. Then
:data:`NAMED_ONLY` (the calibration slope and intercept, a Newton fit on the score table):
that they are outside the default set, so ``evaluate(y, s)`` does not pay for them being
registered, and what naming them adds.

Run: ``.venv/bin/python benchmarks/bench_evaluate.py [--quick] [--sizes N ...] [--repeat R]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

SIX = ["auc", "ap", "mxe", "acc", "f1", "mcc"]
#: registered measures outside the default set whose cost the benchmark prints (issue 44)
NAMED_ONLY = ["cal_slope", "cal_intercept"]


def _best_time(f: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def make_tied(n: int, decimals: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels drawn so that the score is calibrated; scores rounded to ``decimals``."""
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n), decimals)
    y = (rng.random(n) < s).astype(np.int64)
    return y, s


def make_distinct(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Model-like scores: logistic of a normal shifted by 1.5 for the positives (30 %)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.5 * y - 1.0)))
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


def torchmetrics_suite(y: np.ndarray, s: np.ndarray) -> Callable[[], Any] | None:
    """AUROC + AP of torchmetrics on CPU tensors, or None when it is not installed."""
    try:
        import torch
        from torchmetrics.functional.classification import (
            binary_auroc,
            binary_average_precision,
        )
    except ImportError:
        return None
    ts, ty = torch.from_numpy(s), torch.from_numpy(y)
    return lambda: (binary_auroc(ts, ty), binary_average_precision(ts, ty))


def bootstrap_replicate_time(y: np.ndarray, s: np.ndarray, repeat: int) -> tuple[float, float]:
    """Seconds for one replicate, (reweighting, evaluation): draw integer case weights
    (resampling with replacement), drop zero rows, then evaluate every measure on the
    reweighted score table."""
    import measurelab as ml
    from measurelab.measures.compute import compute_measures
    from measurelab.stats.bundle import BinaryStats
    from measurelab.stats.scoretable import ScoreTable

    base = ScoreTable.from_arrays(y.astype(bool), s)  # distinct: one case per row
    measures = [m.name for m in ml.registry]
    rng = np.random.default_rng(1)

    def reweight() -> ScoreTable:
        w = np.bincount(rng.integers(0, base.size, base.size), minlength=base.size)
        keep = np.flatnonzero(w)
        wk = w[keep].astype(np.float64)
        return ScoreTable(base.scores[keep], base.pos[keep] * wk, base.neg[keep] * wk)

    def evaluate(t: ScoreTable) -> Any:
        return compute_measures(BinaryStats(table=ScoreTable(t.scores, t.pos, t.neg),
                                            threshold=0.5), measures)

    for _ in range(3):  # the compiled walk loads after a few large tables
        evaluate(reweight())
    t_w, table = _best_time(reweight, repeat)
    t_e, _ = _best_time(lambda: evaluate(table), repeat)
    return t_w, t_e


def per_measure_times(y: np.ndarray, s: np.ndarray, repeat: int,
                      named: bool = False) -> dict[str, float]:
    """Seconds of each default-set measure (best of ``repeat``), in registry order on one
    set of statistics primed outside the timing (as ``evaluate`` computes them); the
    priming itself, the compiled walk whose sums the rank measures, Brier and ECE read,
    under ``"(walk)"``. ``named``: instead the measures computed only when named (not
    'heavy': the operating point, the confusion-matrix catalogue), each as ``evaluate``
    computes it when asked for."""
    import warnings

    import measurelab as ml
    from measurelab.measures import _fused
    from measurelab.metrics.evaluation import build_stats

    best: dict[str, float] = {}
    for _ in range(repeat):
        stats = build_stats(y, s)
        chosen = [m for m in ml.registry if m.applies_to(stats) and (
            (m.when_named and m.cost != "heavy") if named else m.in_default_set)]
        t0 = time.perf_counter()
        _fused.prime(stats, chosen)
        best["(walk)"] = min(best.get("(walk)", float("inf")), time.perf_counter() - t0)
        for m in chosen:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                m.compute(stats)
                dt = time.perf_counter() - t0
            best[m.name] = min(best.get(m.name, float("inf")), dt)
    return best


def print_per_measure(times: dict[str, float], t_sort: float,
                      what: str = "per measure") -> None:
    import measurelab as ml

    walk = times.pop("(walk)", float("nan"))
    print(f"  {what}, x one np.sort (declared cost); all {len(times)} together "
          f"{sum(times.values()) / t_sort:.2f}x, besides the compiled walk they share "
          f"{walk / t_sort:.2f}x:")
    items = sorted(times.items(), key=lambda kv: -kv[1])
    cells = [f"{k:>20} {v / t_sort:5.2f}x {_short(v)} ({ml.registry.get(k).cost})"
             for k, v in items]
    for i in range(0, len(cells), 3):
        print("   " + "".join(f"{c:<44}" for c in cells[i:i + 3]).rstrip())


def _short(seconds: float) -> str:
    """A duration in µs, ms or s, seven characters wide."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:5.0f}µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:5.1f}ms"
    return f"{seconds:6.2f}s"


def print_named_only(y: np.ndarray, s: np.ndarray, t_all: float, t_sort: float,
                     repeat: int) -> None:
    """The default set without and with :data:`NAMED_ONLY` named: they are not in it, so
    ``evaluate(y, s)`` is the same work whether they are registered or not."""
    import warnings

    import measurelab as ml

    default = [m.name for m in ml.registry if m.in_default_set]
    inside = [k for k in NAMED_ONLY if k in default]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_named, _ = _best_time(lambda: ml.evaluate(y, s, measures=default + NAMED_ONLY),
                                repeat)
        alone = {k: _best_time(lambda k=k: ml.evaluate(y, s, measures=[k]), repeat)[0]
                 for k in NAMED_ONLY}
    print(f"  named only ({', '.join(NAMED_ONLY)}; cost "
          f"{'/'.join(sorted({ml.registry.get(k).cost for k in NAMED_ONLY}))}): in the default "
          f"set {inside or 'none'}; evaluate(y, s) {t_all / t_sort:.2f}x sort, with them "
          f"named {t_named / t_sort:.2f}x; alone " + ", ".join(
              f"{k} {v / t_sort:.2f}x" for k, v in alone.items()))


def run_case(kind: str, n: int, repeat: int) -> dict[str, float]:
    import measurelab as ml
    from measurelab.stats.scoretable import ScoreTable

    y, s = make_distinct(n) if kind == "distinct" else make_tied(n)
    yb = y.astype(bool)
    # load the compiled code (numba, cached on disk) outside the timings
    import measurelab._kernels.fused
    import measurelab._kernels.scoretable

    ml.evaluate(y[:5000], s[:5000])
    t_sort, _ = _best_time(lambda: np.sort(s), repeat)
    t_build, _ = _best_time(lambda: ScoreTable.from_arrays(yb, s), repeat)
    t_all, res = _best_time(lambda: ml.evaluate(y, s), repeat)
    t_six, res6 = _best_time(lambda: ml.evaluate(y, s, measures=SIX), repeat)
    t_sk, ref = _best_time(lambda: sklearn_suite(y, s), max(1, repeat - 1))
    worst = 0.0
    for k, v in ref.items():
        for got in (res[k], res6[k]):
            diff = abs(float(got) - float(v))
            worst = max(worst, diff)
            assert diff <= 1e-9, f"{kind} n={n} {k}: measurelab {got!r} != scikit-learn {v!r}"
    tm = torchmetrics_suite(y, s)
    t_tm = _best_time(tm, max(1, repeat - 1))[0] if tm is not None else float("nan")
    print(f"\n{kind} scores, n = {n:,} ({np.unique(s).size:,} distinct, "
          f"{int(y.sum()):,} positives)")
    print(f"  np.sort                         {t_sort:8.3f} s")
    print(f"  score-table build               {t_build:8.3f} s  {t_build / t_sort:5.2f}x sort"
          "  (target <= 2x on distinct)")
    print(f"  measurelab all ({len(res)} measures)   {t_all:8.3f} s  {t_all / t_sort:5.2f}x sort"
          f"  {t_sk / t_all:6.1f}x faster than scikit-learn's six")
    print(f"  measurelab six                  {t_six:8.3f} s  {t_six / t_sort:5.2f}x sort"
          f"  {t_sk / t_six:6.1f}x faster than scikit-learn's six")
    print(f"  scikit-learn six                {t_sk:8.3f} s  {t_sk / t_sort:5.2f}x sort")
    if tm is not None:
        print(f"  torchmetrics AUROC + AP (CPU)   {t_tm:8.3f} s  {t_tm / t_sort:5.2f}x sort")
    else:
        print("  torchmetrics                    not installed")
    print(f"  largest difference from scikit-learn: {worst:.2e}")
    if kind == "distinct":
        ok = t_all <= 6 * t_sort and t_sk >= 10 * t_all
        print(f"  issue 28 targets (all measures <= 6x sort, >= 10x scikit-learn's six): "
              f"{t_all / t_sort:.2f}x sort, {t_sk / t_all:.1f}x -> {'met' if ok else 'MISSED'}")
        print_per_measure(per_measure_times(y, s, repeat), t_sort)
        print_per_measure(per_measure_times(y, s, repeat, named=True), t_sort,
                          "computed only when named (not in the default set above)")
    print_named_only(y, s, t_all, t_sort, repeat)
    return {"sort": t_sort, "build": t_build, "all": t_all, "six": t_six, "sk": t_sk}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    ap.add_argument("--quick", action="store_true", help="one size, 10**5 (a smoke run)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bootstrap-n", type=int, default=10**6,
                    help="rows of the distinct table of the bootstrap replicate timing")
    args = ap.parse_args(argv)
    sizes = [10**5] if args.quick else args.sizes
    boot_n = 10**5 if args.quick else args.bootstrap_n

    for n in sizes:
        for kind in ("distinct", "tied"):
            run_case(kind, n, args.repeat)
    y, s = make_distinct(boot_n)
    t_w, t_e = bootstrap_replicate_time(y, s, args.repeat)
    t_sort, _ = _best_time(lambda: np.sort(s), args.repeat)
    print(f"\nbootstrap replicate (distinct, n = {boot_n:,}): reweighting {t_w * 1e3:.1f} ms, "
          f"all measures {t_e * 1e3:.1f} ms ({t_e / t_sort:.1f}x sort); "
          f"B = 1000 in about {(t_w + t_e) * 1000:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
