"""The comparison page as a person sees it (issue 22): the answer first, figures before
tables, few visible rows, a confusion matrix per model, the best model per measure named —
checked in the HTML and in headless Chromium (Debian's ``chromium``; ``make test`` installs
it), whose layout must show the summary and the forest plot in the first 1280×900 pixels."""

from __future__ import annotations

import base64
import html.parser
import json
import shutil
import subprocess
import warnings

import matplotlib.image as mpimg
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import measurelab as ml
from measurelab.io import datasets

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--disable-dev-shm-usage", "--window-size=1280,900"]


@pytest.fixture(scope="module")
def comparison():
    X, target = datasets.load("diabetes")
    y = (target == "tested_positive").to_numpy().astype(int)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    models = {"lr": make_pipeline(StandardScaler(), LogisticRegression()),
              "nb": GaussianNB(),
              "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(25))}
    scores = {k: m.fit(X_tr, y_tr).predict_proba(X_te)[:, 1] for k, m in models.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(y_te, scores, n_boot=400)
        r.tests()
    return r


@pytest.fixture(scope="module")
def page(comparison, tmp_path_factory):
    out = tmp_path_factory.mktemp("page")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return comparison.to_html(out / "cmp.html")


class _Rows(html.parser.HTMLParser):
    """Counts table rows inside and outside ``<details>``; notes the first img / table."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.visible = self.hidden = 0
        self.order: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "details":
            self.depth += 1
        elif tag == "tr":
            if self.depth:
                self.hidden += 1
            else:
                self.visible += 1
        elif tag in ("img", "table"):
            self.order.append(tag)

    def handle_endtag(self, tag):
        if tag == "details":
            self.depth -= 1


def test_first_figure_before_first_table_and_few_visible_rows(page):
    p = _Rows()
    p.feed(page.read_text(encoding="utf-8"))
    assert p.order[0] == "img" and "table" in p.order
    assert p.visible <= 60
    assert p.hidden > 60   # the full tables are there, collapsed


def test_summary_names_best_model_per_headline_measure(comparison, page):
    text = page.read_text(encoding="utf-8")
    pref = comparison.preferences().set_index("measure")
    lines = comparison.summary().splitlines()
    best = next(x for x in lines if x.startswith("Best model per measure: "))
    calib = lines[-1]
    assert calib.startswith("Calibration (test by consistency resampling): ")
    verdicts = comparison.calibration().set_index("model")["verdict"]
    for name, verdict in verdicts.items():  # the page says it too
        assert f"{name} {verdict}" in calib
    assert html_escape(calib) in text
    for m in ("auc", "ap", "brier", "mxe", "f1", "mcc", "acc"):
        winner = pref.loc[m, "prefers"]
        assert winner, m
        # the sentence names the winner right before the group holding this measure
        group = next(g for g in best.removeprefix("Best model per measure: ").split("; ")
                     if f"{m} (" in g)
        assert group.startswith(f"{winner} on ")
    assert html_escape(best) in text
    # one sentence per pair, each naming its two models
    pairs = comparison.summary().splitlines()[:-2]  # then the best models, calibration
    assert len(pairs) == 3
    for a, b in (("lr", "nb"), ("lr", "knn"), ("nb", "knn")):
        assert any(a in s and b in s for s in pairs)


def html_escape(s: str) -> str:
    return html.escape(s, quote=True)


def test_a_confusion_matrix_per_model_and_files_beside(comparison, page):
    mats = comparison.confusion_matrices()
    assert set(mats) == {"lr", "nb", "knn"}
    fig = comparison.plot_confusion()
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert [t.split(" (")[0] for t in titles] == ["lr", "nb", "knn"]
    embedded = page.read_text()
    for stem in ("forest", "curves", "confusion"):
        png = (page.parent / f"cmp-{stem}.png").read_bytes()
        assert len(png) > 1000 and not (page.parent / f"cmp-{stem}.svg").exists()
        # drawn once: the file beside the page is the image the page embeds
        assert "data:image/png;base64," + base64.b64encode(png).decode() in embedded
    assert json.loads((page.parent / "cmp.json").read_text()) == \
        json.loads(comparison.to_json())
    assert not list(page.parent.glob("*.tmp")) and not list(page.parent.glob(".*"))


def test_repr_html_is_summary_and_forest(comparison):
    out = comparison._repr_html_()
    assert "class='summary'" in out and out.count("data:image/png;base64,") == 1
    assert "<table" not in out


def _chromium() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("chromium is not installed: `make test` installs it "
                    "(apt-get install -y chromium); see README 'Tests'")
    return exe


LAYOUT = ("<script>var r=function(s){var e=document.querySelector(s);if(!e)return null;"
          "var b=e.getBoundingClientRect();return [b.top,b.bottom,b.height]};"
          "document.body.setAttribute('data-layout',JSON.stringify({summary:"
          "r('ul.summary'),best:r('p.best'),forest:r('figure img'),"
          "table:r('table')}));</script>")


@pytest.mark.browser
def test_first_screen_in_chromium_shows_summary_and_forest(page, tmp_path):
    exe = _chromium()
    probe = page.parent / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", LAYOUT + "</body>"),
                     encoding="utf-8")
    dom = subprocess.run([exe, *FLAGS, f"--user-data-dir={tmp_path / 'dom'}",
                          "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    raw = dom.stdout.split('data-layout="', 1)[1].split('"', 1)[0]
    layout = json.loads(html.unescape(raw))
    s_top, s_bottom, _ = layout["summary"]
    _b_top, b_bottom, _ = layout["best"]
    f_top, _f_bottom, f_height = layout["forest"]
    assert 0 <= s_top < s_bottom <= 900 and b_bottom <= 900
    assert f_height > 300            # the image is laid out at its size
    assert f_top <= 900 - 250        # at least 250 px of the forest plot on the first screen
    assert layout["table"][0] > 900  # no table on the first screen
    shot = tmp_path / "first.png"
    r = subprocess.run([exe, *FLAGS, f"--user-data-dir={tmp_path / 'shot'}",
                        "--virtual-time-budget=5000", f"--screenshot={shot}", page.as_uri()],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and shot.is_file(), r.stderr[-2000:]
    img = mpimg.imread(shot)[..., :3]
    assert img.shape[:2] == (900, 1280)
    # the forest plot's models are drawn in the palette: its blue and vermillion on screen
    for rgb in ((0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00)):
        near = np.abs(img[int(f_top):] - np.array(rgb) / 255).max(axis=2) < 0.08
        assert near.sum() > 50, rgb
    # text above it: dark pixels in the summary's band
    band = img[int(s_top):int(s_bottom)]
    assert float((band.mean(axis=2) < 0.4).mean()) > 0.01
