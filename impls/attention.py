"""Fused attention forward, O = softmax(QKᵀ·scale + mask)·V, by the FlashAttention
algorithm: one program per BLOCK_M query rows streams K and V in BLOCK_N key blocks and
keeps a running state (row max m, normalizer l, unnormalized output o) in registers, so
the M × N score matrix never reaches memory. Causal (key j ≤ query i) or not, optional
key-padding length per batch (keys j ≥ kv_len[b] are masked; 0 masks a whole row, which
then gives zeros), head dim 64 or 128, float16/bfloat16/float32 inputs, fp32 state.

Laws: ``flash_state.associative`` and ``flash_state.identity`` — the merge of two states
(the shared ``flash_state`` combine, called below for every key block) is associative
with identity (−∞, 0, 0), so key blocks can be folded one at a time from the identity;
``causal_block_skip.skip`` — a key block entirely above the diagonal contributes the
identity, so the loop stops at the diagonal (about half the work when causal).

Bytes it must move: (2M + 2N)·D·s per (batch, head), s bytes per element; flops:
4·M·N·D per (batch, head), about half of that when causal.

Error bound, per query row i and output column, evaluated on the actual inputs
(u = 2⁻²⁴; u_acc = 2u for tensor-core dots; e_in = 2⁻¹⁰ for tf32 operands, else 0):

1. Scores. ŝⱼ = fl(fl(qᵢ·kⱼ)·fl(scale)), so |ŝⱼ − sⱼ| ≤ ηⱼ with
   ηⱼ = ((1 + c_D)(1 + u)² − 1)·scale·|qᵢ|·|kⱼ|, c_D = (1 + e_in)²(1 + γ_D(u_acc)) − 1.
   Let Δ = maxⱼ ηⱼ. The softmax p̃ of ŝ satisfies p̃ⱼ/pⱼ ∈ [e^−(ηⱼ+Δ), e^(ηⱼ+Δ)], so
   |p̃V − pV| ≤ Σⱼ pⱼ(e^(ηⱼ+Δ) − 1)|vⱼ| =: T₁, and p̃ⱼ ≤ wⱼ := pⱼe^(ηⱼ+Δ).
2. Exponentials. Assumption: tl.exp is within 2⁻²¹ (4 ulp) relative of exp at its
   rounded argument (GPU: ex2.approx.f32 of x·log₂e, documented 2 ulp; interpreter:
   numpy's float32 exp); forming the argument x costs at most γ₃|x|, i.e. a factor
   e^(γ₃|x|); a result below 2⁻¹²⁶ may be flushed to zero.
3. Weights. Key j's weight in both l and o is e^(ŝⱼ − m̂) times one exp for p, at most
   n_b rescale exps and n_b multiplies (n_b = number of key blocks); the exp arguments
   add up to at most 2xⱼ with xⱼ = (maxₖ sₖ − sⱼ) + 2Δ. So its relative error is at most
   Φⱼ = e^(2γ₃xⱼ)(1 + 2⁻²¹)^(1+n_b)(1 + u)^(n_b) − 1.
4. Sums. l: a tl.sum over a block (γ_{BLOCK_N−1}) then n_b merge additions:
   Y = (1 + γ_{BLOCK_N−1}(u))(1 + u)^(n_b) − 1. o: p cast to the input dtype (u_p,
   plus half a subnormal step η_p absolute), tl.dot with v (γ_{BLOCK_N}(u_acc), e_in on
   both operands), then n_b merge additions: X = (1 + u_p)(1 + e_in)²(1 + γ_BN(u_acc))
   (1 + u)^(n_b) − 1. Flushes add at most (n_b + 2)·2⁻¹²⁶ per weight and
   (2N + 4n_b)·2⁻¹²⁶ per accumulator entry (the max weight is 1, so l ≥ 1).
5. Ratio. With ν = Σⱼ wⱼ|vⱼ|((1 + Φⱼ)(1 + X) − 1) + flush terms,
   λ = Σⱼ wⱼ((1 + Φⱼ)(1 + Y) − 1) + flush terms and V̄ = Σⱼ wⱼ|vⱼ|:
   |ô/l̂ − p̃V| ≤ (ν + V̄λ)/(1 − λ) =: T₂.
6. Output: the division (2⁻²¹ relative, div.full.f32 documents 2 ulp) on at most V̄ + T₂,
   then the cast to the output dtype, u_out|ŷ| + half a subnormal step.
7. The float64 oracle's own error: T₁ with float64 factors, plus γ_{2N+16}(2⁻⁵³)·V̄e^(2Δ).

Bound = T₁ + T₂ + 2⁻²¹(V̄ + T₂) + cast + oracle; 0 for a fully masked row, whose output
must then be exactly 0. The certificate also records the ratio of this kernel's error to
the error of naive attention in the input dtype (``reference``).
"""
from __future__ import annotations

