"""Reproduction of Huang & Ling (2007), "Constructing new and better evaluation measures
for machine learning" — Tables 3 and 4 (the two-level measure AUC:acc); Table 5 is in
:mod:`measurelab.lab.experiments.huang2007_table5`.

* Table 3: degree of consistency C and discriminancy D of φ = AUC:acc against AUC and
  against accuracy over all balanced ranked lists of n = 6…16 examples, cutoff in the
  middle. Counted twice: by enumerating the lists with :mod:`measurelab.metaeval`, and from
  the generating function of AUC vs accuracy (:func:`two_level_counts`: a pair's ordering
  under φ follows from its orderings under AUC and accuracy), which also extends the table
  to n = 100 and beyond.
* Table 4: the paper's worked example of a "true" and a perturbed ranked list.

The paper's numbers live in the ``PAPER_*`` constants and are only ever compared with.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from measurelab.lab.report.page import Report
from measurelab.metaeval import (
    PairCounts,
    RankedLists,
    auc_acc_pair_counts,
    compare_measures,
)
from measurelab.progress import progress_iter

INF = math.inf

#: Huang & Ling (2007) Table 3: n -> (C(AUC, acc), C(φ, AUC), D(φ/AUC), C(φ, acc), D(φ/acc))
#: with φ = AUC:acc; C printed to 3 decimals.
PAPER_TABLE3: dict[int, tuple[float, float, float, float, float]] = {
    6: (0.991, 1.0, INF, 0.992, INF),
    8: (0.977, 1.0, INF, 0.978, INF),
    10: (0.963, 1.0, INF, 0.964, INF),
    12: (0.951, 1.0, INF, 0.953, INF),
    14: (0.942, 1.0, INF, 0.943, INF),
    16: (0.935, 1.0, INF, 0.936, INF),
}
TABLE3_QUANTITIES = ("C(AUC,acc)", "C(AUC:acc,AUC)", "D(AUC:acc/AUC)", "C(AUC:acc,acc)",
                     "D(AUC:acc/acc)")

#: Table 4: the "true" list T (p_i = i/10; positive iff p_i > 0.5) and the perturbed list P
TABLE4_TRUE = tuple(i / 10 for i in range(1, 11))
TABLE4_PERTURBED = (0.0, 0.15, 0.6, 0.5, 0.95, 0.2, 0.65, 0.7, 1.0, 0.4)
#: Table 4 as printed: the signs the paper gives under P (prediction: positive iff > 0.5)
TABLE4_PAPER_SIGNS = "--+-+-+++-"
#: the values the text gives for Table 4 ("RMS, AUC, acc, and AUC:acc ... 0.293, 0.68, 0.6,
#: 0.686 and 0.657 respectively": five numbers for four measures)
PAPER_TABLE4 = {"rms": 0.293, "auc": 0.68, "acc": 0.6, "auc:acc": 0.686}
PAPER_TABLE4_UNLABELLED = 0.657



def _ratio_c(R: int, S: int) -> float:
    return R / (R + S) if R + S else math.nan


def _ratio_d(P: int, Q: int) -> float:
    if Q == 0:
        return INF if P else math.nan
    return P / Q


# --------------------------------------------------------------------------- Table 3
def two_level_counts(pc: PairCounts) -> tuple[PairCounts, PairCounts]:
    """Pair counts of φ = f:g vs f and of φ vs g from the counts of f vs g.

    Over a pair, φ differs iff f or g differs and agrees with f when f differs, else with
    g. So for φ vs f: R = R_fg + S_fg + P_fg, S = 0, P = Q_fg, Q = 0; and for φ vs g:
    R = R_fg + Q_fg, S = S_fg, P = P_fg, Q = 0 (Theorem 2 of the paper, as counts).

    Examples
    --------
    >>> vs_f, vs_g = two_level_counts(auc_acc_pair_counts(6, 3))
    >>> vs_f
    PairCounts(R=176, S=0, P=4, Q=0, T=10, objects=20)
    >>> vs_g.R, vs_g.S, vs_g.P, vs_g.Q
    (117, 1, 62, 0)
    """
    R, S, P, Q, T = pc.R, pc.S, pc.P, pc.Q, pc.T
    vs_f = PairCounts(R + S + P, 0, Q, 0, T, pc.objects)
    vs_g = PairCounts(R + Q, S, P, 0, T, pc.objects)
    return vs_f, vs_g


def table3_counts(n: int, *, enumerate_lists: bool = True) -> dict[str, Any]:
    """C and D of AUC:acc vs AUC and acc (and AUC vs acc) over balanced lists of n.

    With ``enumerate_lists`` the counts come from enumerating all C(n, n/2) lists
    (:func:`measurelab.metaeval.compare_measures`) and are checked against the generating
    function; otherwise from the generating function only (any n).

    Examples
    --------
    >>> r = table3_counts(8)
    >>> round(r["C(AUC:acc,acc)"], 3), r["D(AUC:acc/AUC)"], r["routes_agree"]
    (0.978, inf, True)
    """
    gf = auc_acc_pair_counts(n, n // 2)
    gf_f, gf_g = two_level_counts(gf)
    out: dict[str, Any] = {"n": n, "lists": gf.objects}
    if enumerate_lists:
        dom = RankedLists(n, n // 2)
        e_fg = compare_measures("auc", "acc", dom).counts
        e_f = compare_measures("auc:acc", "auc", dom).counts
        e_g = compare_measures("auc:acc", "acc", dom).counts
        out["routes_agree"] = (tuple(e_fg) == tuple(gf) and tuple(e_f) == tuple(gf_f)
                               and tuple(e_g) == tuple(gf_g))
        out["method"] = "enumeration = generating function"
    else:
        out["routes_agree"] = None
        out["method"] = "generating function"
    out.update({
        "C(AUC,acc)": _ratio_c(gf.R, gf.S), "D(AUC/acc)": _ratio_d(gf.P, gf.Q),
        "C(AUC:acc,AUC)": _ratio_c(gf_f.R, gf_f.S), "D(AUC:acc/AUC)": _ratio_d(gf_f.P, gf_f.Q),
        "C(AUC:acc,acc)": _ratio_c(gf_g.R, gf_g.S), "D(AUC:acc/acc)": _ratio_d(gf_g.P, gf_g.Q),
        "R": gf.R, "S": gf.S, "P": gf.P, "Q": gf.Q,
        "gain_C": _ratio_c(gf_g.R, gf_g.S) - _ratio_c(gf.R, gf.S),
    })
    return out


def _same(paper: float, ours: float, decimals: int) -> bool:
    if math.isinf(paper) or math.isinf(ours):
        return paper == ours
    return abs(ours - paper) <= 0.5 * 10.0**-decimals + 1e-12


def table3(ns: list[int] | None = None, *, extend: list[int] | None = None,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(paper vs ours, one row per n and quantity; all counts and ratios, one row per n).

    Examples
    --------
    >>> cmp, counts = table3([6, 8])
    >>> bool(cmp["match"].all()), float(counts.loc[6, "C(AUC:acc,AUC)"])
    (True, 1.0)
    """
    ns = sorted(PAPER_TABLE3) if ns is None else ns
    rows, cmp_rows = [], []
    for n in progress_iter(ns, "huang2007 table 3", progress):
        r = table3_counts(n, enumerate_lists=True)
        rows.append(r)
        if n in PAPER_TABLE3:
            for q, p in zip(TABLE3_QUANTITIES, PAPER_TABLE3[n], strict=True):
                o = r[q]
                diff = o - p if math.isfinite(o) and math.isfinite(p) else 0.0
                ok = _same(p, o, 3)
                note = ""
                if ok and diff != 0:
                    note = "paper rounds to 3 decimals"
                elif not ok:
                    note = "differs"
                cmp_rows.append({"n": n, "quantity": q, "paper": p, "ours": o, "diff": diff,
                                 "match": ok, "note": note})
    for n in progress_iter(extend or [], "huang2007 table 3 (generating function)", progress):
        rows.append(table3_counts(n, enumerate_lists=False))
    counts = pd.DataFrame(rows).set_index("n")
    cmp = pd.DataFrame(cmp_rows).set_index(["n", "quantity"]) if cmp_rows else pd.DataFrame()
    return cmp, counts


