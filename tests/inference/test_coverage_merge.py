"""The coverage study's additions for the calibration terms at scale (benchmarks/covstudy):
the exact calibration terms of the binormal models against a large sample and the
calibrated model's zeros, the merge of a partial run into a plan's evidence and report,
and docs/coverage.md's large-n section as the large-n evidence file renders it."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

import measurelab as ml

from .test_coverage import _load

_load()
gens = importlib.import_module("covstudy.generators")
merge = importlib.import_module("covstudy.merge")
cli = importlib.import_module("covstudy.cli")

ROOT = Path(__file__).resolve().parents[2]
TERMS = ["brier_mcb", "brier_dsc", "logloss_mcb", "logloss_dsc"]


@pytest.mark.parametrize("name", ["binormal-exact", "calibrated-exact"])
def test_exact_calibration_terms_match_a_large_sample(name: str) -> None:
    """Quadrature against the debiased estimates on 10⁶ cases (their SE there is below
    3·10⁻⁴ at π = 0.5; the calibrated model's miscalibration is exactly 0)."""
    g = gens.generator("binary", name)
    ex = g.exact(0.5, [*TERMS, "brier", "mxe"])
    y, a, b = g.draw("random", 1_000_000, 0.5, np.random.default_rng(3))
    for model, s in ((0, a), (1, b)):
        r = ml.evaluate(y, s, measures=[*TERMS, "brier", "mxe"])
        for m in [*TERMS, "brier", "mxe"]:
            assert float(r[m]) == pytest.approx(ex[m][model], abs=2e-3), (name, model, m)
    if name == "calibrated-exact":
        assert ex["brier_mcb"][0] == 0.0 and ex["logloss_mcb"][0] == 0.0
        # the decomposition: Brier = MCB − DSC + UNC exactly, for both models
        for k in (0, 1):
            assert ex["brier"][k] == pytest.approx(
                ex["brier_mcb"][k] - ex["brier_dsc"][k] + 0.25, abs=1e-9)


def _entry(measure: str, figures: list[list[object]], where: str) -> dict[str, object]:
    """An entry as the study writes it (its verdict read from its one figure)."""
    (fig,) = figures
    return {"measure": measure, "classes": "binary", "design": "random", "kind": "single",
            "averages": [], "methods": ["influence"], "figures": figures, "cells": 1,
            "lowest": fig[5], "where": where, "mean": fig[5], "mcse_lowest": fig[6],
            "covers": float(fig[5]) >= 0.9}


def test_merge_keeps_the_base_replaces_a_rerun_cell_and_recomputes_the_verdict() -> None:
    old = ["binormal-exact", 10000, 0.5, "", "a", 0.95, 0.007, 0, 5000]
    old_b = ["binormal-exact", 10000, 0.5, "", "b", 0.96, 0.006, 0, 5000]
    rerun = ["binormal-exact", 10000, 0.5, "", "a", 0.93, 0.011, 0, 5000]
    new = ["calibrated-exact", 10000, 0.01, "", "b", 0.86, 0.017, 0, 100]
    at = "n=10000, π=0.5"
    ap = {**_entry("ap", [old], at), "figures": [old, old_b], "mean": 0.955}
    base = {"level": 0.95, "sims": 1000, "command": "base",
            "entries": [ap, _entry("brier", [old], at)],
            "grid": {"binary": {"n": [10000], "cells": 10}}}
    dsc = _entry("brier_dsc", [new], "n=10000, π=0.01, over-confident model")
    part = {"level": 0.95, "sims": 400, "command": "part", "sims_by_cell": {"x": 400},
            "entries": [{**_entry("ap", [new], "n=10000, π=0.01, over-confident model"),
                         "figures": [rerun, new], "mean": 0.895}, dsc],
            "grid": {"binary": {"n": [10000], "cells": 2}}}
    doc = merge.merge_documents(base, part)
    got = {e["measure"]: e for e in doc["entries"]}
    assert list(got) == ["ap", "brier", "brier_dsc"]
    assert got["brier"] == base["entries"][1]                     # untouched
    assert got["brier_dsc"] == dsc                                # new: as the study wrote it
    e = got["ap"]   # model a's cell run again, b's kept, a new cell: combined
    assert e["cells"] == 2 and sorted(f[5] for f in e["figures"]) == [0.86, 0.93, 0.96]
    assert e["lowest"] == 0.86 and not e["covers"] and e["mcse_lowest"] == 0.017
    assert e["where"] == "n=10000, π=0.01, over-confident model"
    assert e["mean"] == pytest.approx((0.93 + 0.96 + 0.86) / 3)
    assert doc["grid"]["binary"]["cells"] == 12
    assert doc["merged"] == [{"command": "part", "sims": 400, "sims_by_cell": {"x": 400}}]
    # merging the same run again changes nothing
    assert merge.merge_documents(doc, part) == doc
    assert json.loads(merge.dump(doc)) == doc
    # a part that ran every cell of a setting again replaces its entry whole
    again = {**part, "command": "again", "entries": [{**ap, "figures": [rerun, old_b]}]}
    assert merge.merge_documents(base, again)["entries"][0] == again["entries"][0]
    with pytest.raises(ValueError, match="preliminary"):
        merge.merge_documents(base, {**part, "preliminary": True})


def test_replace_section_inserts_then_replaces_between_markers() -> None:
    text = "# T\n\n## A\n\nx\n\n## B\n\ny\n"
    once = merge.replace_section(text, "s", ["## S", "", "one"], before="## B")
    assert once.index("## S") < once.index("## B") and once.count("<!-- s:start -->") == 1
    twice = merge.replace_section(once, "s", ["## S", "", "two"], before="## B")
    assert "two" in twice and "one" not in twice and twice.count("## S") == 1
    assert merge.replace_section(twice, "s", ["## S", "", "one"], before="## B") == once


def test_coverage_md_states_the_large_n_verdicts_of_the_shipped_evidence() -> None:
    """docs/coverage.md's large-n section is the shipped large-n evidence as the study's
    generator renders it (no hand-copied figure): every setting of large_n.json is a row
    with its lowest coverage, and the section is exactly what the merge writes."""
    doc = json.loads((ROOT / cli.LARGE_EVIDENCE).read_text(encoding="utf-8"))
    text = (ROOT / cli.REPORT).read_text(encoding="utf-8")
    lines = merge.large_n_section(doc, str(cli.LARGE_EVIDENCE), str(cli.LARGE_REPORT))
    assert merge.replace_section(text, merge.LARGE_N, lines, before="## x") == text
    section = text.split(f"<!-- {merge.LARGE_N}:start -->")[1].split(
        f"<!-- {merge.LARGE_N}:end -->")[0]
    for e in doc["entries"]:
        kind = {"single": "single model", "paired": "paired difference",
                "unpaired": "unpaired difference"}[e["kind"]]
        row = f"| {e['measure']} | binary | {e['design']} | {kind} |"
        assert row in section
        assert f"{e['lowest']:.3f}" in section.split(row)[1].splitlines()[0]
    low = min(e["lowest"] for e in doc["entries"])
    assert math.isfinite(low) and f"{low:.3f}" in section


def test_the_command_lines_merge_writes_the_plan_files_and_the_section(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--merge``'s step: the plan's evidence gains the part's settings, its report its
    verdicts from the merged evidence and the part's own sections (between markers), and
    the registry-wide report the large-n section; a second merge replaces, never adds."""
    fig = ["binormal-exact", 10000, 0.5, "", "a", 0.95, 0.007, 0, 5000]
    new = ["calibrated-exact", 10000, 0.01, "", "b", 0.86, 0.017, 0, 100]
    base = {"source": "large-n", "level": 0.95, "sims": 1000, "command": "base",
            "entries": [_entry("ap", [fig], "n=10000, π=0.5")]}
    part = {**base, "command": "part", "sims": 400, "entries": [
        _entry("brier_dsc", [new], "n=10000, π=0.01, over-confident model")]}
    plan_ev, part_ev = tmp_path / "large_n.json", tmp_path / "part.json"
    plan_md, part_md, cov_md = tmp_path / "large.md", tmp_path / "part.md", tmp_path / "c.md"
    plan_ev.write_text(json.dumps(base), encoding="utf-8")
    part_ev.write_text(json.dumps(part), encoding="utf-8")
    plan_md.write_text("# L\n\n## Verdicts\n\nold table\n\n## Population values\n\nx\n",
                       encoding="utf-8")
    part_md.write_text("# P\n\nCommand: `part`\n\nmeasurelab git abc, run today; 400 "
                       "simulated test sets. The verdicts are also in `part.json`.\n\n"
                       "## Coverage by regime: cases in the smaller class\n\nrows\n\n"
                       "### 100–999 cases in the smaller class\n\nmore\n", encoding="utf-8")
    cov_md.write_text("# C\n\n## Verdicts\n\nt\n\n## Coverage by cell\n\ncells\n",
                      encoding="utf-8")
    out = cli.OUTPUTS["large"]
    monkeypatch.setattr(cli, "REPORT", cov_md)
    plan_out = type(out)(out.source, out.title, plan_ev, plan_md)
    for _ in range(2):
        cli._merge(plan_out, part_ev, part_md, [17], large=True)
        doc = json.loads(plan_ev.read_text(encoding="utf-8"))
        assert [e["measure"] for e in doc["entries"]] == ["ap", "brier_dsc"]
        report = plan_md.read_text(encoding="utf-8")
        assert "old table" not in report and "1 of 2 settings cover." in report
        assert report.count("## Cells added later: 17 of the plan") == 1
        assert "### Coverage by regime" in report and "#### 100–999" in report
        assert f"merged into `{plan_ev}`" in report and "part.json" not in report
        assert report.index("## Cells added") < report.index("## Population values")
        cov = cov_md.read_text(encoding="utf-8")
        assert cov.count("## At large n: the influence-function intervals") == 1
        assert cov.index("## At large n") < cov.index("## Coverage by cell")
        assert "| brier_dsc | binary | random | single model |  | 1 | 0.860 ± 0.017" in cov
