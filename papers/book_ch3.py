"""The book's chapter 3, "The Algebraic Framework": the six properties."""
from __future__ import annotations

from fractions import Fraction

from .attention_io import flash_v1, standard
from .claims import (CONDITIONAL, CONFIRMED, REFUTED, Arithmetic, Claim, DataMovement,
                     NotCheckable, WorkedExample, outcome, show)
from .core import Paper
from .iomodel import TwoLevelMemory
from .seeds import BOOK, BOOK_TITLE, at
from .speedup import Speedup, flash_vs_standard

# --------------------------------------------------------------------------- Egyptian
# the chapter's table for 13 × 24: (power of two, doubled value, included?)
EGYPT_TABLE = [(1, 24, True), (2, 48, False), (4, 96, True), (8, 192, True)]
EGYPT_RESULT = 312


def _egypt_example():
    a, b = 13, 24
    doubled_ok = all(value == power * b for power, value, _ in EGYPT_TABLE)
    chosen = [(p, v) for p, v, used in EGYPT_TABLE if used]
    ok = (doubled_ok and sum(p for p, _ in chosen) == a
          and sum(v for _, v in chosen) == EGYPT_RESULT == a * b)
    return outcome(CONFIRMED if ok else REFUTED,
                   f"13 = {' + '.join(str(p) for p, _ in chosen)} and "
                   f"{' + '.join(str(v) for _, v in chosen)} = "
                   f"{sum(v for _, v in chosen)} = 13 × 24 = {a * b}")


def doubling_ops(n: int) -> int:
    """Doublings and additions of the Egyptian method for n × b."""
    return (n.bit_length() - 1) + (bin(n).count("1") - 1)


def _egypt_complexity():
    worst = max(doubling_ops(n) / max(1, (n.bit_length() - 1)) for n in range(2, 1 << 14))
    ok = all(doubling_ops(n) <= 2 * (n.bit_length() - 1) for n in range(1, 1 << 14))
    return outcome(CONFIRMED if ok else REFUTED,
                   f"doublings + additions ≤ 2⌊log₂n⌋ for every n < 2¹⁴ (worst ratio "
                   f"{worst:g}); for 13: {doubling_ops(13)} operations instead of 12 additions")


# --------------------------------------------------------------------------- Stepanov
def stepanov_power(x, n: int, op, identity):
    """The chapter's ``power`` (x^n for an associative op), with a count of op calls."""
    calls = 0

    def f(a, b):
        nonlocal calls
        calls += 1
        return op(a, b)

    if n == 0:
        return identity, 0
    while n & 1 == 0:
        x = f(x, x)
        n >>= 1
    result = x
    n >>= 1
    while n != 0:
        x = f(x, x)
        if n & 1:
            result = f(result, x)
        n >>= 1
    return result, calls


def _matmul2(a, b):
    return ((a[0][0] * b[0][0] + a[0][1] * b[1][0], a[0][0] * b[0][1] + a[0][1] * b[1][1]),
            (a[1][0] * b[0][0] + a[1][1] * b[1][0], a[1][0] * b[0][1] + a[1][1] * b[1][1]))


def _power_example():
    cases = {"integers under +": (3, lambda a, b: a + b, 0),
             "strings under concatenation": ("ab", lambda a, b: a + b, ""),
             "2×2 integer matrices under ×": (((1, 1), (1, 0)), _matmul2, ((1, 0), (0, 1)))}
    for name, (x, op, e) in cases.items():
        for n in range(0, 65):
            got, calls = stepanov_power(x, n, op, e)
            want = e
            for _ in range(n):
                want = op(want, x)
            if got != want or (n and calls > 2 * (n.bit_length() - 1)):
                return outcome(REFUTED, f"{name}, n = {n}: power gives {got!r}, repeated "
                                        f"op gives {want!r} ({calls} calls)")
    return outcome(CONFIRMED, "power(x, n, op) equals x op x op … op x for n = 0…64 over "
                              "integers (+), strings and 2×2 matrices (×), in at most "
                              "2⌊log₂n⌋ calls of op")


