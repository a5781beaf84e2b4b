"""The figures of a comparison's page: drawn once each, in one format (the PNG the page
embeds is the file beside it), cropped as a tight bounding box crops, and with x tick
labels that never overlap (measured with matplotlib's renderer: the PNG shows exactly
what that renderer drew). The page's layout at a narrow and a wide window is checked in
headless Chromium (marker ``browser``)."""

from __future__ import annotations

import html
import io
import itertools
import json
import shutil
import subprocess
import warnings

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

import measurelab as ml
from measurelab import pages
from measurelab._util.figures import legible_ticks, pyplot
from measurelab.inference.classifiers import _report as report


def _binary(n: int, seed: int = 1, spread: float = 1.0) -> tuple[np.ndarray, dict]:
    g = np.random.default_rng(seed)
    y = g.integers(0, 2, n)
    s = 1 / (1 + np.exp(-(1.2 * y + g.normal(size=n))))
    return y, {"lr": s, "nb": np.clip(s + g.normal(0, 0.05 * spread, n), 0, 1),
               "knn": np.clip(s + g.normal(0, 0.2 * spread, n), 0, 1)}


def _multiclass(n: int, k: int = 3) -> tuple[np.ndarray, dict]:
    g = np.random.default_rng(2)
    y = g.integers(0, k, n)
    out = {}
    for name, scale in (("lr", 1.0), ("gb", 0.6), ("rf", 1.6)):
        z = scale * (np.eye(k)[y] * 1.5 + g.normal(size=(n, k)))
        e = np.exp(z - z.max(axis=1, keepdims=True))
        out[name] = e / e.sum(axis=1, keepdims=True)
    return y, out


