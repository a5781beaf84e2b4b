"""Benchmark: comparing two classifiers on a Dask LocalCluster, 10**7 rows by default
(``--rows 1e8`` for issue 41's figure), in two passes over the partitions.

The cases are generated on the workers, one task per partition (seeded by the partition,
so pass two regenerates the very rows pass one saw, as it would re-read them from
storage): 30 % positives, two models' probabilities (a logistic of a normal with a class
shift) rounded to ``--decimals`` decimals (tied, as stored model outputs are; the score
tables hold at most 10**decimals + 1 rows). The comparison is what
``compare_classifiers(y, {"a": a, "b": b})`` of Dask collections runs (``compare_parts``
over the partitions, on the Dask scheduler of the cluster's Client), with the default
measures and methods (auc: DeLong; ap, brier, mxe: influence; f1, mcc: the posterior of the cells;
acc: Wilson and McNemar).

Printed: the wall time of each pass and of the whole comparison, the peak resident memory
of this process (the client: ``VmHWM``) and of every worker (``VmHWM`` through
``client.run``), and the answer. ``--check`` (default up to 2·10**7 rows) also builds all
the rows in this process, runs the one-machine comparison and asserts its JSON equals
the cluster's (values exactly, interval ends to 1e-9).

``--classes 3`` compares two k-class models instead (classes 50/30/20 %, each model's
probability row a softmax of normals with a shift at the true class, rounded to
``--decimals`` with the last class taking the rest): :func:`~measurelab.inference.
classifiers.multi_parts.compare_multi_parts`, the default measures and methods (acc: Wilson
and McNemar; f1, mcc, auc, mxe, brier: influence; ece: a description).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_distributed_compare.py
[--rows 1e8] [--parts P] [--workers 2] [--decimals 6] [--classes 3] [--check/--no-check]``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def make_part(index: int, n: int, seed: int, decimals: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels and two models' rounded probabilities of partition ``index``."""
    rng = np.random.default_rng([seed, index])
    y = rng.random(n) < 0.3
    sign = 2.0 * y - 1.0
    a = np.round(1.0 / (1.0 + np.exp(-rng.normal(1.2 * sign, 1.3))), decimals)
    b = np.round(1.0 / (1.0 + np.exp(-rng.normal(1.1 * sign, 1.3))), decimals)
    return y, a, b


def peak_mb() -> float:
    """This process's peak resident memory (MB), ``VmHWM``."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return float(line.split()[1]) / 1024
    return math.nan


def make_k_part(index: int, n: int, seed: int, decimals: int, k: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class indices and two models' rounded k-class probabilities of partition
    ``index``."""
    rng = np.random.default_rng([seed, index])
    share = np.array([0.5, 0.3, 0.2] if k == 3 else [1.0 / k] * k)
    y = rng.choice(k, n, p=share)
    out = []
    for skill in (1.4, 1.1):
        z = rng.normal(0.0, 1.0, (n, k))
        z[np.arange(n), y] += skill
        np.exp(z, out=z)
        z /= z.sum(axis=1, keepdims=True)
        z[:, :-1] = np.round(z[:, :-1], decimals)
        z[:, -1] = np.clip(1.0 - z[:, :-1].sum(axis=1), 0.0, 1.0)
        out.append(z)
    return y, out[0], out[1]


def make_tuple(index: int, n: int, seed: int, decimals: int, k: int = 2
               ) -> tuple[np.ndarray, list[np.ndarray], None]:
    """Partition ``index`` as a part of :func:`~measurelab.inference.classifiers.
    distributed.compare_parts` (or, k > 2, of ``compare_multi_parts``): ``(y, [a, b],
    None)``."""
    y, a, b = (make_part(index, n, seed, decimals) if k == 2 else
               make_k_part(index, n, seed, decimals, k))
    return y, [a, b], None


def dask_parts(sizes: list[int], seed: int, decimals: int, k: int = 2) -> list[Any]:
    """One Dask task per partition making its rows (where a real run reads its part of
    the storage); what ``compare_classifiers`` builds from Dask collections partitioned
    alike, without the three columns computed apart."""
    import dask

    return [dask.delayed(make_tuple, pure=True)(i, n, seed, decimals, k)
            for i, n in enumerate(sizes)]


