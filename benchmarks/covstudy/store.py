"""Files and provenance of the coverage study: atomic JSON, cache keys, seeds, the
sources' fingerprint and the git commit."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

import measurelab as ml


def seed_seq(seed: int, *key: int) -> np.random.SeedSequence:
    """The seed sequence of one stream of the study (``key``: what the stream is of)."""
    return np.random.SeedSequence([int(seed), *(int(k) for k in key)])


def prev_key(prevalence: float) -> int:
    """A prevalence as an integer seed key (millionths)."""
    return round(prevalence * 1_000_000)


def atomic_write_json(path: Path, obj: Any, **dump: Any) -> None:
    """Write ``obj`` as JSON to ``path`` atomically (a temporary file, then a rename);
    ``dump``: keywords of :func:`json.dumps`."""
    atomic_write_text(Path(path), json.dumps(obj, **dump))


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a reader sees the old file or the new one,
    never a part (a temporary file in the same folder, flushed, then renamed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o644)   # mkstemp makes it private
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any | None:
    """The JSON in ``path``, or None when it is missing or not JSON."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def as_json(obj: Any) -> Any:
    """``obj`` as it reads back from JSON (tuples become lists), to compare with a file's."""
    return json.loads(json.dumps(obj))


def digest(obj: Any) -> str:
    """A short hash of a JSON-able key (names the cache files)."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:10]


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of measurelab's Python sources (to notice a cached cell from other code)."""
    root = Path(ml.__file__).resolve().parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def git_head() -> str:
    """The commit of the sources (short hash; ``+changes`` when measurelab's sources
    differ from it), or 'unknown'."""
    where = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=where, timeout=10)
        head = out.stdout.strip()
        if not head:
            return "unknown"
        src = Path(ml.__file__).resolve().parent
        dirty = subprocess.run(["git", "status", "--porcelain", "--", str(src)],
                               capture_output=True, text=True, cwd=where, timeout=10)
        return head + ("+changes" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"

