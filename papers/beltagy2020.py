from .core import Claim, Paper

PAPER = Paper(
    id="beltagy2020", title="Longformer: The Long-Document Transformer",
    authors="Iz Beltagy, Matthew E. Peters, Arman Cohan", year=2020,
    venue="arXiv:2004.05150",
    claims=(
        Claim("Sliding-window attention, where each token attends only to a fixed window "
              "of neighbours on each side, costs O(n·w) and is full attention restricted "
              "to a band of the attention matrix.",
              ("sliding_window_attention.band",), "§3.1, sliding window attention"),
    ))
