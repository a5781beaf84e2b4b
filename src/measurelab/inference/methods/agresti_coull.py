"""Agresti–Coull's interval of a proportion (Agresti & Coull 1998): add z²/2 successes and
z²/2 failures, then a Wald interval, ñ = n + z², p̃ = (k + z²/2)/ñ,
p̃ ± z·√(p̃(1 − p̃)/ñ), clipped to [0, 1]. A proportion method a user may force
(``ci_method='agresti-coull'``); never a default. This file is the worked example of
docs/DEVELOPING.md: a method is one file plus its registration.

Examples
--------
>>> lo, hi = agresti_coull(81, 100, 0.95)
>>> round(lo, 4), round(hi, 4)
(0.7214, 0.8757)
"""

from __future__ import annotations

import math

from measurelab.inference.methods._registry import Form, IntervalMethod, register
from measurelab.inference.methods.proportion import is_proportion, proportion_form


def agresti_coull(k: int, n: int, level: float) -> tuple[float, float]:
    """Agresti–Coull's interval of k successes in n ≥ 1 trials at ``level``.

    Examples
    --------
    >>> agresti_coull(0, 10, 0.95)[0]
    0.0
    """
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + level / 2.0))
    n_t = n + z * z
    p_t = (k + z * z / 2.0) / n_t
    half = z * math.sqrt(p_t * (1.0 - p_t) / n_t)
    return (max(0.0, p_t - half), min(1.0, p_t + half))


AGRESTI_COULL = register(IntervalMethod(
    "agresti-coull", "Agresti–Coull's interval of a proportion (whole counts)",
    applies=is_proportion,
    single=Form("agresti-coull", proportion_form(agresti_coull, "agresti-coull"))))
