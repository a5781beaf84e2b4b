"""The papers' small worked examples: ranked lists checked by the measures themselves.

* ``ling2003-examples`` — Ling, Huang & Zhang (2003) Tables 1–4: the worked AUC example
  (Hand & Till's rank formula), two classifiers with the same accuracy and different AUC,
  a higher AUC with a lower accuracy, the same AUC with different accuracies. The lists of
  these four tables did not survive text extraction (every digit and sign of the tables is
  gone from the text we worked from), so we do not
  restate them: each table's claim, as the surviving text words it, is checked over every
  balanced ranked list of 10 examples (the paper's size) with cutoff in the middle, and the
  smallest example of each kind is found by search. The same authors' 2007 paper prints two
  lists of the kinds of Tables 3 and 4; they are checked too.
* ``huang2007-examples`` — Huang & Ling (2007) Tables 1–2, their AUCs and accuracies, and
  the Table 2 discrepancy: measurelab gives AUC 3/5 for both lists where the paper prints
  2/5. Every reading of the lists we could think of is computed, with which of the paper's
  eight printed numbers it reproduces.

Lists are written left to right in order of increasing probability of being positive (the
2007 paper's footnote 2); a list of n examples predicts its rightmost n/2 positive. AUC and
accuracy come from :func:`measurelab.evaluate` with the position as the score; the rank
formula of footnote 3 (:func:`auc_rank_formula`) is the independent route.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from measurelab.lab.report.page import Report

#: Huang & Ling (2007) Table 1 and Table 2, as printed
HUANG_TABLE1 = {"a": "---++--+++", "b": "+----++++-"}
HUANG_TABLE2 = {"a": "--++-++--+", "b": "--+++--+-+"}
#: the numbers the 2007 text prints for them (AUC as fractions, accuracy)
HUANG_PRINTED = {
    ("table1", "a", "auc"): Fraction(21, 25), ("table1", "b", "auc"): Fraction(16, 25),
    ("table1", "a", "acc"): Fraction(60, 100), ("table1", "b", "acc"): Fraction(80, 100),
    ("table2", "a", "auc"): Fraction(2, 5), ("table2", "b", "auc"): Fraction(2, 5),
    ("table2", "a", "acc"): Fraction(60, 100), ("table2", "b", "acc"): Fraction(40, 100),
}


def labels(s: str) -> np.ndarray:
    """A list written as ``+``/``-`` signs → 0/1 labels.

    Examples
    --------
    >>> labels("-+").tolist()
    [0, 1]
    """
    return np.array([1 if c == "+" else 0 for c in s], dtype=int)


@lru_cache(maxsize=4096)
def measures(s: str) -> tuple[Fraction, Fraction]:
    """(AUC, accuracy) of a ranked list by :func:`measurelab.evaluate` (position = score,
    the rightmost half predicted positive), as exact fractions.

    Examples
    --------
    >>> measures("---++--+++")
    (Fraction(21, 25), Fraction(3, 5))
    """
    from measurelab.metrics.evaluation import evaluate

    y = labels(s)
    n, n_pos = y.size, int(y.sum())
    r = evaluate(y, np.arange(n, dtype=float), measures=["auc", "acc"],
                 threshold=(n - n // 2) - 0.5)
    den = n_pos * (n - n_pos)
    # AUC·den and acc·n are integers; round to them exactly instead of comparing floats
    return Fraction(round(float(r["auc"]) * den), den), Fraction(round(float(r["acc"]) * n), n)


def auc_rank_formula(s: str) -> Fraction:
    """Footnote 3 of Huang & Ling (Hand & Till 2001): Σ (r_i − i) / (n₊ n₋), r_i the
    1-based position of the i-th positive from the left.

    Examples
    --------
    >>> auc_rank_formula("--++-++--+")
    Fraction(3, 5)
    """
    y = labels(s)
    r = np.flatnonzero(y) + 1
    n_pos = r.size
    return Fraction(int((r - np.arange(1, n_pos + 1)).sum()), n_pos * (y.size - n_pos))


def balanced_lists(n: int) -> list[str]:
    """Every ranked list of n examples with n/2 positives, as sign strings."""
    out = []
    for pos in combinations(range(n), n // 2):
        chars = ["-"] * n
        for i in pos:
            chars[i] = "+"
        out.append("".join(chars))
    return out


def pair_kinds(n: int) -> dict[str, Any]:
    """Over all pairs of balanced lists of n: how many have the same accuracy and different
    AUC, a higher AUC with a lower accuracy, the same AUC with different accuracies; and
    the first pair of each kind (in enumeration order)."""
    lists = balanced_lists(n)
    vals = [measures(s) for s in lists]
    kinds = {"same_acc_diff_auc": 0, "auc_up_acc_down": 0, "same_auc_diff_acc": 0}
    first: dict[str, tuple[str, str]] = {}
    for i in range(len(lists)):
        for j in range(i + 1, len(lists)):
            (a1, c1), (a2, c2) = vals[i], vals[j]
            if c1 == c2 and a1 != a2:
                k = "same_acc_diff_auc"
            elif a1 != a2 and c1 != c2 and (a1 > a2) != (c1 > c2):
                k = "auc_up_acc_down"
            elif a1 == a2 and c1 != c2:
                k = "same_auc_diff_acc"
            else:
                continue
            kinds[k] += 1
            if k not in first:
                # name the pair so that 'a' has the higher AUC (or the higher accuracy)
                hi, lo = (lists[i], lists[j]) if (a1, c1) > (a2, c2) else (lists[j], lists[i])
                first[k] = (hi, lo)
    return {"lists": len(lists), "counts": kinds, "first": first}


# ------------------------------------------------------------------------ Ling 2003
#: each of Ling 2003's Tables 1–4: what the surviving text says it shows
LING_TABLES = {
    "table1": "an example of calculating AUC with the positions r_i of the positives "
              "(Hand & Till's formula, equation 1)",
    "table2": "two classifiers with the same accuracy (error rate) but different AUC; the "
              "one ranking positives higher has the higher AUC",
    "table3": "a counter-example: a classifier with a higher AUC but a lower accuracy "
              "(threshold in the middle)",
    "table4": "a counter-example: two classifiers with the same AUC but different accuracies",
}


def ling_checks(n: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The claim of each of Ling 2003's Tables 1–4 checked over every balanced list of
    ``n``, and the smallest example of each kind (searched from n = 2 up).

    Examples
    --------
    >>> checks, smallest = ling_checks(6)
    >>> checks["holds"].all(), smallest.loc["table3", "n"]
    (np.True_, np.int64(6))
    """
    lists = balanced_lists(n)
    agree = sum(measures(s)[0] == auc_rank_formula(s) for s in lists)
    kinds = pair_kinds(n)
    c = kinds["counts"]
    pairs = kinds["lists"] * (kinds["lists"] - 1) // 2
    rows = [
        {"table": "table1", "claim": LING_TABLES["table1"],
         "ours": f"the rank formula equals measurelab's AUC on {agree} of {len(lists)} "
                 f"balanced lists of {n}", "holds": agree == len(lists)},
        {"table": "table2", "claim": LING_TABLES["table2"],
         "ours": f"{c['same_acc_diff_auc']} of {pairs} pairs of lists of {n} have the same "
                 "accuracy and different AUC", "holds": c["same_acc_diff_auc"] > 0},
        {"table": "table3", "claim": LING_TABLES["table3"],
         "ours": f"{c['auc_up_acc_down']} of {pairs} pairs have AUC and accuracy in opposite "
                 "order", "holds": c["auc_up_acc_down"] > 0},
        {"table": "table4", "claim": LING_TABLES["table4"],
         "ours": f"{c['same_auc_diff_acc']} of {pairs} pairs have the same AUC and different "
                 "accuracies", "holds": c["same_auc_diff_acc"] > 0},
    ]
    checks = pd.DataFrame(rows).set_index("table")
    found: dict[str, dict[str, Any]] = {}
    key = {"table2": "same_acc_diff_auc", "table3": "auc_up_acc_down",
           "table4": "same_auc_diff_acc"}
    for m in range(2, n + 1, 2):
        if len(found) == len(key):
            break
        first = pair_kinds(m)["first"]
        for table, k in key.items():
            if table not in found and k in first:
                a, b = first[k]
                (auc_a, acc_a), (auc_b, acc_b) = measures(a), measures(b)
                found[table] = {"table": table, "n": m, "a": a, "b": b,
                                "auc_a": str(auc_a), "auc_b": str(auc_b),
                                "acc_a": str(acc_a), "acc_b": str(acc_b)}
    smallest = pd.DataFrame([found[t] for t in key if t in found]).set_index("table")
    return checks, smallest


