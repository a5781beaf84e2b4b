"""The package's annotations are its public types (PEP 561; docs/DECISIONS.md,
"Type-checked, not strictly typed"): the ``py.typed`` marker sits in the package and
ships with it. mypy itself runs in ``make test`` and ``make test-fast`` (``[tool.mypy]``
in pyproject.toml), not here, so the suite does not check the types twice."""

from __future__ import annotations

import tomllib
from pathlib import Path

import measurelab

ROOT = Path(__file__).resolve().parents[1]


def test_py_typed_marker_is_in_the_package() -> None:
    marker = Path(measurelab.__file__).parent / "py.typed"
    assert marker.is_file()
    assert marker.read_bytes() == b""  # a marker, not a partial-stub declaration


def test_py_typed_marker_ships() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in cfg["tool"]["setuptools"]["package-data"]["measurelab"]


def test_make_test_runs_mypy_over_the_package() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert cfg["tool"]["mypy"]["files"] == ["src/measurelab"]
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    test = make.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/mypy" in test
