"""``measurelab measures``: list the registry."""

from __future__ import annotations

import argparse
import json
from typing import Any

from measurelab.measures.base import registry


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("measures", help="list the registered measures",
                       description="List every registered measure with its metadata. "
                       "cost: 'linear' (from the confusion counts), 'sort' (from the "
                       "sorted score table, a fixed number of passes over its rows) or "
                       "'heavy' (left out of the default set: computed only when named).")
    p.add_argument("--kind", choices=["threshold", "rank", "probability", "composite"])
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="full sources, aliases and descriptions (lines may be long)")
    return p


#: the table fits this many columns unless -v asks for everything
WIDTH = 100


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def _table(df: Any, verbose: bool) -> str:
    """Left-aligned columns; without ``verbose`` the last column is cut to fit ``WIDTH``."""
    cols = ["kind", "range", "direction", "multiclass", "cost", "source"]
    if verbose:
        cols += ["aliases", "description"]
    rows = [["name", *cols]] + [[str(name), *(str(r[c]) for c in cols)]
                                for name, r in df.iterrows()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    if not verbose:
        room = WIDTH - sum(widths[:-1]) - 2 * (len(widths) - 1)
        widths[-1] = min(widths[-1], max(room, 10))
        rows = [[*r[:-1], _short(r[-1], widths[-1])] for r in rows]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
                     for r in rows)


def run(args: argparse.Namespace) -> int:
    df = registry.to_frame()
    if args.kind:
        df = df[df["kind"] == args.kind]
    if args.json:
        print(json.dumps(df.reset_index().to_dict(orient="records"), indent=1))
        return 0
    print(_table(df, args.verbose))
    if not args.verbose:
        print("(-v: full sources, aliases and descriptions)")
    return 0
