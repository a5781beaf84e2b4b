"""The answer first: what the comparison commands print before (or instead of) tables."""

from __future__ import annotations

from typing import Any

#: the output modes of ``versus`` and ``ranks``
MODES = ("answer+tables", "answer", "tables")


def add_output_options(p: Any) -> None:
    """``--quiet`` (the answer only) and ``--tables`` (the tables only) of a command that
    prints the answer in words, then its tables."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--quiet", "-q", dest="output", action="store_const", const="answer",
                   help="print the answer only (the summary sentences), no tables")
    g.add_argument("--tables", dest="output", action="store_const", const="tables",
                   help="print the tables only (no summary sentences)")
    p.set_defaults(output="answer+tables")


def comparison_text(r: Any, mode: str, tables: str) -> str:
    """A comparison's plain text: its first line (what was compared, on how many cases,
    the resampling), notes on the input and the summary sentences, then ``tables``."""
    if mode == "tables":
        return tables
    answer = [repr(r).split("\n", 1)[0]]  # the repr's first line: what was compared
    answer += [f"Note: {n}" for n in getattr(r, "notes", [])]
    if r.level is not None:
        answer.append(r.summary())
    if mode == "answer":
        return "\n".join(answer)
    return "\n".join(answer) + "\n\n" + tables


def bayes_sentences(bayes: Any, rope: float, direction: str) -> str:
    """One sentence per pair of a Bayesian table (columns ``a, b, p_a_better, p_rope,
    p_b_better, verdict``): the verdict with its probability, probabilities below 0.001
    written '< 0.001'.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame([{"a": "lr", "b": "gb", "p_a_better": 0.0002, "p_rope": 0.01,
    ...                    "p_b_better": 0.9898, "verdict": "b better"}])
    >>> print(bayes_sentences(t, 0.01, "higher"))
    Bayesian verdicts (rope ±0.01: differences smaller count as equivalent; higher is better):
    gb better than lr: P(lr better) < 0.001, P(equivalent) = 0.01, P(gb better) = 0.99.
    """
    def p_text(p: float) -> str:
        return "n/a" if p != p else ("< 0.001" if p < 0.001 else f"{p:.3g}")

    lines = [f"Bayesian verdicts (rope ±{rope:g}: differences smaller count as equivalent; "
             f"{direction} is better):"]
    for _i, r in bayes.iterrows():
        a, b = str(r["a"]), str(r["b"])
        v = str(r["verdict"])
        head = {"a better": f"{a} better than {b}", "b better": f"{b} better than {a}",
                "equivalent": f"{a} and {b} equivalent",
                }.get(v, f"{a} vs {b} undecided")

        def pr(x: float) -> str:
            if float(x) > 0.999:
                return "> 0.999"
            t = p_text(float(x))
            return t if t.startswith("<") else f"= {t}"

        lines.append(f"{head}: P({a} better) {pr(r['p_a_better'])}, P(equivalent) "
                     f"{pr(r['p_rope'])}, P({b} better) {pr(r['p_b_better'])}.")
    return "\n".join(lines)
