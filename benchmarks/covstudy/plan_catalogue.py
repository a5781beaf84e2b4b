"""The confusion-matrix catalogue study (issue 44): do the intervals of the weighted kappas,
Scott's π, Gwet's AC1 and PyCM's class statistics cover?

``kappa_linear``, ``kappa_quadratic``, ``scott_pi``, ``gwet_ac1``, ``dor``, ``markedness``,
``fdr``, ``for_rate``, ``jaccard`` and ``fowlkes_mallows`` — measures computed only when
named, so the registry-wide study (which simulates the default set) leaves them out. Binary
(the posterior of the confusion cells): one model, paired and unpaired differences, random
and fixed designs, n = 300 and 1,000 at π = 0.2 and n = 1,000 at π = 0.05 (50 positives).
k classes (the bootstrap of the cases; the whole-matrix measures and the one-vs-rest macro
averages): the ``softmax`` generator, 3 classes at n = 300 and 1,000, 5 classes at n = 300,
random and fixed designs, and the 'weighted' and 'micro' averages of the one-vs-rest
measures at n = 300.

The simulations a cell are fewer than the registry-wide study's 500 (the time box of the
issue: about 20 minutes of CPU, measured with ``--estimate``): 300, with 1,000 bootstrap
replicates::

    nice -n 15 python benchmarks/coverage_study.py --plan confusion-catalogue \\
        --cache out/coverage-catalogue --sims 300

It writes ``docs/coverage_confusion_catalogue.md`` and the evidence file
``src/measurelab/data/coverage/confusion_catalogue.json`` (source
``confusion-catalogue``), which measurelab reads beside the registry-wide study's.
"""

from __future__ import annotations

from pathlib import Path

from .plan import Block

#: the whole-matrix measures (one value of the k×k matrix; ``average`` does not apply)
WHOLE: tuple[str, ...] = ("kappa_linear", "kappa_quadratic", "scott_pi", "gwet_ac1")
#: the class statistics (one-vs-rest for k classes, averaged as ``average=`` says)
CLASS: tuple[str, ...] = ("dor", "markedness", "fdr", "for_rate", "jaccard",
                          "fowlkes_mallows")
MEASURES: tuple[str, ...] = WHOLE + CLASS

CATALOGUE: tuple[Block, ...] = (
    Block("binary", "binormal", ("random", "fixed"), (300, 1000), (0.2,),
          ("single", "paired"), MEASURES),
    Block("binary", "binormal", ("random",), (1000,), (0.05,), ("single", "paired"),
          MEASURES),
    Block("binary", "binormal", ("random", "fixed"), (300,), (0.2,), ("unpaired",),
          MEASURES),
    Block("k", "softmax", ("random",), (300, 1000), (3,), ("single", "paired"), MEASURES),
    Block("k", "softmax", ("fixed",), (300,), (3,), ("single", "paired"), MEASURES),
    Block("k", "softmax", ("random",), (300,), (5,), ("single", "paired"), MEASURES),
    Block("k", "softmax", ("random",), (300,), (3,), ("single", "paired"), CLASS,
          average="weighted"),
    Block("k", "softmax", ("random",), (300,), (3,), ("single", "paired"), CLASS,
          average="micro"),
)

REPORT = Path("docs/coverage_confusion_catalogue.md")
EVIDENCE = Path("src/measurelab/data/coverage/confusion_catalogue.json")
SOURCE = "confusion-catalogue"
TITLE = ("measurelab's coverage study of the confusion-matrix catalogue "
         "(benchmarks/coverage_study.py --plan confusion-catalogue)")
HEADING = "Coverage of measurelab's 95% intervals: the confusion-matrix catalogue"
SCOPE = ("**Scope** (`--plan confusion-catalogue`, issue 44): the measures computed only "
         "when named that read the confusion matrix — the weighted kappas "
         "(`kappa_linear`, `kappa_quadratic`), Scott's π (`scott_pi`), Gwet's AC1 "
         "(`gwet_ac1`) and PyCM's class statistics (`dor`, `markedness`, `fdr`, "
         "`for_rate`, `jaccard`, `fowlkes_mallows`). Binary: the posterior of the "
         "confusion cells, one model, paired and unpaired differences, random and fixed "
         "designs, n = 300 and 1,000 at π = 0.2 and n = 1,000 at π = 0.05. k classes: the "
         "bootstrap of the cases, 3 classes at n = 300 and 1,000 and 5 classes at n = 300, "
         "random and fixed designs, the class statistics also at 'weighted' and 'micro'. "
         "300 simulations a cell (Monte Carlo SE about 0.013 near 0.95) and 1,000 "
         "bootstrap replicates: a time-boxed first look, to be grown to the registry-wide "
         "study's 500. The verdicts sit beside the registry-wide study's.")
