"""The book's chapter 36, "Capstone": the Mamba scan, streaming top-K, N-body."""
from __future__ import annotations

import itertools
import math
from functools import cmp_to_key

from .claims import (CONDITIONAL, CONFIRMED, REFUTED, Arithmetic, Claim, DataMovement, NotCheckable,
                     WorkedExample, arithmetic, outcome, show)
from .core import Paper
from .iomodel import cdiv
from .scans import blelloch, blelloch_upsweep, concat, hillis_steele, leaves, tree_reduction
from .seeds import BOOK, BOOK_TITLE, at
from .speedup import Speedup, aligned_matmul, mamba_naive_vs_kernel


# --------------------------------------------------------------------------- Mamba
def _linear_vs_quadratic():
    from .kernel_traffic import traffic
    scan = [traffic("selective_scan", batch=1, length=L, channels=64, states=16)["flops"]
            for L in (1024, 2048)]
    attn = [traffic("attention", batch=1, heads=1, m=N, n=N, d=64)["flops"]
            for N in (1024, 2048)]
    g_scan, g_attn = scan[1] / scan[0], attn[1] / attn[0]
    ok = 1.9 <= g_scan <= 2.1 and 3.9 <= g_attn <= 4.1
    return outcome(CONFIRMED if ok else REFUTED,
                   f"doubling the sequence (1024 → 2048) multiplies this project's "
                   f"selective-scan flops by {g_scan:.3f} and its attention flops by {g_attn:.3f}")


def naive_loop_flops(batch: int, length: int, d_model: int, d_state: int) -> int:
    """Flops of the chapter's per-timestep loop, operation by operation: Δ·A, exp, Ā·h,
    B·x, the sum, C·h (each d_model × d_state per batch row), and the reduction over the
    states (d_model × (d_state − 1))."""
    per_step = 6 * d_model * d_state + d_model * (d_state - 1)
    return batch * length * per_step


def _naive_complexity():
    base = (1, 256, 512, 16)
    f0 = naive_loop_flops(*base)
    growth = [naive_loop_flops(*[v * 2 if i == j else v for i, v in enumerate(base)]) / f0
              for j in (1, 2, 3)]
    ok = all(1.9 <= g <= 2.1 for g in growth)
    return outcome(CONFIRMED if ok else REFUTED,
                   "counting the loop's operations: doubling N, d_model or d_state multiplies "
                   f"the flops by {', '.join(f'{g:.3f}' for g in growth)}; "
                   f"{naive_loop_flops(1, 1, 2048, 16):,} flops per step at d_model = 2048, "
                   "d_state = 16, in N dependent steps")


# the chapter's "typical output": (seq_len, ms, tokens/s) as printed
PROFILE = [(256, 12.34, 20746), (512, 24.56, 20847), (1024, 49.12, 20847),
           (2048, 98.23, 20847), (4096, 196.45, 20847)]


def _profile_table():
    bad, lines = [], []
    for n, ms, tps in PROFILE:
        # the times are printed to 0.01 ms and the rates to whole tokens: intervals
        lo_rate, hi_rate = n / ((ms + 0.005) / 1000), n / ((ms - 0.005) / 1000)
        fits = lo_rate < tps + 0.5 and hi_rate >= tps - 0.5
        line = (f"  seq_len={n}: {ms} ms gives {n / (ms / 1000):,.0f} tok/s "
                f"(any time printed as {ms} gives {lo_rate:,.1f}–{hi_rate:,.1f}); printed {tps:,}")
        lines.append(line)
        if not fits:
            bad.append(n)
    times = [ms for _, ms, _ in PROFILE]
    scaling = ", ".join(f"{b / a:.3f}" for a, b in zip(times, times[1:]))
    lines.append(f"  (the times do scale linearly: ratios {scaling} per doubling)")
    if not bad:
        return outcome(CONFIRMED, "every printed rate follows from its printed time", *lines)
    return outcome(REFUTED, f"the rates printed for seq_len {', '.join(map(str, bad))} do not "
                            "follow from the printed times, whatever their rounding",
                   *[l for l, (n, _, _) in zip(lines, PROFILE) if n in bad], lines[-1])


