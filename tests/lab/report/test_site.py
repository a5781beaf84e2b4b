"""The browsable report: Report summaries, pages, the contents page, and a render in headless
Chromium (Debian's ``chromium``; ``make test`` installs it when missing — this test installs
nothing and fails when Chromium is absent or cannot render)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from measurelab.cli import main
from measurelab.lab import experiments
from measurelab.lab.report.page import Report
from measurelab.lab.report.site import load_summaries, write_index

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--hide-scrollbars"]


class _Refs(HTMLParser):
    """Collects a[href], img[src] and every id of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])


def _refs(text: str) -> _Refs:
    p = _Refs()
    p.feed(text)
    return p


def _local_target(page: Path, ref: str) -> tuple[Path, str] | None:
    u = urlsplit(ref)
    if u.scheme in ("http", "https", "mailto"):
        return None
    if u.scheme == "file":
        return Path(unquote(u.path)), u.fragment
    return ((page.parent / unquote(u.path)).resolve() if u.path else page), u.fragment


def _assert_refs_resolve(page: Path, dom: str) -> tuple[int, int]:
    """Every local link and image of ``dom`` (the page as rendered) resolves: the file
    exists, a #fragment names an id of the target, an image decodes to a non-blank PNG."""
    refs = _refs(dom)
    for ref in refs.links:
        t = _local_target(page, ref)
        if t is None:
            continue
        target, frag = t
        assert target.is_file(), f"{page.name}: link {ref} does not resolve"
        if frag and target.suffix == ".html":
            assert frag in _refs(target.read_text(encoding="utf-8")).ids, (
                f"{page.name}: link {ref} names no id of {target.name}")
    for ref in refs.images:
        t = _local_target(page, ref)
        assert t is not None and t[0].is_file(), f"{page.name}: image {ref} missing"
        img = mpimg.imread(t[0])
        assert img.ndim == 3 and float(img[..., :3].std()) > 0.01
    return len(refs.links), len(refs.images)


def _chromium() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("chromium is not installed: `make test` installs it "
                    "(apt-get install -y chromium); see README 'Tests'")
    return exe


