"""Run the mutation suite: every mutant of the table planted alone in a scratch copy of
the project and judged by certification (and, for a combine, its catalog laws).

    python tests/mutations/run.py [--jobs N] [--only ID...] [--json OUT] [--timeout S]

Prints one row per mutant (id, class, caught?, reason), the catch rate per class and
overall, and the equivalent edits' results. Exit status 1 when the catch rate is below
95% or any equivalent edit fails certification; 2 when a mutant could not be judged
(its snippet no longer fits, or the copy was not what the child imported).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Outcome, run_mutant  # noqa: E402
from mutants import Mutant, SnippetError, all_mutants  # noqa: E402

THRESHOLD = 0.95


def select(only: list[str] | None) -> list[Mutant]:
    table = all_mutants()
    if not only:
        return table
    known = {m.id: m for m in table}
    unknown = [i for i in only if i not in known]
    if unknown:
        print(f"run.py: error: unknown mutant id(s): {', '.join(unknown)}", file=sys.stderr)
        raise SystemExit(2)
    return [known[i] for i in only]


def judge_all(chosen: list[Mutant], jobs: int, timeout: float) -> list[Outcome]:
    def one(mutant: Mutant) -> Outcome:
        try:
            result = run_mutant(mutant, timeout)
        except SnippetError as exc:
            result = Outcome(mutant.id, mutant.cls, False, str(exc), 0.0, error=True)
        mark = "ERROR" if result.error else ("caught" if result.caught else "missed")
        print(f"  {mutant.id}: {mark} ({result.seconds:.0f} s)", file=sys.stderr, flush=True)
        return result
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, chosen))


def summary(results: list[Outcome]) -> dict:
    bugs = [r for r in results if r.cls != "equivalent" and not r.error]
    per_class: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in bugs:
        per_class[r.cls][0] += r.caught
        per_class[r.cls][1] += 1
    equivalents = [r for r in results if r.cls == "equivalent" and not r.error]
    caught = sum(r.caught for r in bugs)
    return {"bugs": len(bugs), "caught": caught,
            "catch_rate": caught / len(bugs) if bugs else None,
            "per_class": {c: {"caught": k, "total": n} for c, (k, n) in sorted(per_class.items())},
            "equivalents": len(equivalents),
            "equivalents_failed": [r.id for r in equivalents if r.caught],
            "errors": [r.id for r in results if r.error],
            "missed": [r.id for r in bugs if not r.caught]}


def print_report(results: list[Outcome], s: dict, wall: float) -> None:
    width = max((len(r.id) for r in results), default=10)
    print(f"{'id':<{width}}  {'class':<22} {'caught':<7} reason")
    for r in sorted(results, key=lambda r: (r.cls == "equivalent", r.id)):
        mark = "ERROR" if r.error else ("FAILED" if r.cls == "equivalent" and r.caught else
                                        "passed" if r.cls == "equivalent" else
                                        "yes" if r.caught else "NO")
        print(f"{r.id:<{width}}  {r.cls:<22} {mark:<7} {r.reason[:150]}")
    print("\ncatch rate per class:")
    for cls, v in s["per_class"].items():
        share = 100 * v["caught"] / v["total"]
        print(f"  {cls:<24} {v['caught']:>3}/{v['total']:<3} {share:5.1f}%")
    if s["catch_rate"] is not None:
        print(f"overall: {s['caught']}/{s['bugs']} caught = {100 * s['catch_rate']:.1f}% "
              f"(threshold {100 * THRESHOLD:.0f}%)")
    print(f"equivalent edits: {s['equivalents'] - len(s['equivalents_failed'])}/"
          f"{s['equivalents']} passed certification"
          + (f"; FAILED: {', '.join(s['equivalents_failed'])}" if s["equivalents_failed"] else ""))
    if s["errors"]:
        print(f"could not judge: {', '.join(s['errors'])}")
    print(f"wall time: {wall:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", nargs="+", metavar="ID")
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per mutant before it counts as caught by timeout")
    args = parser.parse_args(argv)
    chosen = select(args.only)
    start = time.monotonic()
    results = judge_all(chosen, args.jobs, args.timeout)
    wall = time.monotonic() - start
    s = summary(results)
    print_report(results, s, wall)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"summary": s, "wall_s": round(wall, 1), "jobs": args.jobs,
             "results": [r.to_json() for r in results]}, indent=1))
    if s["errors"]:
        return 2
    below = s["catch_rate"] is not None and s["catch_rate"] < THRESHOLD
    return 1 if below or s["equivalents_failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
