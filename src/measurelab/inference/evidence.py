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

* the measure at its default parameters (``lift`` is ``lift@0.25``), or at another value
  of its one parameter where a study ran it (named ``name@value``, the value as
  ``format(v, 'g')``: ``spauc@0.1``); a two-level measure, a per-class row (``f1[cat]``) or
  a user's own measure has no evidence; the rows of :func:`measurelab.best_threshold`'s
  intervals are named ``best_threshold.<rule>.<quantity>`` (``best_threshold.youden.sens``);
* the setting: binary or k classes (k-class entries also name the ``average`` they hold
  for), the design (``'random'``: cases resampled jointly, ``'fixed'``: by class;
  weighted cases are another design, never studied so far), the single model, the paired
  or the unpaired difference, and the confidence level the study used (0.95);
* the method: the entry lists the method texts the study saw (a BCa interval that fell
  back to the percentile one, ``'bootstrap-percentile (BCa at edge)'``, is the BCa
  procedure);
* a study marked ``preliminary`` (a quick run that checks the harness) is no evidence: its
  entries only show that the measure is in the study.

Without its regime the verdict is per setting, not per test set: an interval whose study
found a cell below the bar says so at every n (the note names the worst cell). Given
``smaller``, the number of cases in the smaller class of the user's test set (for k classes
the smallest class), the verdict rests only on the study's cells in the same bracket of
that number (:data:`BRACKETS`: fewer than 10, 10–29, 30–99, 100–999, 1,000 or more;
:func:`bracket`), e.g. ``'bootstrap-bca (coverage 0.830 < 0.90 with 10–29 cases in the
smaller class)'``: a balanced test set of 5,000 cases is not told about a cell with 5
positives. Each cell of an evidence file records its expected count in the smaller class
(the last field of its figures, ``smaller``); a study whose cells do not (the clustered
one) gives the whole setting's verdict, as without ``smaller``.

File format (``schema`` 1): ``{"schema": 1, "source": name, "preliminary": bool, "level":
0.95, "commit", "command", "entries": [{"measure", "classes": "binary" | "k", "design",
"kind": "single" | "paired" | "unpaired", "averages": [...], "methods": [...], "cells":
int, "lowest": float, "where": str, "mean": float, "figures": [[...], ...], ...}, ...],
"cell_fields": [..., "smaller"]}`` (``figures``: one row per cell and model in the order
of ``cell_fields``, read by bracket when the last field is ``smaller``; other keys are for
the reader; ``benchmarks/covstudy/verdicts.py`` writes it, ``tools/add_smaller_field.py``
adds ``smaller``; ``data/coverage/README.md`` describes it).

Examples
--------
>>> v = coverage_verdict("f1", design="random", paired=True)
>>> v.status in ("covers", "below", "none", "preliminary")
True
>>> coverage_verdict("lift@0.1").note   # another parameter than the one studied
'no coverage evidence'
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from measurelab._util.validation import check_flag, check_int, check_level, quote, short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference._base import Interval
from measurelab.pickling import versioned_pickle

