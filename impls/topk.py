"""Per-row top-k values and indices, k ≤ 128, ties broken toward the lowest index.

values[r, i], indices[r, i] for i < k: the k largest entries of row r in descending
order; equal values are ordered by index, lowest first (NaN counts as the largest value
and all NaNs tie, whatever their sign bit or payload; −0.0 and +0.0 tie) — the order
torch.topk gives on a CPU. This is an exact rule, so indices are certified by exact
equality with an oracle applying the same rule, and values are the input entries
themselves (gathered by index), so they are exact too, compared bit for bit up to NaN
payloads (a −0.0 returned as +0.0 fails).

Licensed by ``topk_merge.merge``: the top-k of the union of chunk top-ks is the global
top-k. Each program takes the top-k of one chunk; merge programs take the top-k of the
union of FANIN candidate lists, level by level, until one list is left. Each (value,
index) pair is packed into one int64 key — high 32 bits a monotone integer image of the
float's bits, low 32 bits 2³²−1−index — so the key order is "larger value, then lower
index" and the law holds exactly for keys: no two keys tie. The kernel never does float
arithmetic (it reads the bits), so bfloat16 is exact in Triton's interpreter too.
The law states the merge over lists of reals (a sorting network in the catalog); the
kernel runs it over packed keys with its own bitonic network (tl.topk's, with a
compare–exchange that Triton's interpreter runs 20× faster), so the spec's ``combine``
is None: there is no scalar combine to share.

Work per row: bytes moved ≈ n·s_in (one read) + k·(s_in + 8) (write) + candidate
lists (≈ 2·8·KP·n / BLOCK); compare–exchanges ≈ (n/2)·(L(L + 1)/2 + L + 1) for the
chunks (sort runs of KP, then halve and re-merge), L = log₂KP, and as many again per
FANIN·KP candidates at each merge level.
"""
from __future__ import annotations


import numpy as np
import torch
import triton
import triton.language as tl

from impls import buffers
from impls.spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                         backend, device)

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
BITS = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}
# (magnitude mask, +inf bits) of each format.
LAYOUT = {torch.float32: (0x7FFFFFFF, 0x7F800000), torch.float16: (0x7FFF, 0x7C00),
          torch.bfloat16: (0x7FFF, 0x7F80)}
MAX_K = 128


def algorithm_sizes(which: str | None = None) -> dict:
    """Chunk length, lists per merge, and how many chunks / merges one program does (the
    interpreter pays per operation, so it batches; a GPU runs one per program)."""
    if (which or backend()) == "gpu":
        return {"block": 1024, "fanin": 8, "chunks_per_program": 1, "groups_per_program": 1}
    return {"block": 128, "fanin": 4, "chunks_per_program": 16, "groups_per_program": 4}


