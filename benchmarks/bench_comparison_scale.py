"""Benchmark: a default 2-model comparison at the scale models are evaluated (issue 41).

A synthetic binary test set (prevalence ~0.3, two models' logistic scores, float64) of
``--rows`` cases (default 10**6 and 10**7). In one process, per size: one ``np.sort`` of a
model's scores (the anchor), then ``compare_classifiers(y, models, progress=False)`` with
the default measures and its ``intervals()``, ``tests()``, ``summary()`` and
``to_dict()``, each timed; the total and the ratio total / sort; the peak resident memory
(``getrusage`` ``ru_maxrss``, and the peak over the memory held before the comparison —
``VmHWM`` after resetting it — beside the size of the input arrays).

``summary()`` is timed twice: its calibration sentence (the test of calibration by
consistency resampling, ``_report.calibration_sentence``) apart, and the rest of the
summary without it; ``--calibration`` runs the calibration sentence too (slow at 10**7),
otherwise it is skipped and the total is quoted without it.

Targets (10**7 rows): total (intervals, tests, summary) at most 30x one sort, peak RSS at
most 1.5 GB; 10**6 rows proportionally faster. A comparison of 1,000 rows runs first, so
the imports and first-call costs are timed apart (``--cold``: skip it, and the first
comparison pays them).

Run: ``.venv/bin/python benchmarks/bench_comparison_scale.py [--rows 1000000 10000000]``
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import numpy as np

T_START = time.perf_counter()
import measurelab as ml  # noqa: E402  (timed)
from measurelab.inference.classifiers import _report  # noqa: E402

T_IMPORT = time.perf_counter() - T_START
MB = 2**20


def _data(n: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Labels (int64, ~30 % positive) and two models' logistic scores, made in chunks of
    10**6 rows so that making them leaves no large temporaries behind."""
    g = np.random.default_rng(seed)
    y = np.empty(n, dtype=np.int64)
    ms = {"m0": np.empty(n), "m1": np.empty(n)}
    step = 10**6
    for i in range(0, n, step):
        m = min(step, n - i)
        yy = g.random(m) < 0.3
        base = g.normal(size=m)
        y[i:i + m] = yy
        for (_name, s), mu in zip(ms.items(), (1.6, 1.3), strict=True):
            s[i:i + m] = 1 / (1 + np.exp(-(mu * yy + 0.6 * base + g.normal(0, 0.8, m) - 1)))
    return y, ms


def _status(key: str) -> float:
    """A field of /proc/self/status in MB (NaN elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return float(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _reset_peak() -> bool:
    """Reset the peak RSS (VmHWM) of this process to its current RSS (Linux)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _timed(label: str, fn, times: dict[str, float]):
    t0 = time.perf_counter()
    out = fn()
    times[label] = time.perf_counter() - t0
    return out


def run(n: int, calibration: bool, quiet: bool = False) -> None:
    y, ms = _data(n)
    inputs = (y.nbytes + sum(s.nbytes for s in ms.values())) / MB
    t0 = time.perf_counter()
    np.sort(ms["m0"])
    t_sort = time.perf_counter() - t0
    base = _status("VmRSS")
    reset = _reset_peak()
    times: dict[str, float] = {}
    r = _timed("compare_classifiers", lambda: ml.compare_classifiers(y, ms, progress=False),
               times)
    _timed("intervals()", r.intervals, times)
    _timed("tests()", r.tests, times)
    real = _report.calibration_sentence
    _report.calibration_sentence = lambda cmp: ""
    try:
        _timed("summary() without calibration", r.summary, times)
    finally:
        _report.calibration_sentence = real
    if calibration:
        _timed("calibration sentence", lambda: real(r), times)
    _timed("to_dict()", r.to_dict, times)
    peak = _status("VmHWM")
    if quiet:
        return
    total = sum(times.values())
    no_cal = total - times.get("calibration sentence", 0.0)
    print(f"{n:,} rows, 2 models, default measures ({', '.join(r.values().index)}); "
          f"inputs {inputs:.0f} MB")
    print(f"  np.sort of one model's scores  {t_sort:7.3f} s   (the anchor)")
    for k, v in times.items():
        print(f"  {k:31s} {v:7.3f} s   {v / t_sort:6.1f}x sort")
    print(f"  total{' (with calibration)' if calibration else '':26s}{total:8.3f} s   "
          f"{total / t_sort:6.1f}x sort")
    if calibration:
        print(f"  total without calibration       {no_cal:7.3f} s   {no_cal / t_sort:6.1f}x sort")
    print("  (target at 10**7 rows: <= 30x sort without the calibration test)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak RSS of the process so far (ru_maxrss) {rss:7.0f} MB (target <= 1536 MB)")
    if reset:
        print(f"  peak RSS during the comparison {peak:7.0f} MB = {base:.0f} MB before it "
              f"(inputs {inputs:.0f} MB) + {peak - base:.0f} MB "
              f"({(peak - base) / inputs:.1f}x the inputs)")
    print(flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[10**6, 10**7])
    ap.add_argument("--calibration", action="store_true",
                    help="also time the calibration sentence of summary()")
    ap.add_argument("--cold", action="store_true",
                    help="no 1,000-row comparison first: the first size pays the imports")
    args = ap.parse_args(argv)
    print(f"import measurelab: {T_IMPORT:.2f} s")
    if not args.cold:
        t0 = time.perf_counter()
        run(1000, args.calibration, quiet=True)
        print(f"1,000-row comparison first (imports, first calls): "
              f"{time.perf_counter() - t0:.2f} s\n")
    for n in args.rows:
        run(n, args.calibration)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
