"""Ring attention forward, the schedule of Liu et al., Ring Attention with Blockwise
Transformers (2023), on one device: the sequence's queries, keys and values are split
into R shards of S = ⌈N/R⌉ positions, shard r standing for device r of a ring. Device r
keeps its query shard and sees the key/value shards arrive in ring order r, r+1, …,
r−1 (mod R); for each it computes the shard's FlashAttention state (m, ℓ, o) in blocks
of BLOCK_N keys, then merges it into its running state with the shared ``flash_state``
combine. One program per (BLOCK_M queries of one shard, batch × head) plays its
device's part; keys past ``kv_len[b]`` are masked (a shard wholly past it contributes
the identity, and kv_len = 0 gives zero rows). Not causal (the law does not cover
causal masking across shards), and the ring's communication — transfers overlapping
compute — is not modeled: every shard is read from this device's memory.

Laws: ``ring_attention.rotation`` — the states merged in ring order from any starting
shard equal attention over the whole sequence, which is what lets every device start
from its own shard; ``flash_state.associative``, ``flash_state.identity`` — each
shard's key blocks fold from the identity (−∞, 0, 0).

Bytes it must move: (2N + 2N)·D·s per (batch, head) (Q and O once, K and V once per
query block); flops: 4·N²·D per (batch, head).

Error bound: the one of ``impls/attention.py`` (its module docstring) with the merges
counted along a key's path: at most ⌈S/BLOCK_N⌉ block merges inside its shard and R
merges around the ring, n_b = ⌈S/BLOCK_N⌉ + R. The rescale exponents along the path
still add up to (max score − its score) (the running maxima only grow, within the shard
and then around the ring), so the derivation holds unchanged with that n_b.
"""
from __future__ import annotations

import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity.combines import flash_state

from . import attention, buffers
from .launch import TORCH_DTYPES, check_shape, check_tensors, dot_input_precision
from .numerics import half_exact
from .spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                    backend, device)

HEAD_DIMS = (16, 32, 64, 128)


# --------------------------------------------------------------------------- reference
def reference(q, k, v, shards, kv_len=None, scale=None):
    """Naive attention over the whole sequence (impls/attention.py's reference): the
    right side of the rotation law, N×N scores written and read again."""
    return attention.reference(q, k, v, kv_len=kv_len, scale=scale)


# --------------------------------------------------------------------------- kernel
@triton.jit
def ring_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, kv_len_ptr, scale, H, N, SHARD, SHARDS,
                          QUERY_BLOCKS, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, INPUT_PRECISION: tl.constexpr):
    """One program per (BLOCK_M queries of shard ``own``, batch × head): the shard states
    of the ring's steps own, own+1, … computed and merged in that order."""
    own = tl.program_id(0) // QUERY_BLOCKS
    start_m = own * SHARD + (tl.program_id(0) % QUERY_BLOCKS) * BLOCK_M
    bh = tl.program_id(1)
    offs_m = start_m + tl.arange(0, BLOCK_M)
    rows = (offs_m < own * SHARD + SHARD) & (offs_m < N)
    offs_d = tl.arange(0, HEAD_DIM)
    base = bh.to(tl.int64) * N * HEAD_DIM
    q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=rows[:, None], other=0.0)
    kv_end = tl.load(kv_len_ptr + bh // H)
    m_i = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M, 1), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for step in range(0, SHARDS):
        shard = (own + step) % SHARDS        # ring_attention.rotation: start at its own
        lo = shard * SHARD
        hi = tl.minimum(lo + SHARD, kv_end)
        m_s = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)
        l_s = tl.zeros((BLOCK_M, 1), tl.float32)
        o_s = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
        for start_n in range(lo, hi, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            visible = offs_n < hi
            k_t = tl.load(k_ptr + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None],
                          mask=visible[None, :], other=0.0)
            s = tl.dot(q, k_t, input_precision=INPUT_PRECISION) * scale
            s = tl.where(visible[None, :], s, -float("inf"))
            m_b = tl.max(s, axis=1, keep_dims=True)
            p = tl.exp(s - tl.where(m_b == -float("inf"), 0.0, m_b))
            l_b = tl.sum(p, axis=1, keep_dims=True)
            v = tl.load(v_ptr + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                        mask=visible[:, None], other=0.0)
            o_b = tl.dot(p.to(v.dtype), v, input_precision=INPUT_PRECISION)
            m_s, l_s, o_s = flash_state(m_s, l_s, o_s, m_b, l_b, o_b)
        # the shard's state arrives and is merged into the running state
        m_i, l_i, acc = flash_state(m_i, l_i, acc, m_s, l_s, o_s)
    out = tl.where(l_i > 0, acc / tl.where(l_i > 0, l_i, 1.0), 0.0)
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=rows[:, None])


