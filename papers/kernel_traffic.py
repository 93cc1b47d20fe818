"""Bytes moved and flops of the project's fourteen kernels, counted on the two-level I/O
model (``papers.iomodel``) by replaying each kernel's schedule — its grid, block sizes
and loads/stores as written in ``impls/<name>.py`` — as an explicit block loop.

Conventions (the same for every kernel):
- Traffic is what the programs request: each program starts with an empty fast memory
  and nothing is shared between programs, so data a GPU's L2 cache would serve twice
  (layer norm's weights, the selective scan's B and C, attention's K and V) counts
  every time. Masked lanes of a load or store move nothing.
- Flops are the operations issued on in-bounds lanes: + − × ÷, max/min, exp, log, sqrt
  (each 1); comparisons, selects, conversions and integer work are free. A merge costs
  what the shared combine costs when run under a counting ``tl``
  (``papers.interpret.flops_per_call``); a reduction of v lanes is v − 1 merges.
- Fast memory M defaults to 65,536 words per program (256 KiB of 4-byte words: one
  SM's register file); a block that does not fit raises ``FastMemoryOverflow``.

``traffic(name, **shape)`` → {"bytes", "flops", "schedule"}; ``account`` returns the
memory with per-tensor counts; ``compulsory_bytes`` is every input read once and every
output written once, the floor most benches state.
"""
from __future__ import annotations

from typing import Callable

from .interpret import flops_per_call
from .iomodel import TwoLevelMemory, blocks, cdiv

M_DEFAULT = 65_536
GPU, INTERPRETER = "gpu", "triton-interpreter"
BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4,
         "int8": 1}

# Block sizes of the kernels whose ``blocks()`` reads the running backend (so they cannot
# be asked for the other one); tests check them against impls on the backend they run on.
FIXED_BLOCKS = {
    "attention": {GPU: {"float32": (64, 32), "float16": (128, 64), "bfloat16": (128, 64)},
                  INTERPRETER: {"float32": (64, 32), "float16": (64, 32), "bfloat16": (64, 32)}},
    "matmul": {GPU: (128, 128, 32), INTERPRETER: (32, 32, 32)},
    "lora": {GPU: (128, 128, 32), INTERPRETER: (32, 32, 32)},
    "int8_matmul": {GPU: (64, 128, 64), INTERPRETER: (32, 32, 32)},
    "nbody": {GPU: 64, INTERPRETER: 32},
    "paged_attention": {GPU: {"float32": (16, 32), "float16": (16, 64), "bfloat16": (16, 64)},
                        INTERPRETER: {"float32": (16, 16), "float16": (16, 16),
                                      "bfloat16": (16, 16)}},
    "ring_attention": {GPU: {"float32": (64, 32), "float16": (64, 64), "bfloat16": (64, 64)},
                       INTERPRETER: {"float32": (16, 16), "float16": (16, 16),
                                     "bfloat16": (16, 16)}},
}


def _combine_flops(name: str, *widths: int) -> int:
    from laws.associativity import combines
    return flops_per_call(getattr(combines, name), *widths)


# --------------------------------------------------------------------------- row kernels
def _rows_config(n: int, backend: str) -> dict:
    from impls.launch import config
    return config(n, backend)


def _softmax(mem, rows, n, dtype="float32", backend=GPU):
    cfg = _rows_config(n, backend)
    merge = _combine_flops("online_softmax", 1, 1, 1, 1)
    with mem.repeat(rows), mem.program():
        mem.alloc("state", 2)
        for _, v in blocks(n, cfg["block"]):          # statistics pass
            mem.load("x", v, slot="x_blk", footprint=cfg["block"])
            mem.flop(v * merge)                       # v − 1 in the block, 1 into the state
        mem.flop(3)                                   # log, add, 1/s
        mem.store("lse", 1)
        for _, v in blocks(n, cfg["block"]):          # normalize pass
            mem.load("x", v, slot="x_blk", footprint=cfg["block"])
            mem.flop(3 * v)                           # subtract, exp, multiply
            mem.store("y", v)
    return f"one program per row; BLOCK={cfg['block']}; read twice, write once"


