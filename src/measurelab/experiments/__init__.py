"""Paper reproductions, one module per paper; ``measurelab reproduce NAME`` runs one.

Each reproduction is a function ``run(out: Path, *, quick: bool, full: bool,
progress: bool) -> Report`` found through :data:`REPRODUCTIONS` (name → "module:function").
It computes our numbers, sets the paper's numbers beside them with the difference and a
reason where they differ, and writes Markdown + CSV (+ a figure where one helps) to ``out``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from measurelab._validation import MeasurelabError

#: name -> "module:function"; listed by `measurelab reproduce --list`, run by `all` in order
REPRODUCTIONS: dict[str, str] = {
    "sokolova2006": "measurelab.experiments.sokolova2006:run",
    "hossin2011-table2": "measurelab.experiments.hossin2011:run_table2",
    "huang2007-table4": "measurelab.experiments.huang2007:run_table4",
    "ling2003": "measurelab.experiments.ling2003:run",
    "huang2007-table3": "measurelab.experiments.huang2007:run_table3",
    "huang2007-table5": "measurelab.experiments.huang2007:run_table5",
    "huang2007-ann": "measurelab.experiments.huang2007_ann:run",
    "hossin2011": "measurelab.experiments.hossin2011:run_mcs",
    "ling2003-nb-trees": "measurelab.experiments.ling2003_nb_trees:run",
    "caruana2004": "measurelab.experiments.caruana2004:run",
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
    return getattr(importlib.import_module(mod_name), func)


def available() -> list[str]:
    """Reproductions whose module is present in this installation."""
    out = []
    for name, target in REPRODUCTIONS.items():
        mod_name = target.split(":")[0]
        if importlib.util.find_spec(mod_name) is not None:
            out.append(name)
    return out
