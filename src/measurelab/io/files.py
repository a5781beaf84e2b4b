"""Writing files atomically, with the permissions the user's umask asks for, and checking
an output path before any work is done (the public face of the library's one writer; see
:func:`atomic_path`), and a set of files written all or nothing (:func:`write_page_set`).

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> p = Path(tempfile.mkdtemp()) / "a.txt"
>>> atomic_write_text(p, "x"); p.read_text()
'x'
"""

from measurelab._util.files import (
    atomic_path,
    atomic_write_bytes,
    atomic_write_text,
    atomic_write_with,
    check_output_path,
    current_umask,
    file_mode,
)
from measurelab._util.pageset import write_page_set

__all__ = ["atomic_path", "atomic_write_bytes", "atomic_write_text", "atomic_write_with",
           "check_output_path", "current_umask", "file_mode", "write_page_set"]
