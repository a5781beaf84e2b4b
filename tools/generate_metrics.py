"""Write src/measurelab/metrics/_measures.py: one ``def`` per built-in measure, from the
registry, so that grep, IDEs and type checkers see ``measurelab.metrics.auc`` and the rest.

Run after adding or changing a built-in measure (its signature or docstring):

    PYTHONPATH=src python tools/generate_metrics.py

``tests/metrics/test_functions.py`` fails while the file is out of date.
"""

from __future__ import annotations

from pathlib import Path

from measurelab.metrics.functions import generated_source

TARGET = Path(__file__).resolve().parents[1] / "src" / "measurelab" / "metrics" / "_measures.py"


def main() -> None:
    TARGET.write_text(generated_source(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
