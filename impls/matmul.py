"""Tiled matrix multiply C = A·B: float16/bfloat16 inputs accumulated in float32, or
float32 inputs with an explicit ``tl.dot`` input precision ("ieee" or "tf32").

Law: ``block_matmul.blocks`` — C = Σₜ A[:, Kₜ] B[Kₜ, :] for any partition of the inner
dimension into tiles Kₜ. So one program owns a BLOCK_M × BLOCK_N tile of C, streams A and
B through fast memory BLOCK_K columns at a time and never writes a partial sum out.

Bytes it must move: (MK + KN + MN)·s (s bytes per element); flops: 2MNK.

Error bound, componentwise on the actual inputs (Higham, ch. 3):

    |Ĉ − C| ≤ ((1 + e_in)²(1 + γ_K(u_acc)) − 1)·|A||B|  + 2K·2⁻¹²⁶   (accumulation)
             + u_out|Ĉ| + η_out                                       (output cast)
             + γ_K(2⁻⁵³)·|A||B|                                       (float64 oracle)

u_acc = 2·2⁻²⁴: tensor cores may truncate while aligning addends, so twice the fp32 unit
roundoff (it also covers the interpreter's IEEE fp32 dot). e_in is the rounding of an
operand before its products: 0 for fp16/bf16 (their products are exact in fp32) and for
fp32 "ieee" (the product rounding is inside γ_K); 2⁻¹⁰ for fp32 "tf32", which covers a
tensor core that truncates the operand to tf32's 10 stored bits as well as one that
rounds it (2⁻¹¹). 2K·2⁻¹²⁶ covers every accumulation step flushing a subnormal to zero;
η_out is half the output format's subnormal spacing.

The certifier binds ``KERNEL`` (a ``BoundKernel``: the reference named as data, bound by
``verify.certification.binding``):
the wrapper is bound to the catalog reference "matmul"; the derived bound is the same
Higham bound evaluated by the radius interpretation (u_acc = u and blocks of BLOCK_K in
the interpreter, whose tl.dot is an IEEE fp32 numpy product; 2u, tf32 and no block
structure on a GPU). The hand bound above (``hand_bound``) stays for the dtypes where
the derived one was not measured at least as tight (``DERIVED_DTYPES``); the
certificate's ``bound.kind`` says which was used.

The helpers above the kernel (unit roundoffs, γ, the dot factor, input checks) are
shared with the other matmul-shaped kernels: lora, int8_matmul and attention.
"""
from __future__ import annotations


import numpy as np
import torch
import triton
import triton.language as tl

from . import buffers
from .numerics import (FP32_FLUSH, U64, abs_matmul, cast_error, dot_factor, gamma, half_exact,
                       round_up, wide_range)
from .launch import TORCH_DTYPES, check_shape, check_tensors, dot_input_precision
from .spec import Bound, BoundKernel, Case, Derived, Oracle, backend, device

# --------------------------------------------------------------------------- reference
def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # reads A (MK) and B (KN) once each from memory, writes C (MN): torch's own GEMM
    return torch.matmul(a, b)


# --------------------------------------------------------------------------- kernel
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  INPUT_PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def blocks() -> dict:
    if backend() == "gpu":
        return {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "num_warps": 4,
                "num_stages": 3}
    return {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}


# --------------------------------------------------------------------------- wrapper
def matmul(a: torch.Tensor, b: torch.Tensor, input_precision: str | None = None
           ) -> torch.Tensor:
    """C = A·B in A's dtype; float32 inputs use ``input_precision`` ("ieee" or "tf32",
    by default ``dot_input_precision``)."""
    check_tensors("matmul", {"a": a, "b": b}, tuple(TORCH_DTYPES.values()))
    check_shape("matmul", "a", a, (None, None))
    check_shape("matmul", "b", b, (a.shape[1], None))
    if a.dtype != b.dtype:
        raise TypeError(f"matmul: a and b must share a dtype, got {a.dtype} and {b.dtype}")
    dtype = str(a.dtype).replace("torch.", "")
    precision = input_precision or dot_input_precision(dtype)
    if precision not in ("ieee", "tf32"):
        raise ValueError(f"matmul: input_precision must be 'ieee' or 'tf32', got {precision!r}")
    m, k = a.shape
    n = b.shape[1]
    a, b = buffers.operand(a, "a"), buffers.operand(b, "b")
    c = buffers.empty((m, n), a.dtype, a.device, "c")
    if c.numel() == 0:
        return c
    cfg = blocks()
    grid = (triton.cdiv(m, cfg["BLOCK_M"]), triton.cdiv(n, cfg["BLOCK_N"]))
    matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                        b.stride(1), c.stride(0), c.stride(1),
                        INPUT_PRECISION=precision, **cfg)
    return c


# --------------------------------------------------------------------------- certification
def hand_oracle(case: Case) -> Oracle:
    return Oracle({"c": case.inputs["a"] @ case.inputs["b"]},
                  "float64 matmul; its own error γ_K(2⁻⁵³)|A||B| is in the bound")