def _var_mean(mem, rows, n, dtype="float32", backend=GPU):
    cfg = _rows_config(n, backend)
    merge = _combine_flops("welford", 1, 1, 1, 1, 1, 1)
    with mem.repeat(rows), mem.program():
        mem.alloc("state", 3)
        for _, v in blocks(n, cfg["block"]):
            mem.load("x", v, slot="x_blk", footprint=cfg["block"])
            mem.flop(v * merge)
        mem.flop(3)                                   # dof, max(dof, 1), m2 / dof
        mem.store("var", 1)
        mem.store("mean", 1)
    return f"one program per row; BLOCK={cfg['block']}; one read"


def _layer_norm(mem, rows, n, dtype="float32", backend=GPU):
    cfg = _rows_config(n, backend)
    merge = _combine_flops("welford", 1, 1, 1, 1, 1, 1)
    with mem.repeat(rows), mem.program():
        mem.alloc("state", 3)
        for _, v in blocks(n, cfg["block"]):
            mem.load("x", v, slot="x_blk", footprint=cfg["block"])
            mem.flop(v * merge)
        mem.flop(4)                                   # m2/n, + eps, sqrt, 1/·
        mem.store("mean", 1)
        mem.store("rstd", 1)
        for _, v in blocks(n, cfg["block"]):
            mem.load("x", v, slot="x_blk", footprint=cfg["block"])
            mem.load("w", v, slot="w_blk", footprint=cfg["block"])
            mem.load("b", v, slot="b_blk", footprint=cfg["block"])
            mem.flop(4 * v)                           # (x − mean)·rstd·w + b
            mem.store("y", v)
    return (f"one program per row; BLOCK={cfg['block']}; x read twice, w and b read by "
            "every row")


# --------------------------------------------------------------------------- scans
def _scan(mem, rows, n, dtype="float32", backend=GPU):
    from impls.scan import block_size
    block = block_size(backend)
    add = _combine_flops("add", 1, 1)
    with mem.repeat(rows):
        for j, (_, v) in enumerate(blocks(n, block)):
            with mem.program():                       # pass 1: block total
                mem.load("x", v, slot="x_blk", footprint=block)
                mem.flop(2 * (v - 1) * add)           # scan, then the sum extracting the total
                mem.store("totals", 1)
            with mem.program():                       # pass 2: carry, rescan, apply
                for _ in range(j):
                    mem.load("totals", 1, slot="t")
                mem.flop(j * add)
                mem.load("x", v, slot="x_blk", footprint=block)
                mem.flop((v - 1) * add + v * add)
                mem.store("y", v)
    return f"two passes over (row, block) programs; BLOCK={block}; carries from block totals"


def _linear_scan(mem, rows, n, dtype="float32", backend=GPU):
    from impls.linear_scan import block_size
    block = block_size(backend)
    comb = _combine_flops("linear_recurrence", 1, 1, 1, 1)
    with mem.repeat(rows):
        for j, (_, v) in enumerate(blocks(n, block)):
            with mem.program():
                mem.load("a", v, slot="a_blk", footprint=block)
                mem.load("b", v, slot="b_blk", footprint=block)
                mem.flop((v - 1) * comb + 2 * (v - 1))   # scan; two sums extracting the pair
                mem.store("pairs", 2)
            with mem.program():
                for _ in range(j):
                    mem.load("pairs", 2, slot="p")
                mem.flop(j * comb)
                mem.load("a", v, slot="a_blk", footprint=block)
                mem.load("b", v, slot="b_blk", footprint=block)
                mem.flop((v - 1) * comb + v * comb)      # rescan; carry applied
                mem.store("h", v)
    return f"two passes over (row, block) programs; BLOCK={block}; carries from block pairs"


