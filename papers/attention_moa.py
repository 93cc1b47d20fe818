"""Attention at the Theoretical Minimum (a Mathematics of Arrays normal form), as known
from a review and its quoted abstract: its data-movement, exactness and energy claims."""
from __future__ import annotations

from .attention_io import best_fused, compulsory_words, query_outer, standard
from .claims import (CONDITIONAL, CONFIRMED, REFUTED, Arithmetic, DataMovement,
                     NotCheckable, Numerical, outcome)
from .core import Paper
from .iomodel import TwoLevelMemory
from .seeds import at

M_A100 = 192 * 1024 // 2   # Dao et al. 2022 §2.1: 192 KB SRAM per SM, 2-byte elements
D = 64


def _standard_quadratic():
    rows = []
    for n in (256, 512, 1024, 2048):
        mem = TwoLevelMemory(M_A100)
        standard(mem, n, D, D)
        rows.append((n, mem.words, mem.words / (n * n + 2 * n * D)))
    spread = max(r for *_, r in rows) / min(r for *_, r in rows)
    ok = spread <= 1.5
    return outcome(CONFIRMED if ok else REFUTED,
                   f"the standard schedule moves Θ(n² + n·d) words (d_k = d_v = {D}, M = "
                   f"{M_A100:,}): words / (n² + 2nd) = "
                   + ", ".join(f"{r:.2f} at n = {n}" for n, _, r in rows))


def _dnf_linear():
    rows = []
    for n in (512, 1024, 4096, 16384):
        mem = best_fused(M_A100, n, D, D)
        rows.append((n, mem.words / compulsory_words(n, D, D), n * n * D * D / M_A100))
    n_max = (M_A100 - 2 * D) // (2 * D + 1)    # K, V resident with one query row
    bounded = [n for n, ratio, _ in rows if ratio <= 1.0 + 1e-9]
    table = [f"  n = {n}: {ratio:.2f}× the compulsory 2n(d_k + d_v) words; "
             f"n²d²/M = {lb:,.0f}" for n, ratio, lb in rows]
    if len(bounded) == len(rows):
        return outcome(CONFIRMED, "compulsory traffic at every n tried", *table)
    if bounded:
        return outcome(CONDITIONAL,
                       f"O(n·d_k + n·d_v) holds only while K and V fit in fast memory, "
                       f"M ≥ n(d_k + d_v + 1) + d_k + d_v (n ≤ {n_max:,} for M = {M_A100:,} "
                       f"words, d = {D}); beyond it the best intermediate-free schedule's "
                       "traffic grows like n²d²/M, the lower bound of Dao et al. 2022 "
                       "(Prop. 3) for M ∈ [d, nd]", *table)
    return outcome(REFUTED, "never compulsory at this fast-memory size", *table)


def _no_intermediates():
    mem = TwoLevelMemory(M_A100)
    query_outer(mem, 1024, 1024, D, D, 128, 64)
    written = dict(mem.writes)
    ok = set(written) == {"O"} and written["O"] == 1024 * D and not mem.scratch
    return outcome(CONFIRMED if ok else REFUTED,
                   f"an intermediate-free schedule (the FlashAttention order) writes only O "
                   f"({written.get('O', 0):,} words for n = 1024, d = {D}) and keeps no array "
                   "in slow memory besides Q, K, V, O",
                   "  (so does FlashAttention since 2022; the claim of novelty is not checked)")


