from .core import Claim, Paper

PAPER = Paper(
    id="chan1979",
    title="Updating formulae and a pairwise algorithm for computing sample variances",
    authors="Tony F. Chan, Gene H. Golub, Randall J. LeVeque", year=1979,
    venue="Technical report STAN-CS-79-773, Stanford University",
    claims=(
        Claim("The (count, mean, M2) statistics of two subsets combine into those of "
              "their union, in any grouping.",
              ("welford.associative", "welford.identity", "welford.commutative"),
              "the pairwise updating formulae"),
        Claim("Adding the subsets' M2 without the term δ²·n·n'/(n+n') is wrong.",
              ("welford.variance_add",), "the pairwise updating formulae"),
        Claim("The textbook one-pass formula Σx² − (Σx)²/n is exact in exact arithmetic "
              "(its trouble is rounding, shown by the float verdicts).",
              ("pooled_variance.homomorphism",), "the textbook algorithm and its rounding errors"),
    ))
