"""Why a finding of Caruana & Niculescu-Mizil (2004) does not hold on our data: candidate
explanations, each decided by a check computed from the study's own tables.

An explanation is a claim like any other: it is printed only with the check that supports
or refutes it (:class:`~measurelab.lab.experiments._verdict.Check`), and a failed finding that
no check explains is reported as unexplained. The checks read

* ``normalized``: one row per (problem, model) with the normalized test score of every
  measure, the model's algorithm and whether it is above the baseline
  (:attr:`measurelab.lab.study.analysis.Analysis.normalized`);
* the analysis tables ``rank_correlation``, ``algorithms_by_problem``, ``selection`` and
  ``selection_by_problem``.

Model names carry their settings as JSON after the algorithm (``ann {"epochs": 16, ...}``),
which is how a check finds a net's epochs or a boosted model's steps. A value a check
needs that is undefined (NaN) leaves that check out rather than deciding it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from measurelab.lab.experiments._verdict import Check
from measurelab.lab.study.analysis import BASE, GROUPS
from measurelab.lab.study.zoo import Unit

#: the six threshold and ordering measures, and the three probability measures
THRESHOLD_ORDERING: tuple[str, ...] = tuple(
    m for m in BASE if GROUPS[m] in ("threshold", "ordering"))
PROBABILITY: tuple[str, ...] = tuple(m for m in BASE if GROUPS[m] == "probability")
#: algorithms whose scores are leaf or neighbour frequencies (many tied scores)
FREQUENCY_SCORERS: tuple[str, ...] = ("knn", "dt", "bag-dt")
#: the equivalence margin of the selection check, in normalized-score units (1 % of the
#: distance from the baseline to the best model)
SELECTION_MARGIN = 0.01


def params(models: pd.Series) -> pd.DataFrame:
    """The settings encoded in model names (``"ann {json}"``), one row per model.

    Examples
    --------
    >>> params(pd.Series(['ann {"epochs": 16, "hidden": 2}', "nb {}"])).to_dict("records")
    [{'epochs': 16.0, 'hidden': 2.0}, {'epochs': nan, 'hidden': nan}]
    """
    rows = []
    for name in models:
        _, _, rest = str(name).partition(" ")
        rows.append(json.loads(rest) if rest.strip().startswith("{") else {})
    return pd.DataFrame(rows, index=models.index)


def rank_of(values: pd.Series, key: str) -> int:
    """1-based rank of ``key`` in ``values`` sorted descending; ties share the best rank
    and undefined (NaN) values of the others are not counted.

    Examples
    --------
    >>> rank_of(pd.Series({"a": 0.9, "b": 0.7, "c": 0.9, "d": float("nan")}), "c")
    1
    """
    return int((values > values[key]).sum()) + 1


def _ranked(values: pd.Series, key: str) -> int | None:
    """:func:`rank_of`, or None when ``key``'s own value is undefined."""
    if key not in values.index or math.isnan(float(values[key])):
        return None
    return rank_of(values, key)


def picked_on_test(normalized: pd.DataFrame, algos: list[str]) -> pd.DataFrame:
    """Each algorithm's normalized score on each measure when its model is picked on the
    test set itself (per problem and measure the algorithm's best normalized test score),
    averaged over problems; ``mean`` over the nine measures.

    Examples
    --------
    >>> n = pd.DataFrame({"problem": ["p", "p", "p"], "algo": ["a", "a", "b"],
    ...                   **{m: [0.2, 0.9, 0.5] for m in BASE}})
    >>> picked_on_test(n, ["a", "b"])["mean"].round(2).to_dict()
    {'a': 0.9, 'b': 0.5}
    """
    part = normalized[normalized["algo"].isin(algos)]
    best = part.groupby(["problem", "algo"])[list(BASE)].max()
    out = best.groupby(level="algo").mean()
    out["mean"] = out[list(BASE)].mean(axis=1)
    return out


