"""FlashAttention (Dao et al. 2022): the online-softmax merge as laws; its complexity,
I/O and block-size claims on the two-level I/O model; exactness in float64; speedups."""
from .attention_io import (flash_v1, flash_v1_blocks, flash_v1_footprint,
                           largest_fitting_v1, standard)
from .claims import (CONDITIONAL, CONFIRMED, REFUTED, Arithmetic, Claim, DataMovement,
                     NotCheckable, Numerical, outcome)
from .core import Paper
from .iomodel import TwoLevelMemory
from .speedup import Speedup, flash_vs_standard

M_A100 = 192 * 1024 // 2   # §2.1: 192 KB of SRAM per SM, in 2-byte words


def _blocks_for(M: int, d: int):
    b_r, b_c = flash_v1_blocks(M, d)
    return (b_r, b_c) if flash_v1_footprint(b_r, b_c, d) <= M else largest_fitting_v1(M, d)


def _theorem1():
    rows = []
    for n, d in ((512, 32), (1024, 64), (2048, 64)):
        mem = TwoLevelMemory(M_A100)
        flash_v1(mem, n, d, *_blocks_for(M_A100, d))
        rows.append((n, d, mem.flops / (n * n * d), sum(mem.scratch.values()) / n))
    spread = max(r for _, _, r, _ in rows) / min(r for _, _, r, _ in rows)
    ok = spread <= 1.2 and all(extra == 2 for *_, extra in rows)
    return outcome(CONFIRMED if ok else REFUTED,
                   "Algorithm 1 on the I/O model: flops / (N²d) = "
                   + ", ".join(f"{r:.2f} (N = {n}, d = {d})" for n, d, r, _ in rows)
                   + "; extra slow memory ℓ and m: 2N words")


def _theorem2():
    rows = []
    for M in (1 << 14, 1 << 16):
        for d in (32, 64):
            for n in (1024, 2048, 4096):
                st, fl = TwoLevelMemory(M), TwoLevelMemory(M)
                standard(st, n, d, d)
                flash_v1(fl, n, d, *_blocks_for(M, d))
                rows.append((M, d, n, st.words / (n * d + n * n), fl.words / (n * n * d * d / M)))
    spread = lambda i: max(r[i] for r in rows) / min(r[i] for r in rows)
    ok = spread(3) <= 4 and spread(4) <= 4
    return outcome(CONFIRMED if ok else REFUTED,
                   f"over M ∈ {{2¹⁴, 2¹⁶}}, d ∈ {{32, 64}}, N ∈ {{1024, 2048, 4096}}: standard "
                   f"words / (Nd + N²) stays in {min(r[3] for r in rows):.2f}–"
                   f"{max(r[3] for r in rows):.2f}, FlashAttention words / (N²d²/M) in "
                   f"{min(r[4] for r in rows):.2f}–{max(r[4] for r in rows):.2f}")


def _block_sizes_fit():
    rows = []
    for d in (64, 128):
        b_r, b_c = flash_v1_blocks(M_A100, d)
        rows.append((d, b_r, b_c, flash_v1_footprint(b_r, b_c, d)))
    fits = [d for d, *_, f in rows if f <= M_A100]
    lines = [f"  d = {d}: B_r = {b_r}, B_c = {b_c}: K_j, V_j, Q_i, O_i, S_ij, ℓ_i, m_i take "
             f"{f:,} words ({'fits' if f <= M_A100 else 'exceeds'} M = {M_A100:,})"
             for d, b_r, b_c, f in rows]
    if len(fits) == len(rows):
        return outcome(CONFIRMED, "the blocks fit for every head dimension tried", *lines)
    if fits:
        return outcome(CONDITIONAL,
                       f"the on-chip blocks fit M only for d in {fits}; in general they need "
                       "M ≥ 8d² + 8d (when B_r = d) and never fit when ⌈M/4d⌉ < d", *lines)
    return outcome(REFUTED, "the blocks exceed M for every head dimension tried", *lines)


