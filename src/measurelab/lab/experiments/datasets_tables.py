"""The papers' data-set tables beside the data measurelab actually uses.

* Huang & Ling (2007) Table 6 (instances, attributes, classes of the 20 UCI sets of the
  neural-network experiment) against the shipped files used by ``huang2007-ann``.
* Hossin et al. (2011) Table 3 (instances, attributes, missing values, class distribution
  of the 9 sets of the prototype-selection experiment) against those used by ``hossin2011``.

Sizes, attribute counts, classes and missing cells come from the files themselves
(:func:`measurelab.io.datasets.load`), not from the manifest. Every difference is listed; where a
computed check explains one (the class counted as an attribute; Pima's 392 complete cases),
the check is shown, otherwise the manifest's provenance note is quoted and the difference is
left unexplained. (Caruana's Table 1 is compared inside ``caruana2004``, which has the data.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from measurelab.lab.report.page import Report

#: Huang & Ling (2007) Table 6: name -> (instances, attributes, classes), as printed
HUANG_TABLE6: dict[str, tuple[int, int, int]] = {
    "anneal": (898, 39, 6), "autos": (205, 26, 7), "breast": (286, 10, 2),
    "cars": (700, 7, 2), "colic": (368, 23, 2), "credit-a": (690, 16, 2),
    "diabetes": (768, 9, 2), "eco": (336, 7, 8), "Glass": (214, 10, 7),
    "heart-c": (303, 14, 5), "hepatitis": (155, 20, 2), "ionosph.": (351, 35, 2),
    "primary-tumor": (339, 18, 21), "pima": (392, 8, 2), "segment": (2310, 20, 7),
    "sonar": (208, 61, 2), "soybean": (683, 36, 19), "splice": (3190, 62, 3),
    "vehicle": (846, 19, 4), "vote": (435, 17, 2),
}
#: Hossin et al. (2011) Table 3: name -> (instances, attributes, missing values?, "IM")
HOSSIN_TABLE3: dict[str, tuple[int, int, bool, str]] = {
    "Breast-Cancer": (699, 9, True, "IM"), "Card-Aus": (690, 14, False, "IM"),
    "Card-Ger": (1000, 24, False, "IM"), "Heart270": (270, 13, False, "IM"),
    "Hepatitis": (155, 19, True, "IM"), "Ionosphere": (351, 34, False, "IM"),
    "Liver": (345, 6, False, "IM"), "Pima-diabetes": (768, 8, False, "IM"),
    "Sonar": (208, 60, False, "IM"),
}
#: Pima's attributes where 0 stands for a missing measurement (glucose, blood pressure,
#: skin fold, insulin, body mass index)
PIMA_ZERO_MISSING = ("plas", "pres", "skin", "insu", "mass")


def describe(name: str) -> dict[str, Any]:
    """Instances, attributes, classes present, missing cells, minority share, and the
    number of Pima-style complete cases (no zero in :data:`PIMA_ZERO_MISSING`) of a shipped
    data set, computed from the file.

    Examples
    --------
    >>> d = describe("sonar")
    >>> d["instances"], d["attributes"], d["classes"], d["missing_cells"]
    (208, 60, 2, 0)
    """
    from measurelab.io import datasets

    X, y = datasets.load(name)
    counts = y.value_counts()
    d = {"instances": len(X), "attributes": int(X.shape[1]),
         "classes": int(counts.size), "missing_cells": int(X.isna().sum().sum()),
         "minority_pct": round(100 * float(counts.min()) / len(y), 1)}
    if set(PIMA_ZERO_MISSING) <= set(X.columns):
        cols = list(PIMA_ZERO_MISSING)
        d["zero_coded_missing"] = int((X[cols] == 0).to_numpy().sum())
        d["complete_cases"] = int((X[cols] != 0).all(axis=1).sum())
    return d


def _manifest_note(name: str) -> str:
    from measurelab.io import datasets

    return str(datasets.manifest().loc[name, "notes"])


def huang_table6() -> tuple[pd.DataFrame, int]:
    """Table 6 beside our files; returns the table and the attribute offset the paper uses
    (1 when it counts the class as an attribute on most rows)."""
    from measurelab.lab.experiments.huang2007_ann import DATASETS

    ours = {p: describe(DATASETS[p]) for p in HUANG_TABLE6}
    diffs = [HUANG_TABLE6[p][1] - ours[p]["attributes"] for p in HUANG_TABLE6]
    offset = max(set(diffs), key=diffs.count)
    rows = []
    for p, (n, a, c) in HUANG_TABLE6.items():
        o = ours[p]
        notes = []
        if n != o["instances"]:
            if o.get("complete_cases") == n:
                notes.append(f"{n} = our rows with no zero in {', '.join(PIMA_ZERO_MISSING)}"
                             " (zero codes a missing value): the paper dropped incomplete "
                             "cases")
            else:
                notes.append(f"instances differ: {n} printed, {o['instances']} in our file "
                             "(unexplained)")
        if a - o["attributes"] != offset:
            notes.append(f"attributes {a} printed vs {o['attributes']} + {offset}")
        if c != o["classes"]:
            notes.append(f"classes {c} printed vs {o['classes']} present")
        if notes:
            notes.append("manifest: " + _manifest_note(DATASETS[p]))
        rows.append({"paper name": p, "our file": DATASETS[p], "paper instances": n,
                     "our instances": o["instances"], "paper attributes": a,
                     "our attributes": o["attributes"], "paper classes": c,
                     "our classes": o["classes"],
                     "match": n == o["instances"] and a - o["attributes"] == offset
                     and c == o["classes"], "differences": "; ".join(notes)})
    return pd.DataFrame(rows).set_index("paper name"), offset


def hossin_table3() -> pd.DataFrame:
    """Table 3 beside our files."""
    from measurelab.lab.experiments.hossin2011 import DATASETS

    rows = []
    for p, (n, a, mv, _cd) in HOSSIN_TABLE3.items():
        o = describe(DATASETS[p])
        has_missing = o["missing_cells"] > 0
        notes = []
        if n != o["instances"]:
            notes.append(f"instances {n} printed vs {o['instances']}")
        if a != o["attributes"]:
            notes.append(f"attributes {a} printed vs {o['attributes']} in our file")
        if mv != has_missing:
            notes.append(f"missing values: paper {'yes' if mv else 'no'}, our file has "
                         f"{o['missing_cells']} empty cells")
        if o.get("zero_coded_missing"):
            notes.append(f"{o['zero_coded_missing']} zeros code missing measurements in "
                         f"{', '.join(PIMA_ZERO_MISSING)} (only {o['complete_cases']} "
                         "complete rows); the paper counts no missing values")
        if notes:
            notes.append("manifest: " + _manifest_note(DATASETS[p]))
        rows.append({"paper name": p, "our file": DATASETS[p], "paper instances": n,
                     "our instances": o["instances"], "paper attributes": a,
                     "our attributes": o["attributes"], "paper missing": mv,
                     "our missing cells": o["missing_cells"],
                     "our minority %": o["minority_pct"],
                     "match": n == o["instances"] and a == o["attributes"]
                     and mv == has_missing, "differences": "; ".join(notes)})
    return pd.DataFrame(rows).set_index("paper name")


def run(out: str | Path | None = None, *, quick: bool = False, full: bool = False,
        progress: bool = True) -> Report:
    """Huang Table 6 and Hossin Table 3 beside the data used.

    Examples
    --------
    >>> rep = run(progress=False)
    >>> sorted(rep.tables)
    ['hossin_table3', 'huang_table6']
    """
    h6, offset = huang_table6()
    h3 = hossin_table3()
    rep = Report("datasets-tables", "The papers' data-set tables beside the data used")
    rep.add_text(
        "Each row sets a paper's printed description beside the shipped file the "
        "reproduction loads, counted from the file. 'match' is true when every printed "
        "number agrees (for Huang & Ling's attributes, under the convention most rows "
        "follow); every difference is listed, with a computed check where one explains it "
        "and the manifest's provenance note otherwise.")
    rep.add_table("huang_table6", h6, "Huang & Ling (2007) Table 6 beside our files")
    rep.add_table("hossin_table3", h3, "Hossin et al. (2011) Table 3 beside our files")
    bad6 = h6[~h6["match"]]
    rep.add_text(
        f"Huang & Ling Table 6: {int(h6['match'].sum())} of {len(h6)} rows agree. The paper's "
        f"attribute count is ours + {offset} on "
        f"{int(((h6['paper attributes'] - h6['our attributes']) == offset).sum())} of "
        f"{len(h6)} rows" + (" (it counts the class as an attribute)" if offset == 1 else "")
        + ". Rows that differ: " + ", ".join(bad6.index) + ".")
    bad3 = h3[~h3["match"]]
    balanced = h3.index[h3["our minority %"] >= 40].tolist()
    rep.add_text(
        f"Hossin Table 3: {int(h3['match'].sum())} of {len(h3)} rows agree; rows that differ: "
        + (", ".join(bad3.index) or "none") + ". The paper calls every set imbalanced "
        "('IM'); by our files the minority class is "
        f"{h3['our minority %'].min():.1f}–{h3['our minority %'].max():.1f} % of the cases"
        + (f", and at least 40 % in {', '.join(balanced)}" if balanced else "") + ".")
    rep.verdict = (f"Huang Table 6: {int(h6['match'].sum())}/{len(h6)} rows agree; Hossin "
                   f"Table 3: {int(h3['match'].sum())}/{len(h3)}")
    rep.meta.update({"quick": quick, "full": full, "seed": "none (counts from the files)"})
    if out is not None:
        rep.write(out)
    return rep
