"""The book's preface: the headline figures behind "properties explain optimizations"."""
from __future__ import annotations

from .claims import CONDITIONAL, CONFIRMED, REFUTED, Arithmetic, Claim, arithmetic, outcome
from .core import Paper
from .seeds import BOOK, BOOK_TITLE, at
from .speedup import Speedup, flash_vs_standard

GPU_BYTES = 80e9     # the book's benchmark GPU: A100 80GB SXM (preface, "Benchmark Provenance")


def _lora_65b():
    params = 65e9
    weights = {bits: params * bits / 8 for bits in (16, 4)}
    fits = {bits: b <= GPU_BYTES for bits, b in weights.items()}
    lines = [f"  frozen weights at {bits}-bit: {b / 1e9:g} GB "
             f"({'fits' if fits[bits] else 'exceeds'} {GPU_BYTES / 1e9:g} GB)"
             for bits, b in weights.items()]
    if fits[16]:
        return outcome(CONFIRMED, "65B parameters at 16 bits fit one 80 GB GPU", *lines)
    if fits[4]:
        return outcome(CONDITIONAL,
                       "holds only with the frozen weights quantized to 4 bits (QLoRA, "
                       "Dettmers et al. 2023): 65B × 2 B = 130 GB exceeds one 80 GB GPU, "
                       "65B × 0.5 B = 32.5 GB fits", *lines)
    return outcome(REFUTED, "65B parameters do not fit one 80 GB GPU even at 4 bits", *lines)


PAPER = Paper(
    id="book_preface", title="Preface", authors=BOOK, year=2026,
    venue=f"{BOOK_TITLE}, preface",
    claims=(
        Speedup("FlashAttention delivers 2–4× speedups.", at("preface", "15", "Preface"),
                baseline="standard attention (S and P materialised, PyTorch)",
                candidate="FlashAttention-2 (torch SDPA flash backend)", claimed=(2.0, 4.0),
                measure=flash_vs_standard),
        Arithmetic("LoRA fine-tunes 65-billion-parameter models on a single GPU.",
                   at("preface", "15, 180", "Preface; Benchmark Provenance"), _lora_65b,
                   ("lora.factored_product",)),
        arithmetic("Mixtral matches models with 5× its compute budget.",
                   at("preface", "15", "Preface"), expr="active parameters of Llama 2 70B / "
                   "of Mixtral 8x7B", inputs={"llama2_70b": 70e9, "mixtral_active": 13e9},
                   formula=lambda llama2_70b, mixtral_active: llama2_70b / mixtral_active,
                   stated=5, rel_tol=0.10,
                   assumption="compute per token proportional to active parameters "
                              "(Jiang et al. 2024, abstract: 13B active, matches or beats "
                              "Llama 2 70B); the quality match is theirs, not checked here"),
        Claim("FlashAttention works because softmax, carried with the right state, is "
              "associative.", ("online_softmax.associative", "flash_state.associative"),
              at("preface", "21, 196", "Preface; §0.7")),
        Claim("LoRA works because a low-rank update can be applied as its factors.",
              ("lora.factored_product",), at("preface", "21, 196", "Preface; §0.7")),
        Claim("Mixtral's conditional computation: only the routed experts need computing.",
              ("moe_topk.routing",), at("preface", "21", "Preface")),
        Claim("Quantization works because weights carry fewer bits of information than they "
              "are stored with: int8 rounding errs by at most half a step.",
              ("int8_quantization.rounding",), at("preface", "196", "§0.7")),
    ))
