"""The result store of a study: one folder, written atomically, resumable.

Layout of ``out/``::

    study.json                      the settings; a rerun must match them
    index.sqlite                    one row per finished unit (models, seconds, time)
    problems/NAME/data.npz          the prepared train / valid / test arrays
    problems/NAME/info.json         sizes, positive class, preprocessing
    units/NAME/UNIT.pred.parquet    every model's validation and test scores
    units/NAME/UNIT.parquet         every model's ten measures on both splits (written last:
                                    its presence marks the unit finished)
    measures.parquet                all measure rows, sorted (written at the end)

Every file is written to a temporary name and moved into place with ``os.replace``, so a
killed run leaves whole files or none; the rerun skips units whose measure file exists.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pandas as pd

from measurelab._validation import MeasurelabError

#: settings that must agree for a rerun to resume into the same folder
KEY_SETTINGS: tuple[str, ...] = (
    "problems", "grid", "seed", "n_train", "n_valid", "n_test", "target", "pos_label",
)


def atomic_write_parquet(df: pd.DataFrame, path: Path) -> None:
    """Write ``df`` to ``path`` as Parquet via a temporary file and ``os.replace``."""
    from measurelab._files import atomic_write_with

    atomic_write_with(path, lambda tmp: df.to_parquet(tmp, index=False))


class ResultStore:
    """A study's folder: settings, prepared data, per-unit results and an SQLite index.

    Examples
    --------
    >>> import tempfile
    >>> s = ResultStore(tempfile.mkdtemp())
    >>> s.open({"problems": ["sonar"], "grid": "tiny", "seed": 0})
    >>> s.is_done("sonar", "knn_weights=uniform")
    False
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    # ------------------------------------------------------------------ settings
    def open(self, settings: dict[str, Any]) -> None:
        """Create the folder, or check that an existing study has the same settings."""
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / "study.json"
        if path.exists():
            old = json.loads(path.read_text())
            diff = [k for k in KEY_SETTINGS if old.get(k) != settings.get(k)]
            if diff:
                k = diff[0]
                raise MeasurelabError(
                    f"{self.root} holds a study with {k}={old.get(k)!r}, not "
                    f"{settings.get(k)!r}; use another --out folder to start a new study"
                )
        else:
            from measurelab._files import atomic_write_text

            atomic_write_text(path, json.dumps(settings, indent=1, sort_keys=True))
        for tmp in self.root.rglob(".*.tmp*"):  # leftovers of a killed run
            tmp.unlink(missing_ok=True)
        with self._db() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS units (problem TEXT, unit TEXT, algo TEXT, "
                "n_models INTEGER, train_seconds REAL, eval_seconds REAL, finished REAL, "
                "PRIMARY KEY (problem, unit))"
            )

    def settings(self) -> dict[str, Any]:
        return json.loads((self.root / "study.json").read_text())

    def _db(self) -> sqlite3.Connection:
        return sqlite3.connect(self.root / "index.sqlite", timeout=30)

    # ------------------------------------------------------------------ units
    def unit_path(self, problem: str, unit: str, *, pred: bool = False) -> Path:
        return self.root / "units" / problem / (f"{unit}.pred.parquet" if pred
                                                else f"{unit}.parquet")

    def is_done(self, problem: str, unit: str) -> bool:
        return self.unit_path(problem, unit).exists()

    def write_unit(self, problem: str, unit: str, algo: str, measures: pd.DataFrame,
                   predictions: pd.DataFrame, train_seconds: float,
                   eval_seconds: float) -> None:
        """Store one finished unit: predictions first, then measures, then the index row."""
        atomic_write_parquet(predictions, self.unit_path(problem, unit, pred=True))
        atomic_write_parquet(measures, self.unit_path(problem, unit))
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, ?, ?, ?)",
                (problem, unit, algo, int(measures["model"].nunique()), float(train_seconds),
                 float(eval_seconds), time.time()),
            )

    def index(self) -> pd.DataFrame:
        """The SQLite index as a DataFrame (one row per finished unit)."""
        with self._db() as db:
            return pd.read_sql_query("SELECT * FROM units ORDER BY problem, unit", db)

    def measures(self, problems: list[str] | None = None) -> pd.DataFrame:
        """All stored measure rows, sorted by problem, model and split."""
        files = sorted((self.root / "units").glob("*/*.parquet"))
        files = [f for f in files if not f.name.endswith(".pred.parquet")
                 and (problems is None or f.parent.name in problems)]
        if not files:
            raise MeasurelabError(f"no finished units in {self.root}")
        df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
        return df.sort_values(["problem", "model", "split"], kind="stable").reset_index(
            drop=True)

    def predictions(self, problem: str) -> pd.DataFrame:
        """Every stored score of one problem (columns model, split, row, score)."""
        files = sorted((self.root / "units" / problem).glob("*.pred.parquet"))
        return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