# --------------------------------------------------------------------------- reference
def reference(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """torch.topk: reads x once, writes k values and indices per row. Its order among
    equal values is unspecified."""
    return torch.topk(x, k, dim=-1, largest=True, sorted=True)


def lowest_index_topk(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The specification: a stable sort by descending value (NaN largest, ±0 equal)."""
    x64 = x.detach().cpu().to(torch.float64).numpy()
    key = np.where(np.isnan(x64), np.inf, x64)
    nan_first = np.isnan(x64)
    order = np.stack([np.lexsort((np.arange(row.size), -key_row, ~nan_row))
                      for row, key_row, nan_row in zip(x64, key, nan_first)])[:, :k]
    idx = torch.as_tensor(order, dtype=torch.int64)
    return torch.gather(x.detach().cpu(), 1, idx), idx


# --------------------------------------------------------------------------- kernels
@triton.jit
def _sort_keys(bits, offs, ABS_MASK: tl.constexpr, INF_BITS: tl.constexpr):
    """int64 keys ordered by (value, −index); −0 → +0, every NaN → one largest NaN."""
    v = bits.to(tl.int32)
    magnitude = v & ABS_MASK
    v = tl.where(magnitude == 0, 0, v)
    v = tl.where(magnitude > INF_BITS, ABS_MASK, v)
    monotone = tl.where(v < 0, v ^ ABS_MASK, v)
    return (monotone.to(tl.int64) << 32) | (0xFFFFFFFF - offs.to(tl.int64))


@triton.jit
def _top_keys(keys, R: tl.constexpr, LOG_N: tl.constexpr, LOG_K: tl.constexpr):
    """Per row of ``keys`` [R, 2^LOG_N] (distinct int64 keys), the 2^LOG_K largest,
    descending: the bitonic top-k of tl.topk (sort runs of 2^LOG_K, then repeatedly keep
    the larger half and re-merge). After stage s a row holds 2^(LOG_N − s + S) keys in
    runs of 2^S, S = min(s, LOG_K). Step i of stage s compare–exchanges the entries whose
    positions differ in bit B = S − 1 − i: it views a row as [2^(LOG_N − s + i), 2, 2^B],
    splits the middle axis and puts the max right (left where bit i of the first index is
    set, or everywhere in the last stage). Only builtins, all inline (Triton's interpreter
    pays per call and per op), and the shapes are written as constexpr expressions, never
    bound to names: the compiler refuses to bind a tl.constexpr name twice, which an
    unrolled loop body would do, and a plain name would hold a run-time value."""
    if LOG_K == 0:
        top = tl.max(keys, axis=1, keep_dims=True)
    else:
        h = keys
        for stage in tl.static_range(1, LOG_N + 1):
            if stage > LOG_K:  # keep the larger of the runs paired on bit LOG_K
                lo, hi = tl.split(tl.permute(
                    tl.reshape(h, [R, 2 ** (LOG_N - stage), 2, 2 ** LOG_K]), (0, 1, 3, 2)))
                h = tl.reshape(tl.maximum(lo, hi), [R, 2 ** (LOG_N - stage + LOG_K)])
            for i in tl.static_range(stage if stage <= LOG_K else LOG_K):
                lo, hi = tl.split(tl.permute(tl.reshape(
                    h, [R, 2 ** (LOG_N - stage + i), 2,
                        2 ** ((stage if stage <= LOG_K else LOG_K) - 1 - i)]), (0, 1, 3, 2)))
                if stage == LOG_N:
                    flip = (tl.arange(0, 2 ** (LOG_N - stage + i)) >= 0)[None, :, None]
                else:
                    flip = (((tl.arange(0, 2 ** (LOG_N - stage + i)) >> i) & 1)
                            != 0)[None, :, None]
                small, large = tl.minimum(lo, hi), tl.maximum(lo, hi)
                pair = tl.join(tl.where(flip, large, small), tl.where(flip, small, large))
                h = tl.reshape(tl.permute(pair, (0, 1, 3, 2)),
                               [R, 2 ** (LOG_N - stage + (stage if stage <= LOG_K else LOG_K))])
        top = h
    return top


@triton.jit
def _chunk_top(x_ptr, cand_ptr, n, m, k, BLOCK: tl.constexpr, CHUNKS: tl.constexpr,
               KP: tl.constexpr, LOG_BLOCK: tl.constexpr, LOG_KP: tl.constexpr,
               ABS_MASK: tl.constexpr, INF_BITS: tl.constexpr):
    """Candidates of CHUNKS consecutive chunks of one row: each chunk's top-KP keys."""
    row = tl.program_id(0)
    chunk = tl.program_id(1) * CHUNKS + tl.arange(0, CHUNKS)[:, None]
    offs = chunk * BLOCK + tl.arange(0, BLOCK)[None, :]
    mask = offs < n
    bits = tl.load(x_ptr + row.to(tl.int64) * n + offs, mask=mask, other=0)
    keys = tl.where(mask, _sort_keys(bits, offs, ABS_MASK, INF_BITS), -2**63)
    top = _top_keys(keys, CHUNKS, LOG_BLOCK, LOG_KP)
    slot = tl.arange(0, KP)[None, :]
    tl.store(cand_ptr + (row * m + chunk).to(tl.int64) * KP + slot, top,
             mask=(chunk < m) & (slot >= 0))


@triton.jit
def _merge_top(cand_ptr, out_ptr, x_ptr, values_ptr, indices_ptr, m, m_out, n, k,
               KP: tl.constexpr, FANIN: tl.constexpr, GROUPS: tl.constexpr,
               LOG_M: tl.constexpr, LOG_KP: tl.constexpr, FINAL: tl.constexpr):
    """GROUPS merges of one row: the top-KP of the union of FANIN candidate lists each;
    the final level gathers the k values by index and stores values and indices."""
    row = tl.program_id(0)
    group = tl.program_id(1) * GROUPS + tl.arange(0, GROUPS)[:, None]
    lane = tl.arange(0, FANIN * KP)[None, :]
    source = group * FANIN + lane // KP
    keys = tl.load(cand_ptr + (row * m + source).to(tl.int64) * KP + lane % KP,
                   mask=source < m, other=-2**63)
    top = _top_keys(keys, GROUPS, LOG_M, LOG_KP)
    slot = tl.arange(0, KP)[None, :]
    if FINAL:
        index = 0xFFFFFFFF - (top & 0xFFFFFFFF)
        keep = (group == 0) & (slot < k)
        value = tl.load(x_ptr + row.to(tl.int64) * n + index, mask=keep & (index < n),
                        other=0)
        tl.store(values_ptr + row * k + slot, value, mask=keep)
        tl.store(indices_ptr + row * k + slot, index, mask=keep)
    else:
        tl.store(out_ptr + (row * m_out + group).to(tl.int64) * KP + slot, top,
                 mask=(group < m_out) & (slot >= 0))


# --------------------------------------------------------------------------- wrapper
def _validate(x, k) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"topk: x must be a torch.Tensor, got {type(x).__name__}")
    if x.dim() != 2:
        raise ValueError(f"topk: x must be 2-D (rows, n), got {x.dim()}-D")
    if x.dtype not in BITS:
        raise TypeError(f"topk: x dtype must be float32, float16 or bfloat16, got {x.dtype}")
    if x.device.type != device():
        raise ValueError(f"topk: x must be on {device()}, got {x.device.type}")
    if not x.is_contiguous():
        raise ValueError("topk: x must be contiguous")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"topk: k must be an int, got {type(k).__name__}")
    if not 1 <= k <= min(MAX_K, x.shape[1]):
        raise ValueError(f"topk: k must be in [1, min({MAX_K}, row length {x.shape[1]})], got {k}")
    if x.shape[1] >= 2**31:
        raise ValueError("topk: rows longer than 2³¹ − 1 are not supported")


