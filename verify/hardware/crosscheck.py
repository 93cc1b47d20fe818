"""The code a GPU ran against the code compiled without one.

Certificates take their GPU error model from kernels compiled offline for sm_90a
(``verify compile``). On the GPU, Triton compiles each launch again, specialized on its
arguments (pointer alignment, integers divisible by 16), so the PTX it runs is not the
offline PTX byte for byte. What the bounds depend on is narrower: which instruction each
operation became, the tensor-core MMAs with their input and accumulator types, the
flush-to-zero instructions, the narrowing conversions, the lowering of ``tl.exp`` and
TF32. ``compare`` reads every PTX file in a Triton cache directory copied from the GPU
machine, and checks that this accuracy profile equals the profile of some offline
compilation of the same kernel; a kernel compiled from a scratch copy (a planted bug:
its ``.file`` is not under ``impls/``) is counted and left out.

``python -m verify.hardware.crosscheck TRITON_CACHE_DIR [--out FILE]`` (the offline
compilations come from ``verify compile``'s disk cache). Not covered: SASS (ptxas turns
the same PTX into the same machine code; the cache holds no cubin text to compare).
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import sys
from collections import defaultdict

from verify import jsonio

from .compile import cache_dir
from .ptx import profile

_ENTRY = re.compile(r"\.entry\s+(\w+)")
_FILE = re.compile(r'\.file\s+\d+\s+"([^"]+)"')
_VERSION = re.compile(r"^\.version\s+(\S+)", re.M)


def _version(ptx: str) -> str:
    """The PTX ISA version: it tells apart the Triton releases that wrote the code."""
    found = _VERSION.search(ptx)
    return found.group(1) if found else "?"


def accuracy_profile(ptx: str) -> dict:
    """What a bound depends on in one kernel's PTX; paired conversions
    (``cvt.rn.f16x2.f32``) count as the single ones they pair."""
    p = profile(ptx)
    return {"operations": p["operations"],
            "mma": sorted({(m["inputs"], m["accumulate"]) for m in p["mma"]}),
            "ftz": p["ftz"], "exp_lowering": p["exp_lowering"], "tf32": p["tf32"],
            "narrowing": sorted({n.replace("x2", "") for n in p["narrowing"]})}


def _key(prof: dict) -> str:
    return json.dumps(prof, sort_keys=True)


def _strip_locations(ptx: str) -> str:
    return "\n".join(line for line in ptx.splitlines()
                     if not line.lstrip().startswith((".file", ".loc", "//")))


def offline_profiles(directory=None, arch: int = 90) -> tuple[dict, set]:
    """{(kernel name, PTX version): {profile key}} and the set of location-free PTX
    hashes of the offline compilations for ``arch`` in ``verify compile``'s disk cache."""
    profiles: dict[tuple, set] = defaultdict(set)
    texts: set[str] = set()
    for path in glob.glob(os.path.join(str(directory or cache_dir()), "*.json")):
        try:
            with open(path) as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue
        if doc.get("arch") != arch or "ptx" not in doc:
            continue
        profiles[(doc["name"], _version(doc["ptx"]))].add(_key(accuracy_profile(doc["ptx"])))
        texts.add(hashlib.sha256(_strip_locations(doc["ptx"]).encode()).hexdigest())
    return profiles, texts


def compare(triton_cache: str, offline_dir=None) -> dict:
    """Per kernel: PTX files found, scratch copies left out, byte-identical to an offline
    compilation (less source locations), same accuracy profile as an offline compilation
    of the same kernel by the same Triton (same PTX version), and the profiles that differ
    (``ok`` is False if any, or if no PTX was found)."""
    offline, texts = offline_profiles(offline_dir)
    kernels: dict[str, dict] = defaultdict(lambda: {"device": 0, "identical": 0,
                                                    "same_profile": 0, "different": []})
    scratch = 0
    for path in sorted(glob.glob(os.path.join(triton_cache, "*", "*.ptx"))):
        with open(path) as fh:
            ptx = fh.read()
        found = _ENTRY.search(ptx)
        if not found:
            continue
        if not any("/impls/" in f for f in _FILE.findall(ptx)):
            scratch += 1
            continue
        entry = kernels[found.group(1)]
        entry["device"] += 1
        if hashlib.sha256(_strip_locations(ptx).encode()).hexdigest() in texts:
            entry["identical"] += 1
        prof = accuracy_profile(ptx)
        if _key(prof) in offline.get((found.group(1), _version(ptx)), ()):
            entry["same_profile"] += 1
        elif prof not in entry["different"]:
            entry["different"].append(prof)
    total = sum(k["device"] for k in kernels.values())
    same = sum(k["same_profile"] for k in kernels.values())
    return {"ptx_files": total, "scratch_copies_left_out": scratch,
            "identical": sum(k["identical"] for k in kernels.values()),
            "same_profile": same, "kernels": dict(sorted(kernels.items())),
            "ok": total > 0 and same == total}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m verify.hardware.crosscheck",
                                description="compare a GPU's compiled kernels with the "
                                            "offline compilations")
    p.add_argument("triton_cache", help="a Triton cache directory copied from the GPU machine")
    p.add_argument("--out", help="write the JSON record here")
    args = p.parse_args(argv)
    if not os.path.isdir(args.triton_cache):
        print(f"crosscheck: error: {args.triton_cache}: not a directory", file=sys.stderr)
        return 2
    record = compare(args.triton_cache)
    if args.out:
        jsonio.write_atomic(args.out, record)
    else:
        jsonio.emit(record)
    return 0 if record["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
