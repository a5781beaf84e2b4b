"""A page and the files written beside it, checked before any work and written as a set.

A report page (``to_html``, ``--html``) is a set of files: the page, its JSON and its
figures. :func:`check_page_set` checks every target before anything is computed — each is a
writable file path, none is a folder, and the page is not one of its own side files (a
page named ``cmp.json`` would be overwritten by its JSON). :func:`write_page_set` writes
every file to a temporary name in its folder and moves them into place only when all are
written; on a failure it removes what it wrote, so nothing is left behind.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> d = Path(tempfile.mkdtemp())
>>> page = check_page_set(d / "cmp.html", [".json", "-roc.png"], "path")
>>> write_page_set({page: b"<html>", d / "cmp.json": b"{}"})
>>> sorted(p.name for p in d.iterdir())
['cmp.html', 'cmp.json']
>>> check_page_set(d / "cmp.json", [".json"], "path")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
measurelab.exceptions.MeasurelabError: path ...cmp.json' is also the name of the page's JSON ...
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from measurelab._util.files import check_output_path, file_mode
from measurelab.exceptions import MeasurelabError

__all__ = ["COMPARISON_FIGURES", "check_page_set", "side_path", "write_page_set"]

#: the figures a classifier comparison's page may write beside it (``-NAME.png`` each)
COMPARISON_FIGURES = ("forest", "groups", "curves", "calibration", "decision", "confusion")


def side_path(page: Path, tail: str) -> Path:
    """The file ``tail`` beside ``page``: ``cmp.html`` and ``-roc.png`` → ``cmp-roc.png``.

    Examples
    --------
    >>> side_path(Path("out/cmp.html"), ".json").as_posix()
    'out/cmp.json'
    """
    return page.with_name(page.stem + tail)


def check_page_set(path: Any, tails: Iterable[str], name: str) -> Path:
    """The page path, checked with every side file ``side_path(page, tail)`` before any
    work: each a writable file path (not a folder), and none the page itself. ``name`` is
    the parameter or option the user typed (``path``, ``--html``)."""
    page = check_output_path(path, name)
    for tail in tails:
        side = side_path(page, tail)
        what = "JSON" if tail == ".json" else f"file {side.name!r}"
        if side == page:
            raise MeasurelabError(
                f"{name} {str(page)!r} is also the name of the page's {what} written beside "
                "it; name the page .html")
        if side.is_dir():
            raise MeasurelabError(
                f"{name} {str(page)!r}: the {what} written beside the page, {str(side)!r}, is "
                "a folder; remove it or name the page differently")
        check_output_path(side, name)
    return page


def write_page_set(files: Mapping[Path, bytes]) -> None:
    """Write every ``path: data`` as one set: each to a temporary file in its folder, then
    all moved into place; on any failure every temporary file and every file already
    moved is removed (a file that existed before is replaced only when all succeed)."""
    temps: dict[Path, str] = {}
    moved: list[Path] = []
    target: Path | None = None  # the file being written, named in an error (not its temp)
    try:
        for path, data in files.items():
            target = path
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                       dir=path.parent)
            temps[path] = tmp
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, file_mode())
        for path, tmp in temps.items():
            target = path
            os.replace(tmp, path)
            moved.append(path)
    except BaseException as exc:
        for path, tmp in temps.items():
            if path not in moved and os.path.exists(tmp):
                os.unlink(tmp)
        for path in moved:
            path.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            where = "the page" if target is None else str(target)
            raise MeasurelabError(f"could not write {where}: {exc.strerror or exc}; "
                                  "nothing was written") from None
        raise
