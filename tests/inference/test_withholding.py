"""The evidence policy (:mod:`measurelab.inference.withholding`): an interval whose study
fell short in the user's regime is withheld there, in every table, the JSON, the summary
and the page; where the study covers it is shown; ``withholding(False)`` shows the note."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference import evidence as ev
from measurelab.inference.withholding import judged, withholding, withholding_on

FIELDS = ["generator", "n", "param", "average", "model", "coverage", "mcse", "undefined",
          "smaller"]


def _entry(measure: str, kind: str, rows: list[list[Any]]) -> dict[str, Any]:
    cov = [r[5] for r in rows]
    return {"measure": measure, "classes": "binary", "design": "random", "kind": kind,
            "averages": [], "methods": ["dirichlet-posterior"], "cells": len(rows),
            "lowest": min(cov), "where": "n=300, π=0.05", "mean": sum(cov) / len(cov),
            "covers": min(cov) >= 0.9, "figures": rows}


@pytest.fixture
def short_at_15(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """f1 and mcc by the posterior: below the bar with 15 cases in the smaller class,
    covering with 500; nothing else studied."""
    rows = [["binormal", 300, 0.05, "", m, 0.72, 0.02, 0, 15] for m in ("a", "b")]
    rows += [["binormal", 1000, 0.5, "", m, 0.95, 0.01, 0, 500] for m in ("a", "b")]
    pair = [["binormal", 300, 0.05, "", "a-b", 0.80, 0.02, 0, 15],
            ["binormal", 1000, 0.5, "", "a-b", 0.95, 0.01, 0, 500]]
    doc = {"schema": 1, "source": "test", "preliminary": False, "level": 0.95,
           "cell_fields": FIELDS, "entries": [_entry("f1", "single", rows),
                                              _entry("f1", "paired", pair),
                                              _entry("mcc", "single", rows)]}
    folder = tmp_path / "coverage"
    folder.mkdir()
    (folder / "test.json").write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(ev, "_OVERRIDE", folder)
    return folder


def _data(n: int, pi: float, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=int)
    y[: round(n * pi)] = 1
    e = rng.normal(size=(2, n))
    return y, {"a": 1 / (1 + np.exp(-(1.5 * y + e[0] - 1.0))),
               "b": 1 / (1 + np.exp(-(1.2 * y + e[1] - 1.0)))}


def test_short_in_the_users_regime_is_withheld_everywhere(short_at_15: Path) -> None:
    y, models = _data(300, 0.05)   # 15 positives: the bracket 10–29
    with pytest.warns(ml.UndefinedMeasureWarning, match=r"no interval for f1 of model 'a'"):
        r = ml.compare_classifiers(y, models, measures=["f1", "mcc", "acc"])
        iv = r.intervals().set_index(["model", "measure"])
    f1 = iv.loc[("a", "f1")]
    assert math.isnan(f1.lo) and math.isnan(f1.hi)
    assert f1.method == ("no interval: coverage 0.720 < 0.90 with 10–29 cases in the "
                         "smaller class (dirichlet-posterior)")
    with pytest.warns(ml.UndefinedMeasureWarning, match="the difference in f1"):
        t = r.tests().set_index("measure")
    assert math.isnan(t.loc["f1", "p"]) and math.isnan(t.loc["f1", "p_holm"])
    assert t.loc["f1", "interval"].startswith("no interval: coverage 0.800 < 0.90 with 10–29")
    assert not math.isnan(t.loc["acc", "p"])   # not studied here: shown, with the note
    d = r.to_dict()
    assert d["models"]["a"]["f1"]["lo"] is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = r.summary()
    assert "f1" in text.split("Read with care:")[1] and "withheld" in text
    # the policy off: the same interval, with its note
    with withholding(False):
        iv0 = r.intervals().set_index(["model", "measure"])
        t0 = r.tests().set_index("measure")
    assert iv0.loc[("a", "f1"), "method"] == ("dirichlet-posterior (coverage 0.720 < 0.90 "
                                              "with 10–29 cases in the smaller class)")
    assert iv0.loc[("a", "f1"), "lo"] < iv0.loc[("a", "f1"), "value"]
    assert (t0.loc["f1", "lo"] > 0 or t0.loc["f1", "hi"] < 0) == (t0.loc["f1", "p"] < 0.05)


def test_covering_in_the_users_regime_is_shown_plainly(short_at_15: Path) -> None:
    y, models = _data(1000, 0.5)   # 500 a class: the bracket 100–999, where it covers
    with warnings.catch_warnings():
        warnings.simplefilter("error", ml.UndefinedMeasureWarning)
        r = ml.compare_classifiers(y, models, measures=["f1", "mcc"])
        iv = r.intervals()
    assert (iv.method == "dirichlet-posterior").all() and iv.lo.notna().all()
    assert r.tests().set_index("measure").loc["f1", "interval"] == "dirichlet-posterior"
    from measurelab.inference.classifiers._report import evidence_sentence

    assert "f1" not in evidence_sentence(r)


def test_evaluate_and_unpaired_follow_the_policy(short_at_15: Path) -> None:
    y, models = _data(300, 0.05)
    with pytest.warns(ml.UndefinedMeasureWarning, match="no interval for f1"):
        e = ml.evaluate(y, models["a"], measures=["f1"], ci=0.95).intervals()
    assert math.isnan(e.loc[0, "lo"]) and e.loc[0, "method"].startswith("no interval: ")
    with withholding(False):
        e = ml.evaluate(y, models["a"], measures=["f1"], ci=0.95).intervals()
    assert not math.isnan(e.loc[0, "lo"])
    y2, models2 = _data(300, 0.05, seed=1)
    u = ml.compare_unpaired(y, models["a"], y2, models2["b"], measures=["f1"])
    row = u.tests().iloc[0]   # the unpaired difference was not studied: shown, with a note
    assert not math.isnan(row.lo) and row.interval.endswith("(no coverage evidence)")


def test_the_switch() -> None:
    assert withholding_on()
    with withholding(False):
        assert not withholding_on()
        with withholding(True):
            assert withholding_on()
        assert not withholding_on()
    assert withholding_on()
    with pytest.raises(ml.MeasurelabError, match="enabled must be"):
        with withholding("no"):
            pass
    assert judged("wilson", "acc", bounds=(math.nan, math.nan), smaller=5) == ("wilson",
                                                                               False)


@pytest.mark.parametrize("n, pi, named", [(300, 0.05, True), (1000, 0.5, False)])
def test_method_column_summary_page_and_versus_agree(short_at_15: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     n: int, pi: float, named: bool) -> None:
    """A small-count comparison (15 positives) and a large-count one (500 a class): the
    method column, summary(), the page's first screen and ``measurelab versus`` name the
    same unbacked intervals (f1 withheld at 15; nothing at 500)."""
    import pandas as pd

    from measurelab.cli import main

    y, models = _data(n, pi)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(y, models, measures=["f1", "mcc"])
        column = {m for m, t in zip(r.intervals().measure, r.intervals().method,
                                    strict=True) if t != "dirichlet-posterior"}
        summary = r.summary()
        r.to_html(tmp_path / "p.html")
        csv = tmp_path / "m.csv"
        pd.DataFrame({"y": y, **models}).to_csv(csv, index=False)
        assert main(["versus", str(csv), "--score-col", "a", "--score-col", "b",
                     "--measures", "f1,mcc"]) == 0
    versus = capsys.readouterr().out
    html = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert column == ({"f1", "mcc"} if named else set())
    for text in (summary, html, versus):
        assert ("Read with care: intervals of f1 and mcc were withheld" in text) == named