def best_setting_at_edge(normalized: pd.DataFrame, algo: str, param: str,
                         columns: Sequence[str]) -> tuple[int, int, float]:
    """(problems on which the best ``algo`` model, by the mean normalized test score over
    ``columns``, has the grid's largest ``param``; problems counted; that largest value).

    Models tied at the best score count as the smallest ``param`` among them (identical
    models, e.g. boosting that stopped early, do not put a problem at the edge). Problems
    whose scores are all undefined are not counted.

    Examples
    --------
    >>> n = pd.DataFrame({"problem": ["p", "p", "q", "q"], "algo": "bst",
    ...                   "model": [f'bst {{"steps": {s}}}' for s in (8, 64, 8, 64)],
    ...                   "acc": [0.5, 0.9, 0.7, 0.7]})
    >>> best_setting_at_edge(n, "bst", "steps", ("acc",))
    (1, 2, 64.0)
    """
    part = normalized[normalized["algo"] == algo]
    if part.empty:
        return 0, 0, float("nan")
    p = params(part["model"])
    if param not in p:
        return 0, 0, float("nan")
    top = float(p[param].max())
    score = part[list(columns)].mean(axis=1)
    at_edge = counted = 0
    for prob in part["problem"].unique():
        s = score[part["problem"] == prob].dropna()
        if s.empty:
            continue
        counted += 1
        at_edge += int(p.loc[s.index[s == s.max()], param].min() == top)
    return at_edge, counted, top


def _edge_check(normalized: pd.DataFrame, algo: str, param: str, what: str,
                columns: Sequence[str], columns_label: str) -> Check | None:
    k, n, top = best_setting_at_edge(normalized, algo, param, columns)
    if n == 0:
        return None
    return Check(
        f"our {algo.upper()} grid may stop short of its best {what}: they sit at the "
        f"largest {param} we tried ({top:g})",
        f"on each problem, the {param} of the {algo.upper()} model with the best mean "
        f"normalized test score over {columns_label} (ties: the smallest); supported if "
        "it is the grid's largest on most problems",
        f"the largest {param} ({top:g}) is the best on {k} of {n} problems",
        k * 2 > n)


def _per_problem_check(by_problem: pd.DataFrame | None, algo: str,
                       algos: list[str]) -> Check | None:
    if by_problem is None or algo not in by_problem.index.get_level_values("algo"):
        return None
    ranks = {}
    for prob, part in by_problem.groupby(level="problem"):
        here = part.droplevel("problem")
        r = _ranked(here.loc[[a for a in algos if a in here.index], "mean"], algo)
        if r is not None:
            ranks[prob] = r
    if not ranks:
        return None
    first = sum(r == 1 for r in ranks.values())
    return Check(
        f"{algo.upper()} is the best algorithm on most problems; only the mean over "
        "problems puts it lower",
        f"{algo.upper()}'s rank on each problem by mean normalized score (validation-picked); "
        "supported if it ranks first on most problems",
        f"first on {first} of {len(ranks)} problems (" + ", ".join(
            f"{p.upper()} {r}" for p, r in ranks.items()) + ")",
        first * 2 > len(ranks))


def longer_ann_units(measures: pd.DataFrame,
                     factors: tuple[int, ...] = (2, 4)) -> list[Unit]:
    """Per problem, the ANN setting (hidden units, momentum) whose net at the grid's most
    epochs has the best validation SAR, as a unit read off at those epochs and at
    ``factors`` times as many (the first variant repeats the study's model exactly: same
    unit name, same seed). Nets tied on SAR: the first in the order of ``measures`` (the
    store's, by model name). Problems without a defined SAR are left out.

    Examples
    --------
    >>> m = pd.DataFrame({"problem": ["p", "p"], "algo": ["ann", "ann"], "split": "valid",
    ...                   "model": ['ann {"epochs": 64, "hidden": 2, "momentum": 0.0}',
    ...                             'ann {"epochs": 64, "hidden": 8, "momentum": 0.9}'],
    ...                   "sar": [0.7, 0.8]})
    >>> u = longer_ann_units(m)[0]
    >>> u.id, [dict(v)["epochs"] for v in u.variants]
    ('ann_hidden=8_momentum=0.9', [64, 128, 256])
    """
    ann = measures[(measures["algo"] == "ann") & (measures["split"] == "valid")]
    if ann.empty:
        return []
    p = params(ann["model"])
    top = int(p["epochs"].max())
    last = ann[p["epochs"] == top]
    units = []
    for prob, part in last.groupby("problem", sort=True):
        sar = part["sar"].dropna()
        if sar.empty:
            continue
        best = sar.idxmax()
        h, mo = int(p.loc[best, "hidden"]), float(p.loc[best, "momentum"])
        units.append(Unit(str(prob), "ann", (("hidden", h), ("momentum", mo)),
                          tuple((("epochs", top * f),) for f in (1, *factors))))
    return units


