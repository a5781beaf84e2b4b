"""One version number: pyproject.toml reads ``measurelab.__version__``, and the packaging
tool, the module and the changelog agree on it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import measurelab

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_reads_the_module_version() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in meta["project"]  # no second number to forget
    assert "version" in meta["project"]["dynamic"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "measurelab.__version__"}


def test_setuptools_computes_the_same_version() -> None:
    # the route a build takes: setuptools reads the attribute from the source (statically)
    from setuptools.config.expand import read_attr

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    where = meta["tool"]["setuptools"]["packages"]["find"]["where"]
    version = read_attr("measurelab.__version__", package_dir={"": where[0]}, root_dir=ROOT)
    assert version == measurelab.__version__


def test_changelog_names_the_version_under_way() -> None:
    heading = re.search(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
                        re.MULTILINE)
    assert heading is not None
    release = re.match(r"\d+\.\d+\.\d+", measurelab.__version__)
    assert release is not None and heading.group(1) == release.group(0)
