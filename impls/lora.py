"""Fused LoRA forward y = xW + (xB)A in one kernel: x (M, d_in), W (d_in, d_out),
B (d_in, r) down-projection, A (r, d_out) up-projection, r ≤ 128.

Law: ``lora.factored_product`` — x(BA) = (xB)A, so the d_in × d_out update BA is never
formed: each program computes t = x_blk·B for its BLOCK_M rows in the same K loop that
reads x_blk for x_blk·W (x is loaded once for both), then adds t·A_blk to the same fp32
accumulator before the single store of y.

Bytes it must move: (M·d_in + d_in·d_out + d_in·r + r·d_out + M·d_out)·s; flops:
2·M·d_in·d_out + 2·M·r·(d_in + d_out). The kernel does 2·M·d_in·r more per extra column
tile (t is recomputed by each of the ⌈d_out/BLOCK_N⌉ programs of a row block), which is
small while r ≪ BLOCK_N.

Error bound, componentwise on the actual inputs. The accumulator is one dot of length
K' = d_in + R (R = r padded to a power of two ≥ 16) over [x, t̃]·[W; A], where
t̃ = cast(fl(xB)) and c_n = (1 + e_in)²(1 + γ_n(2u₃₂)) − 1 (see impls/matmul.py):

    |t̃ − xB| ≤ ((1 + u_t)(1 + c_{d_in}) − 1)|x||B| + η_t
    |ŷ − y| ≤ c_{K'}|x||W| + ((1 + c_{K'})(1 + u_t)(1 + c_{d_in}) − 1)·(|x||B|)|A|
              + (1 + c_{K'})η_t·Σ|A| + 2K'·2⁻¹²⁶ + u_out|ŷ| + η_out
              + γ_{d_in+r+1}(2⁻⁵³)(|x||W| + |x||B||A|)          (float64 oracle)

u_t, η_t: the cast of t to the input dtype (fp16/bf16: u_in and half a subnormal step;
fp32: none).

The certifier binds ``KERNEL`` (a ``BoundKernel``: the reference named as data, bound by
``verify.certification.binding``)
with the catalog reference "lora" (the same single accumulation, evaluated by the radius
interpretation); the hand bound above (``hand_bound``) stays for the dtypes where the
derived one was not measured at least as tight (``DERIVED_DTYPES``), and the
certificate's ``bound.kind`` says which was used.
"""
from __future__ import annotations

import numpy as np
import torch
import triton
import triton.language as tl

from . import buffers
from .launch import TORCH_DTYPES, check_shape, check_tensors, dot_input_precision
from .numerics import (FP32_FLUSH, HALF_SUBNORMAL, U64, UNIT_ROUNDOFF, abs_matmul, cast_error,
                       dot_factor, gamma, half_exact, round_up, wide_range)
from .spec import Bound, BoundKernel, Case, Derived, Oracle, backend, device

MAX_RANK = 128


# --------------------------------------------------------------------------- reference
def reference(x, w, b, a):
    # unfused: reads x and W, writes y; reads x and B, writes t; reads t and A, reads and
    # writes y again
    return x @ w + (x @ b) @ a


