"""The coverage study: how often do measurelab's 95% intervals contain the population value?

Every measure measurelab offers an interval for (asked of the library at run time), single
model, paired and unpaired difference, binary and k classes, random and fixed designs,
prevalence 0.05 to 0.5, n 100 to 10⁴, calibrated and miscalibrated models. The study
writes ``docs/coverage.md`` and the evidence file measurelab ships
(``src/measurelab/data/coverage/registry.json``), which
:mod:`measurelab.inference.evidence` reads: an interval without a covering entry says so
in its method column.

Modules: :mod:`~covstudy.generators` (the data), :mod:`~covstudy.population` (the
targets), :mod:`~covstudy.cells` (one cell: simulations, resumable cache, summary),
:mod:`~covstudy.plan` (the measures, the grid and its cost), :mod:`~covstudy.verdicts`
(verdict per setting, the evidence file), :mod:`~covstudy.report` (Markdown),
:mod:`~covstudy.merge` (a partial run merged into a plan's files),
:mod:`~covstudy.cli` (the command line, ``benchmarks/coverage_study.py``).

The full run (500 simulations a cell, 1,000 replicates: about 3.5 hours on one core of a
loaded machine; check with ``--estimate`` first)::

    nice -n 15 python benchmarks/coverage_study.py --plan full --cache out/coverage-registry

It resumes where it stopped (finished cells are files; an unfinished one is checkpointed
every 20 simulations). A quick run of the same cells with tiny sizes (about 5 minutes; its
evidence is marked preliminary)::

    python benchmarks/coverage_study.py --plan quick --cache out/coverage-quick \\
        --out out/coverage-quick.md --evidence out/coverage-quick.json

The small-count study (``--plan small``: the functions of the confusion matrix and
``auc`` at few positives, few predicted positives, the kink of |sens − spec|, and a
large-count reference; its own evidence file, ``small_counts.json`` beside
``registry.json``, and report, ``docs/coverage_small_counts.md``)::

    nice -n 15 python benchmarks/coverage_study.py --plan small --cache out/coverage-small

The large-n study (``--plan large``: the influence-function intervals, forced with
``ci_method='influence'``, of ap, brier, rms, mxe, auc, acc, prec, f1 and mcc at 10⁴ and 10⁵
cases, random, fixed and weighted designs, 100 to 50,000 in the smaller class, the exact
population values as targets; 1,000 simulations a cell, 500 at 10⁵ cases; its own evidence
file, ``large_n.json``, and report, ``docs/coverage_large_n.md``; about half an hour on one
core of a loaded machine)::

    nice -n 15 python benchmarks/coverage_study.py --plan large --cache out/coverage-large

Its cells 11–20 (the debiased calibration terms on a calibrated and a miscalibrated model,
and the unpaired differences; 400 simulations a cell, about ten minutes) were added later
and merged into its files without re-running the others (:mod:`~covstudy.merge`; the
merge also writes the large-n section of ``docs/coverage.md``)::

    nice -n 15 python benchmarks/coverage_study.py --plan large --cells 11 12 13 14 15 16 \\
        17 18 19 20 --cache out/coverage-large --out out/large-added.md \
        --evidence out/large-added.json --sims 400 --merge

The confusion-matrix catalogue (``--plan confusion-catalogue``: the weighted kappas,
Scott's π, Gwet's AC1 and PyCM's class statistics, computed only when named and so left
out of the full plan; cells in ``plan_catalogue.py``, evidence ``confusion_catalogue.json``,
report ``docs/coverage_confusion_catalogue.md``; about 20 minutes on one core)::

    nice -n 15 python benchmarks/coverage_study.py --plan confusion-catalogue \\
        --cache out/coverage-catalogue --sims 300

``--list`` numbers a plan's cells, ``--cells`` runs some of them (into files of one's own:
``--out`` and ``--evidence``), e.g. to check the harness on two cells.

A custom grid, e.g. the key measures of the original study::

    python benchmarks/coverage_study.py --task binary --designs random fixed --n 300 400 \\
        --prevalence 0.1 0.3 --measures f1 mcc apr ap bep lift brier mxe kappa bacc auc prec \\
        --sims 500 --out out/coverage-key.md
"""

FULL_COMMAND = ("nice -n 15 python benchmarks/coverage_study.py --plan full "
                "--cache out/coverage-registry")
SMALL_COMMAND = ("nice -n 15 python benchmarks/coverage_study.py --plan small "
                 "--cache out/coverage-small")
LARGE_COMMAND = ("nice -n 15 python benchmarks/coverage_study.py --plan large "
                 "--cache out/coverage-large")
