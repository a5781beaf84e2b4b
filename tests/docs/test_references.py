"""The docs stand alone: nothing in src/, docs/, README.md or benchmarks/ points to the
outside specification or to a shared folder beside the repository, and every
``docs/METHODS.md#anchor`` written anywhere in the repository exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEXT = {".py", ".md", ".toml", ".txt", ".json", ".csv", ".html", ".cfg", ".R", ".r"}
# The outside document's name as a word (upper case, so ``SPECS``, ``specificity`` and
# ``find_spec`` do not match), and the folder that held it and the papers' text copies.
OUTSIDE = re.compile(r"\bSPEC\b|shared/")
ANCHOR_USE = re.compile(r"METHODS\.md#([A-Za-z0-9_-]+)")
ANCHOR_DEF = re.compile(r'<a id="([^"]+)"')


def _files(*roots: str) -> list[Path]:
    out = []
    for r in roots:
        p = ROOT / r
        found = [p] if p.is_file() else sorted(q for q in p.rglob("*") if q.is_file())
        out += [q for q in found if q.suffix in TEXT and "__pycache__" not in q.parts]
    return out


def test_no_reference_outside_the_repository():
    hits = [f"{f.relative_to(ROOT)}:{i}: {line.strip()}"
            for f in _files("src", "docs", "README.md", "benchmarks")
            for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1)
            if OUTSIDE.search(line)]
    assert hits == [], "\n".join(hits)


def test_the_pattern_finds_what_it_should():
    # the check above is only as good as its pattern
    assert OUTSIDE.search("intervals (SPEC §6)") and OUTSIDE.search("../shared/papers")
    assert not any(OUTSIDE.search(s) for s in ["BLOCK_SPECS", "spec", "find_spec", "SPECS"])


def test_every_methods_anchor_exists():
    defined = set(ANCHOR_DEF.findall((ROOT / "docs" / "METHODS.md").read_text()))
    assert len(defined) > 50
    used = {}
    for f in _files("src", "docs", "tests", "benchmarks", "README.md", "CHANGELOG.md"):
        if f == Path(__file__).resolve():
            continue  # this file's docstring names the pattern itself
        for a in ANCHOR_USE.findall(f.read_text(errors="replace")):
            used.setdefault(a, str(f.relative_to(ROOT)))
    assert len(used) > 20
    missing = {a: f for a, f in used.items() if a not in defined}
    assert missing == {}, f"anchors not in docs/METHODS.md: {missing}"


@pytest.mark.parametrize("a", ["comparing", "bootstrap", "cal-ties", "corp", "bayesian"])
def test_anchors_the_code_names_are_defined_once(a):
    assert ANCHOR_DEF.findall((ROOT / "docs" / "METHODS.md").read_text()).count(a) == 1
