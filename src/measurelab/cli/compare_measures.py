"""``measurelab compare-measures F G --n N --pos P``: consistency and discriminancy of two
measures over ranked lists (all of them, a random sample, or exactly by the generating
function); classifiers are compared by ``measurelab versus``.

With ``--json`` one JSON object with the keys ``f, g, n, pos, cutoff, objects, pairs, R, S,
P, Q, consistency, discriminancy`` (plus ``T``, ``method``, ``domain``, strictness flags
and, for samples, ``ci95``). R, S, P, Q are exact JSON integers however large;
``discriminancy`` is a number or the string ``"inf"`` (Q = 0 < P). When it is undefined,
P = Q = 0 (no pair separated by only one of the two measures), it is JSON ``null``; likewise
``consistency`` is ``null`` when R + S = 0. The text output prints "undefined" there.
``--exact`` with a pair other than AUC vs acc enumerates instead and says so on standard
error and in the JSON key ``note``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from measurelab.cli._options import int_type, seed
from measurelab.exceptions import MeasurelabError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "compare-measures",
        help="degree of consistency and discriminancy of two measures",
        description="Compare measure F with measure G over ranked lists of N examples with "
        "POS positives (the right-most CUTOFF predicted positive): R, S, P, Q, "
        "C = R/(R+S), D = P/Q (Ling et al. 2003). F and G are registry names, "
        "name@param, or two-level F:G.",
    )
    p.add_argument("f", metavar="F", help="first measure (e.g. auc, auc:acc)")
    p.add_argument("g", metavar="G", help="second measure (e.g. acc)")
    p.add_argument("--n", type=int_type(), required=True, help="examples per ranked list")
    p.add_argument("--pos", type=int_type(), required=True, help="positives per ranked list")
    p.add_argument("--cutoff", type=int_type(), default=None,
                   help="right-most CUTOFF examples predicted positive (default POS)")
    p.add_argument("--sample", type=int_type(), default=None,
                   help="compare on S lists drawn uniformly at random (with 95%% CIs)")
    p.add_argument("--seed", default="0", help="seed of --sample (default 0)")
    p.add_argument("--exact", action="store_true",
                   help="use the generating function (AUC vs acc, or auc:acc vs either; "
                   "any n)")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object (discriminancy "inf" when Q = 0 < P, '
                   "null when P = Q = 0)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _fmt(x: Any, undefined: str = "undefined") -> str:
    if isinstance(x, float):
        return undefined if math.isnan(x) else f"{x:.6g}"
    return str(x)


def _check_exact_size(n: int, pos: int, cutoff: int | None) -> None:
    """Refuse sizes the generating function cannot finish in reasonable time; say on
    standard error how long a large one may take."""
    from measurelab.metaeval.exact import EXACT_MAX_WORK, exact_work

    work = exact_work(n, pos, cutoff)
    if work > EXACT_MAX_WORK:
        raise MeasurelabError(
            f"--exact at n={n}, pos={pos} needs {work:.2g} coefficient updates, more than "
            f"the limit of {EXACT_MAX_WORK:.0e} (about balanced n = 1000, minutes); "
            "use --sample for larger n"
        )
    if work > 2 * 10**6:
        seconds = work * 5e-6  # measured under load: n = 600 (9e6 updates) in about 45 s
        when = f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"
        print(f"measurelab compare-measures: --exact at n={n}: {work:.2g} coefficient updates, "
              f"estimated {when}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from measurelab.metaeval.consistency import (
        compare_on_ranked_lists,
        exact_applies,
        resolve_measure,
    )

    if args.sample is not None and args.sample < 2:
        raise MeasurelabError(f"--sample must be at least 2, got {args.sample}")
    args.seed = seed(args.seed, "--seed")
    f, g = resolve_measure(args.f), resolve_measure(args.g)
    note = None
    exact = args.exact
    if exact and args.sample is not None:
        raise MeasurelabError("--exact and --sample exclude each other")
    if exact and not exact_applies(f, g):
        note = (f"--exact: the generating function applies to AUC vs acc only (and the "
                f"two-level auc:acc against either); {f.name} vs {g.name} is enumerated "
                "instead")
        print(f"measurelab compare-measures: {note}", file=sys.stderr)
        exact = False
    progress = not args.no_progress  # a bar on a terminal, else a line every 20 s
    if exact:
        _check_exact_size(args.n, args.pos, args.cutoff)
    res = compare_on_ranked_lists(f, g, args.n, args.pos, args.cutoff, sample=args.sample,
                                  random_state=args.seed, exact=exact, progress=progress)
    d = res.to_dict()
    if args.sample is not None:
        d["sample"] = args.sample
        d["seed"] = args.seed
    if note:
        d["note"] = note
    if args.json:
        if hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(0)  # exact integers of any length in JSON
        print(json.dumps(d, allow_nan=False))
        return 0
    print(f"{res.f} vs {res.g} over {res.domain} ({res.method})")
    from measurelab._util.validation import big_int

    for k in ("objects", "pairs", "R", "S", "P", "Q", "T"):
        print(f"  {k:<14} {big_int(d[k]) if isinstance(d[k], int) else d[k]}")
    if any(isinstance(d[k], int) and abs(d[k]) >= 10**15 for k in ("pairs", "R", "S", "P",
                                                                   "Q", "T")):
        print("  (large counts abbreviated; --json prints them exactly)")
    print(f"  {'C(f,g)':<14} {_fmt(res.consistency, 'undefined (R = S = 0)')}  "
          "(R/(R+S); consistent iff > 0.5)")
    print(f"  {'D(f/g)':<14} {_fmt(res.discriminancy, 'undefined (P = Q = 0)')}  "
          "(P/Q; f finer iff > 1)")
    print(f"  strictly consistent: {res.strictly_consistent}; "
          f"strictly more discriminating: {res.strictly_discriminating}")
    if res.ci:
        for k, (lo, hi) in res.ci.items():
            print(f"  95% CI {k}: [{_fmt(lo)}, {_fmt(hi)}]")
    return 0
