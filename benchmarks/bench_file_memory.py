"""Benchmark: ``measurelab evaluate FILE --json`` on a 10**7-line perf-style file.

Writes ``target prediction`` lines to a temporary folder — scores with ``--decimals``
decimals (tied, as a model's output is often printed), or with ``--decimals 0`` full
precision model-like scores (every score distinct: logistic of a normal with a class
shift, 30 % positives) — runs the command line in a subprocess, and reports its wall time
and peak resident memory (``getrusage(RUSAGE_CHILDREN).ru_maxrss``). The values must
equal ``measurelab.evaluate`` of the same arrays in memory (the file holds the exact
decimal text of each score, so the parsed floats are identical).

Also timed in this process, for the ratio: parsing the file with pyarrow's CSV reader and
``measurelab.evaluate`` of the arrays in memory; and, in a subprocess, the peak memory of
``measurelab.evaluate`` on the arrays (over the memory of the process holding them).
Targets (distinct scores): file peak <= 700 MB, file time <= 2x (in-memory evaluation +
parsing), in-memory evaluation <= 6x the input arrays.

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
            if decimals > 0:
                s = np.round(rng.random(m), decimals)
                y = (rng.random(m) < s).astype(np.int8)
            else:  # model-like, every score distinct
                y = (rng.random(m) < 0.3).astype(np.int8)
                s = 1.0 / (1.0 + np.exp(-(rng.normal(size=m) + 1.5 * y - 1.0)))
            writer.write_table(pa.table({"y": y, "s": s}))
            y_all.append(y)
            s_all.append(s)
    # floats are written in their shortest round-trip form, so parsing the text gives
    # exactly these scores back
    return np.concatenate(y_all), np.concatenate(s_all)


_MEMORY_CHILD = """
import sys, numpy as np, measurelab as ml
import measurelab._kernels.fused, measurelab._kernels.scoretable
def hwm():  # peak RSS of this process image (ru_maxrss would include the parent's)
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return float(line.split()[1]) / 1024
y, s = np.load(sys.argv[1]), np.load(sys.argv[2])
ml.evaluate(y[:5000], s[:5000])
base = hwm()
ml.evaluate(y, s)
print(base, hwm())
"""


def _evaluate_memory(y: np.ndarray, s: np.ndarray) -> tuple[float, float, float]:
    """Peak RSS (MB) of ``measurelab.evaluate(y, s)`` in a fresh process, the RSS before
    it (arrays loaded, compiled code loaded) and the size of the arrays (MB)."""
    with tempfile.TemporaryDirectory() as tmp:
        fy, fs = Path(tmp) / "y.npy", Path(tmp) / "s.npy"
        np.save(fy, y)
        np.save(fs, s)
        out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(fy), str(fs)],
                             capture_output=True, text=True, check=True).stdout.split()
    return float(out[1]), float(out[0]), (y.nbytes + s.nbytes) / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--decimals", type=int, default=0,
                    help="decimals of the scores; 0: full precision (distinct scores)")
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

        import pyarrow as pa
        import pyarrow.csv as pacsv

        t0 = time.perf_counter()
        pacsv.read_csv(str(path), read_options=pacsv.ReadOptions(column_names=["y", "s"]),
                       parse_options=pacsv.ParseOptions(delimiter=" "),
                       convert_options=pacsv.ConvertOptions(
                           column_types={"y": pa.float64(), "s": pa.float64()}))
        t_parse = time.perf_counter() - t0
    import measurelab._kernels.fused
    import measurelab._kernels.scoretable

    ml.evaluate(y[:5000], s[:5000])
    t0 = time.perf_counter()
    want = ml.evaluate(y, s).to_dict()
    t_mem = time.perf_counter() - t0
    mem_peak, mem_base, arrays = _evaluate_memory(y, s)
    assert set(got) == set(want), (set(got) ^ set(want))
    # unweighted counts merge exactly, so every value is identical bit for bit
    for k, v in want.items():
        assert got[k] == v, (k, got[k], v)
    print(f"measurelab evaluate --json: {wall:.2f} s wall, peak RSS {peak_mb:.0f} MB "
          f"(target <= 700 MB)")
    print(f"  pyarrow parse {t_parse:.2f} s + in-memory evaluate {t_mem:.2f} s: file time "
          f"{wall / (t_parse + t_mem):.2f}x their sum (target <= 2x)")
    print(f"in-memory evaluate: peak {mem_peak:.0f} MB over {mem_base:.0f} MB holding the "
          f"arrays ({arrays:.0f} MB): {(mem_peak - mem_base) / arrays:.1f}x the input "
          "(target <= 6x)")
    print(f"all {len(want)} values identical to in-memory evaluation of the same arrays")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