# --------------------------------------------------------------------------- scans
def _add(a, b):
    return a + b


def _eight_steps():
    total, red_work, red_depth = tree_reduction(leaves(8), concat)
    prefixes, hs_work, hs_depth = hillis_steele(leaves(8), concat)
    _, b_work, b_depth = blelloch(leaves(8), concat, ())
    if red_depth != 3 or hs_depth != 3:
        return outcome(REFUTED, f"tree depth {red_depth}, Hillis–Steele depth {hs_depth}")
    return outcome(CONDITIONAL,
                   "3 = log₂8 rounds give all eight prefixes only with the Hillis–Steele scan "
                   f"({hs_work} combines against 7 sequential); the drawn tree ({red_work} "
                   f"combines, {red_depth} rounds) yields only the last state h₈",
                   f"  the work-efficient (up-sweep/down-sweep) scan takes {b_depth} rounds "
                   f"and {b_work} combines")


def _log_depth():
    rows, correct = [], True
    for k in (4, 8, 12):
        n = 1 << k
        xs = list(range(1, n + 1))
        hs, _, hs_depth = hillis_steele(xs, _add)
        ex, _, bl_depth = blelloch(xs, _add, 0)
        correct &= hs == list(itertools.accumulate(xs)) == [e + x for e, x in zip(ex, xs)]
        rows.append((n, hs_depth, bl_depth))
    ok = correct and all(hs == math.log2(n) and bl == 2 * math.log2(n) for n, hs, bl in rows)
    return outcome(CONFIRMED if ok else REFUTED,
                   "rounds for all prefixes: " + ", ".join(
                       f"n = {n}: {hs} (Hillis–Steele) / {bl} (up/down-sweep)"
                       for n, hs, bl in rows) + " against n − 1 sequential steps")


def _scan_work():
    rows = [(1 << k, hillis_steele(range(1 << k), _add)[1],
             blelloch(range(1 << k), _add, 0)[1]) for k in (4, 8, 12)]
    hs_grows = rows[-1][1] / rows[-1][0] > 2 * rows[0][1] / rows[0][0]
    bl_linear = all(bl == 2 * (n - 1) for n, _, bl in rows)
    verdict = CONDITIONAL if hs_grows and bl_linear else REFUTED
    return outcome(verdict,
                   "O(n log n) is the work of the Hillis–Steele scan; the work-efficient scan "
                   "does 2(n − 1) combines, O(n): " + ", ".join(
                       f"n = {n}: {hs} vs {bl}" for n, hs, bl in rows))


def _blelloch_counts():
    rows = [(1 << k,) + blelloch(range(1 << k), _add, 0)[1:] for k in range(1, 13)]
    ok = all(depth == 2 * math.log2(n) and work == 2 * (n - 1) for n, work, depth in rows)
    return outcome(CONFIRMED if ok else REFUTED,
                   "up-sweep then down-sweep, n = 2…4096: depth = 2·log₂n and work = 2(n − 1) "
                   f"(n = 4096: {rows[-1][2]} rounds, {rows[-1][1]} combines)")


# the chapter's up-sweep levels 1–3 on a₀ … a₇ (index ranges per position)
UPSWEEP_LEVELS = [
    [(0,), (0, 1), (2,), (2, 3), (4,), (4, 5), (6,), (6, 7)],
    [(0,), (0, 1), (2,), (0, 1, 2, 3), (4,), (4, 5), (6,), (4, 5, 6, 7)],
    [(0,), (0, 1), (2,), (0, 1, 2, 3), (4,), (4, 5), (6,), tuple(range(8))],
]


def _upsweep_levels():
    levels, _ = blelloch_upsweep(leaves(8), concat)
    for i, drawn in enumerate(UPSWEEP_LEVELS):
        if levels[i] != drawn:
            return outcome(REFUTED, f"level {i + 1} is {levels[i]}, drawn {drawn}")
    return outcome(CONFIRMED, "evaluated in the free monoid, up-sweep levels 1–3 are as drawn")