def _sram_order_of_magnitude():
    sram = 108 * 32 * 4 * 1.41e9 / 1e12        # SMs × banks × 4 B × boost clock
    ratios = (sram / 2.0, sram / 1.5)
    ok = abs(sram - 19) <= 0.1 * 19 and min(ratios) >= 10 * 0.9
    return outcome(CONFIRMED if ok else REFUTED,
                   f"108 SMs × 128 B/clock × 1.41 GHz = {sram:.1f} TB/s ≈ 19 TB/s; over HBM's "
                   f"1.5–2.0 TB/s that is {ratios[0]:.1f}–{ratios[1]:.1f}×, an order of magnitude")


def _exact_to_rounding():
    from .agreement import attention_orders
    c = attention_orders()[("textbook", "one-pass")]
    ok = max(c.rho, c.rho_a, c.rho_b) <= 1
    return outcome(CONFIRMED if ok else REFUTED,
                   f"in float64 the block-by-block order stays within the componentwise "
                   f"rounding bound of standard attention on adversarial inputs: ρ = "
                   f"{max(c.rho_a, c.rho_b):.3g} against a 113-bit oracle, {c.rho:.3g} between "
                   f"the orders ({c.differing} of {c.entries} entries differ in the last bits)")


PAPER = Paper(
    id="dao2022",
    title="FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
    authors="Tri Dao, Daniel Y. Fu, Stefano Ermon, Atri Rudra, Christopher Ré",
    year=2022, venue="arXiv:2205.14135 (NeurIPS 2022)",
    claims=(
        Claim("Attention can be computed block by block over the keys, keeping only a "
              "running row max, normalizer and rescaled output, and the result is exact "
              "(not an approximation).",
              ("flash_state.associative", "flash_state.identity",
               "flash_state.homomorphism"), "§3.1, Algorithm 1"),
        Claim("The order in which key blocks are merged does not matter.",
              ("flash_state.commutative",), "§3.1"),
        Claim("Blocks of the attention matrix that the mask zeroes entirely can be "
              "skipped (block-sparse FlashAttention; the causal mask is the common case), "
              "but a block that is only partly masked cannot.",
              ("causal_block_skip.skip", "causal_block_skip.drop_diagonal"), "§3.3"),
        Numerical("The tiled computation returns exact attention: in floating point it "
                  "differs from the standard computation only by rounding.",
                  "§3.1, Theorem 1", _exact_to_rounding, ("flash_state.homomorphism",)),
        DataMovement("Algorithm 1 uses O(N²d) FLOPs and O(N) memory beyond its inputs and "
                     "output.", "§3.1, Theorem 1", _theorem1),
        DataMovement("Standard attention needs Θ(Nd + N²) HBM accesses, FlashAttention "
                     "Θ(N²d²M⁻¹) for an SRAM of size M.", "§3.2, Theorem 2", _theorem2),
        NotCheckable("No exact attention algorithm does o(N²d²M⁻¹) HBM accesses for all M "
                     "in [d, Nd].", "§3.2, Proposition 3",
                     "a lower bound over all algorithms; the I/O model counts given "
                     "schedules only", kind="data-movement"),
        DataMovement("Block sizes B_c = ⌈M/4d⌉ and B_r = min(⌈M/4d⌉, d) keep Algorithm 1's "
                     "blocks within an SRAM of size M.", "§3.1, Algorithm 1 line 1",
                     _block_sizes_fit),
        Arithmetic("An A100's on-chip SRAM (192 KB per SM, 108 SMs) runs at about 19 TB/s, "
                   "an order of magnitude faster than its 1.5–2.0 TB/s HBM.", "§2.1",
                   _sram_order_of_magnitude),
        Speedup("FlashAttention speeds up the attention computation of GPT-2 by up to 7.6×.",
                "Figure 1 (right)", baseline="PyTorch's standard attention",
                candidate="FlashAttention-2 (torch SDPA flash backend), GPT-2 medium heads "
                          "(16 × 64), causal", claimed=(7.6, 7.6), up_to=True,
                measure=lambda: flash_vs_standard((1024,), batch=8, heads=16, d=64,
                                                  causal=True)),
        NotCheckable("End to end, FlashAttention trains BERT-large (sequence 512) 15% faster "
                     "than the MLPerf 1.1 record, GPT-2 (sequence 1K) 3× faster, and "
                     "long-range arena (sequences 1K–4K) 2.4× faster.", "abstract; §4.1",
                     "whole training runs on many GPUs, out of reach of this project's checks",
                     kind="speedup"),
    ))
