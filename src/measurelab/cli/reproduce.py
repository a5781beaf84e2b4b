"""``measurelab reproduce NAME``: run a paper reproduction (or ``all``, or ``--list``).

Every reproduction is found through :data:`measurelab.experiments.REPRODUCTIONS`; it returns
an :class:`~measurelab.experiments._report.Report`, which is printed and written (Markdown,
CSV, figures) to ``--out`` (default ``out/reproduce/NAME``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from measurelab._validation import MeasurelabError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "reproduce",
        help="reproduce a paper's tables",
        description="Reproduce a paper's tables and figures: prints the paper's numbers "
        "beside ours and writes Markdown + CSV + figures.",
    )
    p.add_argument("name", nargs="?", metavar="NAME",
                   help="a reproduction (see --list) or 'all'")
    p.add_argument("--list", action="store_true", help="list the reproductions, one a line")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default out/reproduce/NAME)")
    p.add_argument("--quick", action="store_true", help="a smaller, faster version")
    p.add_argument("--full", action="store_true", help="the largest version")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    return p


def run(args: argparse.Namespace) -> int:
    from measurelab import experiments

    if args.list:
        for name in experiments.available():
            print(name)
        return 0
    if not args.name:
        raise MeasurelabError("name a reproduction, 'all', or use --list")
    if args.quick and args.full:
        raise MeasurelabError("--quick and --full exclude each other")
    names = experiments.available() if args.name == "all" else [args.name]
    progress = not args.no_progress and sys.stderr.isatty()
    for name in names:
        fn = experiments.get(name)
        if args.out is None:
            out = Path("out") / "reproduce" / name
        else:
            out = args.out / name if args.name == "all" else args.out
        t0 = time.perf_counter()
        from measurelab._progress import heartbeat

        with heartbeat(f"measurelab reproduce: {name}", enabled=not args.no_progress):
            report = fn(out, quick=args.quick, full=args.full, progress=progress)
        report.print()
        written = report.write(out)
        print(f"[{name}] wrote {len(written)} files to {out} "
              f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0