def _downsweep():
    a = list(range(1, 9))
    got, _, _ = blelloch(a, lambda x, y: x + y, 0)
    inclusive = list(itertools.accumulate(a))
    if got == inclusive:
        return outcome(CONFIRMED, f"gives s = {got}")
    if all(g + x == s for g, x, s in zip(got, a, inclusive)):
        return outcome(CONDITIONAL,
                       f"the down-sweep as described returns the exclusive prefixes {got} for "
                       f"a = {a}; the inclusive sᵢ = {inclusive} need one more combine per "
                       "element (sᵢ = result + aᵢ)")
    return outcome(REFUTED, f"gives {got}, expected {inclusive}")


# the chapter's Triton kernel: grid (batch, ⌈d_model / BLOCK_D⌉), and inside each program
# a loop over chunks of BLOCK_SEQ steps whose body loops over t, updating h in turn
TEXT_KERNEL = {"BLOCK_SEQ": 64, "BLOCK_D": 64}


def _text_kernel_structure():
    batch, seq_len, d_model = 1, 2048, 2048
    programs = batch * cdiv(d_model, TEXT_KERNEL["BLOCK_D"])
    dependent = len(range(0, seq_len, TEXT_KERNEL["BLOCK_SEQ"])) * TEXT_KERNEL["BLOCK_SEQ"]
    parallel_depth = 2 * math.ceil(math.log2(seq_len))
    if dependent <= parallel_depth:
        return outcome(CONFIRMED, "the kernel's time loop has logarithmic depth")
    return outcome(REFUTED,
                   f"as written, each program updates h once per time step in order: "
                   f"{dependent:,} dependent steps at seq_len = {seq_len}, against "
                   f"{parallel_depth} rounds for a parallel scan; nothing combines chunks",
                   f"  its parallelism is batch × ⌈d_model/BLOCK_D⌉ = {programs} programs; the "
                   "gain over the loop comes from one launch instead of one per step (fusion), "
                   "not from associativity")


# --------------------------------------------------------------------------- top-K
def merge_top_k(a: list, b: list, k: int) -> list:
    """The chapter's merge: concatenate, sort descending, keep k."""
    return sorted(a + b, reverse=True)[:k]


def _merge_associative():
    k, values = 2, range(4)
    lists = [sorted(c, reverse=True) for r in range(k + 1)
             for c in itertools.combinations_with_replacement(values, r)]
    checked = 0
    for a, b, c in itertools.product(lists, repeat=3):
        left = merge_top_k(merge_top_k(a, b, k), c, k)
        right = merge_top_k(a, merge_top_k(b, c, k), k)
        checked += 1
        if left != right:
            return outcome(REFUTED, f"A = {a}, B = {b}, C = {c}: {left} ≠ {right}")
    return outcome(CONFIRMED, f"merge(merge(A, B), C) = merge(A, merge(B, C)) for all "
                              f"{checked:,} triples of top-{k} lists over {{0…3}} (ties included)")


def _merge_cost():
    rows = []
    for K in (16, 256, 4096):
        count = [0]

        def cmp(x, y):
            count[0] += 1
            return (x > y) - (x < y)
        import random
        rng = random.Random(K)
        a = sorted((rng.random() for _ in range(K)), reverse=True)
        b = sorted((rng.random() for _ in range(K)), reverse=True)
        sorted(a + b, key=cmp_to_key(cmp), reverse=True)
        rows.append((K, count[0], count[0] / (K * math.log2(K))))
    ok = max(r for _, _, r in rows) <= 2.5
    return outcome(CONFIRMED if ok else REFUTED,
                   "comparisons to merge two top-K lists by sorting their 2K elements: "
                   + ", ".join(f"K = {K}: {c:,} ({r:.2f}·K log₂K)" for K, c, r in rows))


def _topk_ops():
    n, K = 1e9, 1000
    heap_worst = n * math.log2(K)
    expected_replacements = K * math.log(n / K)
    stated = 10e9
    ok = abs(heap_worst - stated) <= 0.05 * stated
    return outcome(CONFIRMED if ok else REFUTED,
                   f"n·log₂K = {show(heap_worst)} ≈ 10 billion (worst case: every event enters "
                   "the heap), against n·log₂n ≈ 30 billion for sorting",
                   f"  for events in random order only ≈ K·ln(n/K) = {expected_replacements:,.0f} "
                   "enter the heap, so the expected cost is ≈ n comparisons")