def blocks(dtype: torch.dtype) -> dict:
    """Block sizes: small in the interpreter (it runs each program's ops one by one)."""
    if backend() != "gpu":
        return {"BLOCK_M": 16, "BLOCK_N": 16}
    if dtype == torch.float32:
        return {"BLOCK_M": 64, "BLOCK_N": 32, "num_warps": 4, "num_stages": 2}
    return {"BLOCK_M": 64, "BLOCK_N": 64, "num_warps": 4, "num_stages": 2}


def shard_length(n: int, shards: int) -> int:
    """S = ⌈N/R⌉ positions per shard (the last ones may be shorter, or empty)."""
    return -(-n // shards)


# --------------------------------------------------------------------------- wrapper
def ring_attention(q, k, v, shards, kv_len=None, scale=None):
    """O = softmax(QKᵀ·scale + mask)·V for q, k, v (B, H, N, D) computed by the ring
    schedule over ``shards`` shards (1 ≤ shards ≤ N); ``kv_len`` (B,) integers in
    [0, N] masks keys j ≥ kv_len[b] (0 masks every key: zero rows)."""
    name = "ring_attention"
    check_tensors(name, {"q": q, "k": k, "v": v}, tuple(TORCH_DTYPES.values()))
    check_shape(name, "q", q, (None, None, None, None))
    b, h, n, d = q.shape
    check_shape(name, "k", k, (b, h, n, d))
    check_shape(name, "v", v, (b, h, n, d))
    if not (q.dtype == k.dtype == v.dtype):
        raise TypeError(f"{name}: q, k and v must share a dtype, got {q.dtype}, "
                        f"{k.dtype} and {v.dtype}")
    if d not in HEAD_DIMS:
        raise ValueError(f"{name}: head dim must be 16, 32, 64 or 128, got {d}")
    if isinstance(shards, bool) or not isinstance(shards, int) or not 1 <= shards <= max(n, 1):
        raise ValueError(f"{name}: shards must be an integer in [1, {max(n, 1)}], got {shards!r}")
    if kv_len is None:
        kv_len = torch.full((b,), n, dtype=torch.int32, device=q.device)
    else:
        check_tensors(name, {"kv_len": kv_len}, (torch.int32, torch.int64))
        check_shape(name, "kv_len", kv_len, (b,))
        if b and (int(kv_len.min()) < 0 or int(kv_len.max()) > n):
            raise ValueError(f"{name}: kv_len must lie in [0, {n}]")
        kv_len = kv_len.to(torch.int32)
    scale = d ** -0.5 if scale is None else float(scale)
    dtype = str(q.dtype).replace("torch.", "")
    q, k, v = (buffers.operand(t, x) for t, x in ((q, "q"), (k, "k"), (v, "v")))
    kv_len = buffers.operand(kv_len, "kv_len")
    out = buffers.empty(q.shape, q.dtype, q.device, "o")
    cfg = blocks(q.dtype)
    shard = shard_length(n, shards)
    query_blocks = triton.cdiv(shard, cfg["BLOCK_M"])
    grid = (shards * query_blocks, b * h)
    if out.numel():
        ring_attention_kernel[grid](q, k, v, out, kv_len, scale, h, n, shard, shards,
                                    query_blocks, HEAD_DIM=d,
                                    INPUT_PRECISION=dot_input_precision(dtype), **cfg)
    return out


# --------------------------------------------------------------------------- certification
def _operands(case: Case, dtype: str):
    t = TORCH_DTYPES[dtype]
    q, k, v = (case.inputs[x].to(device(), t) for x in "qkv")
    return q, k, v, case.params["shards"], case.inputs["kv_len"].to(device())


def _run(case: Case, dtype: str) -> dict:
    return {"o": ring_attention(*_operands(case, dtype))}


def _reference(case: Case, dtype: str) -> dict:
    return {"o": reference(*_operands(case, dtype))}


def _whole(case: Case) -> Case:
    """The law's right side: attention over the whole sequence, not causal."""
    return Case(case.name, dict(case.inputs), {"causal": False})


def _oracle(case: Case) -> Oracle:
    return attention.oracle(_whole(case))


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    n, shards = case.inputs["q"].shape[2], case.params["shards"]
    block_n = blocks(TORCH_DTYPES[dtype])["BLOCK_N"]
    merges = -(-shard_length(n, shards) // block_n) + shards
    return attention.flash_bound(_whole(case), dtype, outputs, block_n, merges)


# --------------------------------------------------------------------------- cases
def _case(name, q, k, v, shards, kv_len=None, classes=()):
    q, k, v = half_exact(q), half_exact(k), half_exact(v)
    b, h, n, d = q.shape
    lens = torch.tensor([n] * b if kv_len is None else kv_len, dtype=torch.int32)
    label = (f"{name} B={b} H={h} N={n} D={d} shards={shards}"
             + ("" if kv_len is None else f" kv_len={list(kv_len)}"))
    return Case(label, {"q": q, "k": k, "v": v, "kv_len": lens},
                {"shards": shards}, classes=("every-rotation", *classes), n=n)


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)

    def normal(b, h, n, d, spread=1.0):
        return tuple(spread * rng.standard_normal((b, h, n, d)) for _ in range(3))

    yield _case("normal", *normal(1, 2, 64, 32), 4, classes=["shard-multiple-of-block"])
    yield _case("ragged shards", *normal(1, 1, 50, 16), 3,
                classes=["shard-not-multiple-of-block", "several-blocks-per-shard"])
    yield _case("empty last shard", *normal(1, 1, 5, 16), 4, classes=["empty-shard"])
    yield _case("one shard", *normal(1, 1, 20, 16), 1, classes=["one-shard"])
    yield _case("one key per shard", *normal(1, 1, 6, 16), 6, classes=["shard-of-one"])
    yield _case("key padding", *normal(3, 1, 48, 16), 3, kv_len=[48, 17, 0],
                classes=["key-padding", "masked-shard", "fully-masked-rows"])
    n = 60
    q, k = attention.aligned(rng, np.linspace(-12.0, 12.0, n), 32)
    yield _case("growing max", q, k, rng.standard_normal((1, 1, n, 32)), 4,
                classes=["max-grows-every-shard", "max-in-own-shard", "huge-dynamic-range"])
    q, k = attention.aligned(rng, -200.0 + rng.uniform(-4, 4, 40), 16)
    yield _case("scores ≈ -200", q, k, rng.standard_normal((1, 1, 40, 16)), 2,
                classes=["all-scores-negative"])
    q, k, v = normal(1, 1, 33, 16)
    yield _case("peaked", 4.0 * q, 4.0 * k, v, 3, classes=["exp-underflow"])
    if which == "gpu":
        yield _case("long", *normal(2, 4, 1024, 128), 4, classes=["head-dim-128"])


CONTRACT_CLASSES = ("every-rotation", "shard-multiple-of-block", "shard-not-multiple-of-block",
                    "several-blocks-per-shard", "empty-shard", "one-shard", "shard-of-one",
                    "key-padding", "masked-shard", "fully-masked-rows",
                    "max-grows-every-shard", "max-in-own-shard", "all-scores-negative",
                    "exp-underflow")


def _algorithm(which: str) -> dict:
    return {"blocks": {dt: blocks(TORCH_DTYPES[dt]) for dt in TORCH_DTYPES},
            "grid": "one program per (BLOCK_M queries of one shard, batch·head)",
            "shards": "S = ⌈N/R⌉ positions each; shard r's queries stand for device r",
            "reduction": "for each ring step r, r+1, …, r−1 (mod R): the shard's key "
                         "blocks folded from the identity with flash_state, then the "
                         "shard's state merged into the running state with flash_state",
            "masks": "−∞ scores past kv_len; a row with no visible key keeps l = 0 and "
                     "stores 0"}


def _precision(dtype: str) -> dict:
    return attention.KERNEL.comparison.precision(dtype)


def _bench(which: str) -> dict:
    """The ring schedule against torch's scaled_dot_product_attention and the naive
    formulation."""
    b, h, n, d, shards = (2, 16, 8192, 128, 8) if which == "gpu" else (1, 2, 256, 32, 4)
    dtype = torch.float16 if which == "gpu" else torch.float32
    q, k, v = (torch.randn(b, h, n, d, device=device(), dtype=dtype) for _ in range(3))
    return {"shape": f"B={b} H={h} N={n} D={d} shards={shards} "
                     f"{str(dtype).replace('torch.', '')}",
            "bytes": 4 * q.numel() * q.element_size(), "flops": 4 * b * h * n * n * d,
            "kernel": (lambda: ring_attention(q, k, v, shards)) if which == "gpu" else None,
            "peer": lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v),
            "reference": lambda: reference(q, k, v, shards)}


KERNEL = KernelSpec(
    name="ring_attention",
    laws=("ring_attention.rotation", "flash_state.associative", "flash_state.identity"),
    summary="attention by the ring schedule (Ring Attention): per-shard FlashAttention "
            "states merged with flash_state in ring order from each query shard's own",
    combine=flash_state,
    dtypes=("float16", "bfloat16", "float32"),
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=_oracle, precision=_precision),
    coverage=Coverage(cases=_cases, contract_classes=CONTRACT_CLASSES),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=attention.GPU_MODEL),
)
