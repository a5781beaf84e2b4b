"""Fold files: each finished fit of :func:`~measurelab.inference.learners.compare_learners`
written to a folder as it finishes, so a run that was killed resumes without refitting a
finished fold.

A fold file is named by what determines its content — the estimator (its class and
parameters), the data (X, y, the classes and the positive one) and the fold's training and
test cases in order — hashed together (``joblib.hash``). A file is therefore never read for
another learner, other data or another split, two runs may share a folder, and two
processes writing the same fold write the same bytes: each file is written to a temporary
name and moved into place (``os.replace``, atomic), so a reader sees a whole file or none.
A file that cannot be read (a disk error) is refitted, never trusted.

Examples
--------
>>> import tempfile
>>> import numpy as np
>>> store = FoldStore(tempfile.mkdtemp())
>>> key = store.key("est", "data", np.arange(3), np.arange(3, 5))
>>> store.load(key) is None
True
>>> store.save(key, "probability", np.array([0.25, 0.75]))
>>> kind, p = store.load(key)
>>> kind, p.tolist()
('probability', [0.25, 0.75])
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from measurelab._util.files import atomic_write_bytes, check_output_folder

__all__ = ["FoldStore", "fingerprint"]


def fingerprint(value: Any) -> str:
    """A hash of ``value``'s content (estimators by class and parameters, arrays and frames
    by their values), as joblib computes it for its own caches."""
    import joblib

    return str(joblib.hash(value))


class FoldStore:
    """A folder of fold files (``<hash>.npz``: the kind of prediction and the array)."""

    def __init__(self, folder: Any) -> None:
        self.root = check_output_folder(folder, "folder")

    def key(self, estimator_hash: str, data_hash: str, train: np.ndarray,
            test: np.ndarray) -> str:
        """The file name of one fit: its estimator, data and cases, in order."""
        return fingerprint((estimator_hash, data_hash, np.asarray(train, dtype=np.int64),
                            np.asarray(test, dtype=np.int64)))

    def path(self, key: str) -> Path:
        return self.root / f"{key}.npz"

    def load(self, key: str) -> tuple[str, np.ndarray] | None:
        """(kind, predictions) of a finished fit, or None when it has no readable file."""
        p = self.path(key)
        if not p.is_file():
            return None
        try:
            with np.load(p, allow_pickle=False) as z:
                return str(z["kind"]), np.array(z["p"])
        except (OSError, ValueError, KeyError):  # unreadable: refit rather than trust it
            return None

    def save(self, key: str, kind: str, p: np.ndarray) -> None:
        """Write one fit's predictions, atomically."""
        buf = io.BytesIO()
        np.savez(buf, kind=np.array(kind), p=np.asarray(p))
        atomic_write_bytes(self.path(key), buf.getvalue())  # makes the folder when missing