# --------------------------------------------------------------------------- N-body
def _properties_count():
    audit = {"associativity": "Yes", "separability": "Yes", "sparsity": "Partial",
             "locality": "Yes", "redundancy": "Yes", "symmetry": "Yes"}   # §36.11.2 table
    yes = sum(v == "Yes" for v in audit.values())
    return outcome(CONFIRMED if yes == 5 else REFUTED,
                   f"the audit table marks {yes} of {len(audit)} properties Yes "
                   f"(sparsity: {audit['sparsity']})")


def _third_law_tiles():
    from .kernel_traffic import FIXED_BLOCKS
    n = 16384
    block = FIXED_BLOCKS["nbody"]["gpu"]
    t = cdiv(n, block)
    programs, all_pairs = t * (t + 1) // 2, t * t
    pairs = n * (n - 1) // 2
    ratio = programs / all_pairs
    ok = abs(ratio - 0.5) <= 0.05
    return outcome(CONFIRMED if ok else REFUTED,
                   f"F_ji = −F_ij leaves n(n − 1)/2 = {pairs:,} of {n * (n - 1):,} ordered pairs; "
                   f"this project's kernel (n = {n}, tiles of {block}) runs {programs:,} tile "
                   f"pairs instead of {all_pairs:,}: {ratio:.3f} of the work")


def _multipole_terms():
    terms_2d = lambda p: p + 1                              # complex Laurent coefficients
    terms_3d = lambda p: sum(2 * l + 1 for l in range(p + 1))  # spherical harmonics
    rows = [(p, terms_2d(p), terms_3d(p)) for p in (2, 4, 8, 16)]
    linear_3d = all(t3 / p <= 4 * rows[0][2] / rows[0][0] for p, _, t3 in rows)
    if linear_3d:
        return outcome(CONFIRMED, "the expansion has O(p) terms in 3-D as well")
    return outcome(CONDITIONAL,
                   "O(p) terms per interaction holds for 2-D expansions; a 3-D expansion of "
                   "order p has (p + 1)² coefficients: "
                   + ", ".join(f"p = {p}: {t2} vs {t3}" for p, t2, t3 in rows))


def _nbody_speedup():
    N = 10 ** 6
    fast, slow = N * math.log2(N), N * N
    ok = abs(fast - 20e6) <= 0.05 * 20e6 and abs(slow / fast - 50_000) <= 0.05 * 50_000
    return outcome(CONDITIONAL if ok else REFUTED,
                   f"N log₂N = {show(fast)} ≈ 20M and N²/(N log₂N) = {slow / fast:,.0f} ≈ 50,000, "
                   "assuming one tree operation costs what one pair interaction costs; a "
                   "Barnes–Hut walk visits many cells per level (θ = 0.5), so its constant is "
                   "far larger and the operation ratio is not a speedup")


def _attention_variants():
    n0, d, k, r = 1024, 64, 256, 256
    linformer = lambda n: 8 * n * k * d       # E·K, F·V, Q(EK)ᵀ, P(FV): 2nkd each
    performer = lambda n, r: 8 * n * r * d    # φ(Q), φ(K), φ(K)ᵀV, φ(Q)(·): 2nrd each
    lin_ok = linformer(2 * n0) / linformer(n0) == 2
    perf_r = performer(n0, 2 * r) / performer(n0, r)
    verdict = CONDITIONAL if lin_ok and perf_r == 2 else REFUTED
    return outcome(verdict,
                   f"Linformer: 8nkd flops, linear in n (O(n·d·k)); Performer: 8nrd with r "
                   f"random features, O(n·d) only when r is held constant (doubling r doubles "
                   f"it: {perf_r:g}×; Performer takes r = Θ(d log d))")


