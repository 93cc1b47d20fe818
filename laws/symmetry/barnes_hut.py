"""Barnes–Hut: the far field of a cluster replaced by its total mass at its centre of
mass, with a rigorous bound on the error in terms of the opening angle θ = s/d."""
import math

from ..core import BOUNDED, SEARCH, Law, Property, Var

K = 3  # bodies in the cluster
# Allowance for the oracle's own rounding (it evaluates at 113 and 177 bits), relative to
# the size of the field, M/(d − s)²: without it a cluster of coincident bodies (s = 0,
# bound 0) would "break" the bound by the last bit of the centre of mass.
ORACLE_SLACK = 2.0 ** -90


def _norm(v):
    return math.sqrt(sum(c * c for c in v))


def centre_of_mass(bodies):
    M = sum(b[3] for b in bodies)
    return [sum(b[3] * b[a] for b in bodies) / M for a in range(3)], M


def cluster_geometry(bodies, r):
    """(centre c, total mass M, radius s = max_k |p_k − c|, distance d = |r − c|)."""
    c, M = centre_of_mass(bodies)
    s = max(_norm([b[a] - c[a] for a in range(3)]) for b in bodies)
    d = _norm([r[a] - c[a] for a in range(3)])
    return c, M, s, d


def field(p, m, r):
    """Acceleration at r due to mass m at p (G = 1): m·(p − r)/|p − r|³."""
    diff = [p[a] - r[a] for a in range(3)]
    n = _norm(diff)
    return [m * x / (n * n * n) for x in diff]


def exact(*args):
    """Σ_k field of body k: the direct sum over the cluster."""
    *bodies, r = args
    parts = [field(b[:3], b[3], r) for b in bodies]
    return [sum(f[a] for f in parts) for a in range(3)]


def monopole(*args):
    """The whole cluster as one mass M at its centre of mass."""
    *bodies, r = args
    c, M, _, _ = cluster_geometry(bodies, r)
    return field(c, M, r)


def monopole_bound(*args):
    """3·M·s²/(d − s)⁴ = (3M/d²)·θ²/(1 − θ)⁴ with θ = s/d, for every component, plus
    the oracle's rounding allowance 2⁻⁹⁰·M/(d − s)²."""
    *bodies, r = args
    _, M, s, d = cluster_geometry(bodies, r)
    return [3 * M * s * s / (d - s) ** 4 + ORACLE_SLACK * M / (d - s) ** 2] * 3


def opening_angle_below_one(*args):
    *bodies, r = args
    _, _, s, d = cluster_geometry(bodies, r)
    return [s < d]


MONOPOLE_BOUND = Law(
    id="barnes_hut.monopole_bound", property=Property.SYMMETRY,
    secondary=Property.LOCALITY, exactness=BOUNDED, method=SEARCH,
    statement="|Σ_k m_k(p_k − r)/|p_k − r|³ − M(c − r)/|c − r|³| ≤ (3M/d²)·θ²/(1 − θ)⁴, "
              "θ = s/d < 1",
    licenses="replace a distant cluster by one pseudo-body (O(N log N) instead of O(N²) "
             "force evaluations) with an opening-angle criterion that bounds the error: "
             "Barnes–Hut tree codes (GADGET, galaxy and molecular simulations, t-SNE's "
             "Barnes–Hut gradient)",
    vars=tuple(Var(f"b{k}", (4,), ("real", "real", "real", "positive"),
                   labels=("x", "y", "z", "m")) for k in range(K))
    + (Var("r", (3,), tuple_state=False),),
    lhs=exact, rhs=monopole, error_bound=monopole_bound, pre=opening_angle_below_one,
    reason="the bound involves square roots of sums of squares in denominators raised to "
           "the fourth power, beyond what z3's nonlinear real arithmetic decides; the "
           "searcher compares both sides with mpmath on random clusters and targets "
           "(cases with θ ≥ 1 do not meet the precondition and are not counted)",
    references=("barnes1986",), kernels=("nbody",),
    doc="Derivation. Let g(p) = (p − r)/|p − r|³, the field at r of a unit mass at p, and "
        "write each body as p_k = c + δ_k, |δ_k| ≤ s. Taylor's theorem with integral "
        "remainder: g(c + δ) = g(c) + Dg(c)δ + R, |R| ≤ ½·max_{t∈[0,1]} ‖D²g(c + tδ)‖·|δ|². "
        "Summed with the masses, the first-order term vanishes because c is the centre of "
        "mass (Σ m_k δ_k = 0); this is the symmetry the monopole approximation uses. "
        "Since g = −∇_p(1/|p − r|), D²g is minus the third derivative tensor of 1/|x| at "
        "x = p − r; its directional third derivative is 3!·P₃(cos γ)/|x|⁴ with |P₃| ≤ 1, "
        "and a symmetric trilinear form attains its norm on the diagonal (Banach), so "
        "‖D²g‖ ≤ 6/|p − r|⁴. On the segment |p − r| ≥ d − s. Hence "
        "|Σ m_k g(p_k) − M g(c)| ≤ 3·Σ m_k|δ_k|²/(d − s)⁴ ≤ 3Ms²/(d − s)⁴ "
        "= (3M/d²)·θ²/(1 − θ)⁴, for each component as well as the Euclidean norm. The "
        "bound is tight to leading order in θ (two equal masses on the line of sight err "
        "by 3Ms²/d⁴ + O(θ⁴)). The checked bound adds 2⁻⁹⁰·M/(d − s)² for the oracle's own "
        "rounding. Tested, not proved: 3 bodies with positive masses, random "
        "target, G = 1, no softening. Does not cover softened forces, quadrupole-corrected "
        "cells, or the accumulated error over a whole tree walk (each accepted cell adds "
        "its own bound; the sum is the walk's bound).")

LAWS = [MONOPOLE_BOUND]
