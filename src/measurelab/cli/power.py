"""``measurelab power``: how many cases an AUC comparison needs, or what power a test set
has — analytic (Obuchowski–McClish, as pROC's ``power.roc.test``) or simulated through the
comparison engine for any measure.

Leave out the one quantity to solve for (``--power``, or the numbers of cases). Examples
(shell)::

    measurelab power --auc 0.73 --ncases 41 --ncontrols 72        # power of one curve vs 0.5
    measurelab power --auc 0.8 --power 0.9 --kappa 1              # cases and controls needed
    measurelab power --auc 0.8 --auc2 0.75 --r 0.5 --power 0.8    # two correlated curves
    measurelab power --auc 0.8 --auc2 0.75 --r 0.5 --ncases 150 --ncontrols 150 \\
        --simulate --measure f1                                   # simulated, any measure
    measurelab power pilot.csv --score-col a --score-col b --power 0.8 \
        --studentized                                             # from a pilot
    measurelab power pilot.csv --score-col a --score-col b --simulate --measure f1 \\
        --n 800 --effect 0.02                                     # resampled, stated effect

Two curves from numbers are binormal with b = 1 (A = √2·Φ⁻¹(AUC)) and the correlation
``--r`` between the two models' scores among cases and among controls (0: unpaired). From a
pilot file (CSV, Parquet or perf text; one or two ``--score-col``) the AUCs and DeLong's
variances are the pilot's. ``--json`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from typing import Any

from measurelab.cli._options import int_type, real_type, seed, text_type
from measurelab.exceptions import MeasurelabError
from measurelab.io import DEFAULT_CHUNK_ROWS, FORMATS, MAX_CHUNK_ROWS

_column = text_type("a column name")
_prob = real_type(0.0, 1.0, open_=True)
_positive = real_type(0.0, None, open_=True)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "power",
        help="power and sample size of a comparison (AUC analytic; any measure simulated)",
        description=(
            "Power or sample size of an AUC test by Obuchowski & McClish's method (pROC's "
            "power.roc.test): one curve against --auc0 (default 0.5) or two curves (--auc2 "
            "and --r, or a pilot FILE with two --score-col). Leave out the quantity to solve "
            "for: --power, or --ncases/--ncontrols. --simulate runs the comparison itself on "
            "simulated test sets (binormal, or resampling FILE) for any --measure."),
    )
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="a pilot test set (CSV, Parquet or perf text; - for stdin)")
    p.add_argument("--score-col", metavar="NAME", type=_column, action="append",
                   help="a model's score column in FILE (one or two)")
    p.add_argument("--label-col", metavar="NAME", type=_column, help="FILE's label column")
    p.add_argument("--pos-label", default="1", metavar="LABEL",
                   help="label of the positive class (default 1)")
    p.add_argument("--format", dest="fmt", choices=FORMATS, default="auto",
                   help="FILE's format (default: from the file name)")
    p.add_argument("--chunk-rows", type=int_type(1, MAX_CHUNK_ROWS),
                   default=DEFAULT_CHUNK_ROWS, metavar="N", help="rows read at a time")
    p.add_argument("--auc", type=_prob, metavar="A", help="AUC of the (first) curve")
    p.add_argument("--auc2", type=_prob, metavar="B", help="AUC of the second curve")
    p.add_argument("--r", type=real_type(-1.0, 1.0), metavar="R",
                   help="two curves: correlation of the models' scores (0: unpaired)")
    p.add_argument("--auc0", type=_prob, default=0.5, metavar="A0",
                   help="one curve: the AUC of the null hypothesis (default 0.5)")
    p.add_argument("--ncases", type=_positive, metavar="N", help="number of positive cases")
    p.add_argument("--ncontrols", type=_positive, metavar="N",
                   help="number of negative cases")
    p.add_argument("--kappa", type=_positive, metavar="K", help="ncontrols / ncases")
    p.add_argument("--power", type=_prob, metavar="P", help="the power to reach")
    p.add_argument("--sig-level", type=_prob, default=0.05, metavar="ALPHA",
                   help="level of the test (default 0.05)")
    p.add_argument("--alternative", choices=["two-sided", "one-sided"], default="two-sided")
    p.add_argument("--studentized", action="store_true",
                   help="use the alternative's variance for the critical value too (a test "
                        "that estimates its standard error, as DeLong's does) instead of "
                        "pROC's null-hypothesis variance")
    p.add_argument("--simulate", action="store_true",
                   help="simulate the comparison's own test (any --measure)")
    p.add_argument("--measure", default="auc", metavar="M",
                   help="--simulate: the measure tested (default auc)")
    p.add_argument("--sims", type=int_type(1, 10**6), default=1000, metavar="S",
                   help="--simulate: simulated test sets (default 1000)")
    p.add_argument("--n-boot", type=int_type(100, 10**6), default=500, metavar="B",
                   help="--simulate: bootstrap replicates per comparison (default 500)")
    p.add_argument("--n", type=int_type(2, 10**7), metavar="N",
                   help="--simulate FILE: cases per simulated test set (default FILE's)")
    p.add_argument("--effect", type=real_type(), metavar="D",
                   help="--simulate FILE: the difference of the measure to simulate under")
    p.add_argument("--reference", type=real_type(), metavar="V",
                   help="--simulate, one model: the value of --measure the test is against "
                        "(default --auc0 for auc)")
    p.add_argument("--seed", default="0", help="--simulate: seed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _check(args: argparse.Namespace) -> None:
    """Combinations of options that cannot work, refused before any reading."""
    if args.file is None:
        if args.score_col or args.label_col:
            raise MeasurelabError("--score-col and --label-col read a pilot FILE; give one")
        if args.auc is None and args.auc2 is not None:
            raise MeasurelabError("--auc2 needs --auc (the first curve)")
        if args.auc2 is not None and args.r is None:
            raise MeasurelabError("two curves need --r, the correlation of the two models' "
                                  "scores (0 for curves on different cases)")
        if args.auc is None and (args.simulate or args.power is None):
            raise MeasurelabError("give --auc (and --auc2 for two curves), or a pilot FILE")
    else:
        if args.auc is not None or args.auc2 is not None or args.r is not None:
            raise MeasurelabError("a pilot FILE gives the AUCs: leave out --auc, --auc2, --r")
        if not args.score_col or len(args.score_col) > 2:
            raise MeasurelabError("give one or two --score-col of the pilot FILE")
    if not args.simulate and (args.n is not None or args.effect is not None
                              or args.measure != "auc" or args.reference is not None):
        raise MeasurelabError("--measure, --n, --effect and --reference apply with "
                              "--simulate")
    if args.simulate and args.power is not None:
        raise MeasurelabError("--simulate finds the power of the test set given: leave out "
                              "--power")
    if args.simulate and args.file is None and (args.ncases is None or args.ncontrols is None):
        raise MeasurelabError("--simulate from numbers needs --ncases and --ncontrols (the "
                              "test set to simulate)")
    if args.simulate:
        from measurelab.measures.base import registry

        registry.resolve(args.measure)  # an unknown measure fails here


def _params(auc: float, auc2: float, r: float) -> dict[str, float]:
    """pROC's binormal parameters of two curves with b = 1 and correlation r."""
    from scipy.stats import norm

    a1, a2 = (math.sqrt(2.0) * float(norm.ppf(x)) for x in (auc, auc2))
    return {"A1": a1, "B1": 1.0, "A2": a2, "B2": 1.0, "rn": r, "ra": r,
            "delta": auc - auc2}


