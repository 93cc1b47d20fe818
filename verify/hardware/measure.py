"""The GPU's instructions measured: the worst error of every approximate float32
operation the kernels compile to, found on the device itself, against the figure
``impls/accuracy.py`` lets a bound assume.

Unary operations (``tl.exp``, ``tl.exp2``, ``tl.log``, ``tl.sqrt``, ``tl.math.rsqrt``)
are measured **exhaustively**: every one of the 2³² float32 bit patterns whose exact
result is a finite normal float32 (and, for log/sqrt/rsqrt, whose input is normal: the
``.ftz`` forms flush subnormal inputs, which the bounds cover with their absolute terms).
Division ``a / b`` is measured on every float32 significand of b in [1, 2) against a set
of numerators (significands 1, 2 − 2⁻²³, and random ones), and at the extremes of b's
exponent range. ``tl.dot`` in float32 ("ieee", "tf32") and float16/bfloat16 is measured
on adversarial operands (low mantissa bits set, so a truncation to tf32 loses the most;
positive, so nothing cancels) at several lengths k.

The reference for each value is the same operation in float64 on the device (libdevice's
double functions, within a few float64 ulps: 2⁻⁵⁰ relative, negligible beside float32's
2⁻²⁴; the record says so). Each result's error is divided by the bound the table allows:
``rel·|exact| + abs`` (for ``tl.exp``, ``|exact|·((1 + E)·e^{a|x|} − 1)`` with
a = (1+u)² − 1 for the product with a rounded log₂e before ``ex2``, as the kernels' bounds
assume); the largest ratio over all inputs must be at most 1. The PTX of the measuring
kernel is read with ``ptx.profile`` so the record names the instruction measured.

Runs where kernels run: on a GPU for the figures that count; in Triton's interpreter
(numpy's float32 functions) only to test this harness, on a small range
(``limit``). ``python -m verify.hardware.measure [--out FILE] [--limit N]`` (the
figures on stderr, the record in FILE).
Not covered: ``tl.log2`` (libdevice's log2f; no kernel uses it), other float formats'
elementary functions (the kernels compute them in
float32), tanh/sin/cos (no kernel uses them), and dot accumulation orders that these
inputs do not exercise (the figure is a measurement, the bound a proof).
"""
from __future__ import annotations

import argparse
import sys
import time

import torch
import triton
import triton.language as tl

from impls.accuracy import TABLE
from impls.numerics import TF32_OPERAND, U32, dot_factor
from impls.spec import device as _device
from verify import jsonio

REFERENCE_ERROR = 2.0 ** -50      # libdevice's float64 functions, relative (generous)
EXP_ARG = (1 + U32) ** 2 - 1      # tl.exp's multiply by a rounded log₂e

# operation code -> (name, the table row the kernels' bounds use for it)
UNARY = {
    0: ("exp", "ex2.approx.f32"),
    1: ("exp2", "ex2.approx.ftz.f32"),
    2: ("log", "libdevice.logf"),
    4: ("sqrt", "sqrt.approx.ftz.f32"),
    5: ("rsqrt", "rsqrt.approx.ftz.f32"),
}


