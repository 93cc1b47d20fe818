"""Attention schedules on the two-level I/O model (one head; callers ``repeat`` over
batch × heads). Each counts the slow-memory words it reads and writes and its flops.

- ``standard``: Dao et al. 2022, Algorithm 0 — S = QKᵀ and P = softmax(S) are written
  to slow memory and read back: Θ(Nd + N²) accesses.
- ``flash_v1``: Dao et al. 2022, Algorithm 1 — K/V blocks outer, Q/O blocks inner, with
  O, ℓ, m kept in slow memory between outer iterations: Θ(N²d²/M) accesses.
- ``query_outer``: the order of FlashAttention-2 and of ``impls/attention.py`` — one
  program per query block streams the K/V blocks and keeps (m, ℓ, o) on chip.
- ``kv_resident``: all of K and V held in fast memory, queries streamed one row at a
  time: the compulsory 2n(d_k + d_v) words, possible only when M ≥ n(d_k + d_v + 1) +
  d_k + d_v.
"""
from __future__ import annotations

from laws.associativity.combines import flash_state

from .interpret import flops_per_call
from .iomodel import FastMemoryOverflow, TwoLevelMemory, blocks, cdiv


def standard(mem: TwoLevelMemory, n: int, d_k: int, d_v: int) -> None:
    """Algorithm 0 with square b × b tiles, b as large as fits M."""
    b = _largest(lambda b: max(2 * b * d_k + b * b, b * b + b * d_v + b * d_v) <= mem.M, n)
    mem.keep("S", n * n)
    mem.keep("P", n * n)
    for i0, bi in blocks(n, b):                      # 1. S = QKᵀ, written out
        with mem.program():
            mem.load("Q", bi * d_k, slot="Q_i", footprint=b * d_k)
            for j0, bj in blocks(n, b):
                mem.load("K", bj * d_k, slot="K_j", footprint=b * d_k)
                mem.alloc("S_ij", b * b)
                mem.flop(2 * bi * bj * d_k)
                mem.store("S", bi * bj)
    for _ in range(n):                               # 2. P = softmax(S), row by row
        with mem.program():
            _softmax_row(mem, n)
    for i0, bi in blocks(n, b):                      # 3. O = PV
        with mem.program():
            mem.alloc("O_i", b * d_v)
            for j0, bj in blocks(n, b):
                mem.load("P", bi * bj, slot="P_ij", footprint=b * b)
                mem.load("V", bj * d_v, slot="V_j", footprint=b * d_v)
                mem.flop(2 * bi * bj * d_v)
            mem.store("O", bi * d_v)


def _softmax_row(mem: TwoLevelMemory, n: int) -> None:
    """One row of S to P: read once if it fits in fast memory, else three passes
    (max, sum of exponentials, normalize) over chunks that fit."""
    if n <= mem.M:
        mem.load("S", n, slot="row")
        mem.store("P", n)
    else:
        for _ in range(3):
            for _, c in blocks(n, mem.M):
                mem.load("S", c, slot="row")
        for _, c in blocks(n, mem.M):
            mem.store("P", c)
    mem.flop(5 * n - 2)  # max, subtract, exp, sum, divide


def flash_v1_blocks(M: int, d: int) -> tuple[int, int]:
    """Algorithm 1, line 1: B_c = ⌈M/4d⌉, B_r = min(⌈M/4d⌉, d)."""
    b_c = cdiv(M, 4 * d)
    return min(b_c, d), b_c


def flash_v1_footprint(b_r: int, b_c: int, d: int) -> int:
    """Words on chip at once in Algorithm 1's inner loop: K_j, V_j, Q_i, O_i, S_ij
    (then P̃_ij in place), ℓ_i, m_i."""
    return 2 * b_c * d + 2 * b_r * d + b_r * b_c + 2 * b_r