def algorithm_order(tables: dict[str, pd.DataFrame], normalized: pd.DataFrame | None,
                    algos: list[str],
                    longer: tuple[pd.DataFrame, list[int]] | None = None) -> list[Check]:
    """Checks of why ANN is not the best algorithm overall. ``longer``: the per-algorithm
    table of the analysis rerun with the nets of :func:`longer_ann_units` added, and their
    epochs (it replaces the grid-edge check, which only says whether training on might
    help).

    Examples
    --------
    >>> algorithm_order({}, None, ["ann", "svm"])
    []
    """
    checks = []
    if normalized is not None:
        tp = picked_on_test(normalized, algos)
        r = _ranked(tp["mean"], "ann")
        if r is not None:
            checks.append(Check(
                "the paper took each algorithm's best setting on the test data (it names no "
                "separate selection set) where we pick on a validation split",
                "each algorithm's best model per problem and measure picked on the test set "
                "itself; supported if ANN then ranks first",
                f"ANN ranks {r} of {len(tp)} (mean {tp.loc['ann', 'mean']:.3f}; best "
                f"{tp['mean'].idxmax().upper()} {tp['mean'].max():.3f})",
                r == 1))
        edge = None if longer is not None else _edge_check(
            normalized, "ann", "epochs", "nets", BASE, "the nine measures")
        if edge is not None:
            checks.append(edge)
    if longer is not None:
        alg2, epochs = longer
        mean = alg2.loc[[a for a in algos if a in alg2.index], "mean"]
        r = _ranked(mean, "ann")
        if r is not None:
            checks.append(Check(
                "our nets are trained too briefly: trained on, ANN would be the best "
                "algorithm",
                "on each problem the ANN setting with the best validation SAR at the grid's "
                f"most epochs, read off after {', '.join(map(str, epochs))} epochs, added "
                "to the models and the whole analysis rerun; supported if ANN then ranks "
                "first",
                f"ANN ranks {r} of {len(mean)} (mean {mean['ann']:.3f}; best "
                f"{mean.idxmax().upper()} {mean.max():.3f})",
                r == 1))
    per = _per_problem_check(tables.get("algorithms_by_problem"), "ann", algos)
    if per is not None:
        checks.append(per)
    return checks


def boosting_tradeoff(tables: dict[str, pd.DataFrame], normalized: pd.DataFrame | None,
                      algos: list[str], holds: Callable[[int, int], bool],
                      rank_to: int) -> list[Check]:
    """Checks of why boosted trees do not show the paper's strong-threshold / weak-
    probability profile; ``holds(rank_to, rank_pr)`` is the finding's rule and ``rank_to``
    BST-DT's rank on threshold and ordering measures in our tables (the steps check speaks
    only to that half, so it is made only when that half fails, ``rank_to > 2``).

    Examples
    --------
    >>> boosting_tradeoff({}, None, ["bst-dt"], lambda a, b: True, 1)
    []
    """
    if normalized is None:
        return []
    checks = []
    tp = picked_on_test(normalized, algos)
    to = tp[list(THRESHOLD_ORDERING)].mean(axis=1)
    pr = tp[list(PROBABILITY)].mean(axis=1)
    r_to, r_pr = _ranked(to, "bst-dt"), _ranked(pr, "bst-dt")
    if r_to is not None and r_pr is not None:
        checks.append(Check(
            "the paper took each algorithm's best setting on the test data where we pick "
            "on a validation split",
            "the finding's rule with every algorithm's model picked on the test set itself",
            f"BST-DT ranks {r_to} of {len(tp)} on threshold + ordering measures and {r_pr} "
            "on probability measures",
            holds(r_to, r_pr)))
    if rank_to > 2:
        edge = _edge_check(normalized, "bst-dt", "steps", "threshold and ordering scores",
                           THRESHOLD_ORDERING, "the six threshold and ordering measures")
        if edge is not None:
            checks.append(edge)
    return checks


def within_between(rc: pd.DataFrame, cluster: list[str]) -> tuple[float, float]:
    """Mean 1 − ρ between the measures of ``cluster``, and from them to the measures
    outside the ordering group (SAR apart).

    Examples
    --------
    >>> m = ["acc", "auc", "apr"]
    >>> rc = pd.DataFrame([[1, .2, .2], [.2, 1, .9], [.2, .9, 1]], index=m, columns=m)
    >>> tuple(round(x, 2) for x in within_between(rc, ["auc", "apr"]))
    (0.1, 0.8)
    """
    m = [c for c in rc.columns if c != "mean"]
    D = 1.0 - rc[m]
    others = [c for c in m if c not in ("auc", "apr", "bep", "lft", "sar")]
    within = float(np.mean([D.loc[a, b] for a in cluster for b in cluster if a < b]))
    between = float(D.loc[cluster, others].to_numpy().mean())
    return within, between


