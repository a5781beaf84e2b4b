"""The coverage study of measurelab's intervals (issue 28): every measure that offers an
interval, or a custom grid. The code is the package ``benchmarks/covstudy``; see its
``__init__`` for the commands (the full run, a quick check, a custom grid)::

    nice -n 15 python benchmarks/coverage_study.py --plan full --cache out/coverage-registry
    python benchmarks/coverage_study.py --plan full --estimate     # its time on this machine
    nice -n 15 python benchmarks/coverage_study.py --plan small --cache out/coverage-small
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from covstudy.cli import main

if __name__ == "__main__":
    sys.exit(main())
