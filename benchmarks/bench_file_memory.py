"""Benchmark: ``measurelab evaluate FILE --json`` on a 10**7-line perf-style file.

Writes ``target prediction`` lines (scores with 4 decimals, as a model's output usually is
printed) to a temporary folder, runs the command line in a subprocess, and reports its wall
time and peak resident memory (``getrusage(RUSAGE_CHILDREN).ru_maxrss``). The values must
equal ``measurelab.evaluate`` of the same arrays in memory (the file holds the exact
decimal text of each score, so the parsed floats are identical). Target: peak memory well
under 500 MB, whatever the number of lines.

Run: ``.venv/bin/python benchmarks/bench_file_memory.py [--n N] [--decimals D]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write_perf_file(
    path: Path, n: int, decimals: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Write ``n`` lines and return the labels and the scores as they will be parsed."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    y_all, s_all = [], []
    step = 10**6
    opts = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    with pacsv.CSVWriter(str(path), pa.schema([("y", pa.int8()), ("s", pa.float64())]),
                         write_options=opts) as writer:
        for start in range(0, n, step):
            m = min(step, n - start)
            s = np.round(rng.random(m), decimals)
            y = (rng.random(m) < s).astype(np.int8)
            writer.write_table(pa.table({"y": y, "s": s}))
            y_all.append(y)
            s_all.append(s)
    # floats are written in their shortest round-trip form, so parsing the text gives
    # exactly these scores back
    return np.concatenate(y_all), np.concatenate(s_all)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--decimals", type=int, default=4)
    args = ap.parse_args(argv)

    import measurelab as ml

    exe = Path(sys.executable).with_name("measurelab")
    cmd_base = [str(exe)] if exe.exists() else [sys.executable, "-m", "measurelab.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "preds.txt"
        t0 = time.perf_counter()
        y, s = write_perf_file(path, args.n, args.decimals)
        size = os.path.getsize(path)
        print(f"wrote {args.n:,} lines ({size / 1e6:.0f} MB) in {time.perf_counter() - t0:.1f} s")

        t0 = time.perf_counter()
        proc = subprocess.run([*cmd_base, "evaluate", str(path), "--json"],
                              capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 1
        got = json.loads(proc.stdout)

    want = ml.evaluate(y, s).to_dict()
    assert set(got) == set(want), (set(got) ^ set(want))
    # unweighted counts merge exactly, so every value is identical bit for bit
    for k, v in want.items():
        assert got[k] == v, (k, got[k], v)
    print(f"measurelab evaluate --json: {wall:.2f} s wall, peak RSS {peak_mb:.0f} MB "
          f"(target: well under 500 MB)")
    print(f"all {len(want)} values identical to in-memory evaluation of the same arrays")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