def _compare(y, models, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ml.compare_classifiers(y, models, n_boot=200, progress=False, **kw)


@pytest.fixture(scope="module")
def comparisons():
    return {"binary": _compare(*_binary(300)),
            "tiny differences": _compare(*_binary(228, seed=5, spread=0.02)),
            "multiclass": _compare(*_multiclass(300))}


def overlapping_tick_labels(fig, dpi: int = 110) -> list[tuple[str, str]]:
    """Pairs of drawn tick labels of one axis whose boxes intersect, at ``dpi``."""
    fig.set_dpi(dpi)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    bad = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = [t for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
            boxes = [t.get_window_extent(renderer) for t in labels]
            for (a, ba), (b, bb) in itertools.combinations(zip(labels, boxes, strict=True), 2):
                if (min(ba.x1, bb.x1) > max(ba.x0, bb.x0)
                        and min(ba.y1, bb.y1) > max(ba.y0, bb.y0)):
                    bad.append((a.get_text(), b.get_text()))
    return bad


def test_no_figure_of_a_page_has_overlapping_tick_labels(comparisons):
    plt = pyplot()
    for name, cmp in comparisons.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            figs = report.figures(cmp)
        for stem, _, _, fig in figs:
            legible_ticks(fig)  # as pages.figure_bytes draws it
            assert overlapping_tick_labels(fig) == [], (name, stem)
            plt.close(fig)


def test_difference_axes_keep_labels_apart_at_every_scale(comparisons):
    """The forest plot's axes at ranges from 1e-5 to 1 wide, off zero and across it (the
    default locator wrote "−0.0050−0.0025 0.0000" into one another on narrow axes)."""
    cmp = comparisons["binary"]
    fig = cmp.plot_intervals(["auc", "brier"])
    for width in np.logspace(-5, 0, 16):
        for left in (-width, -0.8 * width, -0.05 * width, 0.3 * width):
            for ax in fig.axes:
                ax.set_xlim(left, left + width)
            assert overlapping_tick_labels(fig) == [], (left, width)
            for ax in fig.axes:  # and still ticked: at least two labels on view
                lo, hi = ax.get_xlim()
                assert sum(lo <= x <= hi for x in ax.get_xticks()) >= 2
    pyplot().close(fig)


def test_the_default_locator_would_overlap_where_ours_does_not():
    """The failure the locator prevents, shown on the default one (8-point labels)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(2.2, 1))
    ax.tick_params(labelsize=8)
    ax.set_xlim(-0.00016, 0.00003)
    assert overlapping_tick_labels(fig) != []
    assert overlapping_tick_labels(legible_ticks(fig)) == []
    plt.close(fig)


def test_each_figure_is_drawn_once(comparisons, tmp_path, monkeypatch):
    draws: list[int] = []
    original = Figure.draw

    def counted(self, renderer):
        draws.append(id(self))
        return original(self, renderer)

    monkeypatch.setattr(Figure, "draw", counted)
    for name, cmp in comparisons.items():
        draws.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            page = cmp.to_html(tmp_path / f"{name.replace(' ', '_')}.html")
        stems = [p.name for p in tmp_path.glob(page.stem + "-*")]
        assert len(draws) == len(set(draws)) == len(stems) >= 4, (name, stems)
        assert all(s.endswith(".png") for s in stems)  # one format


def test_the_crop_is_the_tight_bounding_box():
    """What a tight bounding box keeps (savefig's own route), within a pixel per side."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(6, 2.5))
    axes[0].plot([0, 1], [1, 0])
    axes[1].set_title("a title")
    axes[1].set_xlabel("an x label")
    fig.tight_layout()
    ours = Image.open(io.BytesIO(pages.figure_bytes(fig)))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    theirs = Image.open(buf)
    assert abs(ours.size[0] - theirs.size[0]) <= 2 and abs(ours.size[1] - theirs.size[1]) <= 2
    # a drawing beyond the canvas is left to the tight bounding box, which reaches it
    fig.text(1.05, 0.5, "outside")
    wide = Image.open(io.BytesIO(pages.figure_bytes(fig)))
    assert wide.size[0] > ours.size[0] + 10
    plt.close(fig)


# ------------------------------------------------------------------------- Chromium
LAYOUT = ("<script>window.addEventListener('load',function(){var o=[];"
          "document.querySelectorAll('figure img').forEach(function(i){"
          "var b=i.getBoundingClientRect();o.push([b.left,b.right,i.width,i.height,"
          "i.naturalWidth,i.naturalHeight])});document.body.setAttribute('data-layout',"
          "JSON.stringify({imgs:o,inner:window.innerWidth,"
          "scroll:document.documentElement.scrollWidth}))});</script>")


@pytest.mark.browser
@pytest.mark.parametrize("width", [420, 1600])
def test_page_figures_fit_a_narrow_and_a_wide_window(comparisons, tmp_path, width):
    """Every figure is on the page whole: inside the window, never wider than drawn,
    with its proportions (so its tick labels stay as the renderer placed them; their
    spacing is checked on the renderer above); nothing makes the page scroll sideways (a
    wide table scrolls inside itself on a narrow screen)."""
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("chromium is not installed: `make test` installs it (apt-get install -y "
                    "chromium); see README 'Set up a fresh machine'")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = comparisons["tiny differences"].to_html(tmp_path / "cmp.html")
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", LAYOUT + "</body>"),
                     encoding="utf-8")
    dom = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                          "--hide-scrollbars", "--no-first-run", "--disable-dev-shm-usage",
                          f"--window-size={width},900", f"--user-data-dir={tmp_path / 'u'}",
                          "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    raw = dom.stdout.split('data-layout="', 1)[1].split('"', 1)[0]
    layout = json.loads(html.unescape(raw))
    assert layout["scroll"] <= layout["inner"]  # nothing sticks out sideways
    assert len(layout["imgs"]) >= 4
    for left, right, w, h, nw, nh in layout["imgs"]:
        assert nw > 0 and 0 <= left and right <= layout["inner"]
        assert w <= nw + 0.5  # never scaled up
        assert h / w == pytest.approx(nh / nw, rel=0.02)  # proportions kept
