"""Every dotted name of the package that the docs mention resolves.

The docs are README.md, docs/*.md and the newest version's section of CHANGELOG.md. A
name is inline code (between single backticks, outside fenced blocks) that starts with
``measurelab.`` or ``ml.`` (the README's ``import measurelab as ml``); call parentheses
and anything after the dotted path (``(y, s)``, ``.<name>``, ``.*``) are dropped. A name
resolves by importing its longest importable module prefix and taking the rest as
attributes, with ``MeasurelabDeprecationWarning`` an error: a name that answers only
with a deprecation warning is not documented as current.

The exceptions are the names the docs themselves present as removed, listed in
``NOT_CURRENT`` with the sentence that says so; each must be gone.
The README's count of top-level names (and the other "N top-level names") is
``len(measurelab.__all__)``.
"""

from __future__ import annotations

import importlib
import re
import warnings
from pathlib import Path

import pytest

import measurelab
from measurelab.exceptions import MeasurelabDeprecationWarning

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.S | re.M)
# a code span: one backtick each side, never across a blank line
SPAN = re.compile(r"(?<!`)`([^`]+?)`(?!`)")
NAME = re.compile(r"@?(?:measurelab|ml)(?:\.[A-Za-z_]\w*)+")

REMOVED = "removed"  # the docs say the name is gone: AttributeError

#: Names the docs present as not current, with what the docs say about them. Keep this
#: as small as the docs allow; a stale entry (no longer mentioned) fails the test.
NOT_CURRENT = {
    # CHANGELOG, "One library, one lab (issue 18)": the 0.1.0 column of the table "Where
    # things are now", introduced by "Old import paths are not kept as aliases: 0.1.0
    # was never released."
    "measurelab.auc": REMOVED,
    "measurelab.api": REMOVED,  # also DECISIONS: the Evaluator shim "went with that module"
    "measurelab.streaming": REMOVED,
    "measurelab.intervals": REMOVED,
    "measurelab.compare": REMOVED,
    "measurelab.compare.classifiers": REMOVED,
    "measurelab.datasets": REMOVED,
    "measurelab.experiments": REMOVED,
    "measurelab._validation.MeasurelabError": REMOVED,
    "measurelab.TwoLevelValue": REMOVED,
    "measurelab.det_curve": REMOVED,
    "measurelab.build_stats": REMOVED,
    # CHANGELOG, "Rooms by concept (issue 29, part 1)": "`measurelab.cli.evaluate_models`
    # became the private `measurelab.cli._models`."
    "measurelab.cli.evaluate_models": REMOVED,
    # DECISIONS, "Evaluator moved ...": "The old paths are not kept: ... raise
    # `AttributeError`."
    "measurelab.metrics.evaluation.Evaluator": REMOVED,
    "measurelab.metrics.evaluation.per_class": REMOVED,
}


def _newest_changelog_section(text: str) -> str:
    heads = [m.start() for m in re.finditer(r"^## ", text, re.M)]
    assert heads, "CHANGELOG.md has no version heading"
    return text[heads[0]:heads[1] if len(heads) > 1 else len(text)]


def _documents() -> dict[str, str]:
    docs = {"README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
            "CHANGELOG.md": _newest_changelog_section(
                (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))}
    for page in sorted((ROOT / "docs").glob("*.md")):
        docs[f"docs/{page.name}"] = page.read_text(encoding="utf-8")
    return docs


def _names(text: str) -> list[str]:
    prose = FENCE.sub("", text)
    out = []
    for span in SPAN.findall(prose):
        if "\n\n" in span:
            continue
        m = NAME.match(span.strip())
        if m:
            name = m.group(0).lstrip("@")
            out.append("measurelab." + name[3:] if name.startswith("ml.") else name)
    return out


def _mentions() -> dict[str, list[str]]:
    """Every mentioned name, with the documents that mention it."""
    found: dict[str, list[str]] = {}
    for doc, text in _documents().items():
        for name in _names(text):
            if doc not in found.setdefault(name, []):
                found[name].append(doc)
    return found


MENTIONS = _mentions()


def resolve(name: str) -> object:
    """The object ``name`` names: the longest importable module prefix, then attributes."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        try:
            obj: object = importlib.import_module(prefix)
        except ModuleNotFoundError as e:
            # only "this prefix is not a module" moves on; a broken import is an error
            if e.name is None or not prefix.startswith(e.name):
                raise
            continue
        break
    else:
        raise ModuleNotFoundError(parts[0])
    for attr in parts[i:]:
        obj = getattr(obj, attr)
    return obj


def test_the_docs_mention_names():
    # the extraction is only as good as its patterns
    assert len(MENTIONS) > 80
    for name in ["measurelab.inference.evidence.coverage_verdict", "measurelab.registry",
                 "measurelab.curves.plot_reliability", "measurelab.lab.study.extend_study",
                 "measurelab.measure", "measurelab.metrics"]:
        assert name in MENTIONS, name
    assert _names("`ml.metrics.auc(y, s)` and `measurelab.metrics.<name>`\n```\n"
                  "`measurelab.in_a_fence`\n```\n`@ml.measure(...)` `html.escape` "
                  "`measurelab compare`") == ["measurelab.metrics.auc", "measurelab.metrics",
                                               "measurelab.measure"]


@pytest.mark.parametrize("name", sorted(n for n in MENTIONS if n not in NOT_CURRENT))
def test_name_resolves_without_a_deprecation(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", MeasurelabDeprecationWarning)
        try:
            resolve(name)
        except (AttributeError, ImportError) as e:
            pytest.fail(f"{name} (in {', '.join(MENTIONS[name])}) does not resolve: {e}")


@pytest.mark.parametrize("name", sorted(NOT_CURRENT))
def test_name_documented_as_not_current_behaves_as_documented(name):
    assert name in MENTIONS, f"{name} is no longer mentioned: drop it from NOT_CURRENT"
    assert NOT_CURRENT[name] == REMOVED
    with pytest.raises(AttributeError):
        resolve(name)


def test_resolve_refuses_a_missing_name():
    # the checks above are only as good as the resolver
    with pytest.raises(AttributeError):
        resolve("measurelab.metrics.no_such_name")


def test_the_count_of_top_level_names():
    docs = _documents()
    assert re.search(r"curated namespace of \d+ top-level names", docs["README.md"])
    counts = [(doc, int(n)) for doc, text in docs.items()
              for n in re.findall(r"(\d+)\s+top-level\s+names", text)]
    assert {doc for doc, _ in counts} >= {"README.md"}
    assert [c for c in counts if c[1] != len(measurelab.__all__)] == [], (
        f"measurelab.__all__ has {len(measurelab.__all__)} names")
