"""Paper reproductions, one module per paper; ``measurelab reproduce NAME`` runs one.

Each reproduction is a function ``run(out: Path, *, quick: bool, full: bool,
progress: bool) -> Report`` found through :data:`REPRODUCTIONS` (name → "module:function").
It computes our numbers, sets the paper's numbers beside them with the difference and a
reason where they differ, and writes Markdown + CSV (+ a figure where one helps) to ``out``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from measurelab.exceptions import MeasurelabError

#: name -> "module:function"; listed by `measurelab reproduce --list`, run by `all` in order
REPRODUCTIONS: dict[str, str] = {
    "sokolova2006": "measurelab.lab.experiments.sokolova2006:run",
    "hossin2011-table2": "measurelab.lab.experiments.hossin2011:run_table2",
    "huang2007-table4": "measurelab.lab.experiments.huang2007:run_table4",
    "ling2003": "measurelab.lab.experiments.ling2003:run",
    "huang2007-table3": "measurelab.lab.experiments.huang2007:run_table3",
    "huang2007-table5": "measurelab.lab.experiments.huang2007_table5:run_table5",
    "huang2007-ann": "measurelab.lab.experiments.huang2007_ann:run",
    "hossin2011": "measurelab.lab.experiments.hossin2011:run_mcs",
    "ling2003-nb-trees": "measurelab.lab.experiments.ling2003_nb_trees:run",
    "caruana2004": "measurelab.lab.experiments.caruana2004:run",
    "ling2003-examples": "measurelab.lab.experiments.examples:run_ling2003",
    "huang2007-examples": "measurelab.lab.experiments.examples:run_huang2007",
    "datasets-tables": "measurelab.lab.experiments.datasets_tables:run",
}

#: paper key -> citation, the headings of the contents page
PAPERS: dict[str, str] = {
    "ling2003": "Ling, Huang & Zhang (2003), AUC: a statistically consistent and more "
                "discriminating measure than accuracy (IJCAI)",
    "huang2007": "Huang & Ling (2007), Constructing new and better evaluation measures for "
                 "machine learning (IJCAI)",
    "sokolova2006": "Sokolova, Japkowicz & Szpakowicz (2006), Beyond accuracy, F-score and "
                    "ROC (AI 2006)",
    "hossin2011": "Hossin, Sulaiman, Mustapha, Mustapha & Rahmat (2011), A hybrid evaluation "
                  "metric for optimizing classifier (DMO)",
    "caruana2004": "Caruana & Niculescu-Mizil (2004), Data mining in metric space (KDD)",
    "data": "The data sets the papers used, compared with ours",
}

#: name -> paper key, one-line description and the run time with --quick and with --full,
#: measured once on the 2-core development machine (quick times under load, so upper bounds;
#: the full times of caruana2004, huang2007-ann, hossin2011 and ling2003-nb-trees on an
#: otherwise idle machine, 2026-11-22)
INFO: dict[str, dict[str, str]] = {
    "sokolova2006": {
        "paper": "sokolova2006", "quick": "< 1 s", "full": "< 1 s",
        "what": "Tables 3-6 from the confusion matrices of Table 2",
    },
    "hossin2011-table2": {
        "paper": "hossin2011", "quick": "< 1 s", "full": "< 1 s",
        "what": "Table 2a-d: OARP vs accuracy on given confusion counts",
    },
    "huang2007-table4": {
        "paper": "huang2007", "quick": "< 1 s", "full": "< 1 s",
        "what": "Table 4: a true and a perturbed ranked list",
    },
    "ling2003": {
        "paper": "ling2003", "quick": "3 s", "full": "4 min",
        "what": "C and D of AUC vs accuracy, balanced and imbalanced lists, extended to "
                "n = 100+",
    },
    "huang2007-table3": {
        "paper": "huang2007", "quick": "< 1 s", "full": "30 s",
        "what": "Table 3: AUC:acc vs AUC and acc (consistency, discriminancy)",
    },
    "huang2007-table5": {
        "paper": "huang2007", "quick": "1 s", "full": "16 s",
        "what": "Table 5: correlation with 1 - RMS on perturbed lists",
    },
    "huang2007-ann": {
        "paper": "huang2007", "quick": "20 s", "full": "14 min",
        "what": "Tables 7-8: networks stopped by AUC:acc, AUC and acc",
    },
    "hossin2011": {
        "paper": "hossin2011", "quick": "40 s", "full": "8 min",
        "what": "Tables 4-5: Monte Carlo prototype selection by accuracy vs OARP",
    },
    "ling2003-nb-trees": {
        "paper": "ling2003", "quick": "7 s", "full": "1.5 min",
        "what": "naive Bayes vs trees vs SVM by AUC and accuracy on UCI data",
    },
    "caruana2004": {
        "paper": "caruana2004", "quick": "2-8 min", "full": "25 min",
        "what": "the metric-space study: findings, Figure 1, Tables 1-4",
    },
    "ling2003-examples": {
        "paper": "ling2003", "quick": "3 s", "full": "3 s",
        "what": "Tables 1-4: the worked AUC example and the counter-examples, checked "
                "by the measures",
    },
    "huang2007-examples": {
        "paper": "huang2007", "quick": "< 1 s", "full": "< 1 s",
        "what": "Tables 1-2 and the Table 2 AUC discrepancy (2/5 printed, 3/5 computed)",
    },
    "datasets-tables": {
        "paper": "data", "quick": "1-9 s", "full": "1-9 s",
        "what": "Huang Table 6 and Hossin Table 3 beside the data sets actually used",
    },
}


def get(name: str) -> Callable[..., Any]:
    """The run function of a reproduction."""
    if name not in REPRODUCTIONS:
        import difflib

        close = difflib.get_close_matches(name, list(REPRODUCTIONS), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise MeasurelabError(
            f"unknown reproduction {name!r}{hint} (`measurelab reproduce --list` lists them)"
        )
    mod_name, func = REPRODUCTIONS[name].split(":")
    return _checked(getattr(importlib.import_module(mod_name), func))


def _checked(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(out, *, quick, full, progress)`` with the parameters given checked first:
    ``out`` a folder path (not a file, not empty), the flags True or False, not both
    quick and full (``fn``'s own defaults stay)."""
    import functools

    from measurelab.validation import check_flag, check_output_folder

    @functools.wraps(fn)
    def run(out: Any = None, **kwargs: Any) -> Any:
        folder = None if out is None else check_output_folder(out, "out")
        for flag in ("quick", "full", "progress"):
            if flag in kwargs:
                kwargs[flag] = check_flag(kwargs[flag], flag)
        if kwargs.get("quick") and kwargs.get("full"):
            raise MeasurelabError("quick and full exclude each other")
        return fn(folder, **kwargs) if folder is not None else fn(**kwargs)

    return run


def describe(name: str) -> str:
    """One line for ``--list``: the name, what it reproduces, the expected run times.

    Examples
    --------
    >>> describe("ling2003-examples").startswith("ling2003-examples")
    True
    """
    info = INFO.get(name)
    if info is None:
        return name
    return f"{name:<20} {info['what']} (--quick {info['quick']}, --full {info['full']})"


def citations() -> dict[str, str]:
    """Reproduction name -> the citation of its paper: the headings of the contents page
    (pass it as ``papers`` to :func:`measurelab.lab.report.site.write_index`).

    Examples
    --------
    >>> citations()["sokolova2006"].startswith("Sokolova, Japkowicz & Szpakowicz (2006)")
    True
    """
    return {name: PAPERS.get(info["paper"], info["paper"]) for name, info in INFO.items()}


def available() -> list[str]:
    """Reproductions whose module is present in this installation."""
    out = []
    for name, target in REPRODUCTIONS.items():
        mod_name = target.split(":")[0]
        if importlib.util.find_spec(mod_name) is not None:
            out.append(name)
    return out
