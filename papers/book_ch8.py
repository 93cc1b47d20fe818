"""The book's chapter 8, "Associativity": streaming sums and softmax, Welford, scans."""
from __future__ import annotations

import math
import statistics

from .attention_io import (flash_v1, flash_v1_blocks, flash_v1_footprint,
                           largest_fitting_v1, standard)
from .claims import (CONDITIONAL, CONFIRMED, REFUTED, Arithmetic, Claim, DataMovement,
                     NotCheckable, WorkedExample, arithmetic, outcome, show)
from .core import Paper
from .iomodel import FastMemoryOverflow, TwoLevelMemory
from .scans import blelloch, blelloch_upsweep, concat, leaves
from .seeds import BOOK, BOOK_TITLE, at
from .stream_io import chunked_sum, per_element, softmax_online, softmax_safe

# A100 on-chip SRAM per SM (Dao et al. 2022, §2.1: 192 KB) in 2-byte words.
A100_SRAM_WORDS = 192 * 1024 // 2


# --------------------------------------------------------------------------- streaming sum
def _chunked_sum() -> object:
    n, chunk = 10 ** 9, 10 ** 6
    mem = TwoLevelMemory(chunk + 1, {"numbers": 8, "total": 8})
    chunked_sum(mem, n, chunk)
    ok = mem.reads["numbers"] == n and mem.peak == chunk + 1
    try:
        chunked_sum(TwoLevelMemory(chunk), n, chunk)
        tight = "a fast memory of exactly chunk words also sufficed"
    except FastMemoryOverflow:
        tight = f"with M = {chunk:,} words (no room for the running total) it overflows"
    ok = ok and mem.peak * 8 <= 1e9
    return outcome(CONFIRMED if ok else REFUTED,
                   f"chunked sum of n = {n:,} float64 with chunk = {chunk:,}: reads "
                   f"{mem.reads['numbers']:,} words once, peak fast memory {mem.peak:,} words "
                   f"= {show(mem.peak * 8 / 1e6)} MB, within the 1 GB of RAM the chapter posits",
                   f"  {tight}")


# --------------------------------------------------------------------------- softmax
def _softmax_passes() -> object:
    n, chunk = 1 << 20, 1 << 14
    safe, online = TwoLevelMemory(chunk + 2), TwoLevelMemory(chunk + 2)
    softmax_safe(safe, n, chunk)
    softmax_online(online, n, chunk)
    stats_safe = safe.reads["x"] / n - 1      # the last read belongs to the normalize pass
    stats_online = online.reads["x"] / n - 1
    ok = stats_safe == 2 and stats_online == 1
    return outcome(CONFIRMED if ok else REFUTED,
                   f"statistics passes over a row of {n:,} with fast memory {chunk:,} words: "
                   f"max-then-sum {show(stats_safe)}, online {show(stats_online)}",
                   f"  with the normalize pass: {show(per_element(safe, n))} accesses per "
                   f"element (safe) vs {show(per_element(online, n))} (online)")


def streaming_softmax_sum(xs: list[float]) -> tuple[float, float]:
    """The chapter's one-pass (max, scaled sum), as its code walks through it."""
    m, s = -math.inf, 0.0
    for x in xs:
        if x > m:
            s = s * math.exp(m - x) + 1.0
            m = x
        else:
            s = s + math.exp(x - m)
    return m, s


def combine_softmax_states(a: tuple[float, float], b: tuple[float, float]):
    m = max(a[0], b[0])
    return m, a[1] * math.exp(a[0] - m) + b[1] * math.exp(b[0] - m)


EXAMPLE_X = [1.0, 3.0, 2.0, 5.0, 4.0]
EXAMPLE_SUM = "2.486899"          # what the chapter prints for every method


def _example_value():
    import numpy as np
    x = np.array(EXAMPLE_X)
    naive = float(np.exp(x - x.max()).sum())
    _, stream = streaming_softmax_sum(EXAMPLE_X)
    _, combined = combine_softmax_states(streaming_softmax_sum(EXAMPLE_X[:3]),
                                         streaming_softmax_sum(EXAMPLE_X[3:]))
    printed = {f"{v:.6f}" for v in (naive, stream, combined)}
    if printed == {EXAMPLE_SUM}:
        return outcome(CONFIRMED, f"all three print sum={EXAMPLE_SUM}")
    return outcome(REFUTED,
                   f"Σ exp(x − 5) for x = {EXAMPLE_X} is {naive:.6f}, not {EXAMPLE_SUM}",
                   "  e⁻⁴ + e⁻² + e⁻³ + e⁰ + e⁻¹ = "
                   + " + ".join(f"{math.exp(v - 5):.6f}" for v in EXAMPLE_X)
                   + f" = {naive:.6f}",
                   f"  naive {naive:.6f}, streaming {stream:.6f}, chunks combined "
                   f"{combined:.6f} (replay: python3 -c \"import math; "
                   f"print(sum(math.exp(v - 5) for v in {EXAMPLE_X}))\")")


