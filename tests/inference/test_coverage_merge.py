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
    rerun = ["binormal-exact", 10000, 0.5, "", "a", 0.93, 0.011, 0, 5000]
    new = ["calibrated-exact", 10000, 0.01, "", "b", 0.86, 0.017, 0, 100]
    at = "n=10000, π=0.5"
    base = {"level": 0.95, "sims": 1000, "command": "base", "entries": [
        _entry("ap", [old], at), _entry("brier", [old], at)],
        "grid": {"binary": {"n": [10000], "cells": 10}}}
    part = {"level": 0.95, "sims": 400, "command": "part", "sims_by_cell": {"x": 400},
            "entries": [{**_entry("ap", [rerun], at), "figures": [rerun, new]},
                        _entry("brier_dsc", [new], "n=10000, π=0.01, over-confident model")],
            "grid": {"binary": {"n": [10000], "cells": 2}}}
    doc = merge.merge_documents(base, part)
    got = {e["measure"]: e for e in doc["entries"]}
    assert list(got) == ["ap", "brier", "brier_dsc"]
    assert got["brier"] == base["entries"][1]                     # untouched
    ap = got["ap"]
    assert ap["cells"] == 2 and len(ap["figures"]) == 2          # the rerun replaced `old`
    assert ap["lowest"] == 0.86 and not ap["covers"]
    assert ap["where"] == "n=10000, π=0.01, over-confident model"
    assert ap["mean"] == pytest.approx((0.93 + 0.86) / 2)
    assert doc["grid"]["binary"]["cells"] == 12
    assert doc["merged"] == [{"command": "part", "sims": 400, "sims_by_cell": {"x": 400}}]
    # merging the same run again changes nothing
    assert merge.merge_documents(doc, part) == doc
    assert json.loads(merge.dump(doc)) == doc
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
