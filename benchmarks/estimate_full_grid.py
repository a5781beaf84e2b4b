"""Estimate the run time of ``measurelab study --grid full`` on the paper's four problems
by timing a seeded sample of its units (not a benchmark against an anchor; not run by
``make bench``).

For each algorithm, ``--per-algo`` units are drawn at random (seed 0) from the full grid of
one problem and trained as the study trains them (4,000 training, 1,000 validation and up to
20,000 test cases, one thread per unit). The estimate per problem is Σ over algorithms of
(mean seconds of its sampled units × its number of units); the study runs units on
``--workers`` processes, so wall time ≈ total / workers. Prints one line per sampled unit and
the estimate.

    python benchmarks/estimate_full_grid.py --problem adult --per-algo 2
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from measurelab.lab.study.problems import PAPER_PROBLEMS, load_problem, make_split, prepare
from measurelab.lab.study.zoo import fit_unit, grid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--problem", default="adult")
    ap.add_argument("--per-algo", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    prob = load_problem(args.problem)
    data = prepare(prob, make_split(prob.y, seed=args.seed))
    units = grid("full", args.problem)
    by_algo = defaultdict(list)
    for u in units:
        by_algo[u.algo].append(u)
    rng = random.Random(args.seed)
    total = 0.0
    print(f"{args.problem}: {len(units)} units, "
          f"{sum(u.n_models for u in units)} models in the full grid")
    for algo, us in by_algo.items():
        sample = rng.sample(us, min(args.per_algo, len(us)))
        secs = []
        for u in sample:
            t0 = time.perf_counter()
            fit_unit(u, data, args.seed)
            secs.append(time.perf_counter() - t0)
            print(f"  {u.id}: {secs[-1]:.1f} s ({u.n_models} models)", flush=True)
        est = sum(secs) / len(secs) * len(us)
        total += est
        print(f"{algo}: {len(us)} units, mean {sum(secs) / len(secs):.1f} s "
              f"-> {est / 60:.1f} min", flush=True)
    n_prob = len(PAPER_PROBLEMS)
    print(f"estimate for one problem: {total / 3600:.2f} CPU hours; for the {n_prob} "
          f"problems: {n_prob * total / 3600:.2f} CPU hours, about "
          f"{n_prob * total / 3600 / args.workers:.1f} h wall on {args.workers} workers")


if __name__ == "__main__":
    main()
