"""R's numbers the tests compare against, stored or live.

Every comparison with R (pROC's DeLong tests, partial AUC, best thresholds and power
calculation; R's ``loess``) has a *producer*: a function in its test module that runs R
through ``Rscript`` on the test's data and returns R's outputs (JSON-ready). The default
suite reads what the producers returned when ``tools/r_references.py`` last ran them,
stored in ``tests/data/r/NAME.json`` with the R and pROC versions that computed them; no R
is needed. The same tests run once more against R live (the ``r`` marker: ``make test-r``,
which installs R and pROC, regenerates the stored files and runs those).
"""

from __future__ import annotations

import importlib
import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent / "data" / "r"

#: stored file name → "module:function" of its producer (a function of a temporary folder)
PRODUCERS = {
    "delong_asah": "tests.inference.test_delong:r_asah",
    "delong_tied": "tests.inference.test_delong:r_tied",
    "power": "tests.inference.test_power:r_power",
    "operating_point": "tests.measures.test_operating_point_proc:r_operating_point",
    "loess": "tests.measures.test_smooth_calibration:r_loess",
    "loess_naive_bayes": "tests.measures.test_smooth_calibration:r_loess_naive_bayes",
}

#: the two sources a test of R's numbers runs against: the stored file (default suite) and
#: R itself (marker ``r``); use as ``@pytest.fixture(params=SOURCES)``
SOURCES = [pytest.param("stored", id="stored"),
           pytest.param("live", id="live-R", marks=pytest.mark.r)]


def rscript() -> str:
    """The ``Rscript`` with pROC; a test of R live fails (never skips) without it."""
    exe = shutil.which("Rscript")
    if exe is None:
        pytest.fail("Rscript is not installed: `make test-r` installs r-base-core and "
                    "r-cran-proc (the default suite reads tests/data/r/ instead)")
    ok = subprocess.run([exe, "-e", 'quit(status = !requireNamespace("pROC", quietly = TRUE))'],
                        capture_output=True, timeout=120)
    if ok.returncode != 0:
        pytest.fail("R's pROC package is missing: `make test-r` installs r-cran-proc")
    return exe


def run_r(code: str, tmp: Path, *, proc: bool = True) -> dict[str, float]:
    """Run an R script; every stdout line ``key=value`` becomes an entry (NA → nan)."""
    script = tmp / "check.R"
    script.write_text(("suppressMessages(library(pROC))\n" if proc else "") + code)
    res = subprocess.run([rscript(), str(script)], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, f"Rscript failed:\n{res.stdout}\n{res.stderr}"
    out: dict[str, float] = {}
    for line in res.stdout.splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            out[key.strip()] = math.nan if value.strip() == "NA" else float(value)
    return out


def live(name: str, tmp: Path) -> Any:
    """R's outputs for ``name``, computed now."""
    module, func = PRODUCERS[name].split(":")
    return getattr(importlib.import_module(module), func)(tmp)


def stored(name: str) -> Any:
    """R's outputs for ``name`` as ``tools/r_references.py`` stored them."""
    path = DATA / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))["values"]


def reference(name: str, source: str, tmp: Path) -> Any:
    """R's outputs for ``name`` from ``source`` ("stored" or "live")."""
    return stored(name) if source == "stored" else live(name, tmp)


def versions() -> dict[str, str]:
    """The R and pROC versions ``Rscript`` runs."""
    res = subprocess.run([rscript(), "-e", 'cat(R.version.string, "\\n", '
                          'as.character(packageVersion("pROC")), "\\n", sep = "")'],
                         capture_output=True, text=True, timeout=120, check=True)
    r, proc = res.stdout.strip().splitlines()
    return {"R": r.strip(), "pROC": proc.strip()}
