"""Compare two runs' JSON documents (``verify laws --json``, ``verify certify --json``, or
directories of certificate files) and print every difference, ignoring only the fields
that differ from run to run or from checkout to checkout by nature:

- times: ``seconds``, ``elapsed_s``;
- where the files were: ``path`` (a certificate's own file), ``sources`` (the hashed
  files, absolute paths with their hashes) and ``source_hash`` (their combined hash,
  which changes with any edit of a hashed file);
- ``versions`` (the Python and library versions of the machine).

    python tests/jsondiff.py BEFORE AFTER [--ignore KEY ...]

BEFORE and AFTER are both JSON files or both directories (every ``*.json`` in them,
matched by file name). Exit status 0 when nothing else differs, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

VARYING = ("seconds", "elapsed_s", "path", "sources", "source_hash", "versions")


def differences(a: Any, b: Any, ignore: frozenset[str], where: str = "") -> list[str]:
    """Paths (``laws[3].floats.float16``) at which ``a`` and ``b`` differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            if key in ignore:
                continue
            here = f"{where}.{key}" if where else str(key)
            if key not in a or key not in b:
                side = "before" if key in a else "after"
                out.append(f"{here}: only {side}")
                continue
            out.extend(differences(a[key], b[key], ignore, here))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items before, {len(b)} after"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out.extend(differences(x, y, ignore, f"{where}[{i}]"))
        return out
    if a != b:
        return [f"{where}: {json.dumps(a)[:200]} -> {json.dumps(b)[:200]}"]
    return []


def compare(before: Path, after: Path, ignore: frozenset[str]) -> list[str]:
    if before.is_dir() != after.is_dir():
        return [f"{before} and {after}: one is a directory, the other is not"]
    if not before.is_dir():
        return differences(json.loads(before.read_text()), json.loads(after.read_text()),
                           ignore)
    out = []
    names = sorted({p.name for p in before.glob("*.json")} | {p.name for p in after.glob("*.json")})
    for name in names:
        if not (before / name).is_file() or not (after / name).is_file():
            out.append(f"{name}: only {'before' if (before / name).is_file() else 'after'}")
            continue
        out.extend(f"{name}: {d}" for d in compare(before / name, after / name, ignore))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--ignore", nargs="*", default=[],
                        help="further keys to ignore (each listed in the output)")
    args = parser.parse_args(argv)
    ignore = frozenset(VARYING) | frozenset(args.ignore)
    found = compare(args.before, args.after, ignore)
    for line in found:
        print(line)
    print(f"{len(found)} difference(s); ignored keys: {', '.join(sorted(ignore))}",
          file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
