"""docs/coverage.md's index of every shipped coverage study is what tools/coverage_index.py
writes from the evidence files (run the tool after a study ships new evidence)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("coverage_index_tool",
                                                  ROOT / "tools" / "coverage_index.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_index_in_coverage_md_is_current():
    tool = _tool()
    text = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    assert tool.START in text, "run: PYTHONPATH=src python tools/coverage_index.py"
    assert tool.render(text) == text, "run: PYTHONPATH=src python tools/coverage_index.py"


def test_every_evidence_file_is_listed_with_its_count_and_report():
    tool = _tool()
    lines = tool.section()
    for p in sorted((ROOT / "src" / "measurelab" / "data" / "coverage").glob("*.json")):
        doc = json.loads(p.read_text(encoding="utf-8"))
        ok = sum(1 for e in doc["entries"] if e["covers"])
        row = next(x for x in lines if f"`{p.name}`" in x and x.startswith("| ")
                   and "of" in x)
        assert f"{ok} of {len(doc['entries'])}" in row
        report = tool.REPORTS[doc["source"]]
        assert (ROOT / report).is_file() and report in row


def test_every_setting_below_the_bar_elsewhere_is_listed():
    tool = _tool()
    text = "\n".join(tool.section())
    for p in sorted((ROOT / "src" / "measurelab" / "data" / "coverage").glob("*.json")):
        if p.name == "registry.json":
            continue
        doc = json.loads(p.read_text(encoding="utf-8"))
        for e in doc["entries"]:
            if not e["covers"]:
                assert f"| {e['measure']} | {e['classes']} | {e['design']} | {e['kind']} |" \
                    in text