@triton.jit
def _unary_kernel(ratio_ptr, bits_ptr, rel_ptr, count_ptr, figures_ptr, lo, hi,
                  OP: tl.constexpr, BLOCK: tl.constexpr, ITERS: tl.constexpr):
    """Per program: the largest error/bound ratio, the input bits where it occurs, the
    largest relative error and how many inputs were in the measured domain. The table's
    figures come as float64 values (a constexpr float would be rounded to float32)."""
    pid = tl.program_id(0)
    REL = tl.load(figures_ptr)
    ABS = tl.load(figures_ptr + 1)
    ARG = tl.load(figures_ptr + 2)
    start = lo + pid.to(tl.int64) * (BLOCK * ITERS)
    best = tl.zeros((BLOCK,), tl.float64)
    best_bits = tl.zeros((BLOCK,), tl.int64)
    rel_max = tl.zeros((BLOCK,), tl.float64)
    count = tl.zeros((BLOCK,), tl.int64)
    for i in range(ITERS):
        idx = start + i * BLOCK + tl.arange(0, BLOCK)
        bits = idx.to(tl.uint32)
        x = bits.to(tl.float32, bitcast=True)
        x64 = x.to(tl.float64)
        ax = tl.abs(x64)
        if OP == 0:
            y = tl.exp(x)
            ref = tl.exp(x64)
            ok = ax == ax
        elif OP == 1:
            y = tl.exp2(x)
            ref = tl.exp2(x64)
            ok = ax == ax
        elif OP == 2:
            y = tl.log(x)
            ref = tl.log(x64)
            ok = x64 >= 1.1754943508222875e-38
        elif OP == 4:
            y = tl.sqrt(x)
            ref = tl.sqrt(x64)
            ok = x64 >= 1.1754943508222875e-38
        else:
            y = tl.math.rsqrt(x)
            ref = 1.0 / tl.sqrt(x64)
            ok = x64 >= 1.1754943508222875e-38
        aref = tl.abs(ref)
        # the exact result is a finite normal float32
        ok = ok & (idx < hi) & (ax < float("inf")) & (aref >= 1.1754943508222875e-38) \
            & (aref <= 3.4028234663852886e38)
        err = tl.abs(y.to(tl.float64) - ref)
        if OP == 0:
            bound = aref * ((1.0 + REL) * tl.exp(ARG * ax) - 1.0)
        else:
            bound = REL * aref + ABS
        ratio = err / bound
        ratio = tl.where(ratio == ratio, ratio, float("inf"))   # a NaN result: no bound
        rel = tl.where(err == err, err / aref, float("inf"))
        ratio = tl.where(ok, ratio, 0.0)
        rel = tl.where(ok, rel, 0.0)
        better = ratio > best
        best = tl.where(better, ratio, best)
        best_bits = tl.where(better, idx & 0xFFFFFFFF, best_bits)
        rel_max = tl.maximum(rel_max, rel)
        count += ok.to(tl.int64)
    top = tl.max(best, 0)
    where = tl.max(tl.where(best == top, best_bits, -1), 0)
    tl.store(ratio_ptr + pid, top)
    tl.store(bits_ptr + pid, where)
    tl.store(rel_ptr + pid, tl.max(rel_max, 0))
    tl.store(count_ptr + pid, tl.sum(count, 0))


@triton.jit
def _div_kernel(a_ptr, ratio_ptr, idx_ptr, rel_ptr, figures_ptr, n_a, b_lo, n_b,
                BLOCK: tl.constexpr):
    """Program (i, j): numerator a[i] against BLOCK consecutive bit patterns of b."""
    REL = tl.load(figures_ptr)
    i = tl.program_id(0)
    j = tl.program_id(1)
    a = tl.load(a_ptr + i)
    idx = b_lo + j.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    b = idx.to(tl.uint32).to(tl.float32, bitcast=True)
    q = a / b
    ref = a.to(tl.float64) / b.to(tl.float64)
    aref = tl.abs(ref)
    ok = (idx < b_lo + n_b) & (aref >= 1.1754943508222875e-38) \
        & (aref <= 3.4028234663852886e38)
    err = tl.abs(q.to(tl.float64) - ref)
    ratio = tl.where(ok, err / (REL * aref), 0.0)
    ratio = tl.where(ratio == ratio, ratio, float("inf"))
    top = tl.max(ratio, 0)
    where = tl.max(tl.where(ratio == top, idx, -1), 0)
    out = i.to(tl.int64) * tl.num_programs(1) + j
    tl.store(ratio_ptr + out, top)
    tl.store(idx_ptr + out, where)
    tl.store(rel_ptr + out, tl.max(tl.where(ok, err / aref, 0.0), 0))