def same_json(local: str, remote: str, tol: float = 1e-9) -> list[Any]:
    """Where the two JSON texts differ: values (``value``, ``diff``) exactly, other
    numbers beyond ``tol``."""
    bad: list[Any] = []

    def walk(x: Any, y: Any, path: list[Any]) -> None:
        if isinstance(x, dict):
            for k in x:
                walk(x[k], y.get(k), [*path, k])
        elif isinstance(x, list):
            for i, (u, v) in enumerate(zip(x, y, strict=True)):
                walk(u, v, [*path, i])
        elif isinstance(x, float) and isinstance(y, float):
            limit = 0.0 if path[-1] in ("value", "diff") else tol
            if abs(x - y) > limit:
                bad.append((path, x, y))
        elif x != y:
            bad.append((path, x, y))

    walk(json.loads(local), json.loads(remote), [])
    return bad


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=float, default=1e7, help="cases (default 1e7)")
    p.add_argument("--parts", type=int, default=None,
                   help="partitions (default: 2.5 million rows each, at least 4)")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--decimals", type=int, default=6, help="score decimals (default 6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--classes", type=int, default=2,
                   help="2: binary scores (default); 3 or more: k-class probabilities")
    p.add_argument("--check", action=argparse.BooleanOptionalAction, default=None,
                   help="also run on one machine and compare (default: up to 2e7 rows)")
    args = p.parse_args(argv)
    rows = int(args.rows)
    parts = args.parts or max(4, math.ceil(rows / 2_500_000))
    sizes = [rows // parts + (i < rows % parts) for i in range(parts)]
    check = args.check if args.check is not None else rows <= 20_000_000

    from distributed import Client, LocalCluster

    import measurelab as ml
    from measurelab.inference.classifiers import distributed as dist

    warnings.simplefilter("ignore")
    timings: list[float] = []

    def timed(task: Any, ps: Any, merge: Any, shared: tuple) -> Any:
        t0 = time.perf_counter()
        out = dist._dask_map_reduce(task, ps, merge, shared)
        timings.append(time.perf_counter() - t0)
        return out

    print(f"{rows:,} rows in {parts} partitions, {args.workers} workers (1 thread each), "
          f"scores to {args.decimals} decimals")
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, memory_limit=0) as cluster, \
            Client(cluster) as client:
        # warm the workers (imports, compiled kernels) on a small comparison first: a
        # cluster's workers are long-lived, their start-up is not the comparison's cost
        t0 = time.perf_counter()
        k = args.classes
        if k == 2:
            def compare(ps: list[Any]) -> Any:
                return dist.compare_parts(ps, ["a", "b"], map_reduce=timed)
        else:
            from measurelab.inference.classifiers.multi_parts import compare_multi_parts

            def compare(ps: list[Any]) -> Any:
                return compare_multi_parts(ps, ["a", "b"], labels=list(range(k)),
                                           indexed=True, map_reduce=timed)
        compare(dask_parts([20_000] * args.workers, args.seed + 1, args.decimals, k)
                ).to_json()
        print(f"workers warmed up in {time.perf_counter() - t0:.1f} s")
        timings.clear()
        base = peak_mb()
        t0 = time.perf_counter()
        # compare_classifiers(y, {"a": a, "b": b}) of Dask collections, each pass timed
        r = compare(dask_parts(sizes, args.seed, args.decimals, k))
        text = r.to_json()
        total = time.perf_counter() - t0
        workers = client.run(peak_mb)
    print(f"pass one (tables, joint cells): {timings[0]:.1f} s; pass two (influence and "
          f"placement sums): {timings[1] if len(timings) > 1 else 0:.1f} s; whole "
          f"comparison: {total:.1f} s")
    sizes_of = ([t.size for t in r._design.tables] if k == 2 else
                [s.size for st in r._all for s in st.table.scores])
    print(f"score tables: {', '.join(f'{x:,}' for x in sizes_of)} rows")
    print(f"peak memory: client {peak_mb():.0f} MB (before the comparison {base:.0f} MB); "
          "workers " + ", ".join(f"{v:.0f} MB" for v in workers.values()))
    print(r.intervals()[["model", "measure", "value", "lo", "hi", "method"]]
          .to_string(index=False))
    print(r.tests()[["measure", "diff", "lo", "hi", "p_holm", "method"]].to_string(index=False))
    if check:
        cols = [make_tuple(i, n, args.seed, args.decimals, k) for i, n in enumerate(sizes)]
        yy = np.concatenate([c[0] for c in cols])
        aa, bb = (np.concatenate([c[1][j] for c in cols]) for j in range(2))
        t0 = time.perf_counter()
        local = ml.compare_classifiers(yy, {"a": aa, "b": bb}).to_json()
        print(f"one machine: {time.perf_counter() - t0:.1f} s")
        bad = same_json(local, text)
        print("equal to the one-machine comparison (values exactly, intervals to 1e-9):",
              "yes" if not bad else f"NO: {bad[:3]}")
        return 0 if not bad else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
