"""Regenerate the R reference values the default test suite compares against.

Runs every producer listed in ``tests/r_references.py`` (each runs R through ``Rscript``
on its test's data: pROC's DeLong tests, partial AUC, best thresholds and power
calculation; R's ``loess``) and writes ``tests/data/r/NAME.json`` with R's outputs, the R
and pROC versions that computed them and this script's name. ``make test-r`` runs it (after
installing R and pROC) before the live comparisons; commit the files when they change.

Run: ``PYTHONPATH=src python tools/r_references.py [NAME ...]`` (default: all).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from tests import r_references as refs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *refs.PRODUCERS], default=[],
                        help="which reference files (default: all)")
    args = parser.parse_args(argv)
    names = args.names or list(refs.PRODUCERS)
    import pytest

    try:
        versions = refs.versions()
    except pytest.fail.Exception as e:  # no Rscript or no pROC: say so in one line
        print(f"r_references: {e}", file=sys.stderr)
        return 2
    refs.DATA.mkdir(parents=True, exist_ok=True)
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            values = refs.live(name, Path(tmp))
        doc = {"generated_by": "tools/r_references.py", **versions,
               "producer": refs.PRODUCERS[name], "values": values}
        path = refs.DATA / f"{name}.json"
        text = json.dumps(doc, indent=1, allow_nan=True) + "\n"
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {'written' if changed else 'unchanged'} "
              f"({versions['R']}, pROC {versions['pROC']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
