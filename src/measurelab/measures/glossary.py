"""A glossary of measures, generated from the registry, for every page that shows them.

Each entry: the short name, its full name, its aliases, its range, which values are
better and one line of what it means — taken from the registered measure (its metadata
and the first paragraph of its formula's docstring), so a page never leaves a name such as
``mxe`` unexplained.

Examples
--------
>>> e = glossary_entry("mxe")
>>> e["full_name"], e["direction"], "log_loss" in e["aliases"]
('Mean cross-entropy (log loss)', 'lower is better', True)
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Iterable
from typing import Any

from measurelab.measures.base import registry

__all__ = ["glossary", "glossary_entry", "glossary_html"]

#: longest "one line of meaning" (characters)
MEANING_LIMIT = 180


#: full names the docstrings do not start with (a name, then ':')
_FULL_NAMES = {
    "mxe": "Mean cross-entropy (log loss)",
    "brier_mcb": "Brier miscalibration (ℓ2 calibration error)",
    "logloss_mcb": "Log-loss miscalibration",
    "brier_dsc": "Brier discrimination",
    "logloss_dsc": "Log-loss discrimination",
}

#: one plain line for the measures most pages show (others: the docstring's first sentence)
_PLAIN = {
    "auc": "the chance that a random positive case is scored above a random negative one "
           "(0.5: no better than chance)",
    "ap": "precision averaged over the recall levels of the ranking (summarises the "
          "precision–recall curve)",
    "brier": "mean squared distance between the predicted probability and the outcome "
             "(0 or 1)",
    "mxe": "log loss: the average −log of the probability given to the true class; "
           "punishes confident mistakes",
    "f1": "harmonic mean of precision and recall at the threshold",
    "mcc": "correlation between predicted and true classes at the threshold (0: chance, "
           "1: perfect)",
    "acc": "share of cases whose predicted class is right",
    "err": "share of cases whose predicted class is wrong",
    "ece": "average gap between predicted probability and observed frequency over 10 "
           "bins of the predictions",
    "smece": "calibration error of a kernel-smoothed reliability curve (binning-free)",
    "ici": "average distance between the predictions and a smooth (loess) calibration "
           "curve",
    "brier_mcb": "the part of the Brier score due to miscalibration (0: calibrated)",
    "spiegelhalter_z": "a test statistic of calibration; near 0 for a calibrated model",
    "cal_slope": "slope of the outcome's log-odds on the predictions' log-odds (1: "
                 "calibrated; below 1: predictions too extreme)",
    "cal_intercept": "calibration-in-the-large: the log-odds shift the predictions need "
                     "(0: calibrated; above 0: predictions too low on the whole)",
    "kappa": "agreement between predicted and true classes beyond chance",
    "sens": "share of positive cases predicted positive (recall)",
    "spec": "share of negative cases predicted negative",
    "prec": "share of cases predicted positive that are positive",
    "bacc": "mean of the recall of each class",
    "net_benefit": "true positives minus false positives weighted by the odds of the "
                   "threshold, per case (decision-curve analysis)",
}


def _first_paragraph(measure: Any) -> str:
    doc = inspect.getdoc(measure.formula) or ""
    para = doc.split("\n\n", 1)[0]
    return " ".join(para.split())


def _range_text(lo: float, hi: float) -> str:
    def num(x: float) -> str:
        return "∞" if math.isinf(x) and x > 0 else ("−∞" if math.isinf(x) else f"{x:g}")

    return f"[{num(lo)}, {num(hi)}]"


def glossary_entry(name: str) -> dict[str, str]:
    """The glossary entry of a measure (any registered name or alias; ``name@param`` and
    per-class rows ``name[class]`` give their base measure's entry).

    Examples
    --------
    >>> glossary_entry("log_loss")["measure"], glossary_entry("f1[cat]")["measure"]
    ('mxe', 'f1[cat]')
    >>> glossary_entry("f_beta@2")["measure"]
    'f_beta'
    >>> glossary_entry("auc")["direction"]
    'higher is better'
    """
    base = str(name).split("[", 1)[0]
    m = registry.get(base.split("@", 1)[0])
    text = _first_paragraph(m)
    head, sep, rest = text.partition(":")
    if sep and 0 < len(head) <= 60:
        full, meaning = head.strip(), rest.strip()
    else:
        full, meaning = m.name, text
    full = _FULL_NAMES.get(m.name, full)
    first = _PLAIN.get(m.name) or re.split(r"(?<=[.;])\s", meaning, maxsplit=1)[0]
    first = first.replace("``", "").rstrip(";")
    if len(first) > MEANING_LIMIT:
        first = first[: MEANING_LIMIT - 1].rstrip() + "…"
    direction = m.direction
    return {
        "measure": str(name) if "[" in str(name) else m.name,
        "full_name": full,
        "aliases": ", ".join(a for a in m.aliases if a != m.name),
        "range": _range_text(*m.range),
        "direction": f"{direction} is better",
        "meaning": first,
    }


def glossary(names: Iterable[str]) -> Any:
    """The glossary of ``names`` as a DataFrame (one row per distinct measure, in order;
    names the registry does not know are left out).

    Examples
    --------
    >>> glossary(["auc", "mxe", "auc"])["measure"].tolist()
    ['auc', 'mxe']
    """
    import pandas as pd

    rows, seen = [], set()
    for n in names:
        try:
            e = glossary_entry(str(n).split("[", 1)[0])
        except Exception:  # a name the registry does not know (a custom row)
            continue
        if e["measure"] not in seen:
            seen.add(e["measure"])
            rows.append(e)
    return pd.DataFrame(rows, columns=["measure", "full_name", "aliases", "range",
                                       "direction", "meaning"])


def glossary_html(names: Iterable[str], *, open: bool = False) -> str:
    """The glossary of ``names`` as a page section (collapsed unless ``open``).

    Examples
    --------
    >>> "log loss" in glossary_html(["mxe"])
    True
    """
    from measurelab import pages

    g = glossary(names)
    return pages.details(f"Glossary: the {len(g)} measures on this page (full name, other "
                         "names, range, which values are better, meaning)",
                         pages.table(g, index=False), open=open)