import math

import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity.combines import flash_state

from . import accuracy, buffers
from .launch import TORCH_DTYPES, check_shape, check_tensors, dot_input_precision
from .numerics import (FP32_FLUSH, HALF_SUBNORMAL, TENSOR_CORE_ACCUMULATE, TF32_OPERAND, U32,
                       U64, UNIT_ROUNDOFF, cast_error, dot_factor, gamma, half_exact, round_up,
                       ulp_error)
from .spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                    backend, device)

HEAD_DIMS = (64, 128)
# tl.exp and fp32 division: 4 ulp in the interpreter; on a GPU the documented error of the
# instructions they compile to (impls/accuracy.py, checked against the PTX).
GPU_MODEL = accuracy.model(exp="ex2.approx.f32", div="div.full.f32")
EXP_REL = ulp_error(4, "float32")
DIV_REL = ulp_error(4, "float32")


def _rel(op: str, interpreter: float) -> float:
    return GPU_MODEL[op].rel if backend() == "gpu" else interpreter
EXP64_REL = ulp_error(4, "float64")    # the float64 oracle's exp: 4 ulp (2⁻⁵⁰)
FLUSH = FP32_FLUSH


# --------------------------------------------------------------------------- reference
def reference(q, k, v, kv_len=None, causal=False, scale=None):
    """Naive attention in the inputs' dtype; a fully masked row gives zeros."""
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    valid = key_mask(q.shape[0], q.shape[2], k.shape[2], kv_len, causal, q.device)
    scores = (q @ k.transpose(-1, -2)) * scale   # reads Q, K; writes and rereads M×N scores
    scores = scores.masked_fill(~valid, float("-inf"))
    p = torch.softmax(scores, dim=-1)            # M×N read and written again
    out = p @ v                                  # M×N and V read, O written
    return torch.where(valid.any(-1, keepdim=True), out, torch.zeros_like(out))


def key_mask(batch, m, n, kv_len, causal, dev):
    """(B, 1, M, N) booleans: key j is visible to query i."""
    j = torch.arange(n, device=dev)
    valid = torch.ones(batch, 1, m, n, dtype=torch.bool, device=dev)
    if kv_len is not None:
        valid = valid & (j < kv_len.to(dev).reshape(-1, 1, 1, 1))
    if causal:
        valid = valid & (j[None, :] <= torch.arange(m, device=dev)[:, None])
    return valid


# --------------------------------------------------------------------------- kernel
@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, kv_len_ptr, scale, H, M, N,
                     HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     CAUSAL: tl.constexpr, INPUT_PRECISION: tl.constexpr):
    """One program per (block of BLOCK_M queries, batch × head): key blocks folded into
    the running state (m, l, acc) with flash_state."""
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q_base = q_ptr + bh.to(tl.int64) * M * HEAD_DIM
    k_base = k_ptr + bh.to(tl.int64) * N * HEAD_DIM
    v_base = v_ptr + bh.to(tl.int64) * N * HEAD_DIM
    q = tl.load(q_base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=offs_m[:, None] < M, other=0.0)
    kv_end = tl.load(kv_len_ptr + bh // H)
    hi = kv_end
    if CAUSAL:  # causal_block_skip.skip: blocks past the last query row add nothing
        hi = tl.minimum(kv_end, start_m + BLOCK_M)
    m_i = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M, 1), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k_t = tl.load(k_base + offs_n[None, :] * HEAD_DIM + offs_d[:, None],
                      mask=offs_n[None, :] < kv_end, other=0.0)
        s = tl.dot(q, k_t, input_precision=INPUT_PRECISION) * scale
        visible = offs_n[None, :] < kv_end
        if CAUSAL:
            visible = visible & (offs_n[None, :] <= offs_m[:, None])
        s = tl.where(visible, s, -float("inf"))
        m_b = tl.max(s, axis=1, keep_dims=True)
        p = tl.exp(s - tl.where(m_b == -float("inf"), 0.0, m_b))
        l_b = tl.sum(p, axis=1, keep_dims=True)
        v = tl.load(v_base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=offs_n[:, None] < kv_end, other=0.0)
        o_b = tl.dot(p.to(v.dtype), v, input_precision=INPUT_PRECISION)
        m_i, l_i, acc = flash_state(m_i, l_i, acc, m_b, l_b, o_b)
    out = tl.where(l_i > 0, acc / tl.where(l_i > 0, l_i, 1.0), 0.0)
    tl.store(o_ptr + bh.to(tl.int64) * M * HEAD_DIM + offs_m[:, None] * HEAD_DIM
             + offs_d[None, :], out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < M)