def run_ling2003(out: str | Path | None = None, *, quick: bool = False, full: bool = False,
                 progress: bool = True) -> Report:
    """Ling, Huang & Zhang (2003) Tables 1–4, checked by the measures.

    Examples
    --------
    >>> rep = run_ling2003(progress=False)
    >>> rep.checks()
    (9, 9)
    """
    n = 10
    checks, smallest = ling_checks(n)
    rep = Report("ling2003-examples",
                 "Ling, Huang & Zhang (2003) Tables 1–4: the worked example and the "
                 "counter-examples")
    rep.add_text(
        "The four example tables of Ling 2003 did not survive text extraction: the text "
        "keeps their captions and the sentences around them, but none of their signs or "
        "numbers. We therefore do not restate the lists. Each table's claim, as the "
        "surviving text words it, is checked over all balanced ranked lists of "
        f"{n} examples (the size the paper's examples use), threshold in the middle, with "
        "AUC and accuracy computed by measurelab; and the smallest example of each kind is "
        "found by search (ours, not the paper's lists).")
    rep.add_table("claims", checks, "Tables 1–4: the claim each table illustrates, checked")
    rep.add_table("smallest", smallest,
                  "The smallest example of each kind (first pair found, n = 2, 4, 6, …)")
    h = []
    for t, key in (("table3", "table1"), ("table4", "table2")):
        lists = HUANG_TABLE1 if key == "table1" else HUANG_TABLE2
        (auc_a, acc_a), (auc_b, acc_b) = measures(lists["a"]), measures(lists["b"])
        kind_ok = ((auc_a > auc_b) and (acc_a < acc_b)) if t == "table3" else (
            auc_a == auc_b and acc_a != acc_b)
        h.append({"ling_table": t, "huang2007": key, "a": lists["a"], "b": lists["b"],
                  "auc_a": str(auc_a), "auc_b": str(auc_b), "acc_a": str(acc_a),
                  "acc_b": str(acc_b), "holds": bool(kind_ok)})
    hdf = pd.DataFrame(h).set_index("ling_table")
    rep.add_table("huang2007_lists", hdf,
                  "The same authors' 2007 lists of the kinds of Tables 3 and 4, checked")
    from measurelab.lab.experiments.ling2003 import PAPER_BALANCED

    _, S, _, P, Q, _ = PAPER_BALANCED[n]
    counts = pair_kinds(n)["counts"]
    cross = pd.DataFrame([
        {"count": "S: AUC and accuracy in opposite order", "paper": S,
         "ours": counts["auc_up_acc_down"]},
        {"count": "P: AUC differs, accuracy ties", "paper": P,
         "ours": counts["same_acc_diff_auc"]},
        {"count": "Q: accuracy differs, AUC ties", "paper": Q,
         "ours": counts["same_auc_diff_acc"]},
    ]).set_index("count")
    cross["match"] = cross["paper"] == cross["ours"]
    rep.add_table("counts", cross, f"The pairs behind Tables 2–4 counted at n = {n}, beside "
                  "the paper's consistency and discriminancy tables (S, P, Q)")
    rows = smallest.to_dict("index")
    rep.add_text(
        f"All {checks['holds'].sum()} of {len(checks)} claims hold on lists of {n}. The "
        "smallest counter-examples: AUC and accuracy in opposite order first at n = "
        f"{rows['table3']['n']} ({rows['table3']['a']} vs {rows['table3']['b']}), the same "
        f"AUC with different accuracies first at n = {rows['table4']['n']} "
        f"({rows['table4']['a']} vs {rows['table4']['b']}); the same accuracy with "
        f"different AUC already at n = {rows['table2']['n']}. This agrees with the "
        "consistency counts of reproduction 'ling2003', where S and Q are 0 at n = 4 and "
        "first positive at n = 6.")
    rep.add_figure("auc_vs_acc", _figure_auc_acc(n))
    ok, total = rep.checks()
    rep.verdict = f"{ok} of {total} claims and example lists hold when computed"
    rep.meta.update({"n": n, "lists": "balanced, cutoff in the middle", "quick": quick,
                     "full": full, "seed": "none (exhaustive)"})
    if out is not None:
        rep.write(out)
    return rep


