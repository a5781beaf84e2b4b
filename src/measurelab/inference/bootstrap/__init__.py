"""The bootstrap: case resampling in blocks over a canonical order
(docs/METHODS.md#bootstrap), and the intervals and tests made from its replicates.

* :mod:`.designs` — the case designs: which cases a replicate draws, in canonical order
  (:class:`CaseDesign`, :class:`ClusterDesign`, :class:`MultiCaseDesign`);
* :mod:`.draws` — the draws (blocks of case multiplicities, the jackknife's groups);
* :mod:`.engine` — the run: every measure of a block of replicates
  (:func:`run_bootstrap`, :func:`run_blocks`);
* :mod:`.intervals` — percentile and BCa intervals and their p-values
  (:class:`BootstrapIntervals`, :func:`range_bounds`, :func:`bca_interval`).


* **What is resampled.** By default the cases jointly: a replicate draws n cases with
  replacement from all n (the test set is a random sample, so its class counts vary).
  ``stratify=True`` resamples positives and negatives separately, for designs that fix the
  class counts.
* **Order.** The cases are put in a canonical order (by label, every model's score and the
  weight) before anything is drawn, so the same data in any row order gives the same
  replicates, to the last bit.
* **Blocks.** A block of replicates is a matrix of case multiplicities; it is added into
  each model's score-table rows (positives and negatives apart) with one gather and one
  ``np.add.reduceat``, and every measure of the block comes from the measure's block formula
  (:meth:`measurelab.measures.base.Measure.compute_block`): a few array operations for all the
  replicates of the block, never a sort and never an evaluation call per replicate.
* **Intervals and tests from one distribution.** :class:`BootstrapIntervals` turns
  replicates into percentile or BCa intervals and inverts the same intervals into p-values,
  so an interval excludes 0 exactly when p < 1 − level. Undefined replicates (NaN) count
  as the ends of the statistic's range: the low end for the lower end of the interval, the
  high end for the upper one (:func:`range_bounds`: [0, 1] for sens, [−1, 1] for a
  difference of two sens; −∞ and +∞ for a measure unbounded on either side, such as
  lr_pos or mxe). Infinite replicates stay infinite, so an end that rests on them is ±∞;
  the shares are reported, and an end of a bounded measure that rests on undefined
  replicates is named in the method (``bootstrap-bca (5% undefined: counted at the ends
  of [0, 1])``).

Examples
--------
>>> import numpy as np
>>> from measurelab import registry
>>> y = np.array([0, 1, 0, 1, 1, 0, 1, 0], dtype=bool)
>>> s = np.array([0.1, 0.9, 0.3, 0.6, 0.4, 0.5, 0.8, 0.2])
>>> d = CaseDesign.from_cases(y, [s])
>>> out = run_bootstrap(d, [registry.get("acc")], 200, random_state=0)
>>> out.reps.shape, out.theta.shape      # (replicates, models, measures)
((200, 1, 1), (1, 1))
>>> perm = np.random.default_rng(1).permutation(8)
>>> out2 = run_bootstrap(CaseDesign.from_cases(y[perm], [s[perm]]), [registry.get("acc")],
...                      200, random_state=0)
>>> bool(np.array_equal(out.reps, out2.reps))   # row order does not matter
True
"""

from measurelab.inference.bootstrap.designs import (
    CaseDesign,
    ClusterDesign,
    MultiCaseDesign,
    canonical_order,
    cluster_order,
)
from measurelab.inference.bootstrap.draws import (
    MIN_BOOT,
    case_rows,
    check_n_boot,
    draw_parts,
    jackknife_groups,
    rng_of,
)
from measurelab.inference.bootstrap.engine import BootstrapRun, run_blocks, run_bootstrap
from measurelab.inference.bootstrap.intervals import (
    BootstrapIntervals,
    bca_interval,
    bootstrap_intervals,
    percentile_interval,
    range_bounds,
    z_of,
)

__all__ = [
    "MIN_BOOT",
    "BootstrapIntervals",
    "BootstrapRun",
    "CaseDesign",
    "ClusterDesign",
    "MultiCaseDesign",
    "bca_interval",
    "bootstrap_intervals",
    "canonical_order",
    "case_rows",
    "check_n_boot",
    "cluster_order",
    "draw_parts",
    "jackknife_groups",
    "percentile_interval",
    "range_bounds",
    "rng_of",
    "run_blocks",
    "run_bootstrap",
    "z_of",
]
