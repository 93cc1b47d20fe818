"""Online normalizer calculation for softmax (Milakov & Gimelshein 2018): the merge as
laws; memory accesses per element of each softmax and of softmax + top-k."""
from .claims import CONFIRMED, REFUTED, Claim, DataMovement, outcome
from .core import Paper
from .iomodel import TwoLevelMemory
from .stream_io import (per_element, softmax_naive, softmax_online, softmax_safe,
                        softmax_then_topk, softmax_topk_fused)

N, CHUNK, K = 1 << 20, 1 << 14, 5


def _accesses(schedule, *args) -> float:
    mem = TwoLevelMemory(CHUNK + 2 + 2 * K)
    schedule(mem, N, *args, CHUNK)
    return per_element(mem, N)


def _softmax_accesses():
    naive, safe, online = (_accesses(f) for f in (softmax_naive, softmax_safe, softmax_online))
    ok = (naive, safe, online) == (3, 4, 3)
    return outcome(CONFIRMED if ok else REFUTED,
                   f"memory accesses per element (row of {N:,} > fast memory): naive "
                   f"{naive:g}, safe {safe:g}, online {online:g}")


def _speedup_bound():
    safe, online = _accesses(softmax_safe), _accesses(softmax_online)
    bound = safe / online
    ok = 1.3 <= bound * 1.01
    return outcome(CONFIRMED if ok else REFUTED,
                   f"a bandwidth-bound softmax can gain at most {safe:g}/{online:g} = "
                   f"{bound:.3f}× from the online normalizer, consistent with the measured "
                   "'up to 1.3×'")


def _topk_accesses():
    split = _accesses(softmax_then_topk, K)
    fused = _accesses(softmax_topk_fused, K)
    ok = round(split) == 5 and round(fused) == 1
    return outcome(CONFIRMED if ok else REFUTED,
                   f"accesses per element: safe softmax then top-{K} {split:.4g}, fused online "
                   f"softmax + top-{K} {fused:.4g} (the k results aside): bound "
                   f"{split / fused:.2f}×, "
                   "consistent with the measured 'up to 5×'")


PAPER = Paper(
    id="milakov2018", title="Online normalizer calculation for softmax",
    authors="Maxim Milakov, Natalia Gimelshein", year=2018, venue="arXiv:1805.02867",
    claims=(
        Claim("The running (max, normalizer) pair can be updated one element at a time "
              "and gives the softmax normalizer of the whole row.",
              ("online_softmax.homomorphism",), "§3, Algorithm 3 and Theorem 1"),
        Claim("Partial (max, normalizer) pairs of separate chunks can be merged in any "
              "grouping, which permits parallel reduction.",
              ("online_softmax.associative", "online_softmax.identity"), "§3"),
        Claim("Merging without rescaling both partial sums is wrong.",
              ("online_softmax.no_rescale",), "§3"),
        DataMovement("Safe softmax makes 4 memory accesses per element (3 loads, 1 store); the "
                     "online normalizer makes 3, as many as the unsafe naive softmax.",
                     "§2–3 (Algorithms 1–3)", _softmax_accesses),
        DataMovement("Softmax gets up to 1.3× faster with the online normalizer.",
                     "abstract; §6", _speedup_bound),
        DataMovement("Fusing the online softmax with top-k needs 1 access per element instead "
                     "of 5, for up to 5× faster softmax + top-k.", "§4–5; abstract",
                     _topk_accesses),
    ))