def ordering_cluster(tables: dict[str, pd.DataFrame]) -> list[Check]:
    """Checks of why AUC, APR, BEP and LFT do not form a cluster.

    Examples
    --------
    >>> m = ["acc", "auc", "apr", "bep"]
    >>> rc = pd.DataFrame(0.2, index=m, columns=m) + np.diag([0.8] * 4)
    >>> rc.loc[["auc", "apr", "bep"], ["auc", "apr", "bep"]] = 0.9
    >>> ordering_cluster({"rank_correlation": rc})[0].supports
    True
    """
    rc = tables.get("rank_correlation")
    if rc is None:
        return []
    w, b = within_between(rc, ["auc", "apr", "bep"])
    return [Check(
        "LFT (q = 0.25) is the odd one out of the four ordering measures",
        "the same within / between comparison for AUC, APR and BEP alone; supported if "
        "they cluster",
        f"mean 1 − ρ within = {w:.3f}, to ACC/FSC/RMS/MXE/CAL = {b:.3f}",
        w < b)]


def rms_mxe(normalized: pd.DataFrame | None) -> list[Check]:
    """Checks of why RMS and MXE are not each other's nearest measure.

    Examples
    --------
    >>> rms_mxe(None)
    []
    """
    if normalized is None:
        return []
    from measurelab.metaeval import metric_space as msp

    keep = normalized[normalized["kept"] & ~normalized["algo"].isin(FREQUENCY_SCORERS)]
    cols = [*BASE, "sar"]
    frames = [g.set_index("model")[cols] for _, g in keep.groupby("problem") if len(g) > 2]
    if not frames:
        return []
    rc = msp.mean_rank_correlation(frames).loc[cols, cols]
    D = 1.0 - rc
    near = D.loc["rms", [c for c in cols if c not in ("rms", "sar")]].idxmin()
    near2 = D.loc["mxe", [c for c in cols if c not in ("mxe", "sar")]].idxmin()
    return [Check(
        "the models whose scores are leaf or neighbour frequencies (k-NN, trees, bagged "
        "trees) make MXE rank models unlike RMS",
        "the rank correlations recomputed without those models; supported if RMS and MXE "
        "are then nearest to each other",
        f"ρ(RMS, MXE) = {rc.loc['rms', 'mxe']:.3f}; RMS's nearest is {near.upper()}, MXE's "
        f"is {near2.upper()}",
        near == "mxe" or near2 == "rms")]


def sar_selection(tables: dict[str, pd.DataFrame],
                  margin: float = SELECTION_MARGIN) -> list[Check]:
    """Checks of why selecting by SAR is not the best: whether SAR and the best selector
    are equivalent within ``margin`` (two one-sided t-tests over the problems at 5 %,
    i.e. the 90 % t-interval of the mean per-problem gap inside ±margin).

    Examples
    --------
    >>> m = ["acc", "sar"]
    >>> sel = pd.DataFrame({"mean": [0.9, 0.8]}, index=m)
    >>> sar_selection({"selection": sel})[0].supports
    False
    """
    sel = tables.get("selection")
    if sel is None or "sar" not in sel.index:
        return []
    means = sel["mean"].dropna()
    if "sar" not in means.index:
        return []
    best = means.idxmax()
    gap = float(means.max() - means["sar"])
    top = means.sort_values(ascending=False)
    k = min(max(rank_of(means, "sar"), 3), len(top))
    head = (f"SAR is {gap:.3f} below the best ({best.upper()}); the top {k} selectors lie "
            f"within {top.iloc[0] - top.iloc[k - 1]:.3f} of each other")
    what = (f"SAR and {best.upper()} select equally well: the gap is within ±{margin:g} of "
            "normalized score")
    by = tables.get("selection_by_problem")
    if by is None or best == "sar":
        return [Check(what, "the gap over problems", head + "; no per-problem table to "
                      "test it", False)]
    from scipy import stats

    m = by["mean"].unstack("selected_by")
    d = (m[best] - m["sar"]).dropna().to_numpy()
    if d.size < 2:
        problems = f"{d.size} problem{'' if d.size == 1 else 's'}"
        return [Check(what, "the gap over problems", f"{head}; {problems}", False)]
    mean, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(d.size))
    half = float(stats.t.ppf(0.95, d.size - 1)) * se
    lo, hi = mean - half, mean + half
    return [Check(
        what,
        f"the 90 % t-interval of the mean per-problem gap (best selector − SAR) over the "
        f"{d.size} problems; supported if it lies inside ±{margin:g} (equivalence by two "
        "one-sided tests at 5 %)",
        head + f"; per problem the gap is {', '.join(f'{x:+.3f}' for x in d)}, interval "
        f"[{lo:+.3f}, {hi:+.3f}]",
        bool(-margin < lo and hi < margin))]