__all__ = [
    "BAR",
    "BRACKETS",
    "BRACKET_EDGES",
    "DESIGNS",
    "CoverageVerdict",
    "bracket",
    "coverage_verdict",
    "design_name",
    "evidence_by_bracket",
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
#: the regimes a verdict is given for: brackets of the number of cases in the smaller class
#: (k classes: the smallest class), split at these counts: [0, 10), [10, 30), [30, 100),
#: [100, 1000) and 1000 or more
BRACKET_EDGES: tuple[int, ...] = (10, 30, 100, 1000)
#: the brackets' labels, in order (:func:`bracket`)
BRACKETS: tuple[str, ...] = (
    f"< {BRACKET_EDGES[0]:,}",
    *(f"{lo:,}–{hi - 1:,}" for lo, hi in pairwise(BRACKET_EDGES)),
    f"≥ {BRACKET_EDGES[-1]:,}",
)
#: the field of a cell's figures that holds its expected count in the smaller class
SMALLER_FIELD = "smaller"
#: a BCa interval that fell back to the percentile one is still the BCa procedure
_FALLBACKS = {"bootstrap-percentile (BCa at edge)": "bootstrap-bca",
              "cluster-bootstrap-percentile (BCa at edge)": "cluster-bootstrap-bca"}
#: the studies' names of the rows of best_threshold's intervals:
#: ``best_threshold.<rule>.<quantity>``, e.g. ``best_threshold.youden.sens``
CHOICE_PREFIX = "best_threshold."
#: set by tests to read another folder of evidence files
_OVERRIDE: Path | None = None

Status = Literal["covers", "below", "none", "preliminary"]


@versioned_pickle
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
    bracket : the user's regime the verdict rests on (:func:`bracket`, e.g. '10–29'): then
        ``lowest``, ``where``, ``mean`` and ``cells`` are those of the cells in that
        bracket; '' when the verdict is the whole setting's (no ``smaller`` given, or a
        study without smaller-class counts)
    """

    measure: str
    status: Status
    lowest: float = math.nan
    where: str = ""
    mean: float = math.nan
    cells: int = 0
    sources: tuple[str, ...] = ()
    note: str = "no coverage evidence"
    bracket: str = ""

    @property
    def covers(self) -> bool:
        """Whether a study shows this interval covering in every cell."""
        return self.status == "covers"

    def __str__(self) -> str:
        """The verdict in words.

        Examples
        --------
        >>> print(CoverageVerdict("auc", "below", 0.792, "n=100, π=0.05", 0.95, 45,
        ...                       note="coverage 0.792 < 0.90 at n=100, π=0.05"))
        auc's interval: coverage 0.792 < 0.90 at n=100, π=0.05 (lowest of 45 cells; mean 0.95).
        >>> print(CoverageVerdict("auc", "covers", 0.93, "n=100", 0.95, 45, note=""))
        auc's interval covers in every one of 45 cells studied (lowest 0.93 at n=100; mean 0.95).
        """
        who = f"{self.measure}'s interval" if self.measure else "The interval"
        where = f" in the {self.bracket} bracket" if self.bracket else ""
        if self.covers:
            return (f"{who} covers in every one of {self.cells} cells studied{where} "
                    f"(lowest {self.lowest:.3g} at {self.where}; mean {self.mean:.3g}).")
        if self.status == "below":
            return (f"{who}: {self.note}{where} (lowest of {self.cells} cells; mean "
                    f"{self.mean:.3g}).")
        return f"{who}: {self.note or self.status}{where}."


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
    if name.startswith(CHOICE_PREFIX) and obj is None:   # a row of best_threshold's table
        return name
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
    if obj.formula is not builtin.formula:
        return ""
    if _same_params(obj.params, builtin.params):
        return builtin.name
    return _at_parameter(builtin.name, obj.params)


def _at_parameter(name: str, params: Mapping[str, Any]) -> str:
    """The name a study gives a measure at another parameter than its default,
    ``name@value`` with the value as ``format(v, 'g')`` (``spauc@0.1``); '' for a measure of
    several parameters or a parameter that is no number (never studied)."""
    if len(params) != 1:
        return ""
    (value,) = params.values()
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    return f"{name}@{float(value):g}"


def _same_params(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
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


def bracket(smaller: int) -> str:
    """The regime of a test set: the bracket (:data:`BRACKETS`) of its number of cases in
    the smaller class (for k classes the smallest class), the regime a verdict given
    ``smaller`` rests on.

    Parameters
    ----------
    smaller : int
        The number of cases in the smaller class (≥ 0).

    Returns
    -------
    str
        The bracket's label: '< 10', '10–29', '30–99', '100–999' or '≥ 1,000' (the edges
        are :data:`BRACKET_EDGES`).

    Examples
    --------
    >>> bracket(9), bracket(10), bracket(29), bracket(30)
    ('< 10', '10–29', '10–29', '30–99')
    >>> bracket(999), bracket(1000), bracket(2500)
    ('100–999', '≥ 1,000', '≥ 1,000')
    """
    count = check_int(smaller, "smaller", minimum=0)
    return BRACKETS[bisect.bisect_right(BRACKET_EDGES, count)]


# --------------------------------------------------------------------------- verdict
def coverage_verdict(measure: Any, *, multiclass: bool = False, design: str = "random",
                     paired: bool = False, unpaired: bool = False, method: str | None = None,
                     level: float = 0.95, average: str | None = "macro",
                     smaller: int | None = None, multilabel: bool = False) -> CoverageVerdict:
    """What the coverage studies say of ``measure``'s interval in one setting.

    Parameters
    ----------
    measure : str or Measure
        A registry name (an alias, or ``name@value`` at the default value, is the
        measure itself) or the Measure a comparison used.
    multiclass : bool, default False
        k classes rather than two.
    multilabel : bool, default False
        Multi-label input (a set of labels per case; the measures of
        :mod:`measurelab.measures.multilabel`), whose studies are apart from the binary
        and k-class ones.
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
    smaller : int, optional
        The number of cases in the smaller class of the test set (k classes: in the
        smallest class; two test sets: the smaller of their counts): the verdict then rests
        only on the studies' cells in its bracket (:func:`bracket`), and says so in its note
        (``'coverage 0.830 < 0.90 with 10–29 cases in the smaller class'``, ``'no coverage
        evidence with 10–29 cases in the smaller class'`` when no cell is in that
        bracket). A study whose cells carry no smaller-class count gives the whole
        setting's verdict. None: the whole setting's verdict, its worst cell at any size.

    Returns
    -------
    CoverageVerdict

    Examples
    --------
    >>> coverage_verdict("f1", level=0.8).note   # no study ran at level 0.8
    'no coverage evidence at level 0.8'
    >>> coverage_verdict("my_own_measure").status
    'none'
    >>> v = coverage_verdict("f1", smaller=2500)   # a balanced test set of 5,000 cases
    >>> v.bracket, v.status in ("covers", "below", "none")
    ('≥ 1,000', True)
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
    multilabel = check_flag(multilabel, "multilabel")
    regime = "" if smaller is None else bracket(smaller)
    if multilabel:
        from measurelab.measures.multilabel import studied_name

        name = studied_name(measure)
    else:
        name = _studied_name(measure)
    kind = "paired" if paired else "unpaired" if unpaired else "single"
    classes = "multilabel" if multilabel else "k" if multiclass else "binary"
    multiclass = multiclass or multilabel   # the averages of the entry must match
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
    if regime:
        parts = [_by_bracket(s, e) for s, e in real]
        # a study without smaller-class counts: no bracket information, the setting's verdict
        if all(p is not None for p in parts):
            return _bracket_verdict(name, [(s, p[regime]) for (s, _e), p in zip(
                real, parts, strict=True) if p is not None and regime in p], regime,
                multiclass)
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


