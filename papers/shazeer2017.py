from .core import Claim, Paper

PAPER = Paper(
    id="shazeer2017",
    title="Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer",
    authors="Noam Shazeer, Azalia Mirhoseini, Krzysztof Maziarz, Andy Davis, Quoc Le, "
            "Geoffrey Hinton, Jeff Dean",
    year=2017, venue="arXiv:1701.06538 (ICLR 2017)",
    claims=(
        Claim("With gates G(x) = Softmax(KeepTopK(H(x), k)), experts whose gate is zero "
              "need not be computed: evaluating only the top k experts gives the output "
              "of the full mixture.",
              ("moe_topk.routing",), "§2.1, the gating network (noisy top-k gating)"),
    ))
