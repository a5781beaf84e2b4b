"""measurelab.pages: the one template and stylesheet every page uses."""

from __future__ import annotations

import math

import pandas as pd

from measurelab import pages


def test_document_is_self_contained_and_printable():
    page = pages.document("<x> & y", "<p>body</p>", nav="<a href='i.html'>back</a>")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<title>&lt;x&gt; &amp; y</title>" in page and "<h1>&lt;x&gt; &amp; y</h1>" in page
    assert "@media print" in pages.STYLESHEET and "<nav>" in page
    for external in ("http://", "https://", "<link", "@import", "<script src"):
        assert external not in page


def test_table_marks_escapes_and_sorts():
    df = pd.DataFrame({"model": ["$a$", "<b>"], "p": [0.01, math.nan], "n": [3, 4],
                       "ok": [True, False]})
    marks = pd.DataFrame(False, index=df.index, columns=df.columns)
    marks.loc[0, "p"] = True
    t = pages.table(df, index=False, sortable=True, marks=marks, caption="c")
    assert "<td>$a$</td>" in t and "&lt;b&gt;" in t
    assert "class='sig'>0.01<" in t and "—" in t
    assert "<td data-v='3'>3</td>" in t and "class='yes'>yes<" in t
    assert t.startswith("<table class='sortable'><caption>c</caption>")


def test_details_and_figure_escape():
    assert pages.details("a<b", "x").startswith("<details><summary>a&lt;b</summary>")
    assert "open" in pages.details("s", "x", open=True)
    assert pages.figure("f.png", "it's").endswith("alt='it&#x27;s'></figure>")


def test_comparison_demsar_reproduction_and_evaluation_pages_share_one_stylesheet(tmp_path):
    import numpy as np

    import measurelab as ml
    from measurelab.lab.report.page import Report

    g = np.random.default_rng(0)
    y = g.integers(0, 2, 60)
    s = np.clip(0.3 * y + g.random(60) * 0.7, 0, 1)
    cmp = ml.compare_classifiers(y, {"a": s, "b": s[::-1]}, measures=["auc"], n_boot=100)
    pages_written = {
        "comparison": cmp.to_html(tmp_path / "c.html", files=False).read_text(),
        "demsar": ml.demsar(pd.DataFrame({"a": [.9, .8, .7], "b": [.8, .7, .6]})).to_html(),
        "evaluation": ml.evaluate(y, s, measures=["auc"]).to_html(),
        "reproduction": Report("x", "X").to_html(),
    }
    for name, page in pages_written.items():
        styles = page.split("<style>")[1:]
        assert len(styles) == 1, name
        assert styles[0].split("</style>")[0] == pages.STYLESHEET, name
