"""Re-check z3's queries with a second solver (cvc5).

``recheck(dir)`` runs cvc5 on every ``*.smt2`` file that ``verify.decide.smt.Dump``
wrote and compares its answer with z3's (from the file's header):

- ``agree``: both answered sat, or both unsat;
- ``disagree``: one said sat and the other unsat — a bug in a solver or in the
  encoding's SMT-LIB2, to be investigated;
- ``unknown``: cvc5 gave up, timed out or could not parse the file (nonlinear and
  exp-encoded queries are often out of its reach); never counted as a disagreement;
- ``skipped``: z3 itself answered unknown;
- ``unreadable``: the file is not a query ``Dump`` wrote (not UTF-8 text, or no header
  with z3's answer), so there is nothing to compare; the command line refuses such a
  directory (exit 2) before running any solver.

``dump_catalog(dir)`` writes the queries of every z3 law of the catalog.
Run as ``python -m verify.decide.recheck DIR [--dump] [--jobs N] [--timeout-ms MS]``.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from verify.argtypes import positive_int
from verify.decide.smt import z3_answer

DEFAULT_TIMEOUT_MS = 5000


def cvc5_answer(path: str, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> str:
    """cvc5's answer to one SMT-LIB2 file: "sat", "unsat" or "unknown"."""
    import cvc5
    solver = cvc5.Solver()
    solver.setOption("tlimit-per", str(timeout_ms))
    parser = cvc5.InputParser(solver)
    parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, path)
    answer = "unknown"
    try:
        symbols = parser.getSymbolManager()
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            out = cmd.invoke(solver, symbols).strip()
            if out in ("sat", "unsat", "unknown"):
                answer = out
    except Exception as exc:  # a parse error or an unsupported construct
        return f"unknown ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})"
    return answer


def _z3_header(path: str) -> str | None:
    """z3's answer from the file's header; None for a file that is not a query."""
    try:
        return z3_answer(path)
    except (OSError, UnicodeDecodeError):
        return None


def _one(args: tuple[str, int]) -> dict:
    path, timeout_ms = args
    t0 = time.perf_counter()
    theirs = _z3_header(path)
    if theirs is None:
        return {"file": os.path.basename(path), "z3": None, "cvc5": None,
                "outcome": "unreadable", "seconds": 0.0}
    if theirs not in ("sat", "unsat"):
        return {"file": os.path.basename(path), "z3": theirs, "cvc5": None,
                "outcome": "skipped", "seconds": 0.0}
    ours = cvc5_answer(path, timeout_ms)
    if ours in ("sat", "unsat"):
        outcome = "agree" if ours == theirs else "disagree"
    else:
        outcome = "unknown"
    return {"file": os.path.basename(path), "z3": theirs, "cvc5": ours,
            "outcome": outcome, "seconds": round(time.perf_counter() - t0, 3)}


def recheck(directory: str, jobs: int = 2, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> dict:
    """Re-check every query in ``directory``; a summary and one row per file."""
    files = sorted(glob.glob(os.path.join(directory, "*.smt2")))
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rows = list(pool.map(_one, [(f, timeout_ms) for f in files]))
    else:
        rows = [_one((f, timeout_ms)) for f in files]
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    return {"files": len(files), "counts": counts,
            "disagreements": [r for r in rows if r["outcome"] == "disagree"],
            "seconds": round(time.perf_counter() - t0, 2), "rows": rows}


def dump_catalog(directory: str) -> int:
    """Write the SMT-LIB2 queries of every z3 law of the catalog; the number of laws."""
    from laws import REGISTRY
    from laws.core import Z3
    from verify.decide.prover import prove
    count = 0
    for law in REGISTRY:
        law = REGISTRY[law.id] if hasattr(law, "id") else REGISTRY[law]
        laws = [law] + list(law.induction or ())
        for one in laws:
            if one.method != Z3:
                continue
            for inst in one.instances:
                prove(one, inst, smt_dir=directory, witness_check=False)
            count += 1
    return count


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise _Bad(message)


class _Bad(Exception):
    pass


def main(argv: list[str] | None = None) -> int:
    """0 when cvc5 disagrees with z3 nowhere, 1 on a disagreement, 2 with one line on
    stderr for bad usage: a directory that does not exist (unless ``--dump`` makes
    it), a timeout or a number of jobs that is not a positive integer, or ``*.smt2``
    files in it that are not queries (``unreadable``)."""
    ap = _Parser(prog="python -m verify.decide.recheck")
    ap.add_argument("directory")
    ap.add_argument("--dump", action="store_true", help="first write the catalog's queries")
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--timeout-ms", type=positive_int, default=DEFAULT_TIMEOUT_MS)
    try:
        args = ap.parse_args(argv)
        if not args.dump and not os.path.isdir(args.directory):
            raise _Bad(f"{args.directory}: no such directory")
        if args.dump and os.path.exists(args.directory) and not os.path.isdir(args.directory):
            raise _Bad(f"{args.directory}: exists and is not a directory")
    except _Bad as exc:
        print(f"verify: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if args.dump:
        t0 = time.perf_counter()
        n = dump_catalog(args.directory)
        print(f"wrote the queries of {n} laws in {time.perf_counter() - t0:.1f} s",
              file=sys.stderr)
    bad = [os.path.basename(f) for f in sorted(glob.glob(os.path.join(args.directory,
                                                                        "*.smt2")))
           if _z3_header(f) is None]
    if bad:
        shown = ", ".join(bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        print(f"verify: error: {args.directory}: {len(bad)} unreadable query file(s), not "
              f"written by --smt (no z3 header or not UTF-8 text): {shown}", file=sys.stderr)
        return 2
    report = recheck(args.directory, args.jobs, args.timeout_ms)
    rows = report.pop("rows")
    print(json.dumps(report, indent=2))
    del rows
    return 1 if report["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