def _flash_asymptotics():
    from .attention_io import flash_v1, largest_fitting_v1, standard
    from .iomodel import TwoLevelMemory
    M, d = 98_304, 64
    rows = []
    for n in (4096, 8192, 16384):
        st, fl = TwoLevelMemory(M), TwoLevelMemory(M)
        standard(st, n, d, d)
        flash_v1(fl, n, d, *largest_fitting_v1(M, d))
        rows.append((n, st.flops, fl.flops, st.words, fl.words))
    flop_ratio = [f / s for _, s, f, _, _ in rows]
    io_growth = [(rows[i + 1][3] / rows[i][3], rows[i + 1][4] / rows[i][4]) for i in range(2)]
    last = io_growth[-1]
    same_order = all(0.8 <= r <= 1.5 for r in flop_ratio) and all(3.5 <= g <= 4.5 for g in last)
    return outcome(CONDITIONAL if same_order else REFUTED,
                   "in N, with d and the fast memory M fixed: flops "
                   + ", ".join(f"{r:.2f}×" for r in flop_ratio)
                   + " of standard's, and both schedules' traffic grows ≈4× per doubling of N "
                   f"(standard {io_growth[-1][0]:.2f}×, FlashAttention {io_growth[-1][1]:.2f}×)",
                   f"  in d and M the traffic orders differ: Θ(Nd + N²) against Θ(N²d²/M) "
                   f"(Dao et al. 2022, Thm. 2); at N = 16384, d = {d}, M = {M:,}: "
                   f"{rows[-1][3] / rows[-1][4]:.1f}× fewer words")