def blocks(head_dim: int, dtype: torch.dtype) -> dict:
    if backend() != "gpu":
        return {"BLOCK_M": 64, "BLOCK_N": 32}
    if dtype == torch.float32:
        return {"BLOCK_M": 64, "BLOCK_N": 32, "num_warps": 4, "num_stages": 2}
    return {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 4 if head_dim == 64 else 8,
            "num_stages": 3 if head_dim == 64 else 2}


# --------------------------------------------------------------------------- wrapper
def attention(q, k, v, kv_len=None, causal=False, scale=None):
    """O = softmax(QKᵀ·scale + mask)·V for q (B, H, M, D), k and v (B, H, N, D);
    ``kv_len`` (B,) integers in [0, N] masks keys j ≥ kv_len[b]; causal masks j > i."""
    check_tensors("attention", {"q": q, "k": k, "v": v}, tuple(TORCH_DTYPES.values()))
    check_shape("attention", "q", q, (None, None, None, None))
    b, h, m, d = q.shape
    n = k.shape[2] if k.dim() == 4 else None
    check_shape("attention", "k", k, (b, h, None, d))
    check_shape("attention", "v", v, (b, h, n, d))
    if not (q.dtype == k.dtype == v.dtype):
        raise TypeError(f"attention: q, k and v must share a dtype, got {q.dtype}, "
                        f"{k.dtype} and {v.dtype}")
    if d not in HEAD_DIMS:
        raise ValueError(f"attention: head dim must be 64 or 128, got {d}")
    if kv_len is None:
        kv_len = torch.full((b,), n, dtype=torch.int32, device=q.device)
    else:
        check_tensors("attention", {"kv_len": kv_len}, (torch.int32, torch.int64))
        check_shape("attention", "kv_len", kv_len, (b,))
        if b and (int(kv_len.min()) < 0 or int(kv_len.max()) > n):
            raise ValueError(f"attention: kv_len must lie in [0, {n}]")
        kv_len = kv_len.to(torch.int32)
    scale = d ** -0.5 if scale is None else float(scale)
    dtype = str(q.dtype).replace("torch.", "")
    q, k, v = (buffers.operand(t, name) for t, name in ((q, "q"), (k, "k"), (v, "v")))
    kv_len = buffers.operand(kv_len, "kv_len")
    out = buffers.empty(q.shape, q.dtype, q.device, "o")
    cfg = blocks(d, q.dtype)
    grid = (triton.cdiv(m, cfg["BLOCK_M"]), b * h)
    if out.numel():
        attention_kernel[grid](q, k, v, out, kv_len, scale, h, m, n, HEAD_DIM=d,
                               CAUSAL=bool(causal),
                               INPUT_PRECISION=dot_input_precision(dtype), **cfg)
    return out


# --------------------------------------------------------------------------- certification
def _operands(case: Case, dtype: str):
    t = TORCH_DTYPES[dtype]
    q, k, v = (case.inputs[x].to(device(), t) for x in "qkv")
    return q, k, v, case.inputs["kv_len"].to(device()), case.params["causal"]


def _run(case: Case, dtype: str) -> dict:
    return {"o": attention(*_operands(case, dtype))}


def _reference(case: Case, dtype: str) -> dict:
    return {"o": reference(*_operands(case, dtype))}


