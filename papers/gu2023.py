from .core import Claim, Paper

PAPER = Paper(
    id="gu2023", title="Mamba: Linear-time sequence modeling with selective state spaces",
    authors="Albert Gu, Tri Dao", year=2023, venue="arXiv:2312.00752",
    claims=(
        Claim("The selective (input-dependent) recurrence h_t = Ā_t h_{t−1} + B̄_t x_t "
              "can be computed with a parallel scan.",
              ("linear_recurrence.associative", "linear_recurrence.identity",
               "affine_recurrence.matrix_form")),
    ))
