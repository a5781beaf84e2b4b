"""The library's shared internals: input validation (one line naming the bad value) and
thread pools. Imported by the library's packages and the command line; never by the lab,
which uses the public API only.
"""