@dataclass(frozen=True)
class _Part:
    """One entry's cells in one bracket: how many, the lowest coverage (the cell it was in)
    and the mean over them."""

    cells: int
    lowest: float
    where: str
    mean: float


def _by_bracket(study: dict[str, Any], entry: dict[str, Any]) -> dict[str, _Part] | None:
    """:func:`_bracket_parts`, computed once per loaded entry (a comparison asks it for
    every interval it prints)."""
    key = "_by_bracket"   # the loaded entries are read-only and live as long as their study
    if key not in entry:
        entry[key] = _bracket_parts(study, entry)
    return entry[key]


def _bracket_parts(study: dict[str, Any], entry: dict[str, Any]) -> dict[str, _Part] | None:
    """An entry's cells by the bracket of their smaller class (:func:`bracket`), or None
    when its figures carry no smaller-class count: no bracket information."""
    fields = study.get("cell_fields")
    figures = entry.get("figures")
    if (not isinstance(fields, list) or fields[-1:] != [SMALLER_FIELD]
            or "coverage" not in fields or not isinstance(figures, list) or not figures):
        return None
    at = fields.index("coverage")
    groups: dict[str, list[list[Any]]] = {}
    for row in figures:
        if not isinstance(row, list) or len(row) != len(fields):
            return None
        count, cov = row[-1], row[at]
        if (isinstance(count, bool) or not isinstance(count, int) or count < 0
                or isinstance(cov, bool) or not isinstance(cov, int | float)):
            return None
        groups.setdefault(bracket(count), []).append(row)
    # a cell may have a row per model (one model's interval: models a and b); the entry
    # counts its cells in its own way, shared out in proportion to its rows
    per_row = int(entry.get("cells", len(figures))) / len(figures)
    out: dict[str, _Part] = {}
    for label in BRACKETS:
        rows = groups.get(label)
        if rows:
            low = min(rows, key=lambda r: float(r[at]))   # the first lowest, as studies do
            out[label] = _Part(max(1, round(per_row * len(rows))), float(low[at]),
                               _where(fields, low, str(entry.get("classes"))),
                               sum(float(r[at]) for r in rows) / len(rows))
    return out


#: the words the studies add to a cell of these generators (benchmarks/covstudy's GEN_NOTE)
_GENERATOR_WORDS = {"sparse-flags": ", 4% flagged", "kink": ", sens = spec"}


