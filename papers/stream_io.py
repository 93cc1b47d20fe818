"""Streaming schedules from the texts on the two-level I/O model: softmax in its naive,
safe and online forms (Milakov & Gimelshein 2018), softmax followed by top-k and the
two fused, a chunked sum (the book, ch. 8), and the selective scan with its inputs
materialised or fused (Gu & Dao 2023, §3.3.2). Rows are longer than fast memory (a row
that fits is read once whatever the algorithm), so each pass over a row is a read.
"""
from __future__ import annotations

from .iomodel import TwoLevelMemory, blocks

# --------------------------------------------------------------------------- softmax


def _passes(mem: TwoLevelMemory, n: int, reads: int, writes: int, chunk: int) -> None:
    """``reads`` passes reading the row and ``writes`` passes writing it, in chunks."""
    with mem.program():
        mem.alloc("stats", 2)
        for _ in range(reads):
            for _, c in blocks(n, chunk):
                mem.load("x", c, slot="chunk", footprint=chunk)
        for _ in range(writes):
            for _, c in blocks(n, chunk):
                mem.store("y", c)


def softmax_naive(mem: TwoLevelMemory, n: int, chunk: int) -> None:
    """d = Σ eˣ, then y = eˣ/d (Milakov & Gimelshein, Algorithm 1)."""
    _passes(mem, n, 2, 1, chunk)


def softmax_safe(mem: TwoLevelMemory, n: int, chunk: int) -> None:
    """m = max x, d = Σ e^(x−m), y = e^(x−m)/d (Algorithm 2)."""
    _passes(mem, n, 3, 1, chunk)


def softmax_online(mem: TwoLevelMemory, n: int, chunk: int) -> None:
    """(m, d) in one pass with the online normalizer, then y (Algorithm 3)."""
    _passes(mem, n, 2, 1, chunk)


def softmax_then_topk(mem: TwoLevelMemory, n: int, k: int, chunk: int) -> None:
    """Safe softmax, written out, then top-k read back."""
    softmax_safe(mem, n, chunk)
    with mem.program():
        mem.alloc("heap", 2 * k)
        for _, c in blocks(n, chunk):
            mem.load("y", c, slot="chunk", footprint=chunk)
        mem.store("topk", 2 * k)


def softmax_topk_fused(mem: TwoLevelMemory, n: int, k: int, chunk: int) -> None:
    """One pass keeps (m, d) and the top-k (value, index) pairs; only k pairs written."""
    with mem.program():
        mem.alloc("state", 2 + 2 * k)
        for _, c in blocks(n, chunk):
            mem.load("x", c, slot="chunk", footprint=chunk)
        mem.store("topk", 2 * k)


def per_element(mem: TwoLevelMemory, n: int) -> float:
    return mem.words / n


# --------------------------------------------------------------------------- sums


def chunked_sum(mem: TwoLevelMemory, n: int, chunk: int) -> None:
    """The book's ``chunked_sum``: each chunk read once, its sum added to a total."""
    with mem.program():
        mem.alloc("total", 1)
        full, rest = divmod(n, chunk)
        with mem.repeat(full):
            mem.load("numbers", chunk, slot="chunk")
            mem.flop(chunk)
        if rest:
            mem.load("numbers", rest, slot="chunk")
            mem.flop(rest)
        mem.store("total", 1)


# --------------------------------------------------------------------------- selective scan


def selective_scan_materialised(mem: TwoLevelMemory, B: int, L: int, D: int, N: int) -> None:
    """Ā = exp(ΔA) and B̄x of size (B, L, D, N) written out, scanned into h (B, L, D, N),
    then y = C·h: what a framework does without a fused kernel."""
    with mem.repeat(B * D):          # one (batch, channel) sequence at a time
        with mem.program():
            mem.load("A", N, slot="A_d")
            with mem.repeat(L):
                mem.load("delta", 1, slot="dt")
                mem.load("x", 1, slot="x_t")
                mem.load("Bm", N, slot="B_t")
                mem.store("Abar", N)
                mem.store("Bbar_x", N)
        with mem.program():
            mem.alloc("h", N)
            with mem.repeat(L):
                mem.load("Abar", N, slot="a_t")
                mem.load("Bbar_x", N, slot="b_t")
                mem.store("h", N)
        with mem.program():
            with mem.repeat(L):
                mem.load("h", N, slot="h_t")
                mem.load("Cm", N, slot="C_t")
                mem.store("y", 1)


def selective_scan_fused(mem: TwoLevelMemory, B: int, L: int, D: int, N: int,
                         d_block: int) -> None:
    """The fused kernel of §3.3.2: Δ, A, B, C, x read once into fast memory, the
    discretisation and the recurrence done there for ``d_block`` channels at a time (so
    B_t and C_t serve all of them), only y written."""
    for _, dc in blocks(D, d_block):
        with mem.repeat(B):
            with mem.program():
                mem.load("A", dc * N, slot="A")
                mem.alloc("h", dc * N)
                with mem.repeat(L):
                    mem.load("delta", dc, slot="dt")
                    mem.load("x", dc, slot="x_t")
                    mem.load("Bm", N, slot="B_t")
                    mem.load("Cm", N, slot="C_t")
                    mem.store("y", dc)