# --------------------------------------------------------------------------- kernel
@triton.jit
def lora_kernel(x_ptr, w_ptr, down_ptr, up_ptr, y_ptr, M, N, K, R,
                stride_dk, stride_dr, stride_ur, stride_un,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                RANK: tl.constexpr, INPUT_PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_r = tl.arange(0, RANK)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    t = tl.zeros((BLOCK_M, RANK), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        w = tl.load(w_ptr + ks[:, None] * N + offs_n[None, :],
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        down = tl.load(down_ptr + ks[:, None] * stride_dk + offs_r[None, :] * stride_dr,
                       mask=(ks[:, None] < K) & (offs_r[None, :] < R), other=0.0)
        acc = tl.dot(x, w, acc, input_precision=INPUT_PRECISION)
        t = tl.dot(x, down, t, input_precision=INPUT_PRECISION)
    up = tl.load(up_ptr + offs_r[:, None] * stride_ur + offs_n[None, :] * stride_un,
                 mask=(offs_r[:, None] < R) & (offs_n[None, :] < N), other=0.0)
    acc = tl.dot(t.to(up.dtype), up, acc, input_precision=INPUT_PRECISION)
    tl.store(y_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def blocks() -> dict:
    if backend() == "gpu":
        return {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "num_warps": 8,
                "num_stages": 3}
    return {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}


def padded_rank(r: int) -> int:
    return max(16, triton.next_power_of_2(r))


# --------------------------------------------------------------------------- wrapper
def lora(x, w, b, a):
    """y = xW + (xB)A for x (M, d_in), W (d_in, d_out), B (d_in, r), A (r, d_out)."""
    check_tensors("lora", {"x": x, "w": w, "b": b, "a": a}, tuple(TORCH_DTYPES.values()))
    check_shape("lora", "x", x, (None, None))
    m, d_in = x.shape
    check_shape("lora", "w", w, (d_in, None))
    d_out = w.shape[1]
    check_shape("lora", "b", b, (d_in, None))
    r = b.shape[1]
    check_shape("lora", "a", a, (r, d_out))
    if not (x.dtype == w.dtype == b.dtype == a.dtype):
        raise TypeError("lora: x, w, b and a must share a dtype")
    if not 1 <= r <= MAX_RANK:
        raise ValueError(f"lora: rank must lie in [1, {MAX_RANK}], got {r}")
    # down[k, j] = B[k, j], up[j, n] = A[j, n]
    return _launch(x, w, b, (r, 1), a, (d_out, 1), r)


def _launch(x, w, down, down_strides, up, up_strides, r):
    m, d_in = x.shape
    d_out = w.shape[1]
    x, w = buffers.operand(x, "x"), buffers.operand(w, "w")
    down, up = buffers.operand(down, "down"), buffers.operand(up, "up")
    y = buffers.empty((m, d_out), x.dtype, x.device, "y")
    if y.numel() == 0:
        return y
    cfg = blocks()
    grid = (triton.cdiv(m, cfg["BLOCK_M"]), triton.cdiv(d_out, cfg["BLOCK_N"]))
    dtype = str(x.dtype).replace("torch.", "")
    lora_kernel[grid](x, w, down, up, y, m, d_out, d_in, r, *down_strides, *up_strides,
                      RANK=padded_rank(r), INPUT_PRECISION=dot_input_precision(dtype), **cfg)
    return y


# --------------------------------------------------------------------------- certification
def hand_oracle(case: Case) -> Oracle:
    x, w, b, a = (case.inputs[n] for n in ("x", "w", "b", "a"))
    return Oracle({"y": x @ w + (x @ b) @ a},
                  "float64; its own error γ_{d_in+r+1}(2⁻⁵³)(|x||W| + |x||B||A|) is in the bound")


def hand_bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """c_{K'}|x||W| + ((1+c_{K'})(1+u_t)(1+c_{d_in}) − 1)(|x||B|)|A| + (1+c_{K'})η_t Σ|A|
    + 2K'·2⁻¹²⁶ + u_out|ŷ| + η_out + oracle error"""
    x, w, b, a = (case.inputs[n] for n in ("x", "w", "b", "a"))
    d_in, r = b.shape
    k_total = d_in + padded_rank(r)
    precision = dot_input_precision(dtype)
    c_in, c_all = dot_factor(d_in, precision), dot_factor(k_total, precision)
    u_t = 0.0 if dtype == "float32" else UNIT_ROUNDOFF[dtype]
    eta_t = 0.0 if dtype == "float32" else HALF_SUBNORMAL[dtype]
    xw = abs_matmul(x, w)
    xba = abs_matmul(abs_matmul(x, b), a)
    kernel = (c_all * xw + ((1 + c_all) * (1 + u_t) * (1 + c_in) - 1) * xba
              + (1 + c_all) * eta_t * a.abs().sum(0) + 2 * k_total * FP32_FLUSH)
    oracle = gamma(d_in + r + 1, U64) * (xw + xba)
    total = kernel + cast_error(outputs["y"], dtype) + oracle
    return Bound({"y": round_up(total)}, hand_bound.__doc__)


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)
    gpu = which == "gpu"

    def case(name, x, w, b, a, classes):
        x, w, b, a = (half_exact(v) for v in (x, w, b, a))
        m, d_in = x.shape
        label = f"{name} M={m} d_in={d_in} d_out={w.shape[1]} r={b.shape[1]}"
        return Case(label, {"x": x, "w": w, "b": b, "a": a},
                    classes=classes, n=d_in)

    def normal(m, d_in, d_out, r, adapter=1.0):
        return (rng.standard_normal((m, d_in)), rng.standard_normal((d_in, d_out)) / 8,
                adapter * rng.standard_normal((d_in, r)) / 4,
                adapter * rng.standard_normal((r, d_out)) / 4)

    m, d = (1000, 1024) if gpu else (50, 80)
    yield case("square", *normal(m, d, d, 8), ["k-not-multiple-of-block"])
    yield case("square rank 16", *normal(m // 2 + 3, d // 2 + 16, d // 2 + 16, 16),
               ["m-not-multiple-of-block"])
    yield case("rectangular", *normal(m // 2, d, d // 2 + 7, 4), ["rectangular"])
    yield case("rank 1", *normal(33, 48, 48, 1), ["length-1"])
    yield case("single row", *normal(1, 40, 40, 3), ["length-1"])
    yield case("adapter dominates", *normal(40, 64, 64, 12, adapter=8.0), ["adapter-dominant"])
    x, w, b, a = normal(40, 64, 64, 12)
    x = wide_range(rng, x.shape, -10, 4)
    yield case("wide range", x, w, b, a, ["huge-dynamic-range"])
    b, a = half_exact(b).numpy(), half_exact(a).numpy()
    w = -(b @ a) + 2.0 ** -8 * rng.standard_normal((64, 64))
    yield case("cancellation", rng.standard_normal((40, 64)), w, b, a, ["cancellation"])
    for r in (16, 17, 32, 33, 64, 65):  # at and one past each padding power of two
        past = r in (17, 33, 65)
        yield case(f"rank {r}", *normal(9, 24, 24, r),
                   ["rank-one-past-padding" if past else "rank-at-padding"])


def _algorithm(which: str) -> dict:
    return {**blocks(), "rank_padding": "r padded to a power of two ≥ 16 (zeros)",
            "grid": "one program per BLOCK_M × BLOCK_N tile of y",
            "fusion": "t = x·B in the K loop of x·W (x loaded once), then t·A into the "
                      "same fp32 accumulator; t recomputed per column tile"}


def _bench(which: str) -> dict:
    """What verify/certification/bench.py times: the fused kernel (GPU only) against unfused torch."""
    m, d, r = (4096, 4096, 16) if which == "gpu" else (256, 512, 16)
    dtype = torch.float16 if which == "gpu" else torch.float32
    x, w = (torch.randn(s, device=device(), dtype=dtype) for s in ((m, d), (d, d)))
    b, a = (torch.randn(s, device=device(), dtype=dtype) for s in ((d, r), (r, d)))
    return {"shape": f"M={m} d={d} r={r} {str(dtype).replace('torch.', '')}",
            "bytes": (2 * m * d + d * d + 2 * d * r) * x.element_size(),
            "flops": 2 * m * d * d + 4 * m * d * r,
            "kernel": (lambda: lora(x, w, b, a)) if which == "gpu" else None,
            "peer": lambda: reference(x, w, b, a)}


# Where the derived bound (the catalog reference "lora": one accumulation over [x, t]·[W; A]
# in any order, t stored in the input dtype) was measured at least as tight as
# ``hand_bound`` on every element of every case (tests/certification/compare_bounds.py:
# fp32 median 0.295, max 0.383; fp16 0.212, 0.981). Not measured on a GPU, so the hand
# bound certifies there.
DERIVED_DTYPES = () if backend() == "gpu" else ("float32", "float16")

KERNEL = BoundKernel(
    name="lora", wrapper=lora, cases=_cases, dtypes=("float16", "bfloat16", "float32"),
    derived=Derived("lora", dot_input=dot_input_precision, tensor_core=backend() == "gpu",
                    derived_dtypes=DERIVED_DTYPES),
    hand_bound=hand_bound, laws=("lora.factored_product",), algorithm=_algorithm,
    bench=_bench,
    summary="fused y = xW + (xB)A in one kernel, xB computed per row block",
    contract_classes=("length-1", "k-not-multiple-of-block", "m-not-multiple-of-block",
                      "rectangular", "rank-at-padding", "rank-one-past-padding",
                      "adapter-dominant", "huge-dynamic-range", "cancellation"),
)