def _exact(case: Case):
    """Scores, visibility and softmax in float64 (the oracle's quantities)."""
    q, k, v = (case.inputs[x] for x in "qkv")
    valid = key_mask(q.shape[0], q.shape[2], k.shape[2], case.inputs["kv_len"],
                     case.params["causal"], "cpu")
    s = (q @ k.transpose(-1, -2)) * q.shape[-1] ** -0.5
    s = s.masked_fill(~valid, float("-inf"))
    any_valid = valid.any(-1, keepdim=True)
    p = torch.where(any_valid, torch.softmax(s, dim=-1), torch.zeros_like(s))
    return s, valid, any_valid, p


def oracle(case: Case) -> Oracle:
    """Attention of the case's q, k, v under its key mask, in float64."""
    _, _, _, p = _exact(case)
    return Oracle({"o": p @ case.inputs["v"]},
                  "float64 scores, softmax and P·V; its own error is in the bound")


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    d = case.inputs["q"].shape[-1]
    return flash_bound(case, dtype, outputs, blocks(d, TORCH_DTYPES[dtype])["BLOCK_N"])


def flash_bound(case: Case, dtype: str, outputs: dict, block_n: int,
                merges: int | None = None) -> Bound:
    """T₁ + T₂ + 2⁻²¹(V̄ + T₂) + u_out|ŷ| + η_out + oracle error (module docstring)

    For any kernel that folds key blocks of at most ``block_n`` keys into the running
    state with flash_state: ``merges`` (n_b) is the most merges a key's term passes
    through (default: the number of key blocks, ⌈N/block_n⌉)."""
    q, k, v = (case.inputs[x] for x in "qkv")
    d, n = q.shape[-1], k.shape[2]
    n_b = max(1, math.ceil(n / block_n)) if merges is None else merges
    precision = dot_input_precision(dtype)
    e_in = TF32_OPERAND if precision == "tf32" else 0.0
    scale = d ** -0.5
    s, valid, any_valid, p = _exact(case)
    qk = (q.abs() @ k.abs().transpose(-1, -2)) * scale * (1.0 + gamma(d, U64))
    vabs = v.abs()

    def perturbation(c_dot, u):
        eta = torch.where(valid, ((1.0 + c_dot) * (1.0 + u) ** 2 - 1.0) * qk, 0.0)
        delta = eta.amax(-1, keepdim=True)
        return eta, delta, (p * torch.expm1(eta + delta)) @ vabs

    eta, delta, t1 = perturbation(dot_factor(d, precision), U32)
    w = p * torch.exp(eta + delta)
    s_max = torch.where(valid, s, -math.inf).amax(-1, keepdim=True)
    x = torch.where(valid, s_max - s, 0.0) + 2.0 * delta
    phi = (torch.exp(2.0 * gamma(3, U32) * x) * (1.0 + _rel("exp", EXP_REL)) ** (1 + n_b)
           * (1.0 + U32) ** n_b - 1.0)
    u_p = UNIT_ROUNDOFF[dtype] if dtype != "float32" else 0.0
    eta_p = HALF_SUBNORMAL[dtype] if dtype != "float32" else 0.0
    big_x = ((1.0 + u_p) * (1.0 + e_in) ** 2 * (1.0 + gamma(block_n, TENSOR_CORE_ACCUMULATE))
             * (1.0 + U32) ** n_b - 1.0)
    big_y = (1.0 + gamma(block_n - 1, U32)) * (1.0 + U32) ** n_b - 1.0
    flush_w = (n_b + 2) * FLUSH
    vis = valid.to(torch.float64)
    nu = ((w * ((1.0 + phi) * (1.0 + big_x) - 1.0)) @ vabs
          + ((eta_p + flush_w) * vis * (1.0 + phi) * (1.0 + big_x)) @ vabs
          + (2 * n + 4 * n_b) * FLUSH)
    lam = (w * ((1.0 + phi) * (1.0 + big_y) - 1.0)).sum(-1, keepdim=True) \
        + flush_w * vis.sum(-1, keepdim=True)
    v_bar = w @ vabs
    t2 = torch.where(lam < 1.0, (nu + v_bar * lam) / (1.0 - lam).clamp_min(1e-300), math.inf)
    _, delta64, t1_64 = perturbation(gamma(d, U64), U64)
    oracle_error = (t1_64 + gamma(2 * n + 16, U64) * (1.0 + EXP64_REL) * v_bar
                    * torch.exp(2 * delta64))
    total = (t1 + t2 + _rel("div", DIV_REL) * (v_bar + t2) + cast_error(outputs["o"], dtype)
             + oracle_error)
    return Bound({"o": round_up(torch.where(any_valid, total, 0.0))},
                 flash_bound.__doc__.split("\n\n")[0])


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)
    gpu = which == "gpu"

    def case(name, q, k, v, causal, kv_len=None, classes=()):
        q, k, v = half_exact(q), half_exact(k), half_exact(v)
        b, h, m, d = q.shape
        n = k.shape[2]
        lens = torch.tensor([n] * b if kv_len is None else kv_len, dtype=torch.int32)
        label = (f"{name} B={b} H={h} M={m} N={n} D={d}" + (" causal" if causal else "")
                 + ("" if kv_len is None else f" kv_len={list(kv_len)}"))
        return Case(label, {"q": q, "k": k, "v": v, "kv_len": lens},
                    {"causal": causal}, classes=classes, n=n)

    def normal(b, h, m, n, d):
        return (rng.standard_normal((b, h, m, d)), rng.standard_normal((b, h, n, d)),
                rng.standard_normal((b, h, n, d)))

    seq, pad, hd128 = (1024, 1000, 512) if gpu else (100, 64, 40)
    yield case("normal", *normal(2 if gpu else 1, 4 if gpu else 2, seq, seq, 64), False,
               classes=["length-not-multiple-of-block"])
    yield case("causal", *normal(1, 2, seq + 28, seq + 28, 64), True, classes=["causal"])
    yield case("causal ragged", *normal(1, 2, 77, 77, 64), True,
               classes=["causal", "length-not-multiple-of-block"])
    yield case("key padding", *normal(3, 1, pad, pad, 64), False, kv_len=[pad, 17, 0],
               classes=["key-padding", "fully-masked-rows", "length-not-multiple-of-block"])
    yield case("key padding causal", *normal(2, 1, 40, 70, 64), True, kv_len=[0, 9],
               classes=["key-padding", "fully-masked-rows", "causal"])
    yield case("head dim 128", *normal(1, 1, hd128, hd128, 128), True,
               classes=["head-dim-128", "causal"])
    n = 512 if gpu else 96
    direction = rng.standard_normal(64)
    direction /= np.linalg.norm(direction)
    ramp = np.linspace(-1.0, 1.0, n)
    q = np.broadcast_to(6.0 * direction, (1, 1, n, 64)) + 0.1 * rng.standard_normal((1, 1, n, 64))
    k = 12.0 * ramp[None, None, :, None] * direction + 0.1 * rng.standard_normal((1, 1, n, 64))
    yield case("growing max", q, k, rng.standard_normal((1, 1, n, 64)), False,
               classes=["max-grows-every-block", "huge-dynamic-range"])
    q, k, v = normal(1, 1, 48, 80, 64)
    yield case("peaked", 4.0 * q, 4.0 * k, v, False,
               classes=["huge-dynamic-range", "exp-underflow"])
    q, k, v = normal(1, 2, 33, 50, 64)
    v = v + 100.0 * np.sign(rng.standard_normal((1, 2, 1, 64)))
    yield case("offset values", q, k, v, False, classes=["cancellation"])
    yield case("single", *normal(1, 1, 1, 1, 64), True, classes=["length-1"])
    yield case("more keys than queries", *normal(1, 1, 20, 90, 64), False,
               classes=["m-not-n"])
    yield from _score_cases(rng, case)