def _selective_scan(mem, batch, length, channels, states, dtype="float32", backend=GPU):
    from impls.selective_scan import chunk_size
    bl = chunk_size(backend)
    bn = max(1 << (states - 1).bit_length(), 2)
    comb = _combine_flops("linear_recurrence", 1, 1, 1, 1)
    N = states
    with mem.repeat(batch * channels):                  # one (b, d) sequence per program row
        for c, (_, v) in enumerate(blocks(length, bl)):
            with mem.program():                         # pass 1: chunk pairs
                mem.load("x", v, slot="x", footprint=bl)
                mem.load("delta", v, slot="dt", footprint=bl)
                mem.load("A", N, slot="A", footprint=bn)
                mem.load("Bm", v * N, slot="Bm", footprint=bl * bn)
                mem.alloc("pairs_blk", 2 * bl * bn)
                mem.flop(3 * v * N + v)                 # ΔA, exp, Δx, ·B
                mem.flop((v - 1) * N * comb + 2 * (v - 1) * N)
                mem.store("pairs", 2 * bn)
            with mem.program():                         # pass 2: carry, rescan, contract
                mem.alloc("carry", 2 * bn)
                for _ in range(c):
                    mem.load("pairs", 2 * bn, slot="p")
                mem.flop(c * N * comb)
                mem.load("x", v, slot="x", footprint=bl)
                mem.load("delta", v, slot="dt", footprint=bl)
                mem.load("A", N, slot="A", footprint=bn)
                mem.load("Bm", v * N, slot="Bm", footprint=bl * bn)
                mem.alloc("pairs_blk", 2 * bl * bn)
                mem.flop(3 * v * N + v + (v - 1) * N * comb + v * N * comb)
                mem.load("Cm", v * N, slot="Cm", footprint=bl * bn)
                mem.load("Dskip", 1)
                mem.flop(v * N + v * (N - 1) + 2 * v)   # C·h, its sum, + D·x
                mem.store("y", v)
    return (f"two passes over ((b, d), chunk) programs; chunk={bl}, states padded to {bn}; "
            "B and C read by every channel")


def _topk(mem, rows, n, k, dtype="float32", backend=GPU):
    from impls.topk import algorithm_sizes
    sizes = algorithm_sizes(backend)
    kp = 1 << (k - 1).bit_length()
    block, fanin = max(sizes["block"], kp), sizes["fanin"]
    m = cdiv(n, block)
    with mem.repeat(rows):
        for _, v in blocks(n, block):                   # chunk top-KP
            with mem.program():
                mem.load("x", v, slot="x_blk", footprint=2 * block)  # keys are int64
                mem.store("candidates", kp)
        levels = 0
        while True:
            m_out = cdiv(m, fanin)
            levels += 1
            for g in range(m_out):
                with mem.program():
                    lists = min(fanin, m - g * fanin)
                    mem.load("candidates", lists * kp, slot="keys", footprint=fanin * kp)
                    if m_out == 1:
                        mem.load("x", k, slot="gathered")   # values gathered by index
                        mem.store("values", k)
                        mem.store("indices", k)
                    else:
                        mem.store("candidates", kp)
            if m_out == 1:
                break
            m = m_out
    return (f"chunk top-{kp} per BLOCK={block}, then {levels} merge level(s) of fan-in "
            f"{fanin} over int64 keys; integer work only")


# --------------------------------------------------------------------------- matmul family
def _tiles(m: int, n: int, bm: int, bn: int):
    """Distinct (rows, cols) tile shapes of an m × n grid with their multiplicities."""
    out: dict[tuple[int, int], int] = {}
    for _, r in blocks(m, bm):
        for _, c in blocks(n, bn):
            out[(r, c)] = out.get((r, c), 0) + 1
    return out.items()


def _k_steps(k: int, bk: int):
    full, rest = divmod(k, bk)
    return ([(bk, full)] if full else []) + ([(rest, 1)] if rest else [])


def _matmul(mem, m, n, k, dtype="float16", backend=GPU):
    bm, bn, bk = FIXED_BLOCKS["matmul"][backend]
    for (r, c), times in _tiles(m, n, bm, bn):
        with mem.repeat(times), mem.program():
            mem.alloc("acc", bm * bn)
            for kv, steps in _k_steps(k, bk):
                with mem.repeat(steps):
                    mem.load("A", r * kv, slot="A_blk", footprint=bm * bk)
                    mem.load("B", kv * c, slot="B_blk", footprint=bk * bn)
                    mem.flop(2 * r * c * kv)
            mem.store("C", r * c)
    return (f"one program per {bm}×{bn} tile of C, K in steps of {bk}; A read "
            f"{cdiv(n, bn)}×, B read {cdiv(m, bm)}×")


