"""Add the field ``smaller`` to the cells of the coverage evidence files: the expected number
of cases in the smaller class of each cell (for k classes the smallest class), which lets
``measurelab.inference.evidence`` judge an interval by the cells of the user's own regime.

Run from the repository's root (idempotent: a file that has the field is checked and left
as it is)::

    python3 tools/add_smaller_field.py            # src/measurelab/data/coverage
    python3 tools/add_smaller_field.py FILE_OR_FOLDER ...

``smaller`` is appended to the header's ``cell_fields`` and to every row of ``figures``;
nothing else in a file changes (the file is written back in the layout it was read in, and
refused when that layout cannot be reproduced byte for byte). A cell's count is

* the registry's cells (``cell_fields`` ``generator, n, param, average, model, coverage,
  mcse, undefined``; ``benchmarks/covstudy``): binary, ``param`` the prevalence π:
  round(n·min(π, 1 − π)); k classes, ``param`` the number of classes:
  round(n·min(priors)) with the study's priors (:data:`K_PRIORS`,
  ``MULTI_GENERATORS`` in ``benchmarks/covstudy/generators.py``);
* the calibration study's cells (``prior, n, model, coverage, mc_se``;
  ``benchmarks/calibration_study.py``): the prior names a Beta(a, b) law of the true
  probability, prevalence π = a/(a + b) (:data:`CALIBRATION_PRIORS`), then as above.

A file without ``figures`` (e.g. ``structured.json``: clustered cells, no per-cell rows) or
with other ``cell_fields`` has no derivable count and is left unchanged; the library reads
its entries as having no bracket information.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[1] / "src" / "measurelab" / "data" / "coverage"
FIELD = "smaller"
#: the cells of benchmarks/covstudy (verdicts.CELL_FIELDS)
REGISTRY_FIELDS = ["generator", "n", "param", "average", "model", "coverage", "mcse",
                   "undefined"]
#: the cells of benchmarks/calibration_study.py
CALIBRATION_FIELDS = ["prior", "n", "model", "coverage", "mc_se"]
#: the k-class study's class priors by number of classes (covstudy MULTI_GENERATORS)
K_PRIORS: dict[int, tuple[float, ...]] = {3: (0.5, 0.3, 0.2),
                                          5: (0.35, 0.25, 0.2, 0.12, 0.08)}
#: the calibration study's priors of the true probability: name -> (a, b) of Beta(a, b)
CALIBRATION_PRIORS: dict[str, tuple[float, float]] = {"balanced": (2.0, 2.0),
                                                      "rare": (0.5, 4.5),
                                                      "extreme": (0.3, 0.3)}


class MigrationError(ValueError):
    """A file this script cannot migrate safely (it is left unchanged)."""


def binary_smaller(n: int, prevalence: float) -> int:
    """Expected cases in the smaller class of ``n`` at prevalence π: round(n·min(π, 1 − π))."""
    return round(n * min(prevalence, 1.0 - prevalence))


def k_smaller(n: int, k: int) -> int:
    """Expected cases in the smallest class of ``n`` cases of the k-class study."""
    if k not in K_PRIORS:
        raise MigrationError(f"no class priors known for k={k} (known: {sorted(K_PRIORS)})")
    return round(n * min(K_PRIORS[k]))


def _counter(fields: list[str]) -> Callable[[dict[str, Any], list[Any]], int] | None:
    """How to count one row's smaller class under ``fields`` (without ``smaller``), or None
    when the fields give no count."""
    if fields == REGISTRY_FIELDS:
        def registry_row(entry: dict[str, Any], row: list[Any]) -> int:
            n, param = int(row[1]), row[2]
            if entry.get("classes") == "k":
                return k_smaller(n, int(param))
            return binary_smaller(n, float(param))
        return registry_row
    if fields == CALIBRATION_FIELDS:
        def calibration_row(entry: dict[str, Any], row: list[Any]) -> int:
            if row[0] not in CALIBRATION_PRIORS:
                raise MigrationError(f"unknown calibration prior {row[0]!r}")
            a, b = CALIBRATION_PRIORS[row[0]]
            if entry.get("classes") != "binary":
                raise MigrationError("the calibration study's cells are binary")
            return binary_smaller(int(row[1]), a / (a + b))
        return calibration_row
    return None


# --------------------------------------------------------------------------- layouts
def _lines(doc: dict[str, Any]) -> str:
    """A header and one entry per line (benchmarks/covstudy/verdicts.evidence_document)."""
    head = {k: v for k, v in doc.items() if k != "entries"}
    body = json.dumps(head, ensure_ascii=False, allow_nan=False)[:-1]
    rows = [json.dumps(e, ensure_ascii=False, allow_nan=False) for e in doc["entries"]]
    return body + ', "entries": [\n' + ",\n".join(rows) + "\n]}\n"


LAYOUTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "lines": _lines,
    "one line": lambda d: json.dumps(d, ensure_ascii=False, allow_nan=False),
    "indent 1": lambda d: json.dumps(d, indent=1, allow_nan=False),
    "indent 1, newline": lambda d: json.dumps(d, indent=1, allow_nan=False) + "\n",
}


def layout_of(text: str, doc: dict[str, Any]) -> Callable[[dict[str, Any]], str]:
    """The writer that gives ``text`` back from ``doc`` byte for byte."""
    for write in LAYOUTS.values():
        try:
            if write(doc) == text:
                return write
        except (KeyError, ValueError):
            continue
    raise MigrationError("its layout is none this script can write back unchanged")


# --------------------------------------------------------------------------- migration
def migrate_text(text: str) -> tuple[str, str]:
    """One evidence file's text with ``smaller`` added, and what was done: 'added',
    'already there' or 'left: <why>' (the text unchanged)."""
    doc = json.loads(text)
    entries = [e for e in doc.get("entries", ()) if e.get("figures")]
    fields = doc.get("cell_fields")
    if not entries or not isinstance(fields, list):
        return text, "left: no per-cell figures"
    done = bool(fields) and fields[-1] == FIELD
    count = _counter(fields[:-1] if done else fields)
    if count is None:
        return text, f"left: cell_fields {fields} give no smaller-class count"
    width = len(fields)
    for e in entries:
        for row in e["figures"]:
            if len(row) != width:
                raise MigrationError(f"a row of {e.get('measure')!r} has {len(row)} fields, "
                                     f"cell_fields {width}")
            if done and row[-1] != count(e, row[:-1]):
                raise MigrationError(f"{e.get('measure')!r}: smaller={row[-1]!r} in the file, "
                                     f"{count(e, row[:-1])} from its cell")
    if done:
        return text, "already there"
    write = layout_of(text, doc)
    doc["cell_fields"] = [*fields, FIELD]
    for e in entries:
        e["figures"] = [[*row, count(e, row)] for row in e["figures"]]
    return write(doc), "added"


def migrate(path: Path) -> str:
    """Migrate one file in place; what was done (:class:`MigrationError`: the file is left
    unchanged)."""
    text = path.read_text(encoding="utf-8")
    new, what = migrate_text(text)
    if new != text:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(new)
    return what


def main(argv: Sequence[str] | None = None) -> int:
    targets = [Path(a) for a in (sys.argv[1:] if argv is None else argv)] or [FOLDER]
    paths: list[Path] = []
    for t in targets:
        paths.extend(sorted(t.glob("*.json")) if t.is_dir() else [t])
    failed = 0
    for p in paths:
        try:
            print(f"{p.name}: {migrate(p)}")
        except MigrationError as e:
            print(f"{p.name}: refused, left unchanged: {e}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
