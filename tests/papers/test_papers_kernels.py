"""Bytes and flops of the fourteen kernels on the I/O model, against what their benches state."""
import pytest

from papers.iomodel import FastMemoryOverflow
from papers.kernel_stated import BENCH_SHAPES, compare, shape_label, stated_figures
from papers.kernel_traffic import (FIXED_BLOCKS, INTERPRETER, KERNELS, account,
                                   compulsory_bytes, traffic)

EXACT_BYTES = {"softmax", "var_mean"}          # the bench states the schedule's traffic
EXACT_FLOPS = {"matmul", "topk"}


def test_fourteen_kernels_with_the_traffic_contract():
    import impls
    assert set(KERNELS) == set(impls.kernel_names()) and len(KERNELS) == 14
    for kernel in KERNELS:
        out = traffic(kernel, backend=INTERPRETER, **BENCH_SHAPES[kernel][INTERPRETER])
        assert set(out) == {"bytes", "flops", "schedule"}
        assert isinstance(out["bytes"], int) and isinstance(out["flops"], int)
        assert out["bytes"] >= compulsory_bytes(kernel, **BENCH_SHAPES[kernel][INTERPRETER])


@pytest.mark.parametrize("kernel", sorted(BENCH_SHAPES))
def test_bench_figures_are_explained_by_the_schedule(kernel):
    stated = stated_figures(kernel, INTERPRETER)
    c = compare(kernel, INTERPRETER, stated)
    assert c["shape"] == stated["shape"]                 # the shape table is the bench's
    assert c["stated_bytes"] == c["stated_bytes_as_counted"], c["stated_counts"]
    if kernel in EXACT_BYTES:
        assert c["schedule_bytes"] == c["stated_bytes"]
    else:
        assert c["schedule_bytes"] > c["stated_bytes"]   # the disagreement is reported
    if kernel in EXACT_FLOPS:
        assert c["schedule_flops"] == c["stated_flops"]
    else:
        assert c["flops_note"]


def test_flops_follow_the_shared_combines():
    rows, n = 8, 300
    assert traffic("softmax", rows=rows, n=n)["flops"] == rows * (11 * n + 3)
    assert traffic("var_mean", rows=rows, n=n)["flops"] == rows * (11 * n + 3)
    m, k, nn = 100, 70, 50
    assert traffic("matmul", m=m, n=nn, k=k)["flops"] == 2 * m * nn * k
    assert traffic("int8_matmul", m=m, n=nn, k=k)["flops"] == 2 * m * nn * k + m * nn


def test_traffic_formulas_at_odd_shapes():
    m, n, k = 300, 200, 100
    mem, _ = account("matmul", m=m, n=n, k=k)            # GPU tiles 128 × 128 × 32
    assert mem.reads["A"] == m * k * 2 and mem.reads["B"] == k * n * 3
    mem, _ = account("layer_norm", rows=5, n=1000)
    assert mem.reads["w"] == 5 * 1000 and mem.reads["x"] == 2 * 5000
    mem, _ = account("attention", batch=2, heads=3, m=300, n=200, d=64, dtype="float16")
    assert mem.reads["K"] == 6 * 3 * 200 * 64 and mem.writes["O"] == 6 * 300 * 64
    # GPU blocks (16, 64): 2 query blocks per (sequence, head), each reading every token
    mem, _ = account("paged_attention", batch=2, heads=3, m=20, length=100, d=64, page=16)
    assert mem.reads["K"] == 6 * 2 * 100 * 64 and mem.reads["block_table"] == 6 * 2 * 100
    assert mem.reads["seq_lens"] == 6 * 2 and mem.writes["O"] == 6 * 20 * 64
    # 3 shards of 34 (the last 32); GPU blocks (64, 64): one query block per shard, each
    # reading all 100 keys around the ring
    mem, _ = account("ring_attention", batch=1, heads=2, n=100, d=64, shards=3)
    assert mem.reads["K"] == 2 * 3 * 100 * 64 and mem.reads["Q"] == 2 * 100 * 64
    assert mem.writes["O"] == 2 * 100 * 64


def test_block_tables_match_the_kernels_on_this_backend():
    import torch
    from impls import (attention, int8_matmul, lora, matmul, nbody, paged_attention,
                       ring_attention)
    from impls.spec import backend
    which = backend()
    for dtype in ("float32", "float16", "bfloat16"):
        got = attention.blocks(64, getattr(torch, dtype))
        assert (got["BLOCK_M"], got["BLOCK_N"]) == FIXED_BLOCKS["attention"][which][dtype]
        for name, mod in (("paged_attention", paged_attention),
                          ("ring_attention", ring_attention)):
            got = mod.blocks(getattr(torch, dtype))
            assert (got["BLOCK_M"], got["BLOCK_N"]) == FIXED_BLOCKS[name][which][dtype]
    for name, mod in (("matmul", matmul), ("lora", lora), ("int8_matmul", int8_matmul)):
        b = mod.blocks()
        assert (b["BLOCK_M"], b["BLOCK_N"], b["BLOCK_K"]) == FIXED_BLOCKS[name][which]
    assert nbody.block() == FIXED_BLOCKS["nbody"][which]


def test_bad_requests():
    with pytest.raises(KeyError, match="unknown kernel"):
        traffic("fft", n=8)
    with pytest.raises(FastMemoryOverflow):
        traffic("matmul", m=256, n=256, k=256, M=1000)


def test_gpu_shapes_label_like_the_benches():
    assert (shape_label("attention", BENCH_SHAPES["attention"]["gpu"])
            == "B=4 H=16 N=4096 D=64 float16")
    assert shape_label("int8_matmul", BENCH_SHAPES["int8_matmul"]["gpu"]) == \
        "M=16 N=K=8192 bfloat16 x, int8 W"
