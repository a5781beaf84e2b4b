"""What every figure of :mod:`measurelab.inference` shares: the colour-blind safe palette
:data:`PALETTE` (Okabe & Ito 2008), one colour per model, and :func:`literal`, which draws
a name as typed (a ``$`` is not the start of mathematics).

Examples
--------
>>> literal("$x$ model")
'\\\\$x\\\\$ model'
"""

from __future__ import annotations

from typing import Any

from measurelab._util.figures import pyplot as pyplot  # the one figure helper

#: Okabe & Ito's colour-blind safe palette (yellow last: it is faint on white)
PALETTE: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                            "#56B4E9", "#000000", "#F0E442")


def colour(i: int) -> str:
    """The colour of the i-th model (the palette repeats after eight).

    Examples
    --------
    >>> colour(0), colour(8)
    ('#0072B2', '#0072B2')
    """
    return PALETTE[i % len(PALETTE)]


def literal(text: Any) -> str:
    """``text`` as matplotlib draws it literally: every ``$`` escaped, so a model named
    ``$\\alpha$`` is shown as typed, not as α (and ``$$`` does not fail), and a leading
    ``_`` kept visible by a zero-width space (a legend leaves such a label out)."""
    s = str(text).replace("$", r"\$")
    return "\u200b" + s if s.startswith("_") else s
