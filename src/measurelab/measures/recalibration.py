"""Deprecated: moved to :mod:`measurelab.measures.calibration.corp` (names read from here
warn with :class:`~measurelab.exceptions.MeasurelabDeprecationWarning`)."""

from measurelab._util.lazy import moved_face

__getattr__, __dir__ = moved_face("measurelab.measures.recalibration",
                                  "measurelab.measures.calibration.corp")