def _where(fields: list[str], row: list[Any], classes: str) -> str:
    """A row of figures as a verdict names its cell, in the words of the study that wrote
    it: 'n=100, π=0.05', 'k=3, n=300' or 'L=5, n=300' (multi-label; and the model of
    the generators with a calibrated one; benchmarks/covstudy), 'n=1000, balanced prior,
    very_over' (the calibration study)."""
    f = dict(zip(fields, row, strict=True))
    if "param" in f and "n" in f:
        text = (f"n={int(f['n'])}, π={float(f['param']):g}" if classes == "binary"
                else f"L={int(f['param'])}, n={int(f['n'])}" if classes == "multilabel"
                else f"k={int(f['param'])}, n={int(f['n'])}")
        if f.get("generator") in ("calibrated", "softmax-calibrated", "calibrated-exact"):
            models: dict[Any, str] = {"a": ", calibrated model", "b": ", over-confident model"}
            text += models.get(f.get("model"), ", calibrated vs over-confident")
        return text + _GENERATOR_WORDS.get(str(f.get("generator")), "")
    if "prior" in f and "n" in f:
        return f"n={int(f['n'])}, {f['prior']} prior, {f.get('model')}"
    return ", ".join(f"{k}={v}" for k, v in f.items()
                     if k not in ("coverage", "mcse", "mc_se", "undefined", SMALLER_FIELD))


def _regime_words(label: str, multiclass: bool) -> str:
    """'with 10–29 cases in the smaller class' (k classes: 'in the smallest class')."""
    return f"with {label} cases in the {'smallest' if multiclass else 'smaller'} class"


def _bracket_verdict(name: str, inside: list[tuple[dict[str, Any], _Part]], label: str,
                     multiclass: bool) -> CoverageVerdict:
    """The verdict of the matching studies' cells in the bracket ``label``."""
    words = _regime_words(label, multiclass)
    if not inside:
        return CoverageVerdict(name, "none", note=f"no coverage evidence {words}",
                               bracket=label)
    low = min((p for _s, p in inside), key=lambda p: p.lowest)
    cells = sum(p.cells for _s, p in inside)
    mean = sum(p.mean * p.cells for _s, p in inside) / max(cells, 1)
    sources = tuple(dict.fromkeys(str(s["source"]) for s, _p in inside))
    if low.lowest >= BAR:
        return CoverageVerdict(name, "covers", low.lowest, low.where, mean, cells, sources,
                               note="", bracket=label)
    return CoverageVerdict(name, "below", low.lowest, low.where, mean, cells, sources,
                           note=f"coverage {low.lowest:.3f} < {BAR:.2f} {words}",
                           bracket=label)


def _method_fits(method: str | None, seen: Any) -> bool:
    """Whether an entry that saw the method texts ``seen`` is about ``method``: the same
    procedure (a BCa interval is one whether or not it fell back at the edge)."""
    return method is None or procedure(method) in {procedure(str(m)) for m in seen}


def _sources(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(str(s["source"]) for s, _e in pairs))


def method_with_evidence(method: str, measure: Any, *, bounds: tuple[float, float] | None = None,
                         smaller: int | None = None, **setting: Any) -> str:
    """``method`` as the method column prints it: unchanged when the coverage studies show
    the interval covering (:func:`coverage_verdict`), else with the reason in parentheses.

    ``setting`` is :func:`coverage_verdict`'s keywords (``multiclass``, ``design``,
    ``paired``, ``unpaired``, ``level``, ``average``); ``smaller`` the number of cases in
    the test set's smaller class (k classes: smallest), which judges the interval by the
    studies' cells in its bracket (:func:`bracket`; None: by the whole setting);
    ``bounds`` the interval's ends: an interval undefined at both ends (NaN) is no interval
    and keeps its text.

    Examples
    --------
    >>> method_with_evidence("bootstrap-bca", "lift@0.1")
    'bootstrap-bca (no coverage evidence)'
    >>> method_with_evidence("bootstrap-bca", "lift@0.1", bounds=(math.nan, math.nan))
    'bootstrap-bca'
    >>> method_with_evidence("bootstrap-bca", "lift@0.1", smaller=25)   # no study at all
    'bootstrap-bca (no coverage evidence)'
    """
    if bounds is not None and all(math.isnan(float(b)) for b in bounds):
        if smaller is not None:
            bracket(smaller)   # a bad value is an error whatever the interval
        return method
    v = coverage_verdict(measure, method=method, smaller=smaller, **setting)
    return method if v.covers else f"{method} ({v.note})"


