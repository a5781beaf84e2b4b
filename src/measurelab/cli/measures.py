"""``measurelab measures``: list the registry."""

from __future__ import annotations

import argparse
import json
from typing import Any

from measurelab.registry import registry


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("measures", help="list the registered measures",
                       description="List every registered measure with its metadata.")
    p.add_argument("--kind", choices=["threshold", "rank", "probability", "composite"])
    p.add_argument("--json", action="store_true", help="print a JSON list")
    return p


def run(args: argparse.Namespace) -> int:
    df = registry.to_frame()
    if args.kind:
        df = df[df["kind"] == args.kind]
    if args.json:
        print(json.dumps(df.reset_index().to_dict(orient="records"), indent=1))
        return 0
    cols = ["kind", "range", "direction", "multiclass", "source"]
    print(df[cols].to_string())
    return 0
