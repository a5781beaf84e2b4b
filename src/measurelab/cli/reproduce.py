"""``measurelab reproduce NAME``: run a paper reproduction (or ``all``, or ``--list``).

Every reproduction is found through :data:`measurelab.lab.experiments.REPRODUCTIONS`; it returns
an :class:`~measurelab.lab.report.page.Report`, which is printed and written (Markdown,
CSV, HTML page, figures) to ``--out`` (default ``out/reproduce/NAME``). ``all`` writes each
into ``--out/NAME/`` and then the contents page ``--out/index.html`` (and ``index.md``); a
reproduction that raises is reported there and on stderr, and the others still run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from measurelab.cli._options import output_folder
from measurelab.exceptions import MeasurelabError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "reproduce",
        help="reproduce a paper's tables",
        description="Reproduce a paper's tables and figures: prints the paper's numbers "
        "beside ours and writes Markdown + CSV + figures.",
    )
    p.add_argument("name", nargs="?", metavar="NAME",
                   help="a reproduction (see --list) or 'all'")
    p.add_argument("--list", action="store_true",
                   help="list the reproductions: name, what, expected quick/full run time")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default out/reproduce/NAME)")
    p.add_argument("--quick", action="store_true", help="a smaller, faster version")
    p.add_argument("--full", action="store_true", help="the largest version")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    return p


def run(args: argparse.Namespace) -> int:
    from measurelab.lab import experiments

    if args.list:
        for name in experiments.available():
            print(experiments.describe(name))
        return 0
    if not args.name:
        raise MeasurelabError("name a reproduction, 'all', or use --list")
    if args.quick and args.full:
        raise MeasurelabError("--quick and --full exclude each other")
    every = args.name == "all"
    names = experiments.available() if every else [args.name]
    for name in names:
        experiments.get(name)  # an unknown name fails before anything is written
    if args.out is not None:
        args.out = output_folder(args.out, "--out")
    progress = not args.no_progress  # tqdm on a terminal, periodic lines in a log
    root = args.out if args.out is not None else Path("out") / "reproduce"
    reports, failed = [], {}
    for name in names:
        fn = experiments.get(name)
        if args.out is None:
            out = root / name
        else:
            out = args.out / name if every else args.out
        # the output folder first: a file in the way fails now, not after the work
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        from measurelab.progress import heartbeat

        try:
            with heartbeat(f"measurelab reproduce: {name}", enabled=not args.no_progress):
                report = fn(out, quick=args.quick, full=args.full, progress=progress)
        except Exception as exc:
            if not every:
                raise
            failed[name] = " ".join(f"{type(exc).__name__}: {exc}".split())
            print(f"[{name}] failed: {failed[name]}", file=sys.stderr)
            continue
        report.seconds = time.perf_counter() - t0
        for key, value in (("quick", args.quick), ("full", args.full)):
            report.meta.setdefault(key, value)  # every run states how it ran
        report.print()
        written = report.write(out)
        reports.append(report)
        print(f"[{name}] wrote {len(written)} files to {out} "
              f"in {report.seconds:.1f} s", file=sys.stderr)
    if every:
        from measurelab.lab.report.site import write_index

        mode = "full" if args.full else ("quick" if args.quick else "default")
        index = write_index(root, reports, order=names, failed=failed,
                            settings={"settings": mode}, papers=experiments.citations())
        print(f"index: {index}", file=sys.stderr)
        return 1 if failed else 0
    return 0
