"""Reading predictions from files in chunks: perf-style text, CSV, Parquet, standard input.

Every reader yields :class:`Chunk` objects of at most ``chunk_rows`` rows, so memory is
bounded by one chunk plus the score table (distinct scores), never by the number of rows.
:func:`read_score_table` turns the chunks into one merged :class:`ScoreTable`, and
:func:`evaluate_file` evaluates it — exactly the result of :func:`measurelab.evaluate` on
the whole data, because score tables of disjoint parts merge exactly.

Formats
-------
``perf``
    Caruana's ``perf`` input: one case per line, ``target prediction`` separated by
    spaces or tabs; blank lines are skipped. Errors name the line number.
``csv``
    A header line, then rows; the label and score columns are chosen by name
    (``label_col``, ``score_col``) or found among common names (``target``, ``label``,
    ``y``, ... / ``prediction``, ``score``, ``prob``, ...), or are the two columns of a
    two-column file. Errors name the data row (1 = the row after the header).
``parquet``
    A Parquet file or a directory of Parquet parts; columns as for CSV.

Multi-class (k probability columns, ``proba_cols``): CSV, Parquet or CSV on standard input,
read by :func:`read_multi_stats` / :func:`evaluate_multi_file` into merged
:class:`~measurelab.stats.bundle.MultiStats`.

``auto`` chooses by the file name (``.csv``, ``.tsv``, ``.parquet``/``.pq`` or a
directory; anything else is perf text); standard input (``-``) is CSV when its first line
holds a comma, else perf text. Text files ending in ``.gz`` are decompressed.

Modules
-------
``sources``
    :class:`Chunk`, source names, format detection, opening paths, standard input, pipes
    and gzip, the binary-content check (:func:`binary_content`).
``perf``
    perf-style text (the pyarrow parser and the exact scan).
``frames``
    CSV and Parquet: column choice, numeric and label columns, chunks of DataFrames,
    :func:`parquet_columns`.
``binary``
    :func:`read_chunks`, :func:`coerce_pos_label`, :class:`TableAccumulator`,
    :func:`read_score_table`, :func:`evaluate_file`.
``multiclass``
    :func:`parse_names`, :func:`multi_columns`, :class:`ClassMatcher`,
    :func:`read_multi_stats`, :func:`evaluate_multi_file`; several models' column groups
    for a comparison: :func:`parse_proba_groups`, :func:`group_names`,
    :func:`read_multi_models`.

Examples
--------
>>> import io
>>> data = io.BytesIO(b"1 0.9\\n0 0.4\\n\\n1 0.4\\n0 0.1\\n")
>>> t = read_score_table(data, fmt="perf")
>>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
([0.1, 0.4, 0.9], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0])
"""

from __future__ import annotations

from measurelab._util.validation import binary_content
from measurelab.io.binary import (
    TableAccumulator,
    coerce_pos_label,
    evaluate_file,
    read_chunks,
    read_score_table,
)
from measurelab.io.frames import LABEL_NAMES, SCORE_NAMES, parquet_columns
from measurelab.io.multiclass import (
    ClassMatcher,
    evaluate_multi_file,
    group_names,
    multi_columns,
    multi_frame_stats,
    parse_names,
    parse_proba_groups,
    read_multi_models,
    read_multi_stats,
)
from measurelab.io.sources import (
    DEFAULT_CHUNK_ROWS,
    FORMATS,
    MAX_CHUNK_ROWS,
    Chunk,
    Source,
    detect_format,
    source_name,
)

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "FORMATS",
    "LABEL_NAMES",
    "MAX_CHUNK_ROWS",
    "SCORE_NAMES",
    "Chunk",
    "ClassMatcher",
    "Source",
    "TableAccumulator",
    "binary_content",
    "coerce_pos_label",
    "detect_format",
    "evaluate_file",
    "evaluate_multi_file",
    "group_names",
    "multi_columns",
    "multi_frame_stats",
    "parquet_columns",
    "parse_names",
    "parse_proba_groups",
    "read_chunks",
    "read_multi_models",
    "read_multi_stats",
    "read_score_table",
    "source_name",
]
