"""The large-n study of the k-class influence interval (issue 41): does θ̂ ± 1.96·SE, the
SE a sum over the cases of each case's k-class influence
(``measurelab.inference.classifiers.multi_influence``), cover where it is the k-class
default — from 10,000 cases with 100 in the smallest class?

Every interval forced to ``ci_method='influence'`` (one model and the paired difference):
acc, f1, mcc (the delta method over the k × k cells), auc (Hand & Till's M), ap (one class
against the rest, macro), brier, rms and mxe; ``average='macro'``; the latent-softmax
generator at 3 classes (priors 0.5, 0.3, 0.2: 2,000 cases in the smallest) in the random
and fixed designs and at 5 classes (smallest 0.08: 800), n = 10⁴. The targets are the
population sample's values (10⁶ cases).

200 simulations a cell (Monte Carlo SE 0.015 near 0.95) — the time box of the run that
ships, about 15 minutes of one loaded core::

    nice -n 15 python benchmarks/coverage_study.py --plan large-k --sims 200 \\
        --cache out/coverage-large-k

It writes ``docs/coverage_large_n_multiclass.md`` and the evidence file
``src/measurelab/data/coverage/large_n_multiclass.json`` (source ``large-n-k``), which
measurelab reads beside the other studies'.
"""

from __future__ import annotations

from pathlib import Path

from .plan import Block

#: the measures of the study (macro averages where a measure has one)
MEASURES: tuple[str, ...] = ("acc", "f1", "mcc", "auc", "ap", "brier", "rms", "mxe")

LARGE_K: tuple[Block, ...] = (
    Block("k", "softmax", ("random", "fixed"), (10_000,), (3,), measures=MEASURES),
    Block("k", "softmax", ("random",), (10_000,), (5,), measures=MEASURES),
)

REPORT = Path("docs/coverage_large_n_multiclass.md")
EVIDENCE = Path("src/measurelab/data/coverage/large_n_multiclass.json")
SOURCE = "large-n-k"
TITLE = ("measurelab's large-n coverage study of the k-class influence intervals "
         "(benchmarks/coverage_study.py --plan large-k)")
HEADING = "Coverage of measurelab's 95% intervals at large n: the k-class influence function"
SCOPE = ("**Scope** (`--plan large-k`, issue 41): do the k-class influence-function "
         "intervals (`ci_method='influence'`: θ̂ ± 1.96·SE, the SE a sum over the cases of "
         "each case's k-class influence) cover where they are the k-class default, from "
         "10,000 cases with 100 in the smallest class? Every interval is forced to "
         "`influence`, one model and paired difference, `average='macro'`. Cells: n = 10⁴, "
         "3 classes (priors 0.5, 0.3, 0.2) random and fixed designs, 5 classes (smallest "
         "0.08) random. The targets are the population sample's values (10⁶ cases). 200 "
         "simulations a cell (Monte Carlo SE 0.015 near 0.95): a time-boxed run. The "
         "verdicts sit beside the other studies'.")
MEASURES_TEXT = ("**Measures**: acc, f1, mcc (the delta method over the k × k cells), auc "
                 "(Hand & Till's M by the pairs' placements), ap (one class against the "
                 "rest, macro), brier, rms and mxe (in nats); every interval by "
                 "`ci_method='influence'` (no bootstrap).")