def _log2(power_of_two: int) -> int:
    return power_of_two.bit_length() - 1


def topk(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(values, indices) of the k largest entries of each row of ``x`` (rows, n)."""
    _validate(x, k)
    rows, n = x.shape
    sizes = algorithm_sizes()
    kp = triton.next_power_of_2(k)
    block = max(sizes["block"], kp)
    abs_mask, inf_bits = LAYOUT[x.dtype]
    x = buffers.operand(x, "x")
    bits = x.view(BITS[x.dtype])
    m = triton.cdiv(n, block)
    cand = buffers.empty((rows, m, kp), torch.int64, x.device, "candidates")
    chunks = min(sizes["chunks_per_program"], triton.next_power_of_2(m))
    _chunk_top[(rows, triton.cdiv(m, chunks))](
        bits, cand, n, m, k, BLOCK=block, CHUNKS=chunks, KP=kp, LOG_BLOCK=_log2(block),
        LOG_KP=_log2(kp), ABS_MASK=abs_mask, INF_BITS=inf_bits)
    values = buffers.empty((rows, k), x.dtype, x.device, "values")
    indices = buffers.empty((rows, k), torch.int64, x.device, "indices")
    fanin = sizes["fanin"]
    while True:
        m_out = triton.cdiv(m, fanin)
        groups = min(sizes["groups_per_program"], triton.next_power_of_2(m_out))
        out = buffers.empty((rows, m_out, kp), torch.int64, x.device, "merged candidates")
        _merge_top[(rows, triton.cdiv(m_out, groups))](
            cand, out, bits, values.view(BITS[x.dtype]), indices, m, m_out, n, k, KP=kp,
            FANIN=fanin, GROUPS=groups, LOG_M=_log2(fanin * kp), LOG_KP=_log2(kp),
            FINAL=m_out == 1)
        if m_out == 1:
            return values, indices
        cand, m = out, m_out


# --------------------------------------------------------------------------- certification
def _on_grid(values) -> torch.Tensor:
    """Values exactly representable in float16, bfloat16 and float32 (so every dtype
    sees the same row and the oracle needs no rounding)."""
    t = torch.as_tensor(values, dtype=torch.float64)
    # NaNs keep their sign bit (bfloat16's conversion would drop it)
    return torch.where(torch.isnan(t), t, t.to(torch.bfloat16).to(torch.float16).to(torch.float64))


def _case(name: str, x, k: int, classes: tuple[str, ...]) -> Case:
    x = _on_grid(x)
    return Case(name=f"{name} rows={x.shape[0]} n={x.shape[1]} k={k}", inputs={"x": x},
                params={"k": k}, classes=classes, n=int(x.shape[1]))


def _concentrated(rng, rows: int, n: int, block: int, k: int) -> np.ndarray:
    """Small noise everywhere; k + 5 distinct large integers inside one middle chunk, so
    every winner comes from the same chunk."""
    x = rng.uniform(-1, 1, size=(rows, n))
    start = (n // block // 2) * block
    x[:, start:start + k + 5] = 100 + rng.permutation(k + 5)
    return x


def _signed_zeros(rng, rows: int, n: int) -> np.ndarray:
    """Negative entries and, spread over the chunks, −0.0 and +0.0 in alternation (a −0.0
    first), so the top entries are zeros that only the lowest-index rule orders."""
    x = -0.5 - np.abs(rng.normal(size=(rows, n)))
    positions = np.sort(rng.choice(n, size=(rows, 8), replace=False), axis=1)
    for r in range(rows):
        x[r, positions[r]] = np.where(np.arange(8) % 2 == 0, -0.0, 0.0)
    return x


def _nans(rng, rows: int, n: int) -> np.ndarray:
    """NaNs with the sign bit set and clear, +∞, ±0 and normal noise: the top k are the
    NaNs by index, then +∞, then the largest finite values."""
    x = rng.normal(size=(rows, n))
    for r in range(rows):
        pos = rng.choice(n, size=9, replace=False)
        x[r, pos[:3]] = np.copysign(np.nan, -1.0)
        x[r, pos[3:5]] = np.nan
        x[r, pos[5:7]] = np.inf
        x[r, pos[7]], x[r, pos[8]] = -0.0, 0.0
    return x


def cases(seed: int, which: str) -> list[Case]:
    rng = np.random.default_rng(seed)
    sizes = algorithm_sizes(which)
    block, fanin = sizes["block"], sizes["fanin"]
    rows = 16 if which == "gpu" else 2
    long_n = (block * fanin * fanin + 37) if which == "gpu" else 15 * block + 37
    special = rng.normal(size=(rows, 3 * block + 1))
    for r in range(rows):
        pos = rng.choice(special.shape[1], size=12, replace=False)
        special[r, pos[:3]] = np.inf
        special[r, pos[3:6]] = -np.inf
        special[r, pos[6:9]] = 0.0
        special[r, pos[9:]] = -0.0
    wide = (2.0 ** rng.integers(-24, 15, size=(rows, 4 * block + 3))
            * rng.choice([-1.0, 1.0], size=(rows, 4 * block + 3)))
    return [
        _case("length-1", rng.normal(size=(3, 1)), 1, ("length-1",)),
        _case("k = n, k not a power of two", rng.normal(size=(2, 5)), 5, ("k=n",)),
        _case("constant row", np.full((rows, 5 * block + 3), 1.5), 64,
              ("ties", "multi-block")),
        _case("few distinct values", rng.integers(-2, 3, size=(rows, long_n)), 100,
              ("ties", "multi-block", "non-multiple")),
        _case("k = 128, long row", rng.normal(size=(rows, long_n)), MAX_K,
              ("multi-block", "non-multiple", "k=max")),
        _case("winners in one chunk", _concentrated(rng, rows, long_n, block, 33), 33,
              ("multi-block", "concentrated")),
        _case("descending row with repeats", np.tile(-(np.arange(4 * block) // 3) / 8.0,
                                                     (rows, 1)), 31, ("ties", "multi-block")),
        _case("±inf and ±0", special, 16, ("inf", "signed-zero", "ties", "multi-block")),
        _case("huge dynamic range", wide, 40, ("dynamic-range", "denormal", "multi-block")),
        _case("k = 1 with ties", rng.integers(0, 4, size=(rows, 3 * block - 5)), 1,
              ("ties", "argmax", "non-multiple")),
        _case("±0 among negatives", _signed_zeros(rng, rows, 3 * block + 5), 16,
              ("signed-zero", "ties", "multi-block", "non-multiple")),
        _case("NaNs of both signs", _nans(rng, rows, 3 * block + 5), 16,
              ("nan", "inf", "signed-zero", "ties", "multi-block", "non-multiple")),
        _case("k = n = 128", rng.integers(-8, 8, size=(rows, MAX_K)) / 4.0, MAX_K,
              ("k=n", "k=max", "ties")),
        _case("single chunk", rng.normal(size=(rows, block - 3)), 7, ("non-multiple",)),
    ]


def run(case: Case, dtype: str) -> dict:
    x = case.inputs["x"].to(DTYPES[dtype]).to(device()).contiguous()
    values, indices = topk(x, case.params["k"])
    return {"values": values.cpu(), "indices": indices.cpu()}


def oracle(case: Case) -> Oracle:
    values, indices = lowest_index_topk(case.inputs["x"], case.params["k"])
    return Oracle({"values": values, "indices": indices},
                  "numpy stable lexsort on (−value, index) in float64")


def bound(case: Case, dtype: str, outputs: dict) -> Bound:
    return Bound({}, "exact: values are gathered input entries and indices follow the "
                     "lowest-index rule, both compared for equality")


def naive(case: Case, dtype: str) -> dict:
    values, indices = reference(case.inputs["x"].to(DTYPES[dtype]), case.params["k"])
    return {"values": values, "indices": indices}


def algorithm(which: str) -> dict:
    sizes = algorithm_sizes(which)
    fanin = sizes["fanin"]
    return {
        **sizes,
        "key": "int64: monotone image of the float bits << 32 | (2³²−1−index)",
        "passes": ["chunk top-KP (KP = next power of two ≥ k) per BLOCK entries: bitonic "
                   "top-k network (as tl.topk) on keys",
                   f"merge levels: top-KP of the union of {fanin} candidate lists, "
                   "repeated until one list; the last level gathers values by index"],
        "ties": "lowest index first (exact: keys never tie)",
        "arithmetic": "integer only (no float operation), so every dtype is exact",
    }


def precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "int64 keys (no float arithmetic)", "out": dtype}


def bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel against torch.topk on one shape."""
    gpu = which == "gpu"
    rows, n, k = (1024, 32768, 64) if gpu else (64, 8192, 64)
    x = torch.randn(rows, n, device="cuda" if gpu else "cpu")
    return {"kernel": (lambda: topk(x, k)) if gpu else None,
            "peer": lambda: reference(x, k), "reference": lambda: reference(x, k),
            "bytes": x.numel() * x.element_size() + rows * k * (x.element_size() + 8),
            "flops": 0, "shape": f"{rows}×{n} float32, k={k}"}



KERNEL = KernelSpec(
    name="topk",
    laws=("topk_merge.merge",),
    summary="per-row top-k values and indices (k ≤ 128), ties to the lowest index",
    combine=None,
    dtypes=("float32", "float16", "bfloat16"),
    execution=Execution(run=run, reference=naive, bench=bench),
    comparison=Comparison(
        oracle=oracle,
        precision=precision,
        exact_outputs=("values", "indices"),
    ),
    coverage=Coverage(
        cases=cases,
        contract_classes=("length-1", "k=n", "k=max", "argmax", "ties", "nan", "inf",
                          "signed-zero", "denormal", "multi-block", "non-multiple",
                          "concentrated"),
    ),
    bounding=Bounding(bound=bound, algorithm=algorithm),
)
