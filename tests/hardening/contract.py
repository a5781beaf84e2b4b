"""The bad-input contract every public entry point keeps (issue 23), as assertions the
property-based tests share.

API: a :class:`~measurelab.exceptions.MeasurelabError` (a ValueError; a wrong type also a
TypeError) raised by measurelab's own code (the innermost frame is in the package), one
line naming the parameter. CLI: exit status 2, nothing on standard output, exactly one line
on standard error naming the offending option or thing, no traceback, no temporary names,
nothing written.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from measurelab.cli import main
from measurelab.exceptions import MeasurelabError

PACKAGE = os.sep + "measurelab" + os.sep


def assert_refused(call: Callable[[], Any], names: str | Iterable[str]) -> MeasurelabError:
    """``call()`` raises a one-line MeasurelabError from measurelab's code whose message
    names one of ``names`` (a parameter)."""
    wanted = [names] if isinstance(names, str) else list(names)
    with pytest.raises(MeasurelabError) as info:
        call()
    exc = info.value
    assert isinstance(exc, ValueError | TypeError)
    msg = str(exc)
    assert msg and "\n" not in msg, f"not one line: {msg!r}"
    assert any(n in msg for n in wanted), f"{wanted} not named in: {msg!r}"
    tb = info.tb
    while tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_code.co_filename
    assert PACKAGE in where, f"raised outside measurelab ({where}): {msg!r}"
    return exc


def _snapshot(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def assert_cli_refused(argv: list[str], names: str | Iterable[str],
                       folder: Path | None = None) -> str:
    """``measurelab *argv`` exits 2 with one line on stderr naming one of ``names``, no
    traceback, nothing on stdout, no temporary name, and adds no file to ``folder``."""
    wanted = [names] if isinstance(names, str) else list(names)
    before = _snapshot(folder) if folder is not None else None
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's own refusals
            code = exc.code
    text = err.getvalue()
    assert code == 2, f"exit {code}: {text!r}"
    assert out.getvalue() == "", out.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n"), f"not one line: {text!r}"
    assert "Traceback" not in text and ".tmp" not in text
    assert any(n in text for n in wanted), f"{wanted} not named in: {text!r}"
    if folder is not None:
        assert _snapshot(folder) == before, "files were written"
    return text
