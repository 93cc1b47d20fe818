"""The two-level I/O model and the schedules counted on it."""
import pytest

from papers.attention_io import (best_fused, compulsory_words, flash_v1, flash_v1_blocks,
                                 flash_v1_footprint, kv_resident, query_outer, standard)
from papers.iomodel import FastMemoryOverflow, TwoLevelMemory, blocks, cdiv
from papers.stream_io import (chunked_sum, per_element, softmax_naive, softmax_online,
                              softmax_safe, softmax_then_topk, softmax_topk_fused)


def test_fast_memory_capacity_is_enforced():
    mem = TwoLevelMemory(10)
    with mem.program():
        mem.load("x", 6)
        with pytest.raises(FastMemoryOverflow, match="11 > M = 10"):
            mem.load("y", 5)
        mem.load("x", 8)            # a slot is replaced, not added to
        assert mem.resident == 8
    assert mem.resident == 0        # a program leaves nothing behind
    assert mem.reads["x"] == 14 and mem.peak == 8


def test_repeat_multiplies_counts_and_bytes_follow_element_sizes():
    mem = TwoLevelMemory(100, {"a": 2})
    with mem.repeat(3), mem.program():
        mem.load("a", 10)
        mem.store("b", 5)
        mem.update("c", 1)
        mem.flop(7)
    assert (mem.reads["a"], mem.writes["b"], mem.reads["c"], mem.writes["c"]) == (30, 15, 3, 3)
    assert mem.flops == 21 and mem.bytes == 30 * 2 + 15 * 4 + 6 * 4


def test_blocks_cover_the_range():
    assert list(blocks(10, 4)) == [(0, 4), (4, 4), (8, 2)] and cdiv(10, 4) == 3


def test_standard_attention_writes_and_reads_back_s_and_p():
    n, d = 256, 16
    mem = TwoLevelMemory(4096)
    standard(mem, n, d, d)
    assert mem.writes["S"] == mem.writes["P"] == mem.reads["S"] == mem.reads["P"] == n * n
    assert mem.writes["O"] == n * d and mem.scratch == {"S": n * n, "P": n * n}


def test_flash_v1_counts_match_algorithm_1():
    n, d, M = 1024, 32, 1 << 14
    b_r, b_c = flash_v1_blocks(M, d)
    assert flash_v1_footprint(b_r, b_c, d) <= M
    mem = TwoLevelMemory(M)
    flash_v1(mem, n, d)
    t_c = cdiv(n, b_c)
    assert mem.reads["K"] == mem.reads["V"] == n * d
    assert mem.reads["Q"] == t_c * n * d and mem.reads["O"] == t_c * n * d
    assert mem.writes["O"] == n * d + t_c * n * d                 # initialised, then per j
    assert mem.writes["l"] == mem.writes["m"] == n + t_c * n
    assert mem.scratch == {"l": n, "m": n}


def test_flash_v1_block_sizes_overflow_for_wide_heads():
    M, d = 96 * 1024, 128
    assert flash_v1_footprint(*flash_v1_blocks(M, d), d) > M
    with pytest.raises(FastMemoryOverflow):
        flash_v1(TwoLevelMemory(M), 512, d)


def test_query_outer_reads_kv_once_per_query_block():
    n, d, b_r, b_c = 1000, 64, 128, 64
    mem = TwoLevelMemory(1 << 16)
    query_outer(mem, n, n, d, d, b_r, b_c)
    assert mem.reads["Q"] == n * d and mem.writes == {"O": n * d}
    assert mem.reads["K"] == mem.reads["V"] == cdiv(n, b_r) * n * d


def test_causal_query_outer_skips_blocks_past_the_diagonal():
    n, d, b = 512, 64, 64
    full, causal = TwoLevelMemory(1 << 16), TwoLevelMemory(1 << 16)
    query_outer(full, n, n, d, d, b, b)
    query_outer(causal, n, n, d, d, b, b, causal=True)
    t = n // b
    assert causal.reads["K"] == d * b * t * (t + 1) // 2 and full.reads["K"] == d * n * t


def test_kv_resident_is_compulsory_exactly_when_kv_fit():
    n, d = 100, 8
    need = n * (2 * d + 1) + 2 * d
    mem = TwoLevelMemory(need)
    kv_resident(mem, n, d, d)
    assert mem.words == compulsory_words(n, d, d)
    with pytest.raises(FastMemoryOverflow):
        kv_resident(TwoLevelMemory(need - 1), n, d, d)
    assert best_fused(need - 1, n, d, d).words > compulsory_words(n, d, d)


def test_softmax_accesses_per_element():
    n, chunk = 1 << 16, 1 << 10
    counts = {}
    for name, f in (("naive", softmax_naive), ("safe", softmax_safe), ("online", softmax_online)):
        mem = TwoLevelMemory(chunk + 2)
        f(mem, n, chunk)
        counts[name] = per_element(mem, n)
    assert counts == {"naive": 3, "safe": 4, "online": 3}
    split, fused = TwoLevelMemory(chunk + 20), TwoLevelMemory(chunk + 20)
    softmax_then_topk(split, n, 8, chunk)
    softmax_topk_fused(fused, n, 8, chunk)
    assert split.reads["x"] + split.reads["y"] == 4 * n and fused.reads["x"] == n


def test_chunked_sum_needs_a_chunk_and_the_total():
    mem = TwoLevelMemory(1001)
    chunked_sum(mem, 10_500, 1000)
    assert mem.reads["numbers"] == 10_500 and mem.peak == 1001
    with pytest.raises(FastMemoryOverflow):
        chunked_sum(TwoLevelMemory(1000), 10_500, 1000)