def flash_v1(mem: TwoLevelMemory, n: int, d: int, b_r: int | None = None,
             b_c: int | None = None) -> None:
    """Algorithm 1 as written (block sizes of line 1 unless given)."""
    if b_r is None or b_c is None:
        b_r, b_c = flash_v1_blocks(mem.M, d)
    mem.keep("l", n)
    mem.keep("m", n)
    mem.store("O", n * d)                            # line 2: O, ℓ, m initialised in HBM
    mem.store("l", n)
    mem.store("m", n)
    for j0, bc in blocks(n, b_c):
        with mem.program():
            mem.load("K", bc * d, slot="K_j", footprint=b_c * d)
            mem.load("V", bc * d, slot="V_j", footprint=b_c * d)
            for i0, br in blocks(n, b_r):
                mem.load("Q", br * d, slot="Q_i", footprint=b_r * d)
                mem.load("O", br * d, slot="O_i", footprint=b_r * d)
                mem.load("l", br, slot="l_i", footprint=b_r)
                mem.load("m", br, slot="m_i", footprint=b_r)
                mem.alloc("S_ij", b_r * b_c)
                # QKᵀ and P̃V; rowmax, exp, rowsum; the (m, ℓ) update; O's rescale
                mem.flop(4 * br * bc * d + 4 * br * bc + br * (7 + 5 * d))
                mem.store("O", br * d)
                mem.store("l", br)
                mem.store("m", br)


def largest_fitting_v1(M: int, d: int) -> tuple[int, int]:
    """The largest B_c (B_r = min(B_c, d)) whose Algorithm 1 footprint fits M words."""
    b_c = _largest(lambda b: flash_v1_footprint(min(b, d), b, d) <= M, 1 << 30)
    return min(b_c, d), b_c


def query_outer(mem: TwoLevelMemory, n_q: int, n_k: int, d_k: int, d_v: int,
                b_r: int, b_c: int, *, causal: bool = False, kv_len_word: bool = False
                ) -> None:
    """One program per b_r query rows; K and V streamed in b_c-key blocks; the running
    (m, ℓ, o) state merged with the shared ``flash_state`` combine and kept on chip.
    Causal: key blocks past the block's last query row are skipped."""
    merge_row = flops_per_call(flash_state, 1, 1, d_v, 1, 1, d_v)
    for i0, br in blocks(n_q, b_r):
        with mem.program():
            mem.load("Q", br * d_k, slot="Q_i", footprint=b_r * d_k)
            if kv_len_word:
                mem.load("kv_len", 1)
            mem.alloc("state", b_r * (d_v + 2))
            hi = min(n_k, i0 + b_r) if causal else n_k
            for j0, bc in blocks(hi, b_c):
                mem.load("K", bc * d_k, slot="K_j", footprint=b_c * d_k)
                mem.alloc("S_ij", b_r * b_c)
                mem.load("V", bc * d_v, slot="V_j", footprint=b_c * d_v)
                # QKᵀ (2d_k), scale, subtract, exp (3), PV (2d_v) per score; row max
                # and row sum (b_c − 1 each) per row; one merge per row
                mem.flop(br * bc * (2 * d_k + 3 + 2 * d_v) + 2 * br * (bc - 1)
                         + br * merge_row)
            mem.flop(br * d_v)                       # o / ℓ
            mem.store("O", br * d_v)


def kv_resident(mem: TwoLevelMemory, n: int, d_k: int, d_v: int) -> None:
    """K and V loaded once and kept; each query row computes its n scores and output."""
    with mem.program():
        mem.load("K", n * d_k)
        mem.load("V", n * d_v)
        with mem.repeat(n):   # every query row costs the same
            mem.load("Q", d_k, slot="q")
            mem.alloc("scores", n)
            mem.alloc("o", d_v)
            mem.flop(n * (2 * d_k + 5 + 2 * d_v) + d_v)  # scores, softmax, PV
            mem.store("O", d_v)


def best_fused(M: int, n: int, d_k: int, d_v: int, b_c: int = 16) -> TwoLevelMemory:
    """The fewest-words intermediate-free schedule of those above for fast memory M:
    K/V resident when they fit, else query blocks as tall as fit."""
    mem = TwoLevelMemory(M)
    try:
        kv_resident(mem, n, d_k, d_v)
        return mem
    except FastMemoryOverflow:
        pass
    b_c = min(b_c, n)
    need = lambda b: b * d_k + b * (d_v + 2) + b_c * (d_k + d_v) + b * b_c <= M
    b_r = _largest(need, n)
    mem = TwoLevelMemory(M)
    query_outer(mem, n, n, d_k, d_v, b_r, b_c)
    return mem


def compulsory_words(n: int, d_k: int, d_v: int) -> int:
    """Read Q, K, V once and write O once."""
    return 2 * n * d_k + 2 * n * d_v


def _largest(fits, upper: int) -> int:
    """The largest b in [1, upper] with fits(b) (fits is monotone); error if none."""
    if not fits(1):
        raise FastMemoryOverflow("not even a block of one row fits in fast memory")
    lo, hi = 1, max(1, upper)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    return lo
