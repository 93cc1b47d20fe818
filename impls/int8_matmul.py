"""Weight-only int8 matmul with per-output-channel scales: y = x·(W_q·diag(s)) for
x (M, K) float16/bfloat16/float32, W_q (K, N) int8 and s (N,) float32; y in x's dtype.

Laws: ``int8_quantization.rounding`` — W ≈ W_q·s with |W − W_q s| ≤ s/2 per entry, so
storing W_q moves a quarter of fp32's (half of fp16's) weight bytes;
``int8_quantization.matmul_bound`` — the product inherits |xW − x(W_q s)| ≤ Σₖ|xₖ|·s/2.
The kernel converts W_q tiles to x's dtype in registers (exact: |W_q| ≤ 128), accumulates
x·W_q in fp32 and applies s once per output column after the K loop: the scale of column
j is common to every term of its sum, so it factors out of it.

Bytes it must move: (MK + MN)·s_x + KN + 4N; flops: 2MNK + MN.

Error bound, componentwise on the actual inputs (c_K as in impls/matmul.py):

    acc = fl(x·W_q):  |âcc − acc| ≤ c_K|x||W_q| + 2K·2⁻¹²⁶,
        and exactly 0 when x is integer-valued and Σₖ|x||W_q| ≤ 2²⁴: then every
        product and partial sum is an integer of at most 24 bits, exact in fp32.
    y = cast(fl(âcc·s)):
        |ŷ − y| ≤ |s|·((c_K + u(1 + c_K))|x||W_q| + (1 + u)·2K·2⁻¹²⁶) + u_out|ŷ| + η_out
                  + γ_{K+1}(2⁻⁵³)|x||W_q||s|                          (float64 oracle)

``run`` also returns the fp32 accumulator ``acc`` (stored only for certification), so the
certificate checks the integer part for exactness, not just within a bound.

The certifier binds ``KERNEL`` (a ``BoundKernel``: the reference named as data, bound by
``verify.certification.binding``)
with the catalog reference "int8_matmul" (the scales fixed in float32 by ``formats=``);
the hand bound above (``hand_bound``) stays for the dtypes where the derived one was not
measured at least as tight (``DERIVED_DTYPES``), and the certificate's ``bound.kind``
says which was used.
"""
from __future__ import annotations

import numpy as np
import torch
import triton
import triton.language as tl

from . import buffers
from .launch import TORCH_DTYPES, check_shape, check_tensors, dot_input_precision
from .numerics import (FP32_FLUSH, U32, U64, abs_matmul, cast_error, dot_factor, gamma,
                       half_exact, round_up, wide_range)
from .spec import Bound, BoundKernel, Case, Derived, Extra, Oracle, backend, device



# --------------------------------------------------------------------------- reference
def reference(x, wq, s):
    # dequantizes W (reads KN int8, writes KN in x's dtype), then a dense matmul
    return x @ (wq.to(x.dtype) * s.to(x.dtype))


