from .core import Claim, Paper

PAPER = Paper(
    id="barnes1986", title="A hierarchical O(N log N) force-calculation algorithm",
    authors="Josh Barnes, Piet Hut", year=1986, venue="Nature 324, 446–449",
    claims=(
        Claim("A cell of size s seen from a distance d with s/d < θ can be replaced by "
              "its total mass at its centre of mass; the error of doing so is "
              "controlled by θ (the law states and checks the bound "
              "(3M/d²)·θ²/(1 − θ)⁴, with s the cluster's radius about its centre of "
              "mass rather than the cell's side).",
              ("barnes_hut.monopole_bound",), "main text: the cell-opening criterion"),
    ))
