"""The shared reproduction report: files written atomically, figures rendered once."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from measurelab.lab.report.page import Report, atomic_write_text, comparison


def test_report_writes_markdown_csv_and_figures_twice(tmp_path):
    rep = Report("demo", "A demo")
    rep.add_text("Some text.")
    rep.add_table("t", comparison([{"k": "a", "paper": 1.0, "ours": 1.25}], index="k", tol=0.1),
                  "caption")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    rep.add_figure("line", fig)
    first = rep.write(tmp_path / "one")
    assert not plt.fignum_exists(fig.number)  # closed after rendering
    second = rep.write(tmp_path / "two")  # writing again reuses the rendered bytes
    assert [p.name for p in first] == [p.name for p in second]
    assert (tmp_path / "one" / "demo-line.png").read_bytes() == (
        tmp_path / "two" / "demo-line.png").read_bytes()
    t = pd.read_csv(tmp_path / "one" / "demo-t.csv", index_col="k")
    assert t.loc["a", "diff"] == 0.25 and not t.loc["a", "match"]
    md = (tmp_path / "one" / "demo.md").read_text()
    assert "# A demo" in md and "## caption" in md and "_rendered" not in md
    assert not list((tmp_path / "one").glob(".*"))  # no temporary files left


def test_atomic_write_text(tmp_path):
    p = tmp_path / "sub" / "f.txt"
    atomic_write_text(p, "hello")
    atomic_write_text(p, "again")
    assert p.read_text() == "again" and len(list(p.parent.iterdir())) == 1