def _lora(mem, m, d_in, d_out, r, dtype="float16", backend=GPU):
    bm, bn, bk = FIXED_BLOCKS["lora"][backend]
    rank = max(16, 1 << (r - 1).bit_length())
    for (rows, cols), times in _tiles(m, d_out, bm, bn):
        with mem.repeat(times), mem.program():
            mem.alloc("acc", bm * bn)
            mem.alloc("t", bm * rank)
            for kv, steps in _k_steps(d_in, bk):
                with mem.repeat(steps):
                    mem.load("x", rows * kv, slot="x_blk", footprint=bm * bk)
                    mem.load("W", kv * cols, slot="W_blk", footprint=bk * bn)
                    mem.load("B", kv * r, slot="B_blk", footprint=bk * rank)
                    mem.flop(2 * rows * cols * kv + 2 * rows * r * kv)
            mem.load("A", r * cols, slot="A_blk", footprint=rank * bn)
            mem.flop(2 * rows * r * cols)
            mem.store("y", rows * cols)
    return (f"one program per {bm}×{bn} tile of y; x·B recomputed by each of the "
            f"{cdiv(d_out, bn)} column tiles; rank padded to {rank}")


def _int8_matmul(mem, m, n, k, dtype="bfloat16", backend=GPU):
    bm, bn, bk = FIXED_BLOCKS["int8_matmul"][backend]
    for (r, c), times in _tiles(m, n, bm, bn):
        with mem.repeat(times), mem.program():
            mem.alloc("acc", bm * bn)
            for kv, steps in _k_steps(k, bk):
                with mem.repeat(steps):
                    mem.load("x", r * kv, slot="x_blk", footprint=bm * bk)
                    mem.load("Wq", kv * c, slot="W_blk", footprint=bk * bn)
                    mem.flop(2 * r * c * kv)
            mem.load("s", c, slot="s_blk", footprint=bn)
            mem.flop(r * c)                           # acc · s
            mem.store("y", r * c)
    return f"one program per {bm}×{bn} tile of y, K in steps of {bk}; int8 W, fp32 scales"


def _attention(mem, batch, heads, m, n, d, dtype="float16", causal=False, backend=GPU):
    from .attention_io import query_outer
    b_r, b_c = FIXED_BLOCKS["attention"][backend][dtype]
    with mem.repeat(batch * heads):
        query_outer(mem, m, n, d, d, b_r, b_c, causal=causal, kv_len_word=True)
    return (f"one program per {b_r} query rows and (batch, head); K and V streamed in "
            f"{b_c}-key blocks, read {cdiv(m, b_r)}× per head{'; causal skip' if causal else ''}")


def _key_blocks(mem, br, keys, d, b_r, b_c, table=False):
    """One program's key blocks, as ``query_outer`` counts them: K and V read, scores,
    exponentials and P·V on in-bounds lanes, one flash_state merge per row and block;
    with ``table`` each key's block-table entry is read too (a lane per key)."""
    merge_row = _combine_flops("flash_state", 1, 1, d, 1, 1, d)
    for _, bc in blocks(keys, b_c):
        if table:
            mem.load("block_table", bc, slot="pages", footprint=b_c)
        mem.load("K", bc * d, slot="K_j", footprint=b_c * d)
        mem.alloc("S_ij", b_r * b_c)
        mem.load("V", bc * d, slot="V_j", footprint=b_c * d)
        mem.flop(br * bc * (4 * d + 3) + 2 * br * (bc - 1) + br * merge_row)


def _paged_attention(mem, batch, heads, m, length, d, page, dtype="float16", backend=GPU):
    b_r, b_c = FIXED_BLOCKS["paged_attention"][backend][dtype]
    with mem.repeat(batch * heads):
        for _, br in blocks(m, b_r):
            with mem.program():
                mem.load("Q", br * d, slot="Q_i", footprint=b_r * d)
                mem.load("seq_lens", 1)
                mem.alloc("state", b_r * (d + 2))
                _key_blocks(mem, br, length, d, b_r, b_c, table=True)
                mem.flop(br * d)                     # o / ℓ
                mem.store("O", br * d)
    return (f"one program per {b_r} queries and (sequence, head); the sequence's {length} "
            f"tokens gathered in {b_c}-token blocks, each token's page read from the block "
            f"table (pages of {page}), K and V read {cdiv(m, b_r)}× per head")


