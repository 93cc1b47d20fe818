"""Paged attention forward, as in vLLM's PagedAttention (Kwon et al., SOSP 2023): each
sequence's keys and values live in fixed-size pages anywhere in one shared pool, and a
per-sequence block table maps logical page i to its physical page. One program per
(BLOCK_M queries, sequence × head) streams the sequence's tokens in blocks of BLOCK_N,
gathers each token from its page through the table, and folds the blocks into the
running FlashAttention state (m, l, o) with the shared ``flash_state`` combine. Every
query of sequence b attends to its first ``seq_lens[b]`` tokens (decoding: M = 1 per
sequence and head; no causal mask); a page may hold fewer or more tokens than a block
(any page size ≥ 1), pages may be shared between sequences (a cached prefix), and the
slots past a sequence's end in its last page are masked whatever they hold.

Laws: ``paged_attention.block_table`` — attention read through the block table, block
states merged with flash_state, equals attention over the contiguous cache;
``flash_state.associative`` and ``flash_state.identity`` — blocks fold one at a time
from the identity (−∞, 0, 0).

Bytes it must move, per (sequence, head) with L cached tokens: (2M + 2L)·D·s for Q, O,
K and V (s bytes per element), plus the sequence's ⌈L/page⌉ table entries and its
length (4 bytes each) once per sequence; flops: 4·M·L·D. (The kernel reads a token's
table entry per lane, and K and V once per block of queries.)

Error bound: the one of ``impls/attention.py`` (its module docstring), for the
attention over the contiguous cache the law equates this kernel with: the kernel
computes the same scores, block sums and merges, only the addresses differ, so with
BLOCK_N keys per block and n_b = ⌈N/BLOCK_N⌉ merges (N = table columns × page size)
the same T₁ + T₂ + 2⁻²¹(V̄ + T₂) + cast + oracle terms hold. The oracle is attention
over the contiguous keys and values the allocator scattered into the pool, computed
without the table.
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
def gather(cache: torch.Tensor, block_table: torch.Tensor, pages: int) -> torch.Tensor:
    """(B, H, pages·PAGE, D): each sequence's first ``pages`` logical pages, copied out
    of the pool (P, H, PAGE, D) in logical order."""
    p, h, page, d = cache.shape
    picked = cache[block_table[:, :pages].long()]          # (B, pages, H, PAGE, D)
    return picked.permute(0, 2, 1, 3, 4).reshape(block_table.shape[0], h, pages * page, d)


def reference(q, k_cache, v_cache, block_table, seq_lens, scale=None):
    """Gather the cache into contiguous K, V (reads the pages, writes B·H·N·D twice), then
    naive attention over it (impls/attention.py's reference)."""
    pages = block_table.shape[1]
    k = gather(k_cache, block_table, pages)
    v = gather(v_cache, block_table, pages)
    return attention.reference(q, k, v, kv_len=seq_lens, scale=scale)


# --------------------------------------------------------------------------- kernel
@triton.jit
def paged_attention_kernel(q_ptr, k_cache_ptr, v_cache_ptr, o_ptr, table_ptr, seq_lens_ptr,
                           scale, H, M, PAGE, TABLE_STRIDE,
                           HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr, INPUT_PRECISION: tl.constexpr):
    """One program per (block of BLOCK_M queries, sequence × head): blocks of the
    sequence's tokens gathered through the block table, folded with flash_state."""
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    seq = bh // H
    head = bh % H
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + bh.to(tl.int64) * M * HEAD_DIM + offs_m[:, None] * HEAD_DIM
                + offs_d[None, :], mask=offs_m[:, None] < M, other=0.0)
    seq_len = tl.load(seq_lens_ptr + seq)
    table_row = table_ptr + seq.to(tl.int64) * TABLE_STRIDE
    m_i = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M, 1), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)          # logical token positions
        visible = offs_n < seq_len
        # paged_attention.block_table: token n lives in slot n mod PAGE of the physical
        # page the table names for logical page n // PAGE
        page = tl.load(table_row + offs_n // PAGE, mask=visible, other=0)
        token = ((page.to(tl.int64) * H + head) * PAGE + offs_n % PAGE) * HEAD_DIM
        k_t = tl.load(k_cache_ptr + token[None, :] + offs_d[:, None], mask=visible[None, :],
                      other=0.0)
        s = tl.dot(q, k_t, input_precision=INPUT_PRECISION) * scale
        s = tl.where(visible[None, :], s, -float("inf"))
        m_b = tl.max(s, axis=1, keep_dims=True)
        p = tl.exp(s - tl.where(m_b == -float("inf"), 0.0, m_b))
        l_b = tl.sum(p, axis=1, keep_dims=True)
        v = tl.load(v_cache_ptr + token[:, None] + offs_d[None, :], mask=visible[:, None],
                    other=0.0)
        o_b = tl.dot(p.to(v.dtype), v, input_precision=INPUT_PRECISION)
        m_i, l_i, acc = flash_state(m_i, l_i, acc, m_b, l_b, o_b)
    out = tl.where(l_i > 0, acc / tl.where(l_i > 0, l_i, 1.0), 0.0)
    tl.store(o_ptr + bh.to(tl.int64) * M * HEAD_DIM + offs_m[:, None] * HEAD_DIM
             + offs_d[None, :], out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < M)


def blocks(dtype: torch.dtype) -> dict:
    """Block sizes: small in the interpreter (it runs each program's ops one by one)."""
    if backend() != "gpu":
        return {"BLOCK_M": 16, "BLOCK_N": 16}
    if dtype == torch.float32:
        return {"BLOCK_M": 16, "BLOCK_N": 32, "num_warps": 4, "num_stages": 2}
    return {"BLOCK_M": 16, "BLOCK_N": 64, "num_warps": 4, "num_stages": 2}


# --------------------------------------------------------------------------- wrapper
def _check(q, k_cache, v_cache, block_table, seq_lens) -> None:
    name = "paged_attention"
    check_tensors(name, {"q": q, "k_cache": k_cache, "v_cache": v_cache},
                  tuple(TORCH_DTYPES.values()))
    check_tensors(name, {"block_table": block_table, "seq_lens": seq_lens},
                  (torch.int32, torch.int64))
    check_shape(name, "q", q, (None, None, None, None))
    b, h, _, d = q.shape
    check_shape(name, "k_cache", k_cache, (None, h, None, d))
    check_shape(name, "v_cache", v_cache, tuple(k_cache.shape))
    check_shape(name, "block_table", block_table, (b, None))
    check_shape(name, "seq_lens", seq_lens, (b,))
    if not (q.dtype == k_cache.dtype == v_cache.dtype):
        raise TypeError(f"{name}: q, k_cache and v_cache must share a dtype, got {q.dtype}, "
                        f"{k_cache.dtype} and {v_cache.dtype}")
    if d not in HEAD_DIMS:
        raise ValueError(f"{name}: head dim must be 16, 32, 64 or 128, got {d}")
    pool, page = k_cache.shape[0], k_cache.shape[2]
    if page < 1:
        raise ValueError(f"{name}: pages must hold at least one token")
    capacity = block_table.shape[1] * page
    if b and (int(seq_lens.min()) < 0 or int(seq_lens.max()) > capacity):
        raise ValueError(f"{name}: seq_lens must lie in [0, {capacity}] (table columns × "
                         "page size)")
    used = torch.arange(block_table.shape[1], device=block_table.device)[None, :] \
        < ((seq_lens + page - 1) // page)[:, None]
    entries = block_table[used]
    if entries.numel() and (int(entries.min()) < 0 or int(entries.max()) >= pool):
        raise ValueError(f"{name}: a block table entry in use lies outside the pool's "
                         f"{pool} pages")


def paged_attention(q, k_cache, v_cache, block_table, seq_lens, scale=None):
    """O = softmax(QKᵀ·scale)·V per sequence over its cached tokens. q (B, H, M, D);
    k_cache and v_cache (P, H, PAGE, D), a pool of P pages of PAGE tokens; block_table
    (B, T) integers: logical page i of sequence b is physical page block_table[b, i];
    seq_lens (B,) integers in [0, T·PAGE]. A sequence of length 0 gives zeros."""
    _check(q, k_cache, v_cache, block_table, seq_lens)
    b, h, m, d = q.shape
    page = k_cache.shape[2]
    scale = d ** -0.5 if scale is None else float(scale)
    dtype = str(q.dtype).replace("torch.", "")
    q = buffers.operand(q, "q")
    k_cache = buffers.operand(k_cache, "k_cache")
    v_cache = buffers.operand(v_cache, "v_cache")
    table = buffers.operand(block_table.to(torch.int32), "block_table")
    lens = buffers.operand(seq_lens.to(torch.int32), "seq_lens")
    out = buffers.empty(q.shape, q.dtype, q.device, "o")
    cfg = blocks(q.dtype)
    grid = (triton.cdiv(m, cfg["BLOCK_M"]), b * h)
    if out.numel():
        paged_attention_kernel[grid](q, k_cache, v_cache, out, table, lens, scale, h, m, page,
                                     table.shape[1], HEAD_DIM=d,
                                     INPUT_PRECISION=dot_input_precision(dtype), **cfg)
    return out


# --------------------------------------------------------------------------- certification
def _operands(case: Case, dtype: str):
    t = TORCH_DTYPES[dtype]
    q, k_cache, v_cache = (case.inputs[x].to(device(), t) for x in ("q", "k_cache", "v_cache"))
    return (q, k_cache, v_cache, case.inputs["block_table"].to(device()),
            case.inputs["seq_lens"].to(device()))


def _run(case: Case, dtype: str) -> dict:
    return {"o": paged_attention(*_operands(case, dtype))}


def _reference(case: Case, dtype: str) -> dict:
    return {"o": reference(*_operands(case, dtype))}


def _contiguous(case: Case) -> Case:
    """The law's right side as an attention case: the contiguous keys and values the
    allocator scattered (``k``, ``v``), masked at each sequence's length."""
    return Case(case.name, {"q": case.inputs["q"], "k": case.inputs["k"], "v": case.inputs["v"],
                            "kv_len": case.inputs["seq_lens"]}, {"causal": False})


def _oracle(case: Case) -> Oracle:
    return attention.oracle(_contiguous(case))


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    return attention.flash_bound(_contiguous(case), dtype, outputs,
                                 blocks(TORCH_DTYPES[dtype])["BLOCK_N"])


# --------------------------------------------------------------------------- cases
def allocate(rng, lens, page: int, pool: int, shared: int = 0) -> np.ndarray:
    """Block tables (B, T) for sequences of ``lens`` tokens in a pool of ``pool`` pages,
    the way an allocator hands out pages: from a shuffled free list, so logical and
    physical order differ and sequences interleave. The first ``shared`` pages of
    sequence 1 are sequence 0's (a cached prefix). One spare column per row holds 0, as
    vLLM pads its tables."""
    need = [-(-n // page) for n in lens]
    table = np.zeros((len(lens), max(need) + 1), dtype=np.int64)
    free = list(rng.permutation(pool))
    for b, count in enumerate(need):
        for i in range(count):
            table[b, i] = table[0, i] if (b == 1 and i < shared) else free.pop()
    return table


def _paged_case(rng, name, q, k, v, lens, page, shared=0, classes=()):
    """A case from contiguous q (B, H, M, D), k and v (B, H, ≥ max(lens), D): the pages
    scattered through ``allocate``'s table into a pool whose other pages and slots hold
    large stale keys and values (another sequence's, or a freed one's)."""
    q, k, v = (half_exact(x) for x in (q, k, v))
    b, h, m, d = q.shape
    if shared:  # sequence 1 continues sequence 0's first ``shared`` pages
        k[1, :, :shared * page], v[1, :, :shared * page] = k[0, :, :shared * page], \
            v[0, :, :shared * page]
    used = sum(-(-n // page) for n in lens) - shared
    pool = used + 3
    table = allocate(rng, lens, page, pool, shared)
    n = table.shape[1] * page
    k_cache = half_exact(4.0 * rng.standard_normal((pool, h, page, d)))
    v_cache = half_exact(50.0 * rng.standard_normal((pool, h, page, d)))
    contiguous = []
    for x, cache in ((k, k_cache), (v, v_cache)):
        full = torch.zeros(b, h, n, d, dtype=torch.float64)
        for s, length in enumerate(lens):
            full[s, :, :length] = x[s, :, :length]
            for i in range(-(-length // page)):
                cache[table[s, i], :, :min(page, length - i * page)] = \
                    x[s, :, i * page:min((i + 1) * page, length)]
        contiguous.append(full)
    label = f"{name} B={b} H={h} M={m} D={d} page={page} lens={list(lens)}"
    return Case(label, {"q": q, "k_cache": k_cache, "v_cache": v_cache,
                        "block_table": torch.tensor(table, dtype=torch.int32),
                        "seq_lens": torch.tensor(lens, dtype=torch.int32),
                        "k": contiguous[0], "v": contiguous[1]},
                classes=("pages-out-of-order", *classes), n=max(lens))


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)

    def normal(b, h, m, n, d):
        return (rng.standard_normal((b, h, m, d)), rng.standard_normal((b, h, n, d)),
                rng.standard_normal((b, h, n, d)))

    def case(name, lens, page, b_h_m_d, shared=0, classes=()):
        b, h, m, d = b_h_m_d
        return _paged_case(rng, name, *normal(b, h, m, max(lens), d), lens, page, shared,
                           classes)

    yield case("decode", [37, 16, 5, 64], 16, (4, 2, 1, 32),
               classes=["one-query", "partial-last-page", "length-multiple-of-page",
                        "stale-slots"])
    yield case("small pages", [21, 9], 4, (2, 2, 3, 16),
               classes=["pages-smaller-than-block", "several-queries", "partial-last-page",
                        "stale-slots"])
    yield case("one token per page", [7, 18], 1, (2, 1, 2, 16), classes=["page-size-1"])
    yield case("large pages", [70, 33], 32, (2, 1, 17, 32),
               classes=["pages-larger-than-block", "two-query-blocks", "stale-slots"])
    yield case("shared prefix", [40, 29, 16], 8, (3, 2, 1, 16), shared=2,
               classes=["shared-pages", "one-query"])
    yield case("empty and single", [0, 1, 3], 16, (3, 1, 2, 16),
               classes=["seq-len-0", "seq-len-1", "stale-slots"])
    n = 80
    q, k = attention.aligned(rng, np.linspace(-12.0, 12.0, n), 32, m=1)
    yield _paged_case(rng, "growing max", q, k, rng.standard_normal((1, 1, n, 32)), [n], 8,
                      classes=["max-grows-every-block", "huge-dynamic-range"])
    q, k = attention.aligned(rng, -200.0 + rng.uniform(-4, 4, 40), 16, m=2)
    yield _paged_case(rng, "scores ≈ -200", q, k, rng.standard_normal((1, 1, 40, 16)), [40],
                      8, classes=["all-scores-negative"])
    if which == "gpu":
        yield case("long decode", [2000, 1531, 17, 1024], 16, (4, 8, 1, 128),
                   classes=["one-query", "head-dim-128"])


CONTRACT_CLASSES = ("pages-out-of-order", "partial-last-page", "length-multiple-of-page",
                    "stale-slots", "pages-smaller-than-block", "pages-larger-than-block",
                    "page-size-1", "shared-pages", "one-query", "several-queries",
                    "two-query-blocks", "seq-len-0", "seq-len-1", "max-grows-every-block",
                    "all-scores-negative")


def _algorithm(which: str) -> dict:
    return {"blocks": {dt: blocks(TORCH_DTYPES[dt]) for dt in TORCH_DTYPES},
            "grid": "one program per (BLOCK_M queries, sequence·head)",
            "gather": "each token's physical page read from the block table (logical page "
                      "n // PAGE), its slot n mod PAGE",
            "reduction": "sequential over blocks of BLOCK_N tokens, each folded into the "
                         "running state with the shared flash_state combine",
            "masks": "tokens past the sequence's length (stale slots of its last page) get "
                     "−∞ scores; a sequence of length 0 stores 0"}


def _precision(dtype: str) -> dict:
    return attention.KERNEL.comparison.precision(dtype)


def _bench(which: str) -> dict:
    """Decoding: one query per (sequence, head) against a paged cache, against torch's
    scaled_dot_product_attention on the gathered cache and the naive formulation."""
    b, h, length, d, page = (32, 8, 2048, 128, 16) if which == "gpu" else (4, 2, 256, 32, 16)
    dtype = torch.float16 if which == "gpu" else torch.float32
    pages = length // page
    pool = b * pages
    q = torch.randn(b, h, 1, d, device=device(), dtype=dtype)
    k_cache, v_cache = (torch.randn(pool, h, page, d, device=device(), dtype=dtype)
                        for _ in range(2))
    table = torch.randperm(pool, device=device()).reshape(b, pages).to(torch.int32)
    lens = torch.full((b,), length, dtype=torch.int32, device=device())
    k, v = gather(k_cache, table, pages), gather(v_cache, table, pages)
    s = q.element_size()
    return {"shape": f"B={b} H={h} L={length} D={d} page={page} "
                     f"{str(dtype).replace('torch.', '')}",
            "bytes": b * h * (2 + 2 * length) * d * s + 4 * b * pages + 4 * b,
            "flops": 4 * b * h * length * d,
            "kernel": ((lambda: paged_attention(q, k_cache, v_cache, table, lens))
                       if which == "gpu" else None),
            "peer": lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v),
            "reference": lambda: reference(q, k_cache, v_cache, table, lens)}


KERNEL = KernelSpec(
    name="paged_attention",
    laws=("paged_attention.block_table", "flash_state.associative", "flash_state.identity"),
    summary="attention over a paged KV cache (PagedAttention): tokens gathered through a "
            "per-sequence block table, running (m, l, o) state merged by flash_state",
    combine=flash_state,
    dtypes=("float16", "bfloat16", "float32"),
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=_oracle, precision=_precision),
    coverage=Coverage(cases=_cases, contract_classes=CONTRACT_CLASSES),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=attention.GPU_MODEL),
)