def aligned(rng, shift: np.ndarray, d: int = 64, m: int | None = None):
    """q (1, 1, m, d) and k (1, 1, N, d), N = len(shift) (m = N unless given), with
    q·kⱼ·d^−½ ≈ shift[j] for every query: every query is one unit direction times √d,
    key j that direction times shift[j] (plus noise of relative size 2⁻⁸, so the scores
    are not all equal)."""
    direction = rng.standard_normal(d)
    direction /= np.linalg.norm(direction)
    n = len(shift)
    q = np.broadcast_to(math.sqrt(d) * direction, (1, 1, n if m is None else m, d)).copy()
    jitter = 1 + 2.0 ** -8 * rng.standard_normal((1, 1, n, d))
    k = (shift[None, None, :, None] * direction) * jitter
    return q, k


def _score_cases(rng, case):
    """Rows whose every score is far below zero (a running max started at 0 underflows
    every exponential), masked scores above the visible ones by more than 88 (a max
    taken before masking underflows the visible ones), one visible key."""
    n = 72
    for level in (-200.0, -1.0e4):
        q, k = aligned(rng, level + rng.uniform(-4, 4, n))
        yield case(f"scores ≈ {level:g}", q, k, rng.standard_normal((1, 1, n, 64)), False,
                   classes=["all-scores-negative", "length-not-multiple-of-block"])
    q, k = aligned(rng, np.linspace(-150.0, 150.0, n))
    yield case("masked scores above visible by > 88", q, k,
               rng.standard_normal((1, 1, n, 64)), True,
               classes=["masked-scores-dominate", "causal"])
    q, k = aligned(rng, np.concatenate([np.full(20, -100.0), np.full(n - 20, 120.0)]))
    v = rng.standard_normal((1, 1, n, 64))
    q, k, v = (np.concatenate([t, t]) for t in (q, k, v))
    yield case("kv_len masks larger scores", q, k, v, False, kv_len=[20, 1],
               classes=["masked-scores-dominate", "key-padding", "kv-len-1",
                        "all-scores-negative"])