PAPER = Paper(
    id="book_ch36", title="Capstone: the framework in your hands",
    authors=BOOK, year=2026, venue=f"{BOOK_TITLE}, chapter 36",
    claims=(
        Arithmetic("Mamba scales linearly in sequence length, attention quadratically.",
                   at("ch36", "23", "§36.3"), _linear_vs_quadratic,
                   ("linear_recurrence.associative",)),
        Arithmetic("The sequential scan takes N steps of O(d_model × d_state) each: "
                   "O(N × d_model × d_state) in all.", at("ch36", "48–49", "§36.3.2"),
                   _naive_complexity),
        Arithmetic("Profiling the sequential scan prints 12.34, 24.56, 49.12, 98.23 and "
                   "196.45 ms for 256 … 4096 tokens, i.e. 20,746 and then 20,847 tokens/s.",
                   at("ch36", "76–81", "§36.4"), _profile_table),
        NotCheckable("The state dimension is chosen small, 16 to 64; at 64, tensor cores can "
                     "accelerate the state update.", at("ch36", "107–108, 249", "§36.5.3, §36.9.1"),
                     "a design range and a suggestion with no kernel to time (Mamba's default "
                     "state size is 16)"),
        WorkedExample("A parallel scan over 8 steps finishes in 3 = log₂8 rounds (pairs, "
                      "quads, all eight).", at("ch36", "97–103", "§36.5.1"), _eight_steps,
                      ("blelloch_scan.equals_sequential",)),
        Claim("The recurrence h_t = A_t h_{t−1} + B_t x_t is a product of 2×2 block matrices "
              "[[A_t, B_t x_t], [0, 1]], associative, so its steps compose as "
              "(A₁, b₁) ⊕ (A₂, b₂) = (A₂A₁, A₂b₁ + b₂).",
              ("affine_recurrence.matrix_form", "affine_recurrence.associative",
               "linear_recurrence.associative", "linear_recurrence.identity"),
              at("ch36", "95, 116–135", "§36.6.1–36.6.2")),
        Arithmetic("An associative scan computes all prefixes in O(log N) parallel steps "
                   "instead of O(N).", at("ch36", "140", "§36.6.2"), _log_depth),
        arithmetic("The optimized scan takes 6.42 ms against the naive 98.23 ms: 15.3×.",
                   at("ch36", "239–241, 353", "§36.8, §36.12"), expr="98.23 / 6.42",
                   inputs={"naive_ms": 98.23, "optimized_ms": 6.42},
                   formula=lambda naive_ms, optimized_ms: naive_ms / optimized_ms,
                   stated=15.3, rel_tol=0.005),
        WorkedExample("The simplified Triton kernel is a chunked parallel scan.",
                      at("ch36", "160–219", "§36.7"), _text_kernel_structure,
                      ("linear_recurrence.associative",)),
        Speedup("A chunked Triton kernel runs the Mamba scan ~15× faster than the "
                "per-timestep PyTorch loop (B = 1, L = 2048, d_model = 2048, d_state = 16).",
                at("ch36", "221–241, 353", "§36.8, §36.12"),
                baseline="the chapter's per-timestep PyTorch loop",
                candidate="this project's selective-scan kernel (the chapter's kernel is "
                          "incomplete code)", claimed=(15.3, 15.3),
                measure=mamba_naive_vs_kernel),
        arithmetic("Sorting a billion events takes n log n ≈ 30 billion comparisons.",
                   at("ch36", "256", "§36.10.1"), expr="n·log₂n",
                   inputs={"n": 1e9}, formula=lambda n: n * math.log2(n), stated=30e9,
                   rel_tol=0.05),
        arithmetic("At 1 GHz those comparisons take 30 seconds.", at("ch36", "256", "§36.10.1"),
                   expr="n·log₂n / rate", inputs={"n": 1e9, "rate_per_s": 1e9},
                   formula=lambda n, rate_per_s: n * math.log2(n) / rate_per_s, stated=30,
                   rel_tol=0.05, assumption="one comparison per clock cycle"),
        Claim("The top-K of chunk top-Ks is the global top-K (the merge is associative), "
              "and keeping only K − 1 per chunk is not enough.",
              ("topk_merge.merge", "topk_merge.truncated"), at("ch36", "260–273", "§36.10.3")),
        WorkedExample("merge_top_k (concatenate, sort, keep K) satisfies "
                      "merge(merge(A, B), C) = merge(A, merge(B, C)).",
                      at("ch36", "268–273", "§36.10.3"), _merge_associative,
                      ("topk_merge.merge",)),
        Arithmetic("A size-K heap processes n = 1B events in O(n log K): about 10 billion "
                   "operations for K = 1000, against 30 billion for sorting.",
                   at("ch36", "284", "§36.10.4"), _topk_ops),
        Arithmetic("Two top-K heaps merge in O(K log K).", at("ch36", "285", "§36.10.4"),
                   _merge_cost),
        NotCheckable("Approximate top-K (e.g. a Count-Min sketch) trades accuracy for 10–100× "
                     "speed.", at("ch36", "286", "§36.10.4"),
                     "no algorithm, data or accuracy target is given to measure"),
        Claim("A Count-Min sketch serves as an approximate top-K count: it never "
              "underestimates, and overestimates by at most εN with probability 1 − δ.",
              ("count_min.never_underestimates", "count_min.overestimate_bound",
               "count_min.with_deletions", "count_min.too_narrow"),
              at("ch36", "286", "§36.10.4")),
        arithmetic("The top-K problem gains ~3–10×.", at("ch36", "354", "§36.12"),
                   expr="(n·log₂n) / (n·log₂K)", inputs={"n": 1e9, "K": 1000},
                   formula=lambda n, K: math.log2(n) / math.log2(K), stated=(3, 10),
                   rel_tol=0.05,
                   assumption="the chapter's own operation counts, which give the low end (3×) "
                              "only"),
        arithmetic("N = 1,000,000 particles need O(N²) = 10¹² force calculations per step.",
                   at("ch36", "290", "§36.11"), expr="N²", inputs={"N": 1e6},
                   formula=lambda N: N * N, stated=1e12, rel_tol=0.01),
        arithmetic("10¹² operations at 10 TFLOPS take 100 seconds per timestep.",
                   at("ch36", "302", "§36.11.1"), expr="operations / rate",
                   inputs={"operations": 1e12, "flops_per_s": 10e12},
                   formula=lambda operations, flops_per_s: operations / flops_per_s,
                   stated=100, rel_tol=0.05),
        WorkedExample("Five of the six properties apply to N-body.", at("ch36", "304–312",
                      "§36.11.2"), _properties_count),
        Claim("Newton's third law, F(i→j) = −F(j→i), holds for the softened force, and "
              "acceleration alone is not antisymmetric.",
              ("newton_third_law.antisymmetric", "newton_third_law.asymmetric_force"),
              at("ch36", "311, 345", "§36.11.2, §36.11.4")),
        Arithmetic("Newton's third law halves the work.", at("ch36", "345", "§36.11.4"),
                   _third_law_tiles, ("newton_third_law.antisymmetric",)),
        Arithmetic("A multipole expansion of order p costs O(p) per interaction instead of "
                   "O(M) for a cluster of M particles.", at("ch36", "317–320", "§36.11.3"),
                   _multipole_terms),
        Claim("A distant cell can be replaced by its total mass at its centre of mass "
              "(Barnes–Hut opening criterion size/distance < θ).",
              ("barnes_hut.monopole_bound",), at("ch36", "321–340", "§36.11.3")),
        Arithmetic("Barnes–Hut is O(N log N): for N = 1M, 20M operations instead of 10¹², "
                   "a 50,000× speedup.", at("ch36", "340, 355", "§36.11.3, §36.12"),
                   _nbody_speedup),
        NotCheckable("The fast multipole method is cited as one of the most important "
                     "algorithms of the 20th century.", at("ch36", "347", "§36.11.4"),
                     "a statement about citations (Dongarra & Sullivan's 2000 list), not a "
                     "computation"),
        Arithmetic("Linformer costs O(n × d × k), Performer O(n × d).",
                   at("ch36", "421–423", "§36.15 exercise 1"), _attention_variants),
        Claim("Performer approximates softmax attention with random features.",
              ("performer.unbiased", "performer.no_positive_normalization"),
              at("ch36", "423", "§36.15 exercise 1")),
        Claim("Tiling the scan into chunks that fit in shared memory computes the same "
              "recurrence.", ("mamba_chunked_scan.two_level",
                              "mamba_chunked_scan.no_decay_carry"),
              at("ch36", "142, 186–190", "§36.6.3, §36.7")),
        Claim("Sparse attention patterns (local windows) attend to a band of keys only, "
              "the same as full attention with the band mask.",
              ("sliding_window_attention.band",), at("ch36", "417–420", "§36.15 exercise 1")),
        DataMovement("FlashAttention does not change the asymptotic complexity of attention, "
                     "only its constants.", at("ch36", "424–426", "§36.15 exercise 1"),
                     _flash_asymptotics),
        Arithmetic("Mamba's associative recurrence gives a parallel scan of O(n log n) work.",
                   at("ch36", "427–429", "§36.15 exercise 1"), _scan_work),
        WorkedExample("Up-sweep levels 1–3 on a₀ … a₇ build the pair, quad and total sums as "
                      "drawn.", at("ch36", "435–439", "§36.15 exercise 2"), _upsweep_levels,
                      ("blelloch_scan.equals_sequential",)),
        WorkedExample("The down-sweep (root set to 0; left child takes the parent, right child "
                      "the parent plus the old left) yields the prefix sums sᵢ = a₀ + … + aᵢ.",
                      at("ch36", "432, 440–441", "§36.15 exercise 2"), _downsweep,
                      ("blelloch_scan.equals_sequential",)),
        Arithmetic("The work-efficient scan has depth 2·log₂n and O(n) work.",
                   at("ch36", "442–443", "§36.15 exercise 2"), _blelloch_counts),
        Claim("Constant weight matrices can be pre-multiplied: (xW₁)W₂ = x(W₁W₂).",
              ("matmul_reassociation.premultiply",), at("ch36", "449", "§36.15 exercise 3")),
        Speedup("Matrix dimensions that are multiples of 8/16 use tensor cores efficiently.",
                at("ch36", "450", "§36.15 exercise 3"),
                baseline="an fp16 matmul one short of a multiple of 8 in every dimension",
                candidate="the aligned matmul (time per flop)", claimed=(1.0, 1.0),
                measure=aligned_matmul, tolerance=0.0),
    ))