def _example_agreement():
    import numpy as np
    x = np.array(EXAMPLE_X)
    naive = (float(x.max()), float(np.exp(x - x.max()).sum()))
    stream = streaming_softmax_sum(EXAMPLE_X)
    combined = combine_softmax_states(streaming_softmax_sum(EXAMPLE_X[:3]),
                                      streaming_softmax_sum(EXAMPLE_X[3:]))
    shown = {(f"{m}", f"{s:.6f}") for m, s in (naive, stream, combined)}
    bitwise = naive == stream == combined
    diffs = f"max |Δsum| = {max(abs(naive[1] - stream[1]), abs(naive[1] - combined[1])):.3g}"
    if len(shown) == 1:
        return outcome(CONFIRMED,
                       f"naive, streaming and combined print the same max and sum "
                       f"({'bitwise equal' if bitwise else 'not bitwise equal: ' + diffs})")
    return outcome(REFUTED, f"the three evaluations print differently: {sorted(shown)}")


def _welford_one_pass():
    from .kernel_traffic import account
    rows, n = 64, 4096
    mem, _ = account("var_mean", rows=rows, n=n)
    two_pass = 2 * rows * n          # mean, then squared deviations: x read twice
    ok = mem.reads["x"] == rows * n
    return outcome(CONFIRMED if ok else REFUTED,
                   f"this project's Welford kernel (var_mean) reads x "
                   f"{mem.reads['x'] // (rows * n)}× "
                   f"({mem.reads['x']:,} words for {rows}×{n}); the two-pass formula reads it "
                   f"twice ({two_pass:,})")


