"""What the coverage studies say of an interval: shown to cover, shown to fall short, or
never studied (issue 28).

A coverage study draws many test sets from populations whose value of each measure is
known and counts how often measurelab's interval contains it. The registry-wide study
(``benchmarks/coverage_study.py``: every measure that offers an interval; the single model,
the paired and the unpaired difference; binary and k classes; random and fixed designs)
and any dedicated study (e.g. of the calibration measures) each write one JSON file of
verdicts into ``measurelab/data/coverage/`` (package data). This module reads every file
there on first use (never at ``import measurelab``), merges their entries and answers
:func:`coverage_verdict`: does an interval of this measure, by this method, in this setting
have a study behind it whose every cell covered at least :data:`BAR`?

Every interval measurelab prints passes through :func:`method_with_evidence`: its method
text stays as it is when the verdict is "covers" and otherwise says why, e.g.
``'bootstrap-bca (no coverage evidence)'`` or
``'bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)'``.

What an entry covers, and what it does not:

* the measure at its default parameters (``lift`` is ``lift@0.25``); another parameter,
  a two-level measure, a per-class row (``f1[cat]``) or a user's own measure has no
  evidence;
* the setting: binary or k classes (k-class entries also name the ``average`` they hold
  for), the design (``'random'``: cases resampled jointly, ``'fixed'``: by class;
  weighted cases are another design, never studied so far), the single model, the paired
  or the unpaired difference, and the confidence level the study used (0.95);
* the method: the entry lists the method texts the study saw (a BCa interval that fell
  back to the percentile one, ``'bootstrap-percentile (BCa at edge)'``, is the BCa
  procedure);
* a study marked ``preliminary`` (a quick run that checks the harness) is no evidence: its
  entries only show that the measure is in the study.

The verdict is per setting, not per test set: an interval whose study found a cell below
the bar says so at every n (the note names the worst cell).

File format (``schema`` 1): ``{"schema": 1, "source": name, "preliminary": bool, "level":
0.95, "commit", "command", "entries": [{"measure", "classes": "binary" | "k", "design",
"kind": "single" | "paired" | "unpaired", "averages": [...], "methods": [...], "cells":
int, "lowest": float, "where": str, "mean": float, ...}, ...]}`` (other keys are for
the reader; ``benchmarks/covstudy/verdicts.py`` writes it; ``data/coverage/README.md``
describes it).

Examples
--------
>>> v = coverage_verdict("f1", design="random", paired=True)
>>> v.status in ("covers", "below", "none", "preliminary")
True
>>> coverage_verdict("lift@0.1").note   # another parameter than the one studied
'no coverage evidence'
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from measurelab._util.validation import check_flag, check_level, quote, short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference._base import Interval

__all__ = [
    "BAR",
    "DESIGNS",
    "CoverageVerdict",
    "coverage_verdict",
    "design_name",
    "evidence_table",
    "method_with_evidence",
    "plain_method",
    "procedure",
    "with_evidence",
]

#: the project's bar: a setting "covers" when its lowest cell's coverage is at least this
#: (nominal 0.95; the mean over cells should be about 0.95)
BAR = 0.90
#: the designs a verdict may be asked for (``'weighted'``: weighted cases, never studied;
#: ``'cluster'``: clusters of cases resampled, issue 31)
DESIGNS: tuple[str, ...] = ("random", "fixed", "weighted", "cluster")
#: the kinds of interval: one model's value, the paired or the unpaired difference
KINDS: tuple[str, ...] = ("single", "paired", "unpaired")
#: version of the evidence files this module reads
SCHEMA = 1
#: a BCa interval that fell back to the percentile one is still the BCa procedure
_FALLBACKS = {"bootstrap-percentile (BCa at edge)": "bootstrap-bca",
              "cluster-bootstrap-percentile (BCa at edge)": "cluster-bootstrap-bca"}
#: set by tests to read another folder of evidence files
_OVERRIDE: Path | None = None

Status = Literal["covers", "below", "none", "preliminary"]


@dataclass(frozen=True)
class CoverageVerdict:
    """What the coverage studies say of one interval.

    Attributes
    ----------
    measure : the measure's name as the studies know it ('' for a measure they cannot know)
    status : 'covers' (every cell of every matching study ≥ :data:`BAR`), 'below' (some cell
        fell short), 'none' (no study of this measure, setting, method and level) or
        'preliminary' (only quick runs, which are no evidence)
    lowest, where, mean : the lowest coverage over the matching cells, the cell it was
        in (e.g. 'n=100, π=0.05') and the mean over them (NaN, '' without evidence)
    cells : how many cells the matching studies ran
    sources : the studies the verdict rests on
    note : what the method column adds in parentheses ('' when it covers)
    """

    measure: str
    status: Status
    lowest: float = math.nan
    where: str = ""
    mean: float = math.nan
    cells: int = 0
    sources: tuple[str, ...] = ()
    note: str = "no coverage evidence"

    @property
    def covers(self) -> bool:
        """Whether a study shows this interval covering in every cell."""
        return self.status == "covers"


# --------------------------------------------------------------------------- loading
def _folder() -> Path:
    if _OVERRIDE is not None:
        return Path(_OVERRIDE)
    from importlib.resources import files

    return Path(str(files("measurelab"))) / "data" / "coverage"


@lru_cache(maxsize=4)
def _load(folder: str) -> tuple[dict[str, Any], ...]:
    """Every study file in ``folder``, parsed and checked (sorted by file name)."""
    studies: list[dict[str, Any]] = []
    seen: dict[str, str] = {}
    root = Path(folder)
    for path in sorted(root.glob("*.json")) if root.is_dir() else []:
        try:
            study = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise MeasurelabError(f"coverage evidence file {path.name} is not readable JSON "
                                  f"({e})") from None
        if not isinstance(study, dict) or study.get("schema") != SCHEMA:
            got = study.get("schema") if isinstance(study, dict) else study
            raise MeasurelabError(f"coverage evidence file {path.name} has schema "
                                  f"{short_repr(got)}; expected {SCHEMA}")
        source = str(study.get("source", ""))
        if not source or source in seen:
            raise MeasurelabError(f"coverage evidence file {path.name} needs a source name of "
                                  f"its own, got {quote(source)} (also in {seen.get(source)})")
        seen[source] = path.name
        study["_file"] = path.name
        studies.append(study)
    return tuple(studies)


def _studies() -> tuple[dict[str, Any], ...]:
    return _load(str(_folder()))


@lru_cache(maxsize=4)
def _indexed(folder: str) -> dict[tuple[str, str, str, str], list[tuple[Any, Any]]]:
    """The entries of every study by (measure, classes, design, kind)."""
    out: dict[tuple[str, str, str, str], list[tuple[Any, Any]]] = {}
    for s in _load(folder):
        for e in s.get("entries", ()):
            key = (str(e.get("measure")), str(e.get("classes")), str(e.get("design")),
                   str(e.get("kind")))
            out.setdefault(key, []).append((s, e))
    return out


# --------------------------------------------------------------------------- names
def _studied_name(measure: Any) -> str:
    """The registry name a study would know ``measure`` by, or '' (a user's measure, a
    parameter other than the default, a two-level measure, a per-class row)."""
    from measurelab.measures.base import Measure, registry

    if isinstance(measure, Measure):
        name = measure.name
        obj: Measure | None = measure
    elif isinstance(measure, str):
        name, obj = measure, None
    else:
        raise MeasurelabTypeError(f"measure must be a name or a Measure, got "
                                  f"{quote(measure)}")
    if ":" in name or "[" in name:
        return ""
    base = name.partition("@")[0]
    if base not in registry:
        return ""
    builtin = registry.get(base)   # an alias gives the measure itself
    if not builtin.formula.__module__.startswith("measurelab.measures."):
        return ""   # a user's measure registered under a built-in name
    if obj is None:
        if "@" not in name:
            return builtin.name
        try:
            obj = registry.resolve(name)[0]
        except MeasurelabError:
            return ""
    if obj.formula is not builtin.formula or not _same_params(obj.params, builtin.params):
        return ""
    return builtin.name


def _same_params(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.keys() != b.keys():
        return False
    for k, va in a.items():
        vb = b[k]
        if va is vb:
            continue
        try:
            if not (va == vb or (math.isnan(va) and math.isnan(vb))):
                return False
        except TypeError:
            return False
    return True


def design_name(stratify: bool, weighted: bool = False) -> str:
    """The design a verdict is asked for: ``'weighted'`` for weighted cases, else
    ``'fixed'`` when the cases are resampled by class, ``'random'`` when jointly.

    Examples
    --------
    >>> design_name(False), design_name(True), design_name(False, weighted=True)
    ('random', 'fixed', 'weighted')
    """
    return "weighted" if weighted else ("fixed" if stratify else "random")


# --------------------------------------------------------------------------- verdict
def coverage_verdict(measure: Any, *, multiclass: bool = False, design: str = "random",
                     paired: bool = False, unpaired: bool = False, method: str | None = None,
                     level: float = 0.95, average: str | None = "macro") -> CoverageVerdict:
    """What the coverage studies say of ``measure``'s interval in one setting.

    Parameters
    ----------
    measure : str or Measure
        A registry name (an alias, or ``name@value`` at the default value, is the
        measure itself) or the Measure a comparison used.
    multiclass : bool, default False
        k classes rather than two.
    design : {'random', 'fixed', 'weighted'}, default 'random'
        How the interval resampled: the cases jointly (a random sample), by class (fixed
        class counts), or weighted cases.
    paired, unpaired : bool, default False
        The paired difference of two models on the same cases, or the unpaired difference
        of two models on two test sets (at most one of them); neither: one model's value.
    method : str, optional
        The interval's method text as printed (e.g. 'wilson', 'bootstrap-bca'); the
        verdict then rests only on studies that saw it. None: any method studied.
    level : float, default 0.95
        The interval's confidence level; a study holds for the level it ran at.
    average : str or None, default 'macro'
        k classes only: how the per-class values were averaged.

    Returns
    -------
    CoverageVerdict

    Examples
    --------
    >>> coverage_verdict("f1", level=0.8).note   # no study ran at level 0.8
    'no coverage evidence at level 0.8'
    >>> coverage_verdict("my_own_measure").status
    'none'
    """
    multiclass = check_flag(multiclass, "multiclass")
    paired = check_flag(paired, "paired")
    unpaired = check_flag(unpaired, "unpaired")
    if paired and unpaired:
        raise MeasurelabError("paired=True and unpaired=True: an interval is of one model, "
                              "a paired or an unpaired difference; give at most one")
    if design not in DESIGNS:
        raise MeasurelabError(f"design={quote(design)} is not valid; expected one of "
                              f"{DESIGNS}")
    level = check_level(level, "level")
    if method is not None and not isinstance(method, str):
        raise MeasurelabTypeError(f"method must be the interval's method text, got "
                                  f"{quote(method)}")
    name = _studied_name(measure)
    kind = "paired" if paired else "unpaired" if unpaired else "single"
    classes = "k" if multiclass else "binary"
    none = CoverageVerdict(name, "none")
    if not name:
        return none
    same = _indexed(str(_folder())).get((name, classes, design, kind), [])
    if not same:
        return none
    at_level = [(s, e) for s, e in same if abs(float(s.get("level", 0.95)) - level) < 1e-9]
    if not at_level:
        return replace(none, note=f"no coverage evidence at level {level:g}")
    fitting = [(s, e) for s, e in at_level
               if _method_fits(method, e.get("methods", ()))
               and (not multiclass or average in e.get("averages", ()))]
    if not fitting:
        return none
    real = [(s, e) for s, e in fitting if not s.get("preliminary", False)]
    if not real:
        return CoverageVerdict(name, "preliminary", sources=_sources(fitting),
                               note="no coverage evidence: preliminary run")
    _s, e_low = min(real, key=lambda se: float(se[1]["lowest"]))
    lowest = float(e_low["lowest"])
    cells = sum(int(e.get("cells", 0)) for _s, e in real)
    mean = sum(float(e["mean"]) * int(e.get("cells", 0)) for _s, e in real) / max(cells, 1)
    where = str(e_low.get("where", ""))
    if lowest >= BAR:
        return CoverageVerdict(name, "covers", lowest, where, mean, cells, _sources(real),
                               note="")
    at = f" at {where}" if where else ""
    return CoverageVerdict(name, "below", lowest, where, mean, cells, _sources(real),
                           note=f"coverage {lowest:.3f} < {BAR:.2f}{at}")


def _method_fits(method: str | None, seen: Any) -> bool:
    """Whether an entry that saw the method texts ``seen`` is about ``method``: the same
    procedure (a BCa interval is one whether or not it fell back at the edge)."""
    return method is None or procedure(method) in {procedure(str(m)) for m in seen}


def _sources(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(str(s["source"]) for s, _e in pairs))


def method_with_evidence(method: str, measure: Any, *, bounds: tuple[float, float] | None = None,
                         **setting: Any) -> str:
    """``method`` as the method column prints it: unchanged when the coverage studies show
    the interval covering (:func:`coverage_verdict`), else with the reason in parentheses.

    ``setting`` is :func:`coverage_verdict`'s keywords (``multiclass``, ``design``,
    ``paired``, ``unpaired``, ``level``, ``average``); ``bounds`` the interval's ends: an
    interval undefined at both ends (NaN) is no interval and keeps its text.

    Examples
    --------
    >>> method_with_evidence("bootstrap-bca", "lift@0.1")
    'bootstrap-bca (no coverage evidence)'
    >>> method_with_evidence("bootstrap-bca", "lift@0.1", bounds=(math.nan, math.nan))
    'bootstrap-bca'
    """
    if bounds is not None and all(math.isnan(float(b)) for b in bounds):
        return method
    v = coverage_verdict(measure, method=method, **setting)
    return method if v.covers else f"{method} ({v.note})"


def plain_method(text: str) -> str:
    """A method column's text without the note :func:`method_with_evidence` added.

    Examples
    --------
    >>> plain_method("bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)")
    'bootstrap-bca'
    >>> plain_method("bootstrap-percentile (BCa at edge)")
    'bootstrap-percentile (BCa at edge)'
    """
    head, sep, note = str(text).rpartition(" (")
    if sep and note.endswith(")") and (note.startswith("no coverage evidence")
                                       or _COVERAGE_NOTE.match(note)):
        return head
    return str(text)


def procedure(text: str) -> str:
    """The interval procedure a method column's text names (what a study's entry is about):
    the method's name without the notes in parentheses after it (the evidence note, the
    share of undefined replicates, ...), and a BCa interval that fell back to the
    percentile one as BCa.

    Examples
    --------
    >>> procedure("bootstrap-percentile (BCa at edge) (no coverage evidence)")
    'bootstrap-bca'
    >>> procedure("bootstrap-bca (5% undefined: counted at the ends of [0, 1])")
    'bootstrap-bca'
    """
    plain = plain_method(text)
    for fallback, proc in _FALLBACKS.items():
        if plain.startswith(fallback):
            return proc
    return plain.split(" (", 1)[0]


_COVERAGE_NOTE = re.compile(r"coverage \d\.\d+ < \d\.\d+")


def with_evidence(interval: Interval, measure: Any, **setting: Any) -> Interval:
    """``interval`` with :func:`method_with_evidence`'s method text (the same keywords).

    Examples
    --------
    >>> with_evidence(Interval(0.5, 0.4, 0.6, "bootstrap-bca"), "lift@0.1").method
    'bootstrap-bca (no coverage evidence)'
    """
    return interval._replace(method=method_with_evidence(
        interval.method, measure, bounds=(interval.lo, interval.hi), **setting))


def evidence_table() -> Any:
    """Every entry of every coverage study shipped with measurelab, as a DataFrame: the
    study (``source``, ``preliminary``, ``level``), the setting (``measure, classes,
    design, kind, averages``), the methods seen, the cells, the lowest coverage (where), the
    mean and whether it covers (lowest ≥ :data:`BAR`).

    Examples
    --------
    >>> t = evidence_table()
    >>> list(t.columns)[:6]
    ['source', 'preliminary', 'level', 'measure', 'classes', 'design']
    """
    import pandas as pd

    cols = ["source", "preliminary", "level", "measure", "classes", "design", "kind",
            "averages", "methods", "cells", "lowest", "where", "mean", "covers"]
    rows = []
    for s in _studies():
        for e in s.get("entries", ()):
            lowest = float(e.get("lowest", math.nan))
            rows.append({"source": s["source"], "preliminary": bool(s.get("preliminary")),
                         "level": float(s.get("level", 0.95)), "measure": e.get("measure"),
                         "classes": e.get("classes"), "design": e.get("design"),
                         "kind": e.get("kind"),
                         "averages": ", ".join(e.get("averages", ())),
                         "methods": ", ".join(e.get("methods", ())),
                         "cells": int(e.get("cells", 0)), "lowest": lowest,
                         "where": e.get("where", ""), "mean": float(e.get("mean", math.nan)),
                         "covers": bool(lowest >= BAR and not s.get("preliminary"))})
    return pd.DataFrame(rows, columns=cols)
