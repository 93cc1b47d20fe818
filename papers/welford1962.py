from .core import Claim, Paper

PAPER = Paper(
    id="welford1962",
    title="Note on a method for calculating corrected sums of squares and products",
    authors="B. P. Welford", year=1962, venue="Technometrics 4(3), 419–420",
    claims=(
        Claim("The running mean and sum of squared deviations, updated one value at a "
              "time, give the sample mean and variance.", ("welford.homomorphism",),
              "the updating formulae"),
    ))
