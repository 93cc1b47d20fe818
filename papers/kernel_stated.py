"""The kernels' own figures (``bench`` entries in ``impls/``) against their schedules.

Each bench states the bytes and flops of one shape. ``compare`` replays the kernel's
schedule at that shape (``papers.kernel_traffic``) and says what the stated bytes
correspond to in the schedule's per-tensor counts — all of its traffic, the compulsory
floor, or the traffic of some tensors only — so a disagreement is explained to the byte.
"""
from __future__ import annotations

from .kernel_traffic import BYTES, GPU, INTERPRETER, account, compulsory_bytes

# The shapes the benches time (impls/<kernel>.py, ``bench``/``_bench``), per backend.
BENCH_SHAPES = {
    "softmax": {INTERPRETER: dict(rows=64, n=1024), GPU: dict(rows=4096, n=4096)},
    "var_mean": {INTERPRETER: dict(rows=64, n=1024), GPU: dict(rows=4096, n=4096)},
    "layer_norm": {INTERPRETER: dict(rows=64, n=1024), GPU: dict(rows=4096, n=4096)},
    "topk": {INTERPRETER: dict(rows=64, n=8192, k=64), GPU: dict(rows=1024, n=32768, k=64)},
    "scan": {INTERPRETER: dict(rows=64, n=4096), GPU: dict(rows=64, n=65536)},
    "linear_scan": {INTERPRETER: dict(rows=64, n=2048), GPU: dict(rows=256, n=8192)},
    "selective_scan": {INTERPRETER: dict(batch=2, length=256, channels=16, states=16),
                       GPU: dict(batch=4, length=2048, channels=256, states=16)},
    "attention": {INTERPRETER: dict(batch=1, heads=4, m=256, n=256, d=64, dtype="float32"),
                  GPU: dict(batch=4, heads=16, m=4096, n=4096, d=64, dtype="float16")},
    "matmul": {INTERPRETER: dict(m=256, n=256, k=256, dtype="float32"),
               GPU: dict(m=4096, n=4096, k=4096, dtype="float16")},
    "lora": {INTERPRETER: dict(m=256, d_in=512, d_out=512, r=16, dtype="float32"),
             GPU: dict(m=4096, d_in=4096, d_out=4096, r=16, dtype="float16")},
    "int8_matmul": {INTERPRETER: dict(m=64, n=1024, k=1024, dtype="float32"),
                    GPU: dict(m=16, n=8192, k=8192, dtype="bfloat16")},
    "nbody": {INTERPRETER: dict(n=1024), GPU: dict(n=16384)},
    "paged_attention": {
        INTERPRETER: dict(batch=4, heads=2, m=1, length=256, d=32, page=16, dtype="float32"),
        GPU: dict(batch=32, heads=8, m=1, length=2048, d=128, page=16, dtype="float16")},
    "ring_attention": {
        INTERPRETER: dict(batch=1, heads=2, n=256, d=32, shards=4, dtype="float32"),
        GPU: dict(batch=2, heads=16, n=8192, d=128, shards=8, dtype="float16")},
}


def shape_label(kernel: str, shape: dict) -> str:
    """The bench's own "shape" string for ``shape`` (to check the table above)."""
    g = shape.get
    dt = g("dtype", "float32")
    return {
        "softmax": lambda: f"{g('rows')}×{g('n')} float32",
        "var_mean": lambda: f"{g('rows')}×{g('n')} float32",
        "layer_norm": lambda: f"{g('rows')}×{g('n')} float32",
        "topk": lambda: f"{g('rows')}×{g('n')} float32, k={g('k')}",
        "scan": lambda: f"{g('rows')}×{g('n')} float32",
        "linear_scan": lambda: f"{g('rows')}×{g('n')} float32",
        "selective_scan": lambda: (f"B={g('batch')} L={g('length')} D={g('channels')} "
                                   f"N={g('states')} float32"),
        "attention": lambda: f"B={g('batch')} H={g('heads')} N={g('n')} D={g('d')} {dt}",
        "matmul": lambda: f"{g('m')}x{g('n')}x{g('k')} {dt}",
        "lora": lambda: f"M={g('m')} d={g('d_in')} r={g('r')} {dt}",
        "int8_matmul": lambda: f"M={g('m')} N=K={g('n')} {dt} x, int8 W",
        "nbody": lambda: f"n={g('n')} float32",
        "paged_attention": lambda: (f"B={g('batch')} H={g('heads')} L={g('length')} "
                                    f"D={g('d')} page={g('page')} {dt}"),
        "ring_attention": lambda: (f"B={g('batch')} H={g('heads')} N={g('n')} D={g('d')} "
                                   f"shards={g('shards')} {dt}"),
    }[kernel]()


def _bytes_of(mem, *tensors: str) -> int:
    return sum((mem.reads.get(t, 0) + mem.writes.get(t, 0)) * mem.element_size(t) for t in tensors)


def _layer_norm(mem, sh):
    s = BYTES[sh.get("dtype", "float32")]
    return _bytes_of(mem, "x", "y", "mean", "rstd") + 2 * sh["n"] * s


def _selective(mem, sh):
    s = BYTES[sh.get("dtype", "float32")]
    return _bytes_of(mem, "x", "delta", "y") + 4 * sh["batch"] * sh["length"] * sh["states"] * s


