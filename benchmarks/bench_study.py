"""Wall time of the metric-space study with one and with two local workers.

Runs the same study (default: the quick grid on the paper's four public problems, ADULT,
COVER_TYPE, LETTER.p1, LETTER.p2, 4,000 / 1,000 / 20,000 cases) twice from scratch in
fresh folders — once in this process (``workers=1``) and once with two local worker
processes — checks that both stores hold identical measures, and prints:

* wall time of each run and the ratio (1 worker / 2 workers);
* time spent training vs evaluating (the ten measures of each model on the validation and
  test splits), summed over units as measured inside the workers, and the rest of the wall
  time of the one-worker run (loading and splitting the problems, writing the store).

Usage::

    nice .venv/bin/python benchmarks/bench_study.py                       # quick, 4 problems
    nice .venv/bin/python benchmarks/bench_study.py --problems letter.p1 letter.p2
    nice .venv/bin/python benchmarks/bench_study.py --grid tiny --problems sonar

This is a script, not a test: the figures depend on the machine and its load (the load
average is printed; on a shared 2-CPU machine other work makes the 2-worker figure noisy).
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

import pandas as pd

from measurelab.lab.study import run_study
from measurelab.lab.study.problems import PAPER_PROBLEMS


def _run(problems: list[str], grid: str, out: Path, workers: int) -> dict[str, float]:
    t0 = time.perf_counter()
    r = run_study(problems, out=out, grid_name=grid, workers=workers, progress=False)
    wall = time.perf_counter() - t0
    return {"workers": workers, "models": r.n_models, "wall_s": wall,
            "train_s": r.train_seconds, "eval_s": r.eval_seconds,
            "other_s": wall - r.train_seconds - r.eval_seconds, "measures": r.measures}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", nargs="+", default=list(PAPER_PROBLEMS))
    ap.add_argument("--grid", default="quick", choices=["tiny", "quick", "full"])
    args = ap.parse_args(argv)
    print(f"study benchmark: grid={args.grid}, problems={' '.join(args.problems)}")
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs visible, "
          f"load average {os.getloadavg()[0]:.2f}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_study_") as tmp:
        for w in (1, 2):
            res = _run(args.problems, args.grid, Path(tmp) / f"w{w}", w)
            rows.append(res)
            other = f", other {res['other_s']:.1f} s" if w == 1 else " summed over workers"
            print(f"  {w} worker(s): {res['wall_s']:.1f} s wall, {res['models']} models "
                  f"(train {res['train_s']:.1f} s, evaluate {res['eval_s']:.1f} s{other}); "
                  f"load average now {os.getloadavg()[0]:.2f}", flush=True)
    pd.testing.assert_frame_equal(rows[0]["measures"], rows[1]["measures"], check_exact=True)
    one, two = rows
    work = one["train_s"] + one["eval_s"]
    print(f"speed-up 1 -> 2 workers: {one['wall_s'] / two['wall_s']:.2f}x "
          f"(wall {one['wall_s']:.1f} s / {two['wall_s']:.1f} s)")
    print(f"time in units (1 worker): training {100 * one['train_s'] / work:.1f} %, "
          f"evaluating {100 * one['eval_s'] / work:.1f} %")
    print(f"share of the 1-worker wall time: training {100 * one['train_s'] / one['wall_s']:.1f}"
          f" %, evaluating {100 * one['eval_s'] / one['wall_s']:.1f} %, other (load, split, "
          f"store) {100 * one['other_s'] / one['wall_s']:.1f} %")
    print("the two stores hold identical measures")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