def _power_is_not_a_scan():
    from laws.associativity.combines import linear_recurrence
    step = lambda f, g: linear_recurrence.fn(*f, *g)     # first f, then g
    apply = lambda pair, h: pair[0] * h + pair[1]
    s1, s2 = (Fraction(1, 2), Fraction(1)), (Fraction(2), Fraction(0))
    h1 = apply(s1, 0)
    h2 = apply(s2, h1)
    by_power = {str(s): apply(stepanov_power(s, 2, step, (1, 0))[0], 0) for s in (s1, s2)}
    same, _ = stepanov_power(s1, 2, step, (1, 0))
    if h2 in by_power.values():
        return outcome(CONFIRMED, "power reproduces the selective recurrence here")
    return outcome(REFUTED,
                   "power(x, n, op) composes n copies of one step; a selective (Mamba) "
                   "recurrence has a different step at every t, and a scan must return "
                   "every prefix",
                   f"  steps h ↦ h/2 + 1 then h ↦ 2h from h₀ = 0: h₁ = {h1}, h₂ = {h2}; "
                   "power of either step twice gives h = "
                   + ", ".join(str(v) for v in by_power.values()),
                   f"  it holds for a time-invariant step: power((1/2, 1), 2) gives "
                   f"{apply(same, 0)} = h₂ of h ↦ h/2 + 1 applied twice")


# --------------------------------------------------------------------------- hardware
def _sram_vs_hbm():
    sram, hbm = 8.0, 2.0          # the chapter's own figures, §3.7 (TB/s)
    ratio = sram / hbm
    fa_sram, fa_hbm = 19.0, (1.5, 2.0)   # Dao et al. 2022, §2.1
    verdict = CONFIRMED if 10 * 0.9 <= ratio <= 100 * 1.1 else REFUTED
    return outcome(verdict,
                   f"the chapter's own figures give SRAM/HBM = {show(sram)} TB/s ÷ "
                   f"{show(hbm)} TB/s = {show(ratio)}×, outside 10–100×",
                   f"  with Dao et al. 2022 §2.1's A100 figures: 19 TB/s ÷ 1.5–2.0 TB/s = "
                   f"{fa_sram / fa_hbm[1]:.1f}–{fa_sram / fa_hbm[0]:.1f}×")


# A100 (NVIDIA A100 whitepaper): 108 SMs at a 1410 MHz boost clock; shared memory has 32
# banks of 4 bytes, so one SM serves 128 bytes per clock.
A100 = {"sms": 108, "bytes_per_clock": 32 * 4, "clock_hz": 1.41e9,
        "hbm_bytes_per_s": 2.039e12, "hbm_bytes": 80e9, "smem_per_sm_kb": 164}


def _sram_bandwidth():
    bw = A100["sms"] * A100["bytes_per_clock"] * A100["clock_hz"] / 1e12
    stated = 8.0
    verdict = CONFIRMED if abs(bw - stated) <= 0.25 * stated else REFUTED
    return outcome(verdict,
                   f"A100 shared memory: {A100['sms']} SMs × {A100['bytes_per_clock']} B/clock "
                   f"× 1.41 GHz = {bw:.1f} TB/s against the stated ~{show(stated)} TB/s "
                   "(Dao et al. 2022 §2.1 estimate ~19 TB/s)")


def _a100_memory():
    hbm_tb = A100["hbm_bytes_per_s"] / 1e12
    ok = (abs(hbm_tb - 2.0) <= 0.05 * 2.0 and A100["hbm_bytes"] == 80e9
          and A100["smem_per_sm_kb"] == 164)
    return outcome(CONFIRMED if ok else REFUTED,
                   f"A100 80GB SXM: HBM {A100['hbm_bytes'] / 1e9:g} GB at {hbm_tb:.3f} TB/s "
                   f"(≈ 2), shared memory up to {A100['smem_per_sm_kb']} KB per SM (the 164 KB "
                   "is per SM, not per GPU)")