def _exact_agreement():
    from .agreement import attention_orders, smallest_witness, ulps
    results = attention_orders()
    fused, torch_paths = results[("textbook", "one-pass")], results[("textbook", "sdpa")]
    witness = smallest_witness()
    if fused.differing == 0 and witness is None:
        return outcome(CONFIRMED, "bitwise equal on every adversarial input tried")
    within = max(fused.rho, fused.rho_a, fused.rho_b) <= 1
    head = ("two evaluation orders of the same attention differ in float64"
            + (f" by up to {fused.max_rel:.3g} relative (machine epsilon 2⁻⁵² ≈ 2.2e-16)"
               if fused.max_rel else "")
            + (f"; they stay within the rounding bound (ρ = {fused.rho:.3g} ≤ 1): agreement "
               "to rounding, not exact" if within else
               f"; beyond the rounding bound (ρ = {max(fused.rho, fused.rho_a, fused.rho_b):.3g})"))
    lines = [f"  PyTorch softmax(QKᵀ/√d)·V vs a one-pass order (key blocks of 8 folded with "
             f"flash_state): {fused.differing} of {fused.entries} entries differ; max |Δ| = "
             f"{fused.max_abs:.3g}, worst relative on '{fused.worst_case}'; against a 113-bit "
             f"oracle ρ = {fused.rho_a:.3g} and {fused.rho_b:.3g}",
             f"  PyTorch's own SDPA (default CPU path) vs its textbook formula: "
             f"{torch_paths.differing} of {torch_paths.entries} entries differ"]
    if witness:
        s, v, a, b = witness
        lines.insert(0, f"  smallest case: one query, scores {s}, values {v}: softmax then "
                        f"weights gives {a!r}, one pass (blocks of 2, then o/ℓ) gives {b!r} "
                        f"({ulps(a, b)} ulp; replay papers.agreement.smallest_witness())")
    return outcome(REFUTED, head, *lines)


# Horowitz, "Computing's energy problem", ISSCC 2014, 45 nm: pJ per operation
ENERGY_PJ = {"dram_32b_read": 640.0, "fp32_add": 0.9, "fp32_mult": 3.7, "int32_add": 0.1}


def _energy_ratio():
    dram = ENERGY_PJ["dram_32b_read"]
    ratios = {op: dram / e for op, e in ENERGY_PJ.items() if op != "dram_32b_read"}
    inside = {op for op, r in ratios.items() if 100 <= r <= 1000}
    text = ", ".join(f"{op} {r:,.0f}×" for op, r in ratios.items())
    if inside == set(ratios):
        return outcome(CONFIRMED, f"DRAM read / operation energy: {text}")
    if inside:
        return outcome(CONDITIONAL,
                       f"within 100–1000× for floating-point operations only (Horowitz 2014, "
                       f"45 nm): {text}")
    return outcome(REFUTED, f"outside 100–1000×: {text}")


PAPER = Paper(
    id="attention_moa",
    title="Attention at the Theoretical Minimum: A Mathematics of Arrays Framework for "
          "Memory-Optimal Transformer Kernels",
    authors="not named in the review", year=2026,
    venue="known from a Pith review (2026-06-27) quoting its abstract",
    claims=(
        DataMovement("The standard implementation of attention moves O(n² + n·d_k + n·d_v) "
                     "data: quadratic in the sequence length.",
                     at("moa", "7, 25", "Core claim; abstract"), _standard_quadratic),
        DataMovement("The normal form moves only O(n·d_k + n·d_v) data for any n, and this "
                     "memory minimality is a theorem.", at("moa", "7, 25", "Core claim; abstract"),
                     _dnf_linear, ("flash_state.associative",)),
        DataMovement("The normal form removes the transposed-key buffer, every softmax "
                     "temporary and all other intermediate arrays.",
                     at("moa", "7, 25", "Core claim; abstract"), _no_intermediates,
                     ("flash_state.associative",)),
        Numerical("The normal form agrees exactly with PyTorch's attention at double "
                  "precision, for every input.",
                  at("moa", "7, 20, 22, 25", "Core claim; load-bearing premise; abstract"),
                  _exact_agreement, ("flash_state.associative",)),
        Arithmetic("A DRAM access costs 100–1000× the energy of an arithmetic operation.",
                   at("moa", "25", "abstract"), _energy_ratio),
        NotCheckable("A predictive model projects 2–100× speedup and 2–50× energy reduction, "
                     "widening at exascale.", at("moa", "11, 25", "abstract"),
                     "a projection of a model neither the review nor the abstract gives, for "
                     "kernels not available to run", kind="speedup"),
    ))
