"""Perf-style text (``target prediction`` lines): split into pieces of whole lines, parsed
by pyarrow when large, else (and on any doubt) by the exact scan that names the bad line."""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from measurelab._util.validation import parse_number, quote
from measurelab.exceptions import MeasurelabError
from measurelab.io.sources import Chunk

#: bytes read from a text stream at a time (perf text: fewer, larger parser calls)
_BLOCK_BYTES = 1 << 22

_WS = bytes.maketrans(b"\t\r\v\f", b"    ")


def _perf_pieces(fh: IO[bytes], chunk_rows: int, first: bytes = b"") -> Iterator[tuple[int, bytes]]:
    """Split a text stream into pieces of at most ``chunk_rows`` whole lines.

    Yields ``(line number of the piece's first line, bytes)``.
    """
    line = 1
    rest = first
    eof = False
    while not eof:
        data = fh.read(_BLOCK_BYTES)
        eof = not data
        buf = rest + data if rest else data
        end = len(buf) if eof else buf.rfind(b"\n") + 1
        rest = buf[end:]
        start = 0
        while start < end:
            n_lines = buf.count(b"\n", start, end)
            if n_lines <= chunk_rows:
                stop = end
                n_lines += not buf.endswith(b"\n", start, end)  # a last line without newline
            else:
                nl = np.flatnonzero(np.frombuffer(buf, np.uint8, end - start, start) == 10)
                stop = start + int(nl[chunk_rows - 1]) + 1
                n_lines = chunk_rows
            yield line, buf[start:stop]
            line += n_lines
            start = stop


def _scan_perf(piece: bytes, line0: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The slow, exact parser: raises naming the first bad line, else returns the arrays."""
    ys: list[float] = []
    ss: list[float] = []
    for k, raw in enumerate(piece.split(b"\n")):
        fields = raw.split()
        if not fields:
            continue
        where = f"{name}, line {line0 + k}"
        if len(fields) != 2:
            what = "one column" if len(fields) == 1 else f"{len(fields)} columns"
            raise MeasurelabError(
                f"{where}: expected two columns 'target prediction', got {what}: "
                f"{quote(raw.strip())}"
            )
        vals = []
        for role, f in zip(("target", "prediction"), fields, strict=True):
            v = parse_number(f)
            if v is None:
                raise MeasurelabError(
                    f"{where}: the {role} {quote(f)} is not a number (expected plain "
                    "decimal notation such as 1, 0.25 or 1e-3)"
                )
            if not math.isfinite(v):
                raise MeasurelabError(f"{where}: the {role} is {quote(f)}; it must be finite")
            vals.append(v)
        ys.append(vals[0])
        ss.append(vals[1])
    return np.array(ys, dtype=np.float64), np.array(ss, dtype=np.float64)


#: perf text pieces shorter than this are parsed by the exact scan (no pyarrow import)
_SMALL_PIECE_BYTES = 1 << 16


def _column_numpy(col: Any) -> np.ndarray:
    """A float64 pyarrow column (ChunkedArray) as one numpy array, read from its data
    buffers (``to_numpy`` would import pandas)."""
    chunks = []
    for c in col.chunks:
        if c.null_count:
            raise ValueError("missing values")  # the exact scan names the line
        chunks.append(np.frombuffer(c.buffers()[1], dtype=np.float64, count=len(c),
                                    offset=8 * c.offset))
    if len(chunks) == 1:
        return chunks[0]
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float64)


def _parse_perf(piece: bytes, line0: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse a piece of perf text fast (pyarrow); on any doubt fall back to the exact scan.

    Small pieces go straight to the exact scan: for a few thousand lines it is quicker
    than importing pyarrow (the command line on a small file stays fast)."""
    if len(piece) < _SMALL_PIECE_BYTES:
        return _scan_perf(piece, line0, name)
    import pyarrow as pa
    import pyarrow.csv as pacsv

    # other white space becomes a space (checked first: most files have none)
    text = piece.translate(_WS) if any(c in piece for c in (b"\t", b"\r", b"\v", b"\f")) \
        else piece
    try:
        tbl = pacsv.read_csv(
            io.BytesIO(text),
            read_options=pacsv.ReadOptions(column_names=["y", "s"]),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={"y": pa.float64(), "s": pa.float64()}
            ),
        )
        # per chunk: ChunkedArray.to_numpy would import pandas
        y = _column_numpy(tbl.column("y"))
        s = _column_numpy(tbl.column("s"))
    except (pa.ArrowInvalid, ValueError):
        return _scan_perf(piece, line0, name)
    if not (np.isfinite(s).all() and np.isfinite(y).all()):
        return _scan_perf(piece, line0, name)
    return y, s


def _read_perf(fh: IO[bytes], name: str, chunk_rows: int, first: bytes = b"") -> Iterator[Chunk]:
    for line0, piece in _perf_pieces(fh, chunk_rows, first):
        y, s = _parse_perf(piece, line0, name)
        if s.size:
            blank = s.size != piece.count(b"\n") + (not piece.endswith(b"\n"))
            yield Chunk(y, s, None, first=line0, unit="line", _lines=piece if blank else None)
    if "pyarrow" in sys.modules:  # hand the parser's cached buffers back to the system
        import pyarrow as pa

        pa.default_memory_pool().release_unused()