def _ring_attention(mem, batch, heads, n, d, shards, dtype="float16", backend=GPU):
    b_r, b_c = FIXED_BLOCKS["ring_attention"][backend][dtype]
    shard = cdiv(n, shards)
    merge_row = _combine_flops("flash_state", 1, 1, d, 1, 1, d)
    with mem.repeat(batch * heads):
        for own in range(shards):
            rows = max(0, min(shard, n - own * shard))
            for q0 in range(0, cdiv(shard, b_r) * b_r, b_r):
                br = max(0, min(b_r, rows - q0))
                with mem.program():
                    mem.load("Q", br * d, slot="Q_i", footprint=b_r * d)
                    mem.load("kv_len", 1)
                    mem.alloc("state", 2 * b_r * (d + 2))     # running and shard states
                    for step in range(shards):
                        s = (own + step) % shards
                        _key_blocks(mem, br, max(0, min(shard, n - s * shard)), d, b_r, b_c)
                        mem.flop(br * merge_row)          # the shard's state merged
                    mem.flop(br * d)
                    mem.store("O", br * d)
    return (f"{shards} shards of {shard}; one program per {b_r} queries of a shard and "
            f"(batch, head), the shards' {b_c}-key blocks in ring order from its own; K "
            f"and V read {cdiv(shard, b_r) * shards}× per head")


def _nbody(mem, n, dtype="float32", backend=GPU):
    block = FIXED_BLOCKS["nbody"][backend]
    t = cdiv(n, block)
    sizes = [v for _, v in blocks(n, block)]
    mem.store("forces", 3 * n)                        # torch.zeros before the launch
    for i in range(t):
        for j in range(i, t):
            vi, vj = sizes[i], sizes[j]
            with mem.program():
                mem.load("tile_index", 2)
                mem.load("pos", 3 * vi, slot="pos_i", footprint=3 * block)
                mem.load("pos", 3 * vj, slot="pos_j", footprint=3 * block)
                mem.load("mass", vi, slot="m_i", footprint=block)
                mem.load("mass", vj, slot="m_j", footprint=block)
                mem.alloc("pair_terms", 4 * block * block)
                # per lane pair: 3 differences, 6 for s, sqrt, s·√s, 1/·, mᵢmⱼ, ·inv,
                # f·d three times for the rows and three again for the columns
                mem.flop(20 * vi * vj + vi + 3 * vi * (vj - 1) + 3 * vj * (vi - 1))
                mem.update("forces", 3 * vi)          # atomic adds: rows
                mem.update("forces", 3 * vj)          # atomic adds: negated columns
    return (f"one program per tile pair I ≤ J of {t} tiles of {block} bodies; each pair "
            "evaluated once, atomic adds into both tiles")


# --------------------------------------------------------------------------- registry
def _element_bytes(name: str, shape: dict) -> dict[str, int]:
    s = BYTES[shape.get("dtype", DEFAULT_DTYPE[name])]
    f32 = 4
    return {
        "softmax": {"x": s, "y": s, "lse": f32},
        "var_mean": {"x": s, "var": s, "mean": s},
        "layer_norm": {"x": s, "w": s, "b": s, "y": s, "mean": f32, "rstd": f32},
        "scan": {"x": s, "y": s, "totals": f32},
        "linear_scan": {"a": s, "b": s, "h": s, "pairs": f32},
        "selective_scan": {"x": s, "delta": s, "Bm": s, "Cm": s, "y": s, "A": f32,
                           "Dskip": f32, "pairs": f32},
        "topk": {"x": s, "values": s, "candidates": 8, "indices": 8},
        "attention": {"Q": s, "K": s, "V": s, "O": s, "kv_len": 4},
        "matmul": {"A": s, "B": s, "C": s},
        "lora": {"x": s, "W": s, "B": s, "A": s, "y": s},
        "int8_matmul": {"x": s, "Wq": 1, "s": f32, "y": s},
        "nbody": {"pos": f32, "mass": f32, "forces": f32, "tile_index": 4},
        "paged_attention": {"Q": s, "K": s, "V": s, "O": s, "block_table": 4, "seq_lens": 4},
        "ring_attention": {"Q": s, "K": s, "V": s, "O": s, "kv_len": 4},
    }[name]