# --------------------------------------------------------------------------- kernel
@triton.jit
def int8_matmul_kernel(x_ptr, wq_ptr, s_ptr, y_ptr, acc_ptr, M, N, K,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       INPUT_PRECISION: tl.constexpr, STORE_ACC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        wq = tl.load(wq_ptr + ks[:, None] * N + offs_n[None, :],
                     mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(x, wq.to(x.dtype), acc, input_precision=INPUT_PRECISION)
    out_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    if STORE_ACC:
        tl.store(acc_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=out_mask)
    s = tl.load(s_ptr + offs_n, mask=offs_n < N, other=0.0)
    y = acc * s[None, :]
    tl.store(y_ptr + offs_m[:, None] * N + offs_n[None, :], y.to(y_ptr.dtype.element_ty),
             mask=out_mask)


def blocks() -> dict:
    if backend() == "gpu":
        return {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "num_warps": 4,
                "num_stages": 3}
    return {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}


# --------------------------------------------------------------------------- wrapper
def int8_matmul(x, wq, s):
    """y = x·(W_q·diag(s)) in x's dtype."""
    return _launch(x, wq, s)[0]


def _launch(x, wq, s, store_acc=False):
    check_tensors("int8_matmul", {"x": x}, tuple(TORCH_DTYPES.values()))
    check_tensors("int8_matmul", {"wq": wq}, (torch.int8,))
    check_tensors("int8_matmul", {"s": s}, (torch.float32,))
    check_shape("int8_matmul", "x", x, (None, None))
    m, k = x.shape
    check_shape("int8_matmul", "wq", wq, (k, None))
    n = wq.shape[1]
    check_shape("int8_matmul", "s", s, (n,))
    x, wq, s = buffers.operand(x, "x"), buffers.operand(wq, "wq"), buffers.operand(s, "s")
    y = buffers.empty((m, n), x.dtype, x.device, "y")
    acc = buffers.empty((m, n) if store_acc else (1,), torch.float32, x.device, "acc")
    if y.numel() == 0:
        return y, acc
    cfg = blocks()
    grid = (triton.cdiv(m, cfg["BLOCK_M"]), triton.cdiv(n, cfg["BLOCK_N"]))
    dtype = str(x.dtype).replace("torch.", "")
    int8_matmul_kernel[grid](x, wq, s, y, acc, m, n, k,
                             INPUT_PRECISION=dot_input_precision(dtype),
                             STORE_ACC=store_acc, **cfg)
    return y, acc


def quantize(w: torch.Tensor):
    """Per-output-channel symmetric int8: s = max|W[:, j]|/127, W_q = round(W/s)."""
    s = (w.abs().amax(0) / 127.0).to(torch.float32)
    s = torch.where(s > 0, s, torch.ones_like(s))
    wq = torch.clamp(torch.round(w / s), -127, 127).to(torch.int8)
    return wq, s


# --------------------------------------------------------------------------- certification
def _with_acc(x, wq, s):
    """(y, the fp32 accumulator): the accumulator is stored for certification only."""
    return _launch(x, wq, s, store_acc=True)


def hand_oracle(case: Case) -> Oracle:
    x, wq, s = case.inputs["x"], case.inputs["wq"].double(), case.inputs["s"]
    acc = x @ wq
    extra = {"y_w": x @ case.inputs["w"]} if "w" in case.inputs else {}
    return Oracle({"y": acc * s, "acc": acc, **extra},
                  "float64; exact for acc on integer x, otherwise its error "
                  "γ_{K+1}(2⁻⁵³)|x||W_q||s| is in the bound")


def accumulation_is_exact(x: torch.Tensor, wq: torch.Tensor) -> bool:
    """Integer x with Σₖ|x||W_q| ≤ 2²⁴: every fp32 step of x·W_q is exact."""
    return bool((x == x.round()).all()) and (x.numel() == 0 or float(abs_matmul(x, wq).max()) <= 2 ** 24)


def hand_bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """acc: c_K|x||W_q| + 2K·2⁻¹²⁶ (0 for integer x with Σ|x||W_q| ≤ 2²⁴);
    y: |s|((c_K + u(1+c_K))|x||W_q| + (1+u)2K·2⁻¹²⁶) + u_out|ŷ| + η_out + γ_{K+1}(2⁻⁵³)|x||W_q||s|;
    y_w (against x·W for the float weights W): the y bound + Σₖ|xₖ|·s/2 + γ_K(2⁻⁵³)|x||W|"""
    x, wq, s = case.inputs["x"], case.inputs["wq"].double(), case.inputs["s"]
    k = x.shape[1]
    c_k = dot_factor(k, dot_input_precision(dtype))
    xw = abs_matmul(x, wq)
    if accumulation_is_exact(x, wq):
        acc_bound = torch.zeros_like(xw)
    else:
        acc_bound = round_up(c_k * xw + 2 * k * FP32_FLUSH + gamma(k, U64) * xw)
    y_bound = (s.abs() * ((c_k + U32 * (1 + c_k)) * xw + (1 + U32) * 2 * k * FP32_FLUSH)
               + cast_error(outputs["y"], dtype) + gamma(k + 1, U64) * xw * s.abs())
    return Bound({"acc": acc_bound, "y": round_up(y_bound)}, hand_bound.__doc__)


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)
    gpu = which == "gpu"

    def case(name, x, wq, s, classes, w=None):
        x = half_exact(x)
        wq = torch.as_tensor(wq, dtype=torch.int8)
        s = torch.as_tensor(s, dtype=torch.float32).double()
        inputs = {"x": x, "wq": wq, "s": s}
        if w is not None:
            inputs["w"] = torch.as_tensor(w, dtype=torch.float64)
        m, k = x.shape
        return Case(f"{name} M={m} N={wq.shape[1]} K={k}", inputs,
                    classes=classes, n=k)

    def from_float(m, n, k, x=None):
        w = torch.as_tensor(rng.standard_normal((k, n)) / np.sqrt(k))
        wq, s = quantize(w)
        x = rng.standard_normal((m, k)) if x is None else x
        return x, wq, s, w

    m, n, k = (1024, 1024, 4096 + 40) if gpu else (48, 40, 100)
    x, wq, s, w = from_float(m, n, k)
    yield case("quantized normal", x, wq, s, ["k-not-multiple-of-block"], w=w)
    top = 20 if gpu else 100  # keeps Σ|x||W_q| ≤ 2²⁴: the accumulation is exact
    ints = rng.integers(-top, top + 1, size=(m, k)).astype(np.float64)
    wq_full = rng.integers(-128, 128, size=(k, n))
    yield case("integer", ints, wq_full, np.exp2(-rng.integers(3, 12, size=n)),
               ["integer-exact", "int8-extremes"])
    yield case("integer unit scale", rng.integers(-3, 4, size=(17, 64)).astype(np.float64),
               rng.integers(-128, 128, size=(64, 33)), np.ones(33), ["integer-exact"])
    x, wq, s, w = from_float(1, 37, 61)
    yield case("single row", x, wq, s, ["length-1"], w=w)
    x, wq, s, _ = from_float(40, 48, 64, x=wide_range(rng, (40, 64), -12, 4))
    s = s.double() * torch.from_numpy(np.exp2(rng.uniform(-16, 0, size=48)))
    yield case("wide range", x, wq, s, ["huge-dynamic-range"])
    x, wq, s, w = from_float(33, 24, 1)
    yield case("k=1", x, wq, s, ["length-1", "k=1", "float-weights"], w=w)
    x, wq, s, w = from_float(17, 33, 65)
    yield case("one past a power of two", x, wq, s, ["one-past-power-of-two", "float-weights"],
               w=w)
    w = _fraction_near_one(rng, 70, 36)
    wq, s = quantize(w)
    yield case("W/s fractions 0.9, x > 0", rng.uniform(0.5, 1.0, (20, 70)), wq, s,
               ["rounding-direction", "float-weights"], w=w)


def _fraction_near_one(rng, k: int, n: int) -> torch.Tensor:
    """Float weights whose W/s lies 0.9 past an integer, away from zero (|W/s| = q + 0.9),
    one column sign per column, and one entry per column at ±127·s so s is exact:
    rounding moves each entry by s/10, flooring or truncating by 9s/10 in one direction."""
    scale = np.exp2(rng.integers(-8, -4, size=n)).astype(np.float64)
    sign = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    ratio = rng.integers(0, 120, size=(k, n)) + 0.9
    ratio[rng.integers(0, k, size=n), np.arange(n)] = 127.0
    return torch.as_tensor(sign * ratio * scale)


def _algorithm(which: str) -> dict:
    return {**blocks(), "grid": "one program per BLOCK_M × BLOCK_N tile of y",
            "dequantize": "W_q tile converted to x's dtype in registers (exact)",
            "scale": "per output column, once after the K loop"}


def _bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel (GPU only) against a bf16 matmul with the
    unquantized weights, and the dequantize-then-matmul formulation."""
    m, n = (16, 8192) if which == "gpu" else (64, 1024)
    dtype = torch.bfloat16 if which == "gpu" else torch.float32
    x = torch.randn(m, n, device=device(), dtype=dtype)
    w = torch.randn(n, n, device=device(), dtype=dtype)
    wq, s = quantize(w.float())
    return {"shape": f"M={m} N=K={n} {str(dtype).replace('torch.', '')} x, int8 W",
            "bytes": 2 * m * n * x.element_size() + n * n + 4 * n, "flops": 2 * m * n * n,
            "kernel": (lambda: int8_matmul(x, wq, s)) if which == "gpu" else None,
            "peer": lambda: x @ w, "reference": lambda: reference(x, wq, s)}


# Where the derived bound (the catalog reference "int8_matmul": x·W_q in blocks of BLOCK_K,
# exact where it is a dot of small integers, then ·s) was measured at least as tight as
# ``hand_bound`` on every element of every case (tests/certification/compare_bounds.py:
# y fp32 median 0.175, max 0.500; y fp16 0.890, 1.000; acc 0.258, 1.000 — both exact
# on integer x). Not measured on a GPU, so the hand bound certifies there.
DERIVED_DTYPES = () if backend() == "gpu" else ("float32", "float16")

# The contract beyond the product formula: for cases that hold the float weights W the
# quantizer was given, ``y_w`` is the kernel on quantize(W), compared with x·W itself
# within the y bound plus Σₖ|xₖ|·s/2 (law int8_quantization.matmul_bound), so a
# quantizer that floors instead of rounding fails.
def _y_w(case: Case, dtype: str, outputs: dict) -> dict:
    if "w" not in case.inputs:
        return {}
    wq, s = quantize(case.inputs["w"])
    return {"y_w": _launch(case.inputs["x"].to(device(), TORCH_DTYPES[dtype]),
                           wq.to(device()), s.to(device(), torch.float32))[0]}


def _y_w_oracle(case: Case) -> dict:
    return {"y_w": case.inputs["x"] @ case.inputs["w"]} if "w" in case.inputs else {}


def _y_w_bound(case: Case, dtype: str, outputs: dict, bound: dict) -> dict:
    """y_w: the y bound + Σₖ|xₖ|·s/2 + γ_K(2⁻⁵³)|x||W| (the float64 product x·W)"""
    if "w" not in case.inputs:
        return {}
    x, wq, s, w = (case.inputs[n] for n in ("x", "wq", "s", "w"))
    quantization = abs_matmul(x, torch.ones_like(wq, dtype=torch.float64)) * s.abs() / 2
    return {"y_w": round_up(torch.as_tensor(bound["y"], dtype=torch.float64) + quantization
                            + gamma(x.shape[1], U64) * abs_matmul(x, w))}


KERNEL = BoundKernel(
    name="int8_matmul", wrapper=_with_acc, cases=_cases,
    dtypes=("float16", "bfloat16", "float32"),
    derived=Derived("int8_matmul", formats={"s": "float32"},
                    block=None if backend() == "gpu" else blocks()["BLOCK_K"],
                    dot_input=dot_input_precision, tensor_core=backend() == "gpu",
                    derived_dtypes=DERIVED_DTYPES,
                    extra=Extra(run=_y_w, oracle=_y_w_oracle, bound=_y_w_bound)),
    hand_bound=hand_bound,
    laws=("int8_quantization.rounding", "int8_quantization.matmul_bound"),
    algorithm=_algorithm, bench=_bench,
    summary="weight-only int8 matmul, per-output-channel scales applied after the K loop",
    contract_classes=("k-not-multiple-of-block", "integer-exact", "int8-extremes",
                      "length-1", "k=1", "huge-dynamic-range", "float-weights",
                      "rounding-direction", "one-past-power-of-two"),
)
