from .core import Claim, Paper

PAPER = Paper(
    id="blelloch1990", title="Prefix sums and their applications",
    authors="Guy E. Blelloch", year=1990,
    venue="Technical report CMU-CS-90-190, Carnegie Mellon University",
    claims=(
        Claim("The up-sweep/down-sweep scan computes the same prefixes as the sequential "
              "scan for any associative operator with an identity.",
              ("blelloch_scan.equals_sequential",),
              "the tree implementation (up-sweep, down-sweep)"),
        Claim("A linear recurrence x_i = a_i x_{i−1} + b_i is a scan over pairs with an "
              "associative operator.",
              ("linear_recurrence.associative", "linear_recurrence.identity",
               "linear_recurrence.homomorphism"), "the section on recurrence equations"),
        Claim("Any associative reduction can be split into contiguous pieces reduced "
              "independently.", ("chunked_fold.equals_fold", "sum.associative"),
              "the definition of scan over an associative operator"),
    ))