# --------------------------------------------------------------------------- parameter counts
def _lora_counts():
    d, k, r = 4096, 4096, 8
    full, lora = d * k, r * (d + k)
    ok = 1e6 <= full < 1e9 and 1e3 <= lora < 1e6
    return outcome(CONDITIONAL if ok else REFUTED,
                   f"d × k = {full:,} (millions) and r(d + k) = {lora:,} (thousands), "
                   f"{full / lora:.0f}× fewer, assuming d = k = {d} and r = {r} (a 7B-class "
                   "attention projection; the chapter gives no sizes)")


def _conv_counts():
    K = 3
    untied = lambda H, W, C: H * W * K * K * C * C   # a separate K×K detector per position
    stated = lambda H, W, C: H * W * C * C           # the chapter's O(H×W×C²)
    ratios = {untied(*s) / stated(*s) for s in ((32, 32, 64), (224, 224, 3), (7, 9, 512))}
    H, W, C = 32, 32, 64
    conv = K * K * C * C
    if ratios == {1}:
        return outcome(CONFIRMED, "separate detectors per position take H·W·C² parameters")
    verdict = CONDITIONAL if len(ratios) == 1 else REFUTED   # a constant factor: K²
    untied, stated_left = untied(H, W, C), stated(H, W, C)
    return outcome(verdict,
                   "holds as an order in H, W and C with the kernel size K held constant; "
                   f"counted exactly, separate K×K detectors at every position take "
                   f"H·W·K²·C² = {untied:,} parameters, not H·W·C² = {stated_left:,}",
                   f"  at H = W = {H}, C = {C}, K = {K}: weight sharing saves H·W = "
                   f"{untied // conv:,}× (to K²C² = {conv:,}), while the two stated orders "
                   f"suggest H·W/K² = {stated_left / conv:.1f}×")


# --------------------------------------------------------------------------- attention
def _standard_memory():
    words = {}
    for n in (256, 512):
        mem = TwoLevelMemory(16_384)
        standard(mem, n, 64, 64)
        words[n] = (mem.scratch["S"], mem.scratch["P"], mem.writes["S"], mem.writes["P"])
    ok = all(s == p == ws == wp == n * n for n, (s, p, ws, wp) in words.items())
    sram_words = A100["smem_per_sm_kb"] * 1024 // 2
    largest = int(sram_words ** 0.5)
    return outcome(CONFIRMED if ok else REFUTED,
                   "the standard schedule keeps S and P in slow memory (and writes each "
                   "once): " + ", ".join(f"N = {n}: {s:,} + {p:,} words"
                                         for n, (s, p, _, _) in words.items()) + ", 2N²",
                   f"  a {A100['smem_per_sm_kb']} KB SRAM holds an N × N float16 matrix only "
                   f"up to N = {largest}")


def _flash_orders():
    flops, extra = {}, {}
    for n in (512, 1024):
        mem = TwoLevelMemory(98_304)
        flash_v1(mem, n, 64)
        flops[n], extra[n] = mem.flops, sum(mem.scratch.values())
    growth = flops[1024] / flops[512]
    ok = 3.9 <= growth <= 4.1 and all(extra[n] == 2 * n for n in extra)
    return outcome(CONFIRMED if ok else REFUTED,
                   f"Algorithm 1 of Dao et al. 2022 on the I/O model: flops grow {growth:.3f}× "
                   "when N doubles (O(N²)); beyond Q, K, V and O it keeps only ℓ and m in slow "
                   f"memory: 2N words (N = 1024: {extra[1024]:,}), O(N)")