def _figure_auc_acc(n: int) -> Any:
    """AUC against accuracy over every balanced list of n: the spread of AUC at each
    accuracy is what makes counter-examples of Tables 2–4 possible."""
    import matplotlib.pyplot as plt

    pts: dict[tuple[float, float], int] = {}
    for s in balanced_lists(n):
        auc, acc = measures(s)
        key = (float(acc), float(auc))
        pts[key] = pts.get(key, 0) + 1
    fig, ax = plt.subplots(figsize=(5.5, 4))
    xs, ys = zip(*pts, strict=True)
    ax.scatter(xs, ys, s=[8 + 4 * c for c in pts.values()], alpha=0.6, color="#1f77b4")
    for name, lists, mark in (("Huang 2007 Table 1", HUANG_TABLE1, "s"),
                              ("Huang 2007 Table 2", HUANG_TABLE2, "^")):
        if len(lists["a"]) == n:
            v = [measures(x) for x in lists.values()]
            ax.plot([float(c) for _, c in v], [float(a) for a, _ in v], mark + "--",
                    color="#d62728" if mark == "s" else "#2ca02c", label=name)
    ax.set_xlabel("accuracy (threshold in the middle)")
    ax.set_ylabel("AUC")
    ax.set_title(f"All {len(balanced_lists(n))} balanced lists of {n} (size = lists)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------- Huang 2007
def _reading_values(reading: str, s: str) -> tuple[Fraction, Fraction]:
    """(AUC, acc) of a list under one reading of the printed signs."""
    if reading == "as printed":
        return measures(s)
    if reading == "reversed order":
        return measures(s[::-1])
    if reading == "classes swapped":
        return measures(s.translate(str.maketrans("+-", "-+")))
    if reading == "AUC of the negatives (footnote 3 on the − examples)":
        auc = auc_rank_formula(s.translate(str.maketrans("+-", "-+")))
        return auc, measures(s)[1]
    if reading == "threshold at the left half":
        auc, _ = measures(s)
        y = labels(s)
        half = y.size // 2
        acc = Fraction(int(y[:half].sum()) + int((1 - y[half:]).sum()), y.size)
        return auc, acc
    raise ValueError(reading)


READINGS = ("as printed", "reversed order", "classes swapped",
            "AUC of the negatives (footnote 3 on the − examples)",
            "threshold at the left half")


def readings_table() -> pd.DataFrame:
    """Each reading of the printed lists: the eight numbers it gives and how many of the
    paper's eight printed numbers it reproduces."""
    rows = []
    for reading in READINGS:
        row: dict[str, Any] = {"reading": reading}
        hits = 0
        t2_auc = True
        for tname, lists in (("table1", HUANG_TABLE1), ("table2", HUANG_TABLE2)):
            for k in ("a", "b"):
                auc, acc = _reading_values(reading, lists[k])
                row[f"{tname} AUC({k})"] = str(auc)
                row[f"{tname} acc({k})"] = str(acc)
                hits += (auc == HUANG_PRINTED[(tname, k, "auc")]) + (
                    acc == HUANG_PRINTED[(tname, k, "acc")])
                if tname == "table2":
                    t2_auc &= auc == HUANG_PRINTED[(tname, k, "auc")]
        row["printed numbers reproduced"] = f"{hits} of 8"
        row["gives 2/5 for Table 2"] = bool(t2_auc)
        row["hits"] = hits
        rows.append(row)
    return pd.DataFrame(rows).set_index("reading")


def nearest_lists(s: str, auc: Fraction, acc: Fraction) -> tuple[int, list[str]]:
    """The balanced lists with the given AUC and accuracy that differ from ``s`` in the
    fewest positions: (number of positions, the lists).

    Examples
    --------
    >>> nearest_lists("-+", Fraction(1), Fraction(1))
    (0, ['-+'])
    """
    best, found = len(s) + 1, []
    for t in balanced_lists(len(s)):
        if measures(t) != (auc, acc):
            continue
        d = sum(x != y for x, y in zip(s, t, strict=True))
        if d < best:
            best, found = d, [t]
        elif d == best:
            found.append(t)
    return best, found


def run_huang2007(out: str | Path | None = None, *, quick: bool = False, full: bool = False,
                  progress: bool = True) -> Report:
    """Huang & Ling (2007) Tables 1–2 and the Table 2 AUC discrepancy worked out.

    Examples
    --------
    >>> rep = run_huang2007(progress=False)
    >>> rep.tables["values"]["match"].tolist()
    [True, True, True, True, False, True, False, True]
    """
    rows = []
    for tname, lists in (("table1", HUANG_TABLE1), ("table2", HUANG_TABLE2)):
        for k in ("a", "b"):
            auc, acc = measures(lists[k])
            formula = auc_rank_formula(lists[k])
            for m, ours in (("auc", auc), ("acc", acc)):
                paper = HUANG_PRINTED[(tname, k, m)]
                note = ""
                if m == "auc":
                    note = f"rank formula (footnote 3) gives {formula}"
                rows.append({"table": tname, "list": k, "measure": m,
                             "sequence": lists[k], "paper": str(paper), "ours": str(ours),
                             "diff": float(ours - paper), "match": ours == paper,
                             "note": note})
    values = pd.DataFrame(rows).set_index(["table", "list", "measure"])
    rd = readings_table()
    rep = Report("huang2007-examples",
                 "Huang & Ling (2007) Tables 1–2: the counter-examples and the Table 2 AUC")
    rep.add_text(
        "Lists as printed, left to right by increasing probability of being positive "
        "(footnote 2); the rightmost five are predicted positive. AUC and accuracy by "
        "measurelab.evaluate (position = score), AUC also by the paper's footnote-3 rank "
        "formula.")
    rep.add_table("values", values, "Tables 1–2: the printed AUCs and accuracies beside ours")
    t1 = {k: measures(v) for k, v in HUANG_TABLE1.items()}
    t2 = {k: measures(v) for k, v in HUANG_TABLE2.items()}
    inconsistent = (t1["a"][0] > t1["b"][0]) and (t1["a"][1] < t1["b"][1])
    same_auc = t2["a"][0] == t2["b"][0] and t2["a"][1] != t2["b"][1]
    rep.add_text(
        f"Table 1 is {'a' if inconsistent else 'not a'} counter-example to consistency "
        f"(AUC {t1['a'][0]} > {t1['b'][0]} while accuracy {t1['a'][1]} < {t1['b'][1]}). "
        f"Table 2 is {'a' if same_auc else 'not a'} counter-example to discriminancy: both "
        f"lists have AUC {t2['a'][0]} and {t2['b'][0]}, accuracies {t2['a'][1]} and "
        f"{t2['b'][1]} — the example works, but its AUC is {t2['a'][0]}, not the printed 2/5.")
    rd_show = rd.drop(columns="hits")
    rep.add_table("readings", rd_show,
                  "Readings of the lists: the eight numbers each gives (paper prints 21/25, "
                  "16/25, 3/5, 4/5 for Table 1 and 2/5, 2/5, 3/5, 2/5 for Table 2)")
    give = rd.index[rd["gives 2/5 for Table 2"]].tolist()
    best = rd.index[rd["hits"] == rd["hits"].max()].tolist()
    all_lists = [*HUANG_TABLE1.values(), *HUANG_TABLE2.values()]
    complement = [g for g in give if all(
        _reading_values(g, x)[0] == 1 - measures(x)[0] for x in all_lists)]
    every_auc = [r for r in READINGS if all(
        _reading_values(r, lists[k])[0] == HUANG_PRINTED[(t, k, "auc")]
        for t, lists in (("table1", HUANG_TABLE1), ("table2", HUANG_TABLE2))
        for k in ("a", "b"))]
    dist = {k: nearest_lists(HUANG_TABLE2[k], HUANG_PRINTED[("table2", k, "auc")],
                             HUANG_PRINTED[("table2", k, "acc")]) for k in ("a", "b")}
    near = pd.DataFrame([{"list": k, "printed": HUANG_TABLE2[k],
                          "positions changed": d, "nearest lists": ", ".join(ls)}
                         for k, (d, ls) in dist.items()]).set_index("list")
    rep.add_table("nearest", near, "Table 2: the nearest lists that have AUC 2/5 and the "
                  "printed accuracy (a misprint of that many signs)")
    rep.add_text(
        f"Readings that give the printed 2/5 for both Table 2 lists: "
        f"{', '.join(repr(g) for g in give) if give else 'none'}"
        + (f"; {len(complement)} of them compute 1 − AUC on all four lists (the fraction "
           "of positive–negative pairs ranked the wrong way)" if give else "")
        + ". " + "; ".join(f"{g!r} reproduces {int(rd.loc[g, 'hits'])} of the 8 printed "
                          "numbers" for g in give)
        + f". Most printed numbers ({int(rd['hits'].max())} of 8) are reproduced by "
        + " and ".join(repr(b) for b in best) + ". Readings that give all four printed "
        f"AUCs (Tables 1 and 2): {', '.join(repr(r) for r in every_auc) or 'none'}. "
        "The nearest lists with AUC 2/5 and the printed accuracies differ from the printed "
        f"ones in {dist['a'][0]} (a) and {dist['b'][0]} (b) positions"
        + (", so exchanging one + with one − does not explain it. "
           if min(dist["a"][0], dist["b"][0]) > 2 else ". ")
        + ("Under the paper's own conventions (footnotes 2 and 3, as Table 1 confirms), "
           f"both Table 2 lists have AUC {t2['a'][0]}; the printed 2/5 equals 1 − AUC, and "
           "the example still shows what it is meant to (equal AUC, different accuracies)."
           if not every_auc and "as printed" in best and complement else
           "See the table for which reading fits."))
    rep.verdict = (f"{int(values['match'].sum())} of {len(values)} printed values reproduced; "
                   f"Table 2 AUC is {t2['a'][0]} for both lists (printed 2/5)")
    rep.meta.update({"quick": quick, "full": full, "seed": "none (fixed lists)"})
    if out is not None:
        rep.write(out)
    return rep
