"""docs/coverage_by_regime.md is the shipped evidence as tools/coverage_by_regime.py writes
it, and every default interval it lists below the bar is withheld by the library in that
bracket (the promise: no bracket shows an interval that failed its study there)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from measurelab.inference.withholding import judged

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    name = "coverage_by_regime_tool"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" /
                                                      "coverage_by_regime.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_the_page_is_current() -> None:
    text = (ROOT / "docs" / "coverage_by_regime.md").read_text(encoding="utf-8")
    assert text == _tool().document(), "run: PYTHONPATH=src python tools/coverage_by_regime.py"


def test_every_setting_below_the_bar_is_withheld_in_its_bracket() -> None:
    tool = _tool()
    below = [r for r in tool.rows() if not r["covers"]]
    assert below   # the shipped studies do find some
    for r in below:
        kind = {"paired": {"paired": True}, "unpaired": {"unpaired": True}}.get(r["kind"], {})
        text, withheld = judged(r["method"], r["measure"], bounds=(0.0, 1.0),
                                smaller=tool.INSIDE[r["bracket"]], design=r["design"],
                                multiclass=r["classes"].startswith("k"),
                                multilabel=r["classes"].startswith("multi-label"),
                                average=r["average"] or "macro", **kind)
        assert withheld, (r, text)
        assert text.startswith("no interval: coverage ")


@pytest.mark.parametrize("measure, bracket, method", [
    ("f1", "10–29", "dirichlet-posterior"), ("auc", "< 10", "newcombe-score"),
    ("auc", "100–999", "delong-logit"), ("acc", "< 10", "wilson"),
    ("sens", "< 10", "dirichlet-posterior")])
def test_the_default_method_of_a_bracket(measure: str, bracket: str, method: str) -> None:
    assert _tool().default_method(measure, "binary", "random", "single", bracket) == method
