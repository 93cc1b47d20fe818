"""Reading a kernel's PTX: the instructions that decide its accuracy, with the source
lines they come from. Pure text processing; ``profile`` is the only entry point."""
from __future__ import annotations

import os
import re
from collections import Counter, defaultdict

_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(?:,.*inlined_at\s+(\d+)\s+(\d+))?")
_INSTR = re.compile(r"^\s*(?:@%?!?\w+\s+)?([a-z][\w.:]*)\s")
_TRANSCENDENTAL = re.compile(r"^(ex2|lg2|rcp|div|sqrt|rsqrt|tanh|sin|cos)\.[\w.]*f32$")
_ARITH = re.compile(r"^(fma|mul|add|sub)(\.rn)?(\.ftz)?\.f32$")
_MMA = re.compile(r"^(wgmma\.mma_async|mma\.sync|tcgen05\.mma)\b")
_NARROW = re.compile(r"^cvt\.[\w.]*\.(f16|bf16|f16x2|bf16x2|tf32|e4m3x2|e5m2x2|s8|u8)\.f32$")
_LOG2E = "0f3FB8AA3B"          # log₂e rounded to fp32: tl.exp's multiply before ex2
_LN2 = "0f3F317218"            # ln 2 in fp32: the constant of libdevice's logf
_OPS = {"ex2": "exp", "lg2": "log", "div": "div", "rcp": "rcp", "sqrt": "sqrt",
        "rsqrt": "rsqrt", "tanh": "tanh", "sin": "sin", "cos": "cos"}


def _where(files: dict, loc: tuple | None) -> str:
    if loc is None:
        return "?"
    return f"{os.path.basename(files.get(loc[0], '?'))}:{loc[1]}"


def _mma_types(name: str) -> dict:
    """Input and accumulator types of one mma/wgmma/tcgen05 instruction."""
    parts = name.split(".")
    if name.startswith("tcgen05"):
        kind = next((p.split("::")[1] for p in parts if p.startswith("kind::")), "?")
        inputs = {"f16": "f16/bf16", "tf32": "tf32", "i8": "s8/u8",
                  "f8f6f4": "fp8/fp6/fp4"}.get(kind, kind)
        return {"inputs": inputs, "accumulate": "s32" if kind == "i8" else "f32"}
    types = [p for p in parts
             if p in ("f32", "f16", "bf16", "tf32", "s32", "s8", "u8", "e4m3", "e5m2", "f64")]
    if name.startswith("wgmma") and len(types) >= 3:       # .dtype.atype.btype
        return {"inputs": types[1], "accumulate": types[0]}
    if len(types) >= 4:                                    # mma.sync: .dtype.atype.btype.ctype
        return {"inputs": types[1], "accumulate": types[0]}
    return {"inputs": "?", "accumulate": "?"}


def _counted(found: dict) -> dict:
    return {k: {"count": sum(v.values()), "where": sorted(v)} for k, v in sorted(found.items())}


def profile(ptx: str) -> dict:
    """The accuracy-relevant content of one kernel's PTX: transcendental, reciprocal,
    division and square-root instructions (with their rounding and ftz modifiers) and
    where they come from, FMA contraction, every tensor-core MMA with its input and
    accumulator types, narrowing conversions, and which instruction each tl operation
    became (``operations``)."""
    files: dict[str, str] = {}
    loc = None
    special: dict[str, Counter] = defaultdict(Counter)
    arith: Counter = Counter()
    mma: dict[str, Counter] = defaultdict(Counter)
    narrow: dict[str, Counter] = defaultdict(Counter)
    ftz_lines: Counter = Counter()
    target = ""
    for line in ptx.splitlines():          # .file directives come after the code
        m = _FILE.match(line)
        if m:
            files[m.group(1)] = m.group(2)
    for line in ptx.splitlines():
        if line.startswith(".target"):
            target = line.split()[1]
        m = _LOC.match(line)
        if m:
            # an inlined call is attributed to the kernel line that called it
            loc = (m.group(3), m.group(4)) if m.group(3) else (m.group(1), m.group(2))
            continue
        m = _INSTR.match(line)
        if not m:
            continue
        name = m.group(1)
        where = _where(files, loc)
        if _TRANSCENDENTAL.match(name):
            special[name][where] += 1
        elif _ARITH.match(name):
            arith[name] += 1
            if ".ftz" in name:
                ftz_lines[where] += 1
        elif _MMA.match(name):
            mma[name][where] += 1
        elif _NARROW.match(name):
            narrow[name][where] += 1
    log_poly = _LN2 in ptx and arith.get("fma.rn.ftz.f32", 0) > 0
    operations: dict[str, list[str]] = defaultdict(list)
    for name in special:
        operations[_OPS[name.split(".")[0]]].append(name)
    if log_poly:
        operations["log"].append("libdevice.logf")
    exp_prefixed = _LOG2E in ptx
    mmas = [{"instruction": k, **_mma_types(k), "count": sum(v.values()), "where": sorted(v)}
            for k, v in sorted(mma.items())]
    return {
        "target": target,
        "instructions": _counted(special),
        "operations": {k: sorted(v) for k, v in sorted(operations.items())},
        "exp_lowering": ("mul.f32 by fp32 log2(e), then ex2" if exp_prefixed and "exp" in operations
                         else None),
        "arithmetic": dict(sorted(arith.items())),
        "fma_contracted": arith.get("fma.rn.f32", 0) + arith.get("fma.rn.ftz.f32", 0) > 0,
        "ftz": sorted({k for k in special if ".ftz" in k}
                      | ({"fma.rn.ftz.f32"} if arith.get("fma.rn.ftz.f32") else set())),
        "ftz_where": sorted(ftz_lines),
        "mma": mmas,
        "tf32": any(m["inputs"] == "tf32" for m in mmas),
        "narrowing": _counted(narrow),
    }


_RES = re.compile(r"REG:(\d+)\s+STACK:(\d+)\s+SHARED:(\d+)\s+LOCAL:(\d+)")


def resources(cuobjdump_text: str) -> dict | None:
    """Registers, stack, static shared memory and local (spill) bytes from
    ``cuobjdump --dump-resource-usage``."""
    m = _RES.search(cuobjdump_text)
    if not m:
        return None
    reg, stack, shared, local = (int(g) for g in m.groups())
    return {"registers": reg, "stack_bytes": stack, "static_shared_bytes": shared,
            "local_bytes": local}


def sass_summary(sass: str) -> dict:
    """Opcode counts of the SASS instructions that matter for accuracy (MUFU: the special
    function unit; HMMA/HGMMA/UTC*MMA: tensor cores; FFMA)."""
    ops = Counter(re.findall(r"\b(MUFU\.\w+|HGMMA\.[\w.]+|HMMA\.[\w.]+|UTC\w*MMA[\w.]*"
                             r"|IMMA\.[\w.]+|FFMA(?:\.\w+)*)", sass))
    return dict(sorted(ops.items()))