def run_table3(out: Path | str | None = None, *, quick: bool = False, full: bool = False,
               progress: bool = True) -> Report:
    """Huang & Ling (2007) Table 3: AUC:acc vs AUC and acc on balanced ranked lists.

    Parameters
    ----------
    out : folder for Markdown and CSVs (nothing written if None)
    quick : extension beyond n = 16 only to n = 50
    full : extension up to n = 400
    progress : tqdm progress bars

    Examples
    --------
    >>> rep = run_table3(quick=True, progress=False)
    >>> bool(rep.tables["table3"]["match"].all())
    True
    """
    ext = [20, 30, 50] if quick else [20, 30, 50, 100, 200]
    if full:
        ext += [400]
    cmp, counts = table3(extend=ext, progress=progress)
    rep = Report("huang2007-table3",
                 "Huang & Ling (2007) Table 3: the two-level measure AUC:acc vs AUC and acc")
    paper_ns = sorted(PAPER_TABLE3)
    c = counts.loc[paper_ns]
    gain_ok = bool((c["C(AUC:acc,acc)"] >= c["C(AUC,acc)"]).all())
    rep.add_text(
        "All ranked lists of n examples, half positive, cutoff in the middle; every pair of "
        "lists counted exactly, ties exact (integer AUC numerators). φ = AUC:acc compares "
        "by AUC and, when AUC ties, by accuracy. Two routes: enumerating the lists with "
        "measurelab.metaeval (φ as a lexicographic value), and the generating function of "
        "AUC vs accuracy with φ's counts derived from it (R_φ,acc = R + Q, S_φ,acc = S, "
        "P_φ,acc = P, Q_φ,acc = 0; R_φ,AUC = R + S + P, P_φ,AUC = Q, S = Q = 0); they "
        f"agree for every n = {paper_ns[0]}…{paper_ns[-1]}: "
        f"{bool(c['routes_agree'].all())}. "
        f"{int(cmp['match'].sum())} of {len(cmp)} published entries match (C to the "
        "paper's 3 decimals, ∞ exactly). Theorem 2 holds on every row: C(φ, AUC) = 1, "
        "D(φ/AUC) = ∞, D(φ/acc) = ∞ and C(φ, acc) ≥ C(AUC, acc) "
        f"({gain_ok}); the gain in C is Q/(R+S+Q)·(1 − C(AUC, acc)) — small, "
        f"{c['gain_C'].min():.4f} to {c['gain_C'].max():.4f}, because the pairs that "
        "only accuracy separates are few."
    )
    big = counts.index.max()
    rep.add_text(
        f"Beyond the paper (generating function, n up to {big}): C(φ, acc) = "
        f"{counts.loc[big, 'C(AUC:acc,acc)']:.4f} against C(AUC, acc) = "
        f"{counts.loc[big, 'C(AUC,acc)']:.4f} at n = {big}; the gain shrinks to "
        f"{counts.loc[big, 'gain_C']:.2e} as AUC ties with differing accuracy become rare, "
        "so AUC:acc and AUC order almost the same pairs on large test sets."
    )
    rep.add_table("table3", cmp, "Table 3: paper vs ours")
    show = counts[["lists", "method", "routes_agree", *TABLE3_QUANTITIES, "D(AUC/acc)",
                   "gain_C", "R", "S", "P", "Q"]].copy()
    show["lists"] = [str(v) if v < 10**12 else f"{v:.4g}" for v in show["lists"]]
    for col in "RSPQ":
        show[col] = [str(v) for v in show[col]]  # exact big integers in the CSV
    rep.add_table("counts", show, "Counts and ratios (AUC vs acc: R, S, P, Q)")
    rep.meta.update({"quick": quick, "full": full, "extended_n": ext,
                     "seed": "none (exhaustive / exact)"})
    if out is not None:
        rep.write(out)
    return rep


