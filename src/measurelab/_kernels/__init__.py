"""Compiled kernels (numba): the speed layer under the statistics, measures and pair
counts. Each module holds kernels for one consumer; every kernel has a numpy twin in the
module that calls it, and :func:`measurelab._kernels.routing.use_compiled` (one table of
thresholds, :data:`measurelab._kernels.routing.ROUTES`) decides which runs.

Internal: imported by the library's own packages only.
"""