def plain_method(text: str) -> str:
    """A method column's text without the note :func:`method_with_evidence` added.

    Examples
    --------
    >>> plain_method("bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)")
    'bootstrap-bca'
    >>> plain_method("wilson (coverage 0.830 < 0.90 with 10–29 cases in the smaller class)")
    'wilson'
    >>> plain_method("bootstrap-percentile (BCa at edge)")
    'bootstrap-percentile (BCa at edge)'
    """
    head, sep, note = str(text).rpartition(" (")
    if sep and note.endswith(")") and _EVIDENCE_NOTE.fullmatch(note[:-1]):
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


#: the notes :func:`method_with_evidence` adds (without their parentheses): no evidence
#: (a preliminary run, another level, no cell in the user's bracket) or coverage below the
#: bar (at the setting's worst cell, or in the user's bracket)
_REGIME_NOTE = r" with .+ cases in the small(?:er|est) class"
_EVIDENCE_NOTE = re.compile(
    r"no coverage evidence(?:: preliminary run| at level \S+|" + _REGIME_NOTE + ")?"
    r"|coverage \d\.\d+ < \d\.\d+(?: at .+|" + _REGIME_NOTE + ")?")


def with_evidence(interval: Interval, measure: Any, *, smaller: int | None = None,
                  **setting: Any) -> Interval:
    """``interval`` with :func:`method_with_evidence`'s method text (the same keywords:
    ``smaller``, the cases in the test set's smaller class, judges it in its regime).

    Examples
    --------
    >>> with_evidence(Interval(0.5, 0.4, 0.6, "bootstrap-bca"), "lift@0.1").method
    'bootstrap-bca (no coverage evidence)'
    >>> with_evidence(Interval(0.5, 0.4, 0.6, "bootstrap-bca"), "lift@0.1",
    ...               smaller=40).method
    'bootstrap-bca (no coverage evidence)'
    """
    return interval._replace(method=method_with_evidence(
        interval.method, measure, bounds=(interval.lo, interval.hi), smaller=smaller,
        **setting))


def evidence_table() -> Any:
    """Every entry of every coverage study shipped with measurelab, as a DataFrame: the
    study (``source``, ``preliminary``, ``level``), the setting (``measure, classes,
    design, kind, averages``), the methods seen, the cells, the lowest coverage (where), the
    mean and whether it covers (lowest ≥ :data:`BAR`); by regime: :func:`evidence_by_bracket`.

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


def evidence_by_bracket() -> Any:
    """The shipped coverage studies by regime: one row per study entry and bracket of cases
    in the smaller class (:func:`bracket`; k classes: the smallest class) that it has cells
    in, the view :func:`coverage_verdict` takes when given ``smaller``.

    Returns
    -------
    pandas.DataFrame
        Columns ``source, measure, classes, design, kind, averages, bracket`` (the brackets
        of an entry in the order of :data:`BRACKETS`), ``cells, lowest, where, mean,
        covers`` over its cells in that bracket (``covers``: lowest ≥ :data:`BAR`, never for
        a preliminary study) and ``methods``, the interval methods the entry saw. Entries
        whose cells carry no smaller-class count (e.g. the clustered study's) have no rows:
        :func:`evidence_table` shows them whole.

    Examples
    --------
    >>> t = evidence_by_bracket()
    >>> list(t.columns)[6:]
    ['bracket', 'cells', 'lowest', 'where', 'mean', 'covers', 'methods']
    >>> set(t.bracket) <= set(BRACKETS)
    True
    """
    import pandas as pd

    cols = ["source", "measure", "classes", "design", "kind", "averages", "bracket", "cells",
            "lowest", "where", "mean", "covers", "methods"]
    rows = []
    for s in _studies():
        for e in s.get("entries", ()):
            for label, p in (_by_bracket(s, e) or {}).items():
                rows.append({"source": s["source"], "measure": e.get("measure"),
                             "classes": e.get("classes"), "design": e.get("design"),
                             "kind": e.get("kind"),
                             "averages": ", ".join(e.get("averages", ())), "bracket": label,
                             "cells": p.cells, "lowest": p.lowest, "where": p.where,
                             "mean": p.mean,
                             "covers": bool(p.lowest >= BAR and not s.get("preliminary")),
                             "methods": ", ".join(e.get("methods", ()))})
    return pd.DataFrame(rows, columns=cols)
