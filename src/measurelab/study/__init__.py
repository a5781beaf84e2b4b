"""The metric-space study of Caruana & Niculescu-Mizil (2004) at scale.

:mod:`~measurelab.study.problems` (binary problems, seeded splits, preprocessing),
:mod:`~measurelab.study.zoo` (learners and grids), :mod:`~measurelab.study.store` (the
atomic, resumable result store), :mod:`~measurelab.study.runner` (local processes or Dask)
and :mod:`~measurelab.study.analysis` (normalized scores, MDS, correlations, selection).
"""

from measurelab.study.runner import StudyResult, extend_study, run_study

__all__ = ["StudyResult", "extend_study", "run_study"]