def _render(exe: str, page: Path, tmp: Path, tag: str) -> tuple[str, np.ndarray]:
    """The DOM Chromium builds from ``page`` and a screenshot of it as an RGB array."""
    url = page.resolve().as_uri()
    common = [exe, *CHROMIUM_FLAGS, "--window-size=1200,900"]
    dom = subprocess.run(
        [*common, f"--user-data-dir={tmp / (tag + '-dom')}", "--dump-dom", url],
        capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0 and "</html>" in dom.stdout, dom.stderr[-2000:]
    shot = tmp / f"{tag}.png"
    r = subprocess.run(
        [*common, f"--user-data-dir={tmp / (tag + '-shot')}", f"--screenshot={shot}", url],
        capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and shot.is_file(), r.stderr[-2000:]
    return dom.stdout, mpimg.imread(shot)[..., :3]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """An index over two quick reproductions (one with a figure), built via the API."""
    out = tmp_path_factory.mktemp("site")
    reports = []
    for name in ("ling2003-examples", "huang2007-examples"):
        rep = experiments.get(name)(out / name, quick=True, full=False, progress=False)
        rep.seconds = 0.5
        rep.write(out / name)
        reports.append(rep)
    write_index(out, reports, settings={"settings": "quick"}, papers=experiments.citations())
    return out


@pytest.mark.browser
def test_chromium_renders_index_and_a_page(site, tmp_path):
    exe = _chromium()
    index = site / "index.html"
    page = site / "ling2003-examples" / "ling2003-examples.html"
    for tag, p in (("index", index), ("page", page)):
        dom, shot = _render(exe, p, tmp_path, tag)
        n_links, n_images = _assert_refs_resolve(p, dom)
        assert n_links >= 4
        if tag == "page":
            assert n_images >= 1
        # not blank: text, tables and figures give the pixels some spread
        assert shot.shape[0] >= 500 and shot.shape[1] >= 800
        assert float(shot.std()) > 0.02
        assert float((shot.mean(axis=2) < 0.5).mean()) > 0.002  # some dark (text) pixels


def test_index_links_every_page_table_and_markdown(site):
    text = (site / "index.html").read_text(encoding="utf-8")
    refs = _refs(text)
    for name in ("ling2003-examples", "huang2007-examples"):
        assert f"{name}/{name}.html" in refs.links
        assert f"{name}/{name}.md" in refs.links
        summary = json.loads((site / name / f"{name}.json").read_text())
        for t in summary["tables"]:
            assert f"{name}/{name}.html#table-{t}" in refs.links
    _assert_refs_resolve(site / "index.html", text)
    md = (site / "index.md").read_text(encoding="utf-8")
    assert "[ling2003-examples](ling2003-examples/ling2003-examples.md)" in md
    # one heading per paper, with the verdict at a glance counted from the check columns
    assert text.count("<h2>") == 2
    assert "9 of 9 checks agree" in text and "6 of 8 checks agree" in text


def test_page_links_back_and_embeds_figures(site):
    page = site / "ling2003-examples" / "ling2003-examples.html"
    text = page.read_text(encoding="utf-8")
    refs = _refs(text)
    assert "../index.html" in refs.links
    assert refs.images == ["ling2003-examples-auc_vs_acc.png"]
    assert {"table-claims", "table-smallest", "table-huang2007_lists", "table-counts"} <= refs.ids
    _assert_refs_resolve(page, text)


def test_summary_counts_checks_and_status():
    r = Report("x", "X")
    r.add_table("a", pd.DataFrame({"match": [True, True], "note": ["", ""]}))
    assert (r.checks(), r.status()) == ((2, 2), "agrees")
    r.add_table("b", pd.DataFrame({"holds": [False]}))
    assert (r.checks(), r.status()) == ((2, 3), "in part")
    r2 = Report("y", "Y")
    r2.add_table("a", pd.DataFrame({"agrees": [False, False]}))
    assert r2.status() == "differs"
    # a non-boolean column of the same name is not a check
    r3 = Report("z", "Z")
    r3.add_table("a", pd.DataFrame({"match": ["yes"]}))
    assert r3.checks() == (0, 0)


def test_report_write_keeps_old_files_and_adds_page_and_summary(tmp_path):
    r = Report("demo", "Demo", seconds=1.234)
    r.add_table("t", pd.DataFrame({"paper": [1.0], "ours": [1.0], "match": [True]}))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    r.add_figure("f", fig)
    names = {p.name for p in r.write(tmp_path)}
    assert names == {"demo.md", "demo.html", "demo.json", "demo-t.csv", "demo-f.png"}
    s = json.loads((tmp_path / "demo.json").read_text())
    assert s["seconds"] == 1.23 and s["checks"] == [1, 1] and s["status"] == "agrees"


def test_write_index_from_folder_and_failures(tmp_path):
    r = Report("sokolova2006", "S")
    r.add_table("t", pd.DataFrame({"agrees": [True, False]}))
    r.write(tmp_path / "sokolova2006")
    (tmp_path / "not-a-report").mkdir()
    index = write_index(tmp_path, failed={"caruana2004": "RuntimeError: boom"})
    text = index.read_text()
    assert [s["name"] for s in load_summaries(tmp_path)] == ["sokolova2006"]
    assert "in part" in text and "1 of 2 checks agree" in text
    assert "failed: RuntimeError: boom" in text and "1 failed" in text


def test_reproduce_all_writes_index(monkeypatch, tmp_path, capsys):
    def fake(name):
        def run(out, *, quick, full, progress):
            if name == "boom":
                raise RuntimeError("broken")
            r = Report(name, f"stand-in {name}")
            r.add_table("t", pd.DataFrame({"match": [True]}))
            return r
        return run

    monkeypatch.setattr(experiments, "available", lambda: ["ling2003-examples", "boom"])
    monkeypatch.setattr(experiments, "get", fake)
    assert main(["reproduce", "all", "--quick", "--out", str(tmp_path), "--no-progress"]) == 1
    text = (tmp_path / "index.html").read_text()
    assert "ling2003-examples/ling2003-examples.html" in text
    assert "failed: RuntimeError: broken" in text and "settings=quick" in text
    assert f"index: {tmp_path / 'index.html'}" in capsys.readouterr().err


def test_list_describes_each_with_run_times(capsys):
    assert main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines] == experiments.available()
    assert all("(--quick " in ln and ", --full " in ln for ln in lines)
    assert set(experiments.INFO) == set(experiments.REPRODUCTIONS)
    assert {i["paper"] for i in experiments.INFO.values()} <= set(experiments.PAPERS)


def test_verdict_column_counts_claims():
    r = Report("v", "V")
    r.add_table("claims", pd.DataFrame({"verdict": ["holds", "holds in part",
                                                    "not supported", "", "holds (p = 0.01)"]}))
    assert r.checks() == (2, 4) and r.status() == "in part"
    # a t-test's win/draw/loss column is not a claim verdict
    r.add_table("ttests", pd.DataFrame({"verdict": ["win", "draw", "loss"]}))
    assert r.checks() == (2, 4)
