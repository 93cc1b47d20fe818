from .core import Claim, Paper

PAPER = Paper(
    id="vaswani2017", title="Attention Is All You Need",
    authors="Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, "
            "Aidan N. Gomez, Łukasz Kaiser, Illia Polosukhin",
    year=2017, venue="arXiv:1706.03762 (NeurIPS 2017)",
    claims=(
        Claim("Attention has no recurrence and no convolution, so on its own it does not "
              "use the order of the sequence (which is why positional encodings are "
              "added): permuting the keys with their values changes no output, and "
              "permuting the queries permutes the outputs.",
              ("attention_permutation.keys_values", "attention_permutation.queries"),
              "§3.5, positional encoding"),
    ))