def hand_bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """((1+e_in)²(1+γ_K(2u₃₂)) − 1)|A||B| + 2K·2⁻¹²⁶ + u_out|Ĉ| + η_out + γ_K(2⁻⁵³)|A||B|"""
    a, b = case.inputs["a"], case.inputs["b"]
    k = a.shape[1]
    ab = abs_matmul(a, b)
    accumulate = dot_factor(k, dot_input_precision(dtype)) * ab + 2 * k * FP32_FLUSH
    total = accumulate + cast_error(outputs["c"], dtype) + gamma(k, U64) * ab
    return Bound({"c": round_up(total)}, hand_bound.__doc__)


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)
    gpu = which == "gpu"

    def case(name, a, b, classes):
        a, b = half_exact(a), half_exact(b)
        return Case(f"{name} M={a.shape[0]} N={b.shape[1]} K={a.shape[1]}", {"a": a, "b": b},
                    classes=classes, n=a.shape[1])

    shapes = [(512, 384, 1000), (257, 129, 4099)] if gpu else [(64, 48, 80), (33, 17, 100)]
    for m, n, k in shapes:
        yield case("normal", rng.standard_normal((m, k)), rng.standard_normal((k, n)),
                   ["k-not-multiple-of-block", "m-n-not-multiple-of-block"])
    yield case("k=1", rng.standard_normal((40, 1)), rng.standard_normal((1, 24)),
               ["length-1"])
    yield case("single", rng.standard_normal((1, 37)), rng.standard_normal((37, 1)),
               ["length-1", "k-not-multiple-of-block"])
    m, n, k = (256, 256, 777) if gpu else (32, 40, 72)
    yield case("wide-range", wide_range(rng, (m, k), -12, 3), wide_range(rng, (k, n), -12, 3),
               ["huge-dynamic-range", "k-not-multiple-of-block"])
    x = rng.standard_normal((m, k // 2))
    a = np.concatenate([x, x + 2.0 ** -6 * rng.standard_normal(x.shape)], axis=1)
    y = rng.standard_normal((k // 2, n))
    yield case("cancellation", a, np.concatenate([y, -y], axis=0), ["cancellation"])
    yield case("one past a power of two", rng.standard_normal((17, 65)),
               rng.standard_normal((65, 33)), ["one-past-power-of-two", "k-not-multiple-of-block"])
    yield case("subnormal-results", 2.0 ** -9 * rng.standard_normal((m, k)),
               2.0 ** -9 * rng.standard_normal((k, n)), ["denormals"])


def _algorithm(which: str) -> dict:
    return {**blocks(), "grid": "one program per BLOCK_M × BLOCK_N tile of C",
            "reduction": "sequential over K tiles, tl.dot within a tile (fp32 accumulator)",
            "k_tail": "masked loads (zeros past K)"}


def _bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel (GPU only) against torch.matmul."""
    size = 4096 if which == "gpu" else 256
    dtype = torch.float16 if which == "gpu" else torch.float32
    a, b = (torch.randn(size, size, device=device(), dtype=dtype) for _ in range(2))
    return {"shape": f"{size}x{size}x{size} {str(dtype).replace('torch.', '')}",
            "bytes": 3 * size * size * a.element_size(), "flops": 2 * size ** 3,
            "kernel": (lambda: matmul(a, b)) if which == "gpu" else None,
            "peer": lambda: reference(a, b)}


def derived_block() -> int | None:
    """The reduction block the derived bound may assume: the interpreter's tl.dot sums a
    BLOCK_K tile (numpy, any order) and adds it to the accumulator, so BLOCK_K; a GPU's
    tensor cores add into the accumulator per MMA k-step of unstated internal order, so
    no block structure is claimed there (any order of all K terms)."""
    return None if backend() == "gpu" else blocks()["BLOCK_K"]


# Where the derived bound (the "matmul" reference, blocks of BLOCK_K in the interpreter)
# was measured at least as tight as ``hand_bound`` on every element of every case
# (tests/certification/compare_bounds.py: fp32 median 0.236, max 0.500; fp16 0.928,
# 1.000). Not measured on a GPU, so the hand bound certifies there.
DERIVED_DTYPES = () if backend() == "gpu" else ("float32", "float16")

KERNEL = BoundKernel(
    name="matmul", wrapper=matmul, cases=_cases, dtypes=("float16", "bfloat16", "float32"),
    derived=Derived("matmul", block=derived_block(), dot_input=dot_input_precision,
                    tensor_core=backend() == "gpu", derived_dtypes=DERIVED_DTYPES),
    hand_bound=hand_bound, laws=("block_matmul.blocks",), algorithm=_algorithm,
    bench=_bench,
    summary="C = A·B, tiled; fp16/bf16 in with fp32 accumulation, fp32 with an explicit "
            "dot input precision",
    contract_classes=("length-1", "k-not-multiple-of-block", "m-n-not-multiple-of-block",
                      "one-past-power-of-two", "huge-dynamic-range", "cancellation",
                      "denormals"),
)
