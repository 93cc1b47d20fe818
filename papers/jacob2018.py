from .core import Claim, Paper

PAPER = Paper(
    id="jacob2018",
    title="Quantization and Training of Neural Networks for Efficient "
          "Integer-Arithmetic-Only Inference",
    authors="Benoit Jacob, Skirmantas Kligys, Bo Chen, Menglong Zhu, Matthew Tang, "
            "Andrew Howard, Hartwig Adam, Dmitry Kalenichenko",
    year=2018, venue="arXiv:1712.05877 (CVPR 2018)",
    claims=(
        Claim("Real values are represented as r = S(q − Z) with an 8-bit integer q and a "
              "real scale S. With Z = 0 (symmetric; the laws use one scale per output "
              "channel), rounding to the nearest q errs by at most S/2 and q fits in 8 "
              "bits.",
              ("int8_quantization.rounding",), "§2.1, quantization scheme"),
        Claim("A matrix product can be computed on the integers, with the scales applied "
              "afterwards; its error follows from the per-value rounding error.",
              ("int8_quantization.matmul_bound",),
              "§2.2, integer-arithmetic-only matrix multiplication"),
        Claim("What is rounded is the value divided by the scale, not the scale.",
              ("int8_quantization.round_scale",), "§2.1"),
    ))