# What each bench's bytes figure counts, as a function of the schedule's counts, and why
# it differs from the schedule's total.
STATED_AS = {
    "softmax": ("all of the schedule's traffic", lambda mem, sh: mem.bytes),
    "var_mean": ("all of the schedule's traffic", lambda mem, sh: mem.bytes),
    "layer_norm": ("x, y, mean, rstd, and w and b once; the schedule reads w and b in every "
                   "row's program", _layer_norm),
    "scan": ("x (read twice) and y; not the block totals written and re-read for the "
             "carries", lambda mem, sh: _bytes_of(mem, "x", "y")),
    "linear_scan": ("a, b (read twice) and h; not the block pairs written and re-read for "
                    "the carries", lambda mem, sh: _bytes_of(mem, "a", "b", "h")),
    "selective_scan": ("x and Δ twice, y, and B and C twice per (batch, step) shared by all "
                       "channels; the schedule reads B once per channel in both passes and C "
                       "once per channel, plus A, D and the chunk pairs", _selective),
    "topk": ("the compulsory floor; the schedule also writes and re-reads the candidate "
             "lists and gathers the k values again",
             lambda mem, sh: compulsory_bytes("topk", **sh)),
    "attention": ("the compulsory floor; the schedule re-reads K and V for every query "
                  "block", lambda mem, sh: compulsory_bytes("attention", **sh)),
    "matmul": ("the compulsory floor; the schedule re-reads A per column tile and B per "
               "row tile", lambda mem, sh: compulsory_bytes("matmul", **sh)),
    "lora": ("the compulsory floor; the schedule re-reads x per column tile, W and A per "
             "row tile and B per program", lambda mem, sh: compulsory_bytes("lora", **sh)),
    "int8_matmul": ("the compulsory floor; the schedule re-reads x per column tile and W_q "
                    "and the scales per row tile",
                    lambda mem, sh: compulsory_bytes("int8_matmul", **sh)),
    "nbody": ("the compulsory floor; the schedule reads each body tile once per tile pair "
              "and adds forces atomically (a read and a write) in both tiles",
              lambda mem, sh: compulsory_bytes("nbody", **sh)),
    "paged_attention": ("the compulsory floor (each table entry once); the schedule reads "
                        "each token's table entry and re-reads the pages per query block",
                        lambda mem, sh: compulsory_bytes("paged_attention", **sh)),
    "ring_attention": ("the compulsory floor; the schedule re-reads every shard's K and V "
                       "for every query block of every shard",
                       lambda mem, sh: compulsory_bytes("ring_attention", **sh)),
}

# Why the stated flops differ from the schedule's, where they do.
FLOPS_NOTE = {
    "softmax": "the statistics pass runs the online_softmax merge (8 flops, 2 exps) per "
               "element and normalizing adds 3 (a third exp)",
    "var_mean": "the welford merge costs 11 flops per element, plus 3 per row",
    "layer_norm": "11 per element for the statistics, 4 to normalize, 4 per row",
    "scan": "the block total is extracted with a sum over the block, and carries are folded",
    "linear_scan": "the block pair is extracted with two sums, and carries are folded",
    "selective_scan": "each pass recomputes the decay and input (3 per state and step) and "
                      "the first extracts the chunk pair",
    "attention": "the stated figure counts the two matmuls only; scaling, max, exp, sums "
                 "and the merges add the rest",
    "lora": "x·B is recomputed by each column tile of the output",
    "int8_matmul": "the stated figure leaves out the M·N scale multiplications",
    "paged_attention": "the stated figure counts the two products only; scaling, max, exp, "
                       "sums and the merges add the rest",
    "ring_attention": "the stated figure counts the two products only; scaling, max, exp, "
                      "sums, the block merges and one merge per shard add the rest",
    "nbody": "about 26 flops per pair as written (the column sums recompute f·d), and the "
             "diagonal tiles evaluate every lane pair, not only j > i",
}


def stated_figures(kernel: str, backend: str = INTERPRETER) -> dict:
    """The bench's dict (bytes, flops, shape) for ``backend`` (imports impls)."""
    import impls
    spec = impls.load(kernel)
    execution = getattr(spec, "execution", None)   # a BoundKernel keeps its bench flat
    return (execution.bench if execution is not None else spec.bench)(backend)


def compare(kernel: str, backend: str = INTERPRETER, stated: dict | None = None) -> dict:
    """Schedule against stated figures at the bench's shape."""
    shape = BENCH_SHAPES[kernel][backend]
    stated = stated if stated is not None else stated_figures(kernel, backend)
    mem, schedule = account(kernel, backend=backend, **shape)
    what, counts_as = STATED_AS[kernel]
    return {
        "kernel": kernel, "backend": backend, "shape": shape_label(kernel, shape),
        "schedule": schedule,
        "schedule_bytes": mem.bytes, "stated_bytes": stated["bytes"],
        "stated_bytes_as_counted": counts_as(mem, shape), "stated_counts": what,
        "compulsory_bytes": compulsory_bytes(kernel, **shape),
        "schedule_flops": mem.flops, "stated_flops": stated["flops"],
        "flops_note": FLOPS_NOTE.get(kernel, ""),
        "per_tensor": mem.table(),
    }


def report(backend: str = INTERPRETER) -> str:
    """One paragraph per kernel: schedule vs stated bytes and flops, and why."""
    out = []
    for kernel in BENCH_SHAPES:
        c = compare(kernel, backend)
        b_ratio = c["schedule_bytes"] / c["stated_bytes"]
        f_ratio = (c["schedule_flops"] / c["stated_flops"]) if c["stated_flops"] else None
        why = f": {c['flops_note']}" if c["flops_note"] and f_ratio not in (None, 1) else ""
        out.append(f"{kernel} ({c['shape']}): bytes {c['schedule_bytes']:,} vs stated "
                   f"{c['stated_bytes']:,} ({b_ratio:.2f}×; stated counts {c['stated_counts']}); "
                   f"flops {c['schedule_flops']:,} vs stated {c['stated_flops']:,}"
                   + (f" ({f_ratio:.3f}×{why})" if f_ratio else ""))
    return "\n".join(out)
