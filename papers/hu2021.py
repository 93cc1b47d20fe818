from .core import Claim, Paper

PAPER = Paper(
    id="hu2021", title="LoRA: Low-Rank Adaptation of Large Language Models",
    authors="Edward J. Hu, Yelong Shen, Phillip Wallis, Zeyuan Allen-Zhu, Yuanzhi Li, "
            "Shean Wang, Lu Wang, Weizhu Chen",
    year=2021, venue="arXiv:2106.09685 (ICLR 2022)",
    claims=(
        Claim("A weight update ΔW = BA with B ∈ ℝ^{d×r}, A ∈ ℝ^{r×k} can be applied "
              "beside the frozen weight: h = W₀x + BAx, the same output as the merged "
              "weight W₀ + BA.",
              ("lora.factored_product",), "§4.1, low-rank-parametrized update matrices"),
        Claim("The factors must be applied in their order; swapping them does not give "
              "the update.", ("lora.wrong_order",), "§4.1"),
        Claim("The adapter trains r(d + k) parameters per d×k weight instead of dk.",
              ("lora.parameter_count",), "§4.1"),
        Claim("At deployment the product BA can be computed once and merged into W₀, so "
              "inference has no extra latency.",
              ("matmul_reassociation.premultiply", "lora.factored_product"),
              "§4.1, no additional inference latency"),
    ))