PAPER = Paper(
    id="book_ch3", title="The algebraic framework: a unified theory of performance optimization",
    authors=BOOK, year=2026, venue=f"{BOOK_TITLE}, chapter 3",
    claims=(
        Claim("The state (max, Σ e^(x−max), Σ e^(x−max)·v) forms a monoid: its combination "
              "is associative with an identity, which is what lets FlashAttention chunk.",
              ("flash_state.associative", "flash_state.identity"),
              at("ch3", "62–66", "§3.3.1")),
        Claim("Sum, max, mean carried with its count, and softmax with its (max, sum, "
              "output) state can be split and merged.",
              ("sum.associative", "max.associative", "mean.associative",
               "flash_state.associative"), at("ch3", "67–73", "§3.3.1")),
        Claim("The median of medians is not the median, and a mean merged without counts "
              "is wrong.", ("median.of_medians", "mean.of_means"),
              at("ch3", "71–72", "§3.3.1")),
        Claim("A low-rank update ΔW = BA can be applied as factors, and it trains r(d + k) "
              "parameters instead of d·k.", ("lora.factored_product", "lora.parameter_count"),
              at("ch3", "81–85", "§3.3.2")),
        Arithmetic("A full d × k update has millions of parameters, the LoRA update r(d + k) "
                   "only thousands when r ≪ d, k.", at("ch3", "83–85", "§3.3.2"),
                   _lora_counts, ("lora.parameter_count",)),
        Claim("The product of blocks is the block of products, so matmul can be tiled.",
              ("block_matmul.blocks",), at("ch3", "101–110", "§3.3.3")),
        Claim("A mixture of experts computes only the top-k experts' outputs.",
              ("moe_topk.routing",), at("ch3", "125–130", "§3.3.4")),
        NotCheckable("Weight matrices can be pruned to 90% sparsity or more.",
                     at("ch3", "136", "§3.3.4"),
                     "an empirical statement about trained models and an accuracy target; "
                     "no model or target is given to evaluate"),
        Claim("INT8 (and INT4) quantization works: rounding each weight to 8 bits with a "
              "per-channel scale errs by at most half a step, and a product inherits a "
              "bounded error.", ("int8_quantization.rounding", "int8_quantization.matmul_bound"),
              at("ch3", "145–148", "§3.3.5")),
        NotCheckable("The information content of trained weights is far below the 32 bits "
                     "each is stored with.", at("ch3", "146–148", "§3.3.5"),
                     "an empirical statement about trained models; no model is given"),
        Claim("Keys and values of earlier tokens do not change, so caching them gives the "
              "same attention as recomputing.", ("kv_cache.incremental",),
              at("ch3", "149–152", "§3.3.5")),
        Claim("Convolution shares one detector across positions because it commutes with "
              "translation.", ("conv_translation.shift",), at("ch3", "166–171", "§3.3.6")),
        Arithmetic("Weight sharing cuts the parameters from O(H×W×C²) to O(K²×C²).",
                   at("ch3", "170", "§3.3.6"), _conv_counts),
        NotCheckable("The timeline: Egyptian multiplication 2000 BCE, Euclid 300 BCE, Gauss "
                     "1801, Noether in the 1920s (1882–1935), the STL in the 1990s, "
                     "FlashAttention 2022; scribes four thousand years ago.",
                     at("ch3", "180–199, 212", "§3.4"),
                     "historical dates: no computation here decides them"),
        WorkedExample("13 × 24 by doubling: 24, 48, 96, 192 for 1, 2, 4, 8; 13 = 8 + 4 + 1, so "
                      "24 + 96 + 192 = 312.", at("ch3", "200–208", "§3.4.1"), _egypt_example),
        Arithmetic("Multiplication by doubling takes O(log n) operations instead of O(n).",
                   at("ch3", "181, 209", "§3.4.1"), _egypt_complexity,
                   ("power_by_squaring.equals_repeated",)),
        WorkedExample("Stepanov's power(x, n, op) computes x^n for any associative operation: "
                      "integers under +, matrices under ×, in O(log n) steps.",
                      at("ch3", "216–231", "§3.4.3"), _power_example,
                      ("power_by_squaring.equals_repeated",)),
        WorkedExample("Applied to recurrence states, the same power() gives Mamba's parallel "
                      "scan.", at("ch3", "231", "§3.4.3"), _power_is_not_a_scan,
                      ("linear_recurrence.associative",)),
        Claim("A parallel reduction needs an identity element: the sum of nothing is 0 "
              "(a monoid, not just a semigroup).", ("sum.identity", "flash_state.identity"),
              at("ch3", "233–238", "§3.4.4")),
        Arithmetic("GPU shared memory (SRAM) is 10–100× faster than HBM.",
                   at("ch3", "252 (figures at 284)", "§3.5"), _sram_vs_hbm),
        Arithmetic("A GPU's SRAM runs at ~8 TB/s.", at("ch3", "284", "§3.7 step 3"),
                   _sram_bandwidth),
        Arithmetic("The GPU has 164 KB of SRAM and 80 GB of HBM at ~2 TB/s.",
                   at("ch3", "284", "§3.7 step 3"), _a100_memory),
        DataMovement("Standard attention materializes an N × N matrix: O(N²) memory.",
                     at("ch3", "275–276", "§3.7"), _standard_memory),
        Claim("The running (m, ℓ) pair merges associatively: m = max(m₁, m₂), "
              "ℓ = ℓ₁e^(m₁−m) + ℓ₂e^(m₂−m).",
              ("online_softmax.associative", "online_softmax.identity"),
              at("ch3", "279–282", "§3.7")),
        Claim("Attention patterns can be made low-rank (Linformer): keys and values "
              "projected along the sequence give attention within a bound set by how far "
              "the projection moves the scores; the projection is not exact.",
              ("linformer.distortion_bound", "linformer.exact"), at("ch3", "91", "§3.3.2")),
        Claim("The FFT has recursive (butterfly) locality: the radix-2 recursion over "
              "even and odd samples computes the DFT, and only with its twiddle factors.",
              ("fft_butterfly.cooley_tukey", "fft_butterfly.no_twiddle"),
              at("ch3", "117", "§3.3.3")),
        Claim("INT4 quantization works as well: 4-bit values with one scale per group "
              "keep each weight within half its group's step, which one scale per column "
              "does not.", ("int4_quantization.groupwise_rounding",
                            "int4_quantization.one_scale"), at("ch3", "148, 156", "§3.3.5")),
        Claim("Repeated prefixes can be shared (RadixAttention): the attention state of an "
              "identical prefix serves every request that continues it, and only an "
              "identical one.", ("radix_attention.shared_prefix", "radix_attention.stale_prefix",
                                 "prefix_cache.merge"), at("ch3", "157", "§3.3.5")),
        Claim("Distributed training rests on associativity (gradients of shards averaged "
              "by an all-reduce), with separability second (FSDP's sharded parameters "
              "take the single-device step).", ("data_parallel.gradient_average",
                                                "ring_allreduce.sum", "fsdp.sharded_step"),
              at("ch3", "297", "§3.8")),
        Claim("Continuous batching rests on associativity with sparsity (variable load) "
              "second: requests of different lengths share one batched step, their "
              "padding masked.", ("continuous_batching.ragged_step",
                                  "continuous_batching.padding_in_softmax"),
              at("ch3", "299", "§3.8")),
        Claim("Sequence modeling has a time-shift symmetry: with rotary position "
              "embeddings an attention score is unchanged when query and key positions "
              "shift together (and not when only the query is rotated).",
              ("rotary.relative_position", "rotary.query_only"), at("ch3", "175", "§3.3.6")),
        Claim("PagedAttention's property is about avoiding waste (redundancy): attention "
              "read through a block table equals attention over the contiguous cache.",
              ("paged_attention.block_table", "paged_attention.wrong_entry"),
              at("ch3", "302", "§3.9 exercise 1")),
        Claim("Ring attention exploits associativity to distribute attention across GPUs.",
              ("ring_attention.rotation", "ring_attention.no_rescale"),
              at("ch3", "303", "§3.9 exercise 2")),
        Claim("Structured pruning is an optimization that uses separability and sparsity.",
              ("structured_pruning.drop_units", "structured_pruning.zero_incoming"),
              at("ch3", "304", "§3.9 exercise 3")),
        DataMovement("FlashAttention does O(N²) compute with O(N) extra memory.",
                     at("ch3", "286", "§3.7"), _flash_orders),
        Speedup("FlashAttention gives a 2–4× speedup.", at("ch3", "253, 286", "§3.5, §3.7"),
                baseline="standard attention (S and P materialised, PyTorch)",
                candidate="FlashAttention-2 (torch SDPA flash backend)", claimed=(2.0, 4.0),
                measure=flash_vs_standard),
    ))