# --------------------------------------------------------------------------- measures
def list_measures(p: np.ndarray, y: np.ndarray, Q: np.ndarray) -> dict[str, np.ndarray]:
    """Per perturbed list (rows of Q): 1 − RMS against the true probabilities p, accuracy
    (positive iff q > 0.5) against labels y, AUC (ties ½), AUC:acc as the paper displays
    it (AUC + acc/100) and as a strictly lexicographic number (AUC + acc/(4 n₊ n₀), below
    half an AUC step).

    Examples
    --------
    >>> p = np.arange(1, 5) / 4
    >>> m = list_measures(p, p > 0.5, np.array([[0.1, 0.6, 0.4, 0.9]]))
    >>> float(m["auc"][0]), float(m["acc"][0]), float(m["auc:acc"][0])
    (0.75, 0.5, 0.755)
    """
    Q = np.atleast_2d(np.asarray(Q, dtype=np.float64))
    y = np.asarray(y, dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    rms = np.sqrt(np.mean((Q - p) ** 2, axis=1))
    acc = np.mean((Q > 0.5) == y, axis=1)
    pos, neg = Q[:, y][:, :, None], Q[:, ~y][:, None, :]
    auc = ((pos > neg).sum(axis=(1, 2)) + 0.5 * (pos == neg).sum(axis=(1, 2))) / (
        n_pos * n_neg)
    return {"1-rms": 1 - rms, "acc": acc, "auc": auc, "auc:acc": auc + acc / 100,
            "auc:acc_lex": auc + acc / (4 * n_pos * n_neg)}


# --------------------------------------------------------------------------- Table 4
def table4() -> pd.DataFrame:
    """The paper's worked example (Table 4) recomputed: paper vs ours.

    Examples
    --------
    >>> t = table4()
    >>> ours = {k: float(v) for k, v in t["ours"].items()}
    >>> ours["auc"], ours["acc"], round(ours["rms"], 3)
    (0.68, 0.6, 0.293)
    """
    from measurelab.metrics.evaluation import evaluate

    p = np.asarray(TABLE4_TRUE)
    q = np.asarray(TABLE4_PERTURBED)
    y = p > 0.5
    ours = {k: float(v[0]) for k, v in list_measures(p, y, q[None, :]).items()}
    lib = evaluate(y.astype(int), q, measures=["auc", "acc", "rms", "auc:acc"])
    signs = "".join("+" if v > 0.5 else "-" for v in q)
    notes = {
        "rms": "RMS of P against the true probabilities T; measurelab's `rms` (against the "
               f"0/1 labels) gives {float(lib['rms']):.3f}",
        "auc": f"17 of 25 positive–negative pairs in order; measurelab.evaluate gives "
               f"{float(lib['auc']):.4g}",
        "acc": f"positive iff P > 0.5; our signs {signs} vs printed {TABLE4_PAPER_SIGNS}"
               f" ({'same' if signs == TABLE4_PAPER_SIGNS else 'differ'})",
        "auc:acc": "display number AUC + acc/100 (a two-level value is not a number); "
                   f"measurelab.evaluate gives {float(lib['auc:acc']):.4g}",
    }
    rows = [{"measure": k, "paper": v, "ours": 1 - ours["1-rms"] if k == "rms" else ours[k],
             "note": notes[k]} for k, v in PAPER_TABLE4.items()]
    rows.append({"measure": "(unlabelled)", "paper": PAPER_TABLE4_UNLABELLED,
                 "ours": math.nan,
                 "note": "the text lists five numbers for four measures; 0.657 names no "
                         "measure and none of ours (1 − RMS 0.707, MAE 0.225, RMS vs labels "
                         "0.524, means of any two or three of the others) gives it"})
    df = pd.DataFrame(rows).set_index("measure")
    df["diff"] = df["ours"] - df["paper"]
    df["match"] = [bool(abs(d) <= 0.0005) if math.isfinite(d) else False for d in df["diff"]]
    return df[["paper", "ours", "diff", "match", "note"]]


def run_table4(out: Path | str | None = None, *, quick: bool = False, full: bool = False,
               progress: bool = True) -> Report:
    """Huang & Ling (2007) Table 4: the worked example of a true and a perturbed list.

    Examples
    --------
    >>> rep = run_table4(progress=False)
    >>> rep.tables["table4"]["match"].tolist()
    [True, True, True, True, False]
    """
    t = table4()
    rep = Report("huang2007-table4",
                 "Huang & Ling (2007) Table 4: a true and a perturbed ranked list")
    rep.add_text(
        "True list T: p_i = i/10, positive iff p_i > 0.5 (five of each). Perturbed list P "
        f"as printed: {list(TABLE4_PERTURBED)}. Our RMS is between P and the true "
        "probabilities T (the paper's meaning; the papers use 1 − RMS as the "
        "higher-is-better measure), AUC is the Mann–Whitney statistic of P against T's "
        "labels, accuracy predicts positive iff P > 0.5, and AUC:acc is shown with the "
        "paper's display number AUC + acc/100. "
        f"{int(t['match'].sum())} of {len(PAPER_TABLE4)} labelled values match to the "
        f"paper's digits. The text lists a fifth number, {PAPER_TABLE4_UNLABELLED}, with no "
        "measure to go with it; we cannot attribute it."
    )
    rep.add_table("table4", t, "Table 4 worked example: paper vs ours")
    rep.meta.update({"quick": quick, "full": full, "seed": "none (fixed example)"})
    if out is not None:
        rep.write(out)
    return rep