# --------------------------------------------------------------------------- attention sizes
def _attention_memory():
    n, d, b = 32768, 128, 4
    s_bytes, state_bytes = n * n * b, n * d * b
    stated = (4 * 2 ** 30, 16 * 2 ** 20, 256)
    got = (s_bytes, state_bytes, s_bytes // state_bytes)
    if got != stated:
        return outcome(REFUTED, f"S: {show(s_bytes)} B, state: {show(state_bytes)} B, "
                                f"ratio {got[2]}; stated 4 GiB, 16 MiB, 256×")
    return outcome(CONDITIONAL,
                   f"n² × 4 B = {s_bytes:,} B = 4 GiB, n·d × 4 B = {state_bytes:,} B = 16 MiB, "
                   f"ratio n/d = {n // d}, assuming 4-byte elements, one head and the score "
                   "matrix S alone",
                   f"  with P stored too (as the chapter lists): {2 * s_bytes / 2 ** 30:g} GiB "
                   f"and {2 * s_bytes // state_bytes}×; in float16 both figures halve")


def _flash_traffic_ratio():
    M = A100_SRAM_WORDS
    rows = []
    for d in (64, 128):
        for n in (1024, 2048, 4096, 8192):
            st = TwoLevelMemory(M)
            standard(st, n, d, d)
            b_r, b_c = flash_v1_blocks(M, d)
            if flash_v1_footprint(b_r, b_c, d) > M:
                b_r, b_c = largest_fitting_v1(M, d)
            fl = TwoLevelMemory(M)
            flash_v1(fl, n, d, b_r, b_c)
            rows.append((d, n, st.words / fl.words, (b_r, b_c)))
    within = {d: all(4 * 0.9 <= r <= 8 * 1.1 for dd, _, r, _ in rows if dd == d)
              for d in (64, 128)}
    table = [f"  d={d} N={n}: {r:.2f}× (B_r, B_c = {blk})" for d, n, r, blk in rows]
    head = (f"standard / FlashAttention slow-memory words with M = {M:,} words "
            "(192 KB SRAM, 2-byte elements)")
    span = lambda d: (f"{min(r for dd, _, r, _ in rows if dd == d):.2f}–"
                      f"{max(r for dd, _, r, _ in rows if dd == d):.2f}×")
    if all(within.values()):
        return outcome(CONFIRMED, head + f": d=64 {span(64)}, d=128 {span(128)}", *table)
    if any(within.values()):
        holds = [d for d, ok in within.items() if ok]
        return outcome(CONDITIONAL, f"{head}: within 4–8× only for head dim {holds}: "
                                    f"d=64 {span(64)}, d=128 {span(128)}", *table)
    return outcome(REFUTED, f"{head}: d=64 {span(64)}, d=128 {span(128)}", *table)


# --------------------------------------------------------------------------- scans
def _scan_complexity():
    rows = []
    for k in range(1, 13):
        n = 1 << k
        _, work, depth = blelloch(list(range(n)), lambda a, b: a + b, 0)
        rows.append((n, work, depth))
    exclusive = blelloch(leaves(8), concat, ())[0] == [tuple(range(i)) for i in range(8)]
    ok = exclusive and all(depth == 2 * math.log2(n) and work == 2 * (n - 1)
                           for n, work, depth in rows)
    n, work, depth = rows[-1]
    return outcome(CONFIRMED if ok else REFUTED,
                   f"up-sweep/down-sweep scan, n = 2..{n}: depth 2·log₂n (n = {n}: {depth} "
                   f"rounds), work 2(n − 1) ({work} combines) vs {n - 1} sequential adds")


# the chapter's drawing of the first two rounds on [a … h], as index ranges
UPSWEEP_DRAWN = [
    [(0,), (0, 1), (2,), (2, 3), (4,), (4, 5), (6,), (6, 7)],
    [(0,), (0, 1), (2,), (0, 1, 2, 3), (4,), (4, 5), (6,), (4, 5, 6, 7)],
]


def _upsweep_drawing():
    levels, _ = blelloch_upsweep(leaves(8), concat)
    names = "abcdefgh"
    word = lambda t: ("+".join(names[i] for i in t) if len(t) < 3
                      else f"{names[t[0]]}..{names[t[-1]]}")
    for step, drawn in enumerate(UPSWEEP_DRAWN):
        if levels[step] != drawn:
            return outcome(REFUTED, f"step {step + 1} computes "
                                    f"[{', '.join(word(t) for t in levels[step])}]")
    return outcome(CONFIRMED, "evaluated in the free monoid, the first two up-sweep rounds "
                              "are as drawn: [" + ", ".join(word(t) for t in levels[1]) + "]")


# --------------------------------------------------------------------------- counterexamples
def _median_example():
    chunks = ([1, 2, 3], [4, 5, 6])
    of_medians = statistics.median([statistics.median(c) for c in chunks])
    overall = statistics.median(chunks[0] + chunks[1])
    if of_medians != overall:
        return outcome(CONFIRMED, f"median of medians {of_medians} ≠ median {overall}")
    witness = next(([1, 2, 3], [4, b, c]) for b in range(4, 10) for c in range(b, 10)
                   if statistics.median([2, b]) != statistics.median([1, 2, 3, 4, b, c]))
    w_of = statistics.median([statistics.median(w) for w in witness])
    w_all = statistics.median(witness[0] + witness[1])
    return outcome(REFUTED,
                   f"not a counterexample: median(2, 5) = {of_medians} = median(1…6) = "
                   f"{overall}",
                   f"  one that is: {witness[0]} and {witness[1]}: median of medians {w_of}, "
                   f"median {w_all}")


def _float_example():
    left, right = (1e-16 + 1.0) - 1.0, 1e-16 + (1.0 - 1.0)
    ok = left == 0.0 and right == 1e-16
    return outcome(CONFIRMED if ok else REFUTED,
                   f"(1e-16 + 1.0) − 1.0 = {left!r} and 1e-16 + (1.0 − 1.0) = {right!r} in "
                   "float64 (1e-16 is below half an ulp of 1.0, 2⁻⁵³ ≈ 1.11e-16)")


PAPER = Paper(
    id="book_ch8", title="Associativity: how regrouping enables parallelism and streaming",
    authors=BOOK, year=2026, venue=f"{BOOK_TITLE}, chapter 8",
    claims=(
        arithmetic("A billion float64 values take 8 GB.", at("ch8", "5", "§8 opening"),
                   expr="n × 8 B / 10⁹", inputs={"n": 10 ** 9, "bytes_each": 8},
                   formula=lambda n, bytes_each: n * bytes_each / 1e9, stated=8,
                   rel_tol=0.005),
        DataMovement("Summing chunk by chunk needs only one chunk in memory at a time "
                     "(chunks of a million numbers).", at("ch8", "32–36", "§8.2.1"),
                     _chunked_sum),
        Claim("Summing in two chunks or in four gives the same result: the grouping does "
              "not matter.", ("sum.associative", "chunked_fold.equals_fold"),
              at("ch8", "28–31", "§8.2.1")),
        Claim("Sum, count, average as (sum, count), max and variance as (sum, sum of "
              "squares, count) each have a state that combines associatively.",
              ("sum.associative", "count.associative", "mean.associative",
               "max.associative", "pooled_variance.associative"),
              at("ch8", "40–52", "§8.2.2")),
        DataMovement("A numerically safe softmax needs two passes over the data for its "
                     "statistics (the max, then the sum of exponentials); the online form "
                     "needs one.", at("ch8", "61–62", "§8.3"), _softmax_passes),
        WorkedExample("For x = (1, 3, 2, 5, 4) the naive and the one-pass computation both "
                      "give max 5 and a scaled sum of 2.486899.",
                      at("ch8", "84–93", "§8.3.1"), _example_value,
                      ("online_softmax.homomorphism",)),
        WorkedExample("Combining the states of the chunks (1, 3, 2) and (5, 4) gives the same "
                      "max and sum as the one-pass and the naive computation.",
                      at("ch8", "96–112", "§8.3.2"), _example_agreement,
                      ("online_softmax.associative",)),
        Claim("The (max, scaled sum) pair merges associatively, with the rescale "
              "s₁·e^(m₁−m) + s₂·e^(m₂−m).",
              ("online_softmax.associative", "online_softmax.identity",
               "online_softmax.no_rescale"), at("ch8", "96–112", "§8.3.2")),
        Arithmetic("For n = 32,768 and d = 128, standard attention needs 4 GB per layer for "
                   "the score matrix, FlashAttention 16 MB for its state: 256× less.",
                   at("ch8", "115–126", "§8.4"), _attention_memory),
        Claim("Welford's update and the pairwise merge of (count, mean, M2) give the mean "
              "and variance in one pass and combine partial results.",
              ("welford.homomorphism", "welford.associative", "welford.identity"),
              at("ch8", "142–159", "§8.5.1")),
        DataMovement("Variance needs two passes (mean, then squared deviations); Welford's "
                     "(count, mean, M2) state needs one.", at("ch8", "141–142", "§8.5.1"),
                     _welford_one_pass, ("welford.homomorphism",)),
        WorkedExample("The first two rounds of the parallel prefix sum on [a … h] produce "
                      "pairwise sums, then sums of four, as drawn.",
                      at("ch8", "163–171", "§8.5.1"), _upsweep_drawing,
                      ("blelloch_scan.equals_sequential",)),
        Arithmetic("The parallel scan has O(log n) depth and O(n) work, against n − 1 "
                   "sequential additions.", at("ch8", "172–175", "§8.5.1"), _scan_complexity,
                   ("blelloch_scan.equals_sequential",)),
        WorkedExample("Chunks [1, 2, 3] and [4, 5, 6] show that the median of medians is not "
                      "the median.", at("ch8", "178–183", "§8.6"), _median_example,
                      ("median.of_medians",)),
        Claim("The median (and the mode) has no associative state: the median of medians "
              "is not the median in general.", ("median.of_medians", "mode.of_modes"),
              at("ch8", "178–184", "§8.6")),
        WorkedExample("In floating point, (1e-16 + 1.0) − 1.0 is 0.0 while 1e-16 + (1.0 − 1.0) "
                      "is 1e-16.", at("ch8", "185–189", "§8.6"), _float_example,
                      ("sum.associative",)),
        DataMovement("FlashAttention reduces memory traffic by 4–8× beyond reducing the "
                     "memory footprint.", at("ch8", "193", "§8.7"), _flash_traffic_ratio),
        NotCheckable("Egyptian multiplication by doubling dates from about 2000 BCE, four "
                     "millennia ago.", at("ch8", "6–7", "§8 historical note"),
                     "a historical date: no computation here decides it (the worked "
                     "example itself is checked in book_ch3)"),
    ))