DEFAULT_DTYPE = {"softmax": "float32", "var_mean": "float32", "layer_norm": "float32",
                 "scan": "float32", "linear_scan": "float32", "selective_scan": "float32",
                 "topk": "float32", "attention": "float16", "matmul": "float16",
                 "lora": "float16", "int8_matmul": "bfloat16", "nbody": "float32",
                 "paged_attention": "float16", "ring_attention": "float16"}

SCHEDULES: dict[str, Callable] = {
    "softmax": _softmax, "var_mean": _var_mean, "layer_norm": _layer_norm, "topk": _topk,
    "scan": _scan, "linear_scan": _linear_scan, "selective_scan": _selective_scan,
    "attention": _attention, "matmul": _matmul, "lora": _lora,
    "int8_matmul": _int8_matmul, "nbody": _nbody,
    "paged_attention": _paged_attention, "ring_attention": _ring_attention,
}
KERNELS = tuple(SCHEDULES)


def account(kernel_name: str, M: int = M_DEFAULT, **shape) -> tuple[TwoLevelMemory, str]:
    """The memory after replaying the kernel's schedule, and the schedule's description."""
    if kernel_name not in SCHEDULES:
        raise KeyError(f"unknown kernel {kernel_name!r}; kernels: {', '.join(KERNELS)}")
    mem = TwoLevelMemory(M, _element_bytes(kernel_name, shape))
    schedule = SCHEDULES[kernel_name](mem, **shape)
    return mem, schedule


def traffic(kernel_name: str, **shape) -> dict:
    """{"bytes": slow-memory bytes read + written, "flops": int, "schedule": str} for the
    kernel's schedule at ``shape`` (keyword arguments of the kernel's schedule, e.g.
    ``traffic("softmax", rows=4096, n=4096)``; ``backend`` is "gpu" by default, or
    "triton-interpreter"; ``dtype`` as in the kernel; ``M`` the fast memory in words)."""
    mem, schedule = account(kernel_name, **shape)
    return {"bytes": mem.bytes, "flops": mem.flops, "schedule": schedule}


def compulsory_bytes(kernel_name: str, **shape) -> int:
    """Every input read once and every output written once (the floor a bench states)."""
    sh = dict(shape)
    sh.pop("backend", None)
    s = BYTES[sh.pop("dtype", DEFAULT_DTYPE[kernel_name])]
    g = sh.get
    return {
        "softmax": lambda: g("rows") * (2 * g("n") * s + 4),
        "var_mean": lambda: g("rows") * (g("n") + 2) * s,
        "layer_norm": lambda: g("rows") * (2 * g("n") * s + 8) + 2 * g("n") * s,
        "scan": lambda: 2 * g("rows") * g("n") * s,
        "linear_scan": lambda: 3 * g("rows") * g("n") * s,
        "selective_scan": lambda: (g("batch") * g("length") * (3 * g("channels")
                                   + 2 * g("states")) * s
                                   + 4 * (g("channels") * g("states") + g("channels"))),
        "topk": lambda: g("rows") * (g("n") * s + g("k") * (s + 8)),
        "attention": lambda: g("batch") * g("heads") * (2 * g("m") + 2 * g("n")) * g("d") * s,
        "matmul": lambda: (g("m") * g("k") + g("k") * g("n") + g("m") * g("n")) * s,
        "lora": lambda: (g("m") * g("d_in") + g("d_in") * g("d_out") + g("d_in") * g("r")
                         + g("r") * g("d_out") + g("m") * g("d_out")) * s,
        "int8_matmul": lambda: (g("m") * g("k") + g("m") * g("n")) * s + g("k") * g("n")
        + 4 * g("n"),
        "nbody": lambda: 28 * g("n"),
        "paged_attention": lambda: (g("batch") * g("heads") * (2 * g("m") + 2 * g("length"))
                                    * g("d") * s + 4 * g("batch") * cdiv(g("length"), g("page"))
                                    + 4 * g("batch")),
        "ring_attention": lambda: 4 * g("batch") * g("heads") * g("n") * g("d") * s,
    }[kernel_name]()
