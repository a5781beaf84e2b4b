"""Deprecated: moved to :mod:`measurelab.measures.calibration.smooth` (smooth ECE) and
:mod:`measurelab.measures.calibration.loess` (ICI, E50, E90, Emax); names read from here
warn with :class:`~measurelab.exceptions.MeasurelabDeprecationWarning`."""

from measurelab._util.lazy import moved_face

__getattr__, __dir__ = moved_face(
    "measurelab.measures.smooth_calibration",
    ("measurelab.measures.calibration.smooth", "measurelab.measures.calibration.loess"))