@triton.jit
def _dot_kernel(a_ptr, b_ptr, c_ptr, K: tl.constexpr, PRECISION: tl.constexpr,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """One BM×BN tile of C = A·B per program, K in steps of BK, fp32 accumulation."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    n = tl.num_programs(1) * BN
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * n + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc)


def _instructions(compiled, op: str) -> list[str]:
    """The instructions the measuring kernel's PTX used for ``op`` (GPU only)."""
    from .ptx import profile
    asm = getattr(compiled, "asm", None) or {}
    if "ptx" not in asm:
        return []
    return profile(asm["ptx"]).get("operations", {}).get(op, [])


def _table_figures(row_name: str) -> dict:
    row = TABLE[row_name]
    return {"instruction": row.name, "rel": row.rel, "abs": row.abs, "stated": row.stated,
            "source": row.source, "conservative": row.conservative}


def measure_unary(code: int, lo: int = 0, hi: int = 1 << 32, block: int = 1024,
                  iters: int = 64, rel: float | None = None) -> dict:
    """The worst error of one unary operation over the bit patterns [lo, hi), against
    the table's figure (``rel``: another relative figure to hold it to)."""
    name, row_name = UNARY[code]
    row = TABLE[row_name]
    rel_figure = row.rel if rel is None else rel
    dev = _device()
    span = block * iters
    programs = (hi - lo + span - 1) // span
    ratio = torch.zeros(programs, dtype=torch.float64, device=dev)
    bits = torch.zeros(programs, dtype=torch.int64, device=dev)
    rel_max = torch.zeros(programs, dtype=torch.float64, device=dev)
    count = torch.zeros(programs, dtype=torch.int64, device=dev)
    t0 = time.perf_counter()
    figures = torch.tensor([rel_figure, row.abs, EXP_ARG], dtype=torch.float64, device=dev)
    compiled = _unary_kernel[(programs,)](ratio, bits, rel_max, count, figures, lo, hi,
                                          OP=code, BLOCK=block, ITERS=iters)
    if dev == "cuda":
        torch.cuda.synchronize()
    worst = int(torch.argmax(ratio))
    x_bits = int(bits[worst]) & 0xFFFFFFFF
    x = torch.tensor([x_bits], dtype=torch.int64).to(torch.int32).view(torch.float32).item()
    return {"operation": name,
            "measured_instructions": _instructions(compiled, "exp" if name == "exp2" else name),
            "table": dict(_table_figures(row_name), rel=rel_figure),
            "inputs": "exhaustive" if (lo, hi) == (0, 1 << 32) else f"bit patterns [{lo}, {hi})",
            "inputs_measured": int(count.sum()), "max_ratio_to_table": float(ratio.max()),
            "worst_input": float.hex(x), "max_relative_error": float(rel_max.max()),
            "max_relative_error_in_u": float(rel_max.max()) / U32,
            "seconds": time.perf_counter() - t0,
            "holds": bool(float(ratio.max()) <= 1.0)}


def _float_bits(x: float) -> int:
    return torch.tensor([x], dtype=torch.float32).view(torch.int32).item() & 0xFFFFFFFF


def measure_div(numerators: int = 256, seed: int = 0, b_count: int | None = None,
                block: int = 1024) -> dict:
    """a / b in float32: every significand of b in [1, 2) (and b near 2¹²⁶ and 2⁻¹²⁶)
    against ``numerators`` values of a, including significands 1 and 2 − 2⁻²³."""
    row = TABLE["div.full.f32"]
    dev = _device()
    g = torch.Generator().manual_seed(seed)
    mant = torch.rand(numerators, generator=g, dtype=torch.float64) + 1.0
    mant[0], mant[1] = 1.0, 2.0 - 2.0 ** -23
    a = mant.to(torch.float32).to(dev)
    figures = torch.tensor([row.rel], dtype=torch.float64, device=dev)
    ranges = [(_float_bits(1.0), 1 << 23), (_float_bits(2.0 ** 126), 1 << 23),
              (_float_bits(2.0 ** -126), 1 << 23)]
    results, worst = [], (0.0, None)
    t0 = time.perf_counter()
    compiled = None
    for b_lo, n_b in ranges:
        n_b = n_b if b_count is None else min(n_b, b_count)
        grid = (numerators, (n_b + block - 1) // block)
        ratio = torch.zeros(grid[0] * grid[1], dtype=torch.float64, device=dev)
        idx = torch.zeros_like(ratio, dtype=torch.int64)
        rel = torch.zeros_like(ratio)
        for scale in (1.0, 2.0 ** 100, 2.0 ** -100):
            aa = (a.double() * scale).to(torch.float32)
            compiled = _div_kernel[grid](aa, ratio, idx, rel, figures, numerators, b_lo, n_b,
                                         BLOCK=block)
            k = int(torch.argmax(ratio))
            r = float(ratio[k])
            results.append(r)
            if r >= worst[0]:
                b = torch.tensor([int(idx[k])], dtype=torch.int64).to(torch.int32)
                worst = (r, {"a": float.hex(float(aa[k // grid[1]])),
                             "b": float.hex(b.view(torch.float32).item()),
                             "relative_error": float(rel[k])})
    if dev == "cuda":
        torch.cuda.synchronize()
    return {"operation": "div", "measured_instructions": _instructions(compiled, "div"),
            "table": _table_figures("div.full.f32"),
            "inputs": (f"{numerators} numerators × every float32 b in [1,2), [2^126, 2^127), "
                       "[2^-126, 2^-125), numerators scaled by 1, 2^100, 2^-100"),
            "max_ratio_to_table": max(results), "worst": worst[1],
            "max_relative_error_in_u": (worst[1] or {}).get("relative_error", 0.0) / U32,
            "seconds": time.perf_counter() - t0, "holds": max(results) <= 1.0}


def _adversarial(rows: int, cols: int, kind: str, g: torch.Generator) -> torch.Tensor:
    """Positive operands (no cancellation); "low-bits": every low mantissa bit below
    tf32's ten set, the largest loss a tf32 conversion can make; "random": uniform."""
    x = torch.rand(rows, cols, generator=g, dtype=torch.float64) + 1.0
    x = x.to(torch.float32)
    if kind == "low-bits":
        x = (x.view(torch.int32) | 0x1FFF).view(torch.float32)
    return x


def measure_dot(dtype: str, precision: str, ks=(64, 512, 4096), seed: int = 0,
                tile: int = 64) -> dict:
    """max |fl(AB) − AB| / (c_k·(|A||B|)) over tiles of A (M×k) and B (k×N), with c_k
    the factor the kernels' bounds use (``numerics.dot_factor``)."""
    dev = _device()
    g = torch.Generator().manual_seed(seed)
    fmt = getattr(torch, dtype)
    worst, per_k = 0.0, []
    t0 = time.perf_counter()
    compiled = None
    for k in ks:
        for kind in ("low-bits", "random"):
            a = _adversarial(2 * tile, k, kind, g).to(fmt)
            b = _adversarial(k, 2 * tile, kind, g).to(fmt)
            c = torch.empty(2 * tile, 2 * tile, dtype=torch.float32, device=dev)
            compiled = _dot_kernel[(2, 2)](a.to(dev), b.to(dev), c, K=k, PRECISION=precision,
                                           BM=tile, BN=tile, BK=32)
            exact = a.double() @ b.double()           # positive: |A||B| = AB
            factor = dot_factor(k, precision if dtype == "float32" else "ieee")
            err = (c.cpu().double() - exact).abs()
            ratio = float((err / (factor * exact)).max())
            eff = float((err / exact).max())
            per_k.append({"k": k, "operands": kind, "max_ratio": ratio,
                          "max_error_over_abs_product": eff})
            worst = max(worst, ratio)
    mmas = []
    if compiled is not None and getattr(compiled, "asm", None) and "ptx" in compiled.asm:
        from .ptx import profile
        mmas = [m["instruction"] for m in profile(compiled.asm["ptx"])["mma"]]
    return {"operation": "dot", "dtype": dtype, "input_precision": precision,
            "measured_instructions": mmas,
            "model": ("((1 + e_in)²(1 + γ_k(2u)) − 1)·|A||B|, e_in = "
                      f"{TF32_OPERAND if (dtype, precision) == ('float32', 'tf32') else 0}"),
            "cases": per_k, "max_ratio_to_model": worst, "seconds": time.perf_counter() - t0,
            "holds": worst <= 1.0}


def measure_all(limit: int | None = None) -> dict:
    """Every measurement; ``limit`` restricts each unary sweep to that many bit patterns
    around 1.0 and the division to that many b's (a harness test, not a measurement)."""
    if limit is None:
        unary = [measure_unary(code) for code in UNARY]
        div = measure_div()
    else:
        lo = _float_bits(0.75)
        unary = [measure_unary(code, lo, lo + limit, block=64, iters=4) for code in UNARY]
        div = measure_div(numerators=4, b_count=limit, block=64)
    dots = [measure_dot(d, p, ks=(64,) if limit else (64, 512, 4096))
            for d, p in (("float32", "ieee"), ("float32", "tf32"), ("float16", "ieee"),
                         ("bfloat16", "ieee"))]
    device = (torch.cuda.get_device_name() if _device() == "cuda"
              else "cpu (Triton interpreter: a harness test, not a measurement)")
    results = unary + [div] + dots
    return {"device": device, "triton": triton.__version__, "torch": torch.__version__,
            "reference": f"float64 on the same device, relative error ≤ {REFERENCE_ERROR:g}",
            "measurements": results, "holds": all(r["holds"] for r in results)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m verify.hardware.measure",
                                description="measure the GPU's instruction accuracy")
    p.add_argument("--out", help="write the JSON record here")
    p.add_argument("--limit", type=int, help="a small sweep (harness test)")
    args = p.parse_args(argv)
    record = measure_all(args.limit)
    if args.out:   # an instruction giving NaN has ratio ∞, written as "inf" (verify.jsonio)
        jsonio.write_atomic(args.out, record)
    for r in record["measurements"]:
        label = r["operation"] + (f" {r['dtype']}/{r['input_precision']}" if "dtype" in r else "")
        figure = r.get("max_ratio_to_table", r.get("max_ratio_to_model"))
        print(f"{label:24s} ratio {figure:.4g}  {'holds' if r['holds'] else 'EXCEEDS'}  "
              f"{','.join(r['measured_instructions'])}", file=sys.stderr)
    return 0 if record["holds"] else 1


if __name__ == "__main__":
    sys.exit(main())
