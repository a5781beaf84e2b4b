"""The result store of a study: one folder, written atomically, resumable, shared safely.

Layout of ``out/``::

    study.json                      the settings; a rerun must match them
    index.sqlite                    one row per finished unit (models, seconds, time) and a
                                    copy of the settings
    problems/NAME/data.npz          the prepared train / valid / test arrays
    problems/NAME/info.json         sizes, positive class, preprocessing
    units/NAME/UNIT.pred.parquet    every model's validation and test scores
    units/NAME/UNIT.parquet         every model's ten measures on both splits (written last:
                                    its presence marks the unit finished)
    measures.parquet                all measure rows, sorted (written at the end)
    .lock                           held (``flock``) by the run writing the folder

Every file is written to a temporary name and moved into place with ``os.replace``, so a
killed run leaves whole files or none; the rerun skips units whose measure file exists.
Files damaged afterwards (truncated, overwritten) are detected when the study resumes: a
unit whose measure or prediction file does not read back is trained again, damaged
prepared data are prepared again, a damaged ``index.sqlite`` is rebuilt from the unit
files and a damaged ``study.json`` from the copy of the settings in the index; each repair
is reported in one line on standard error. Two runs on one folder take turns through the
lock: the second waits, then finds the units stored and only reads them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd

from measurelab.exceptions import MeasurelabError
from measurelab.validation import check_output_folder

#: settings that must agree for a rerun to resume into the same folder
KEY_SETTINGS: tuple[str, ...] = (
    "problems", "grid", "seed", "n_train", "n_valid", "n_test", "target", "pos_label",
)

#: columns every unit's measure file has
_UNIT_COLUMNS = ("problem", "unit", "algo", "model", "params", "split")


def atomic_write_parquet(df: pd.DataFrame, path: Path) -> None:
    """Write ``df`` to ``path`` as Parquet via a temporary file and ``os.replace``."""
    from measurelab.io.files import atomic_write_with

    atomic_write_with(path, lambda tmp: df.to_parquet(tmp, index=False))


def note(message: str) -> None:
    """One line on standard error about a repair of the store."""
    print(f"measurelab study: {message}", file=sys.stderr, flush=True)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 80 else text[:79] + "…"


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
    def check_folder(self) -> None:
        """Raise unless ``root`` is a folder or does not exist yet (the library's check)."""
        check_output_folder(self.root, "--out", "is a file; the study needs a folder (a new "
                            "or an existing study's)")

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the folder's lock (waiting, with one line, while another run holds it)."""
        self.check_folder()
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no lock
            yield
            return
        fd = os.open(self.root / ".lock", os.O_RDWR | os.O_CREAT, 0o666)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                other = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                note(f"another run (pid {other}) is writing {self.root}; waiting for it")
                fcntl.flock(fd, fcntl.LOCK_EX)
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            yield
        finally:
            os.close(fd)  # closing releases the lock (the kernel does so if we are killed)

    def open(self, settings: dict[str, Any]) -> None:
        """Create the folder, or check that an existing study has the same settings."""
        self.check_folder()
        self.root.mkdir(parents=True, exist_ok=True)
        for tmp in self.root.rglob(".*.tmp*"):  # leftovers of a killed run
            tmp.unlink(missing_ok=True)
        self._open_db()
        path = self.root / "study.json"
        old = self._read_settings()
        if old is not None:
            diff = [k for k in KEY_SETTINGS if old.get(k) != settings.get(k)]
            if diff:
                k = diff[0]
                raise MeasurelabError(
                    f"{self.root} holds a study with {k}={old.get(k)!r}, not "
                    f"{settings.get(k)!r}; use another --out folder to start a new study"
                )
        from measurelab.io.files import atomic_write_text

        text = json.dumps(settings, indent=1, sort_keys=True)
        if old is None:
            atomic_write_text(path, text)
        with self._db() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES ('study', ?)", (text,))

    def _read_settings(self) -> dict[str, Any] | None:
        """The stored settings: study.json, or (if it is damaged) the index's copy."""
        path = self.root / "study.json"
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            damage = _reason(exc)
        with self._db() as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'study'").fetchone()
        if row is None:
            raise MeasurelabError(
                f"{path} is damaged ({damage}) and no copy of the settings survives; "
                "remove it to start the study anew in this folder"
            )
        from measurelab.io.files import atomic_write_text

        atomic_write_text(path, row[0])
        note(f"{path} was damaged ({damage}); rebuilt from the copy in index.sqlite")
        return json.loads(row[0])

    def _open_db(self) -> None:
        """Create the index, or rebuild it from the unit files if it is damaged."""
        path = self.root / "index.sqlite"
        try:
            with self._db() as db:
                self._create_tables(db)
                ok = db.execute("PRAGMA quick_check").fetchone()[0]
                db.execute("SELECT COUNT(*) FROM units").fetchone()
            if ok != "ok":
                raise sqlite3.DatabaseError(ok)
        except sqlite3.DatabaseError as exc:
            for p in (path, path.with_name(path.name + "-journal")):
                p.unlink(missing_ok=True)
            with self._db() as db:
                self._create_tables(db)
            n = self._reindex()
            note(f"{path} was damaged ({_reason(exc)}); rebuilt from {n} stored units")

    @staticmethod
    def _create_tables(db: sqlite3.Connection) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS units (problem TEXT, unit TEXT, algo TEXT, "
            "n_models INTEGER, train_seconds REAL, eval_seconds REAL, finished REAL, "
            "PRIMARY KEY (problem, unit))"
        )
        db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT)")

    def _reindex(self) -> int:
        """Index rows for every readable unit file (seconds unknown: NULL)."""
        n = 0
        with self._db() as db:
            for f in sorted((self.root / "units").glob("*/*.parquet")):
                if f.name.endswith(".pred.parquet"):
                    continue
                df = self._read_unit(f)
                if df is None:
                    continue
                db.execute(
                    "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, NULL, NULL, ?)",
                    (f.parent.name, f.name.removesuffix(".parquet"), str(df["algo"].iloc[0]),
                     int(df["model"].nunique()), f.stat().st_mtime),
                )
                n += 1
        return n

    def settings(self) -> dict[str, Any]:
        return json.loads((self.root / "study.json").read_text())

    def _db(self) -> sqlite3.Connection:
        return sqlite3.connect(self.root / "index.sqlite", timeout=30)

    # ------------------------------------------------------------------ units
    def unit_path(self, problem: str, unit: str, *, pred: bool = False) -> Path:
        return self.root / "units" / problem / (f"{unit}.pred.parquet" if pred
                                                else f"{unit}.parquet")

    def is_done(self, problem: str, unit: str) -> bool:
        """Whether the unit's files are stored and read back; damaged ones are removed
        (with one line on standard error) so that the unit is trained again."""
        path = self.unit_path(problem, unit)
        if not path.exists():
            return False
        pred = self.unit_path(problem, unit, pred=True)
        problem_found = self._check_unit(path, pred)
        if problem_found is None:
            return True
        for p in (path, pred):
            p.unlink(missing_ok=True)
        with self._db() as db:
            db.execute("DELETE FROM units WHERE problem = ? AND unit = ?", (problem, unit))
        note(f"{problem_found}; the unit is trained again")
        return False

    @staticmethod
    def _read_unit(path: Path) -> pd.DataFrame | None:
        try:
            df = pd.read_parquet(path)
        except Exception:  # any failure to read back means damage
            return None
        if df.empty or not set(_UNIT_COLUMNS) <= set(df.columns):
            return None
        return df

    def _check_unit(self, path: Path, pred: Path) -> str | None:
        """None if both files of a unit read back whole, else what is wrong."""
        df = self._read_unit(path)
        if df is None:
            return f"{path} is unreadable or truncated"
        if not pred.exists():
            return f"{pred} is missing"
        try:
            import pyarrow.parquet as pq

            pt = pq.read_table(pred)  # every column: damaged pages fail here
        except Exception as exc:  # any failure to read back means damage
            return f"{pred} is unreadable or truncated ({_reason(exc)})"
        models = set(df["model"])
        if set(pt.column("model").to_pylist()) != models:
            return f"{pred} does not hold the unit's {len(models)} models"
        return None

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
