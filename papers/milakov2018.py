from .core import Claim, Paper

PAPER = Paper(
    id="milakov2018", title="Online normalizer calculation for softmax",
    authors="Maxim Milakov, Natalia Gimelshein", year=2018, venue="arXiv:1805.02867",
    claims=(
        Claim("The running (max, normalizer) pair can be updated one element at a time "
              "and gives the softmax normalizer of the whole row.",
              ("online_softmax.homomorphism",)),
        Claim("Partial (max, normalizer) pairs of separate chunks can be merged in any "
              "grouping, which permits parallel reduction.",
              ("online_softmax.associative", "online_softmax.identity")),
        Claim("Merging without rescaling both partial sums is wrong.",
              ("online_softmax.no_rescale",)),
    ))
