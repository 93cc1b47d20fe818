from .core import Claim, Paper

PAPER = Paper(
    id="eckart1936", title="The approximation of one matrix by another of lower rank",
    authors="Carl Eckart, Gale Young", year=1936, venue="Psychometrika 1(3), 211–218",
    claims=(
        Claim("Keeping the r largest terms of the singular value decomposition gives the "
              "best approximation of rank r. The paper proves it in the least-squares "
              "(Frobenius) norm; the law checks the spectral-norm form (Mirsky, 1960): "
              "the error is σ_{r+1} and no rank-r matrix does better.",
              ("low_rank_truncation.eckart_young",), "the main theorem"),
    ))
