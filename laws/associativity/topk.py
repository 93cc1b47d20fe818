"""Top-K in chunks: the top-k of the union of chunk top-ks is the global top-k, and the
near miss that keeps fewer than k per chunk. Values only (indices are a tie-breaking
convention checked by the kernel certificate)."""
import triton.language as tl

from ..core import FAILS, Law, Property, Var


def sort_descending(xs):
    """Odd–even transposition network: n rounds of compare–exchange sort any input
    (0–1 principle), and compare–exchange is max/min, which every interpretation has."""
    xs = list(xs)
    n = len(xs)
    for r in range(n):
        for i in range(r % 2, n - 1, 2):
            hi = tl.maximum(xs[i], xs[i + 1])
            lo = tl.minimum(xs[i], xs[i + 1])
            xs[i], xs[i + 1] = hi, lo
    return xs


def top(xs, k):
    return sort_descending(xs)[:k]


def merge_chunk_tops(chunks, k, keep):
    return top([x for c in chunks for x in top(c, keep)], k)


def _chunk_vars(k, chunks, size):
    return tuple(Var(f"c{i + 1}", (size,), tuple_state=False) for i in range(chunks))


_INSTANCES = tuple({"k": k, "chunks": c, "size": s}
                   for k, c, s in [(1, 2, 2), (1, 4, 3), (2, 2, 3), (2, 3, 2), (2, 4, 2),
                                   (3, 2, 4), (3, 3, 3), (4, 2, 4), (4, 4, 2)])

TOPK_MERGE = Law(
    id="topk_merge.merge", property=Property.ASSOCIATIVITY,
    statement="top_k(top_k(c₁) ∪ … ∪ top_k(c_m)) = top_k(c₁ ∪ … ∪ c_m)",
    licenses="streaming and split top-k: each block keeps k candidates, merged later "
             "(torch.topk on GPU, beam search, vector-search shards)",
    vars=_chunk_vars,
    lhs=lambda *cs, k, chunks, size: merge_chunk_tops(cs, k, k),
    rhs=lambda *cs, k, chunks, size: top([x for c in cs for x in c], k),
    instances=_INSTANCES, bounded_by="k ≤ 4, up to 4 chunks of up to 4 values (9 shapes, 12 values at most)",
    kernels=("topk",), references=("blelloch1990",),
    doc="Values of the top k, sorted descending, by sorting networks over symbolic "
        "reals. Does not cover indices or tie-breaking (the topk kernel's certificate "
        "checks those), nor k larger than the bound.")

TOPK_TRUNCATED = Law(
    id="topk_merge.truncated", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="top_k(top_{k−1}(c₁) ∪ … ) = top_k(c₁ ∪ …)",
    licenses="nothing: a chunk may hold all k winners, so each chunk must keep k",
    vars=_chunk_vars,
    lhs=lambda *cs, k, chunks, size: merge_chunk_tops(cs, k, k - 1),
    rhs=lambda *cs, k, chunks, size: top([x for c in cs for x in c], k),
    instances=({"k": 2, "chunks": 2, "size": 2},), teaches="topk_merge.merge")

LAWS = [TOPK_MERGE, TOPK_TRUNCATED]