def run(args: argparse.Namespace) -> int:
    from measurelab.inference.classifiers.simulation import Binormal, Resample, simulate_power
    from measurelab.inference.power import power_roc_test

    _check(args)
    rs = seed(args.seed)
    out: dict[str, Any] = {}
    analytic: Callable[..., Any]
    if args.simulate:  # the simulation is the answer; the AUC calculation an aside
        def catching(**kw: Any) -> Any:
            try:
                return power_roc_test(**kw)
            except MeasurelabError as e:
                return e
        analytic = catching
    else:
        analytic = power_roc_test
    common = dict(sig_level=args.sig_level, power=args.power, kappa=args.kappa,
                  alternative=args.alternative, null_variance=not args.studentized)
    if args.file is None:
        if args.auc2 is None:
            r = analytic(auc=args.auc, ncases=args.ncases, ncontrols=args.ncontrols,
                               auc0=args.auc0, **common)
        else:
            r = analytic(params=_params(args.auc, args.auc2, args.r),
                               ncases=args.ncases, ncontrols=args.ncontrols, **common)
        generator: Any = None
        if args.simulate:
            generator = Binormal(auc=args.auc if args.auc2 is None else (args.auc, args.auc2),
                                 ncases=_whole(args.ncases, "--ncases"),
                                 ncontrols=_whole(args.ncontrols, "--ncontrols"),
                                 rn=0.5 if args.r is None else args.r,
                                 ra=0.5 if args.r is None else args.r)
    else:
        from measurelab.cli._models import read_models

        args.weight_col = None
        y, models, _w, pos_label = read_models(args)
        scores: Any = models  # two models, else the one model's scores
        if len(models) != 2:
            scores = next(iter(models.values()))
        r = analytic(y_true=y, scores=scores, ncases=args.ncases, ncontrols=args.ncontrols,
                     pos_label=pos_label, auc0=args.auc0, **common)
        generator = None
        if args.simulate:
            generator = Resample(y, models, n=args.n, effect=args.effect, pos_label=pos_label)
    if isinstance(r, MeasurelabError):
        out["analytic"] = None
        lines = [f"analytic (AUC): not available: {r}"]
    else:
        out["analytic"] = r.to_dict()
        lines = [f"analytic (AUC): {r}"]
    if generator is not None:
        sim = simulate_power(generator, measure=args.measure, n_sim=args.sims,
                             ci=1.0 - args.sig_level, n_boot=args.n_boot, random_state=rs,
                             reference=args.reference if args.reference is not None
                             else (args.auc0 if args.measure == "auc" else None),
                             progress=None if not args.no_progress else False)
        out["simulated"] = sim.to_dict()
        lines.append(str(sim))
    if args.json:
        print(json.dumps(out, allow_nan=False))
    else:
        print("\n".join(lines))
    return 0


def _whole(x: float, flag: str) -> int:
    if x != round(x):
        raise MeasurelabError(f"{flag} must be a whole number to simulate test sets, got {x:g}")
    return round(x)