# Head dims other than 64 and 128 are rejected by the wrapper, so none is a class here.
CONTRACT_CLASSES = ("causal", "key-padding", "fully-masked-rows", "kv-len-1", "head-dim-128",
                    "length-not-multiple-of-block", "length-1", "m-not-n",
                    "all-scores-negative", "masked-scores-dominate", "max-grows-every-block",
                    "huge-dynamic-range", "exp-underflow", "cancellation")


def _algorithm(which: str) -> dict:
    return {"blocks": {f"{dt} D={d}": blocks(d, TORCH_DTYPES[dt]) for dt in TORCH_DTYPES
                       for d in HEAD_DIMS},
            "grid": "one program per (BLOCK_M query rows, batch·head)",
            "reduction": "sequential over key blocks, each folded into the running state "
                         "with the shared flash_state combine",
            "causal": "key blocks past the last query row of the block are skipped",
            "masks": "−∞ scores; a row with no visible key keeps l = 0 and stores 0"}


def _precision(dtype: str) -> dict:
    out = {"in": dtype, "accumulate": "float32", "out": dtype,
           "input_precision": dot_input_precision(dtype),
           "p_for_pv": "cast to the input dtype" if dtype != "float32" else "float32",
           "exp": "tl.exp assumed within 4 ulp at its rounded argument"}
    if out["input_precision"] == "tf32":
        out["note"] = "tf32 tensor cores for QKᵀ and PV (bound: 2⁻¹⁰ per operand)"
    return out


def _bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel (GPU only) against torch's
    scaled_dot_product_attention, and the naive formulation."""
    b, h, n, d = (4, 16, 4096, 64) if which == "gpu" else (1, 4, 256, 64)
    dtype = torch.float16 if which == "gpu" else torch.float32
    q, k, v = (torch.randn(b, h, n, d, device=device(), dtype=dtype) for _ in range(3))
    return {"shape": f"B={b} H={h} N={n} D={d} {str(dtype).replace('torch.', '')}",
            "bytes": 4 * q.numel() * q.element_size(), "flops": 4 * b * h * n * n * d,
            "kernel": (lambda: attention(q, k, v)) if which == "gpu" else None,
            "peer": lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v),
            "reference": lambda: reference(q, k, v)}


KERNEL = KernelSpec(
    name="attention",
    laws=("flash_state.associative", "flash_state.identity", "causal_block_skip.skip",
          "attention_permutation.queries"),   # query blocks run as independent programs
    summary="fused attention forward (FlashAttention): causal or not, key padding, "
            "head dim 64/128, running (m, l, o) state merged by flash_state",
    combine=flash_state,
    dtypes=("float16", "bfloat16", "float32"),
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=oracle, precision=_precision),
    coverage=Coverage(cases=_cases, contract_classes=CONTRACT_CLASSES),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=GPU_MODEL),
    sources=("impls/matmul.py",),  # its bound and input helpers
)
