"""Newton's third law for the softened gravitational pair force, and the near miss
that uses one body's mass only (an acceleration, which is not antisymmetric)."""
import triton.language as tl

from ..core import FAILS, Law, Property, Var

G = 1.0  # units with G = 1; a constant factor does not change the symmetry


def pair_force(ri, rj, mi, mj, eps):
    """Force on body i from body j: G·mᵢ·mⱼ·(rⱼ − rᵢ)/(|rⱼ − rᵢ|² + ε²)^{3/2}."""
    d = [b - a for a, b in zip(ri, rj)]
    r2 = sum(c * c for c in d) + eps * eps
    inv = 1.0 / (r2 * tl.sqrt(r2))
    return [G * mi * mj * c * inv for c in d]


def pull(ri, rj, mi, mj, eps):
    """The near miss: G·mⱼ·(rⱼ − rᵢ)/(…)^{3/2}, the acceleration of i (j's mass only)."""
    d = [b - a for a, b in zip(ri, rj)]
    r2 = sum(c * c for c in d) + eps * eps
    inv = 1.0 / (r2 * tl.sqrt(r2))
    return [G * mj * c * inv for c in d]


def _vars():
    vec = dict(tuple_state=False)
    return (Var("ri", (3,), **vec), Var("rj", (3,), **vec), Var("mi", (), "positive"),
            Var("mj", (), "positive"), Var("eps", (), "positive"))


ANTISYMMETRIC = Law(
    id="newton_third_law.antisymmetric", property=Property.SYMMETRY,
    statement="F(rᵢ, rⱼ, mᵢ, mⱼ) = −F(rⱼ, rᵢ, mⱼ, mᵢ), "
              "F = G·mᵢmⱼ(rⱼ − rᵢ)/(|rⱼ − rᵢ|² + ε²)^{3/2}",
    licenses="compute each pair force once and apply it to both bodies with opposite "
             "signs (half the pair evaluations of an all-pairs N-body step): GROMACS and "
             "LAMMPS neighbour lists with Newton's third law on, symmetric N-body codes",
    vars=_vars(),
    lhs=pair_force,
    rhs=lambda ri, rj, mi, mj, eps: [-f for f in pair_force(rj, ri, mj, mi, eps)],
    kernels=("nbody",),
    doc="The softened (Plummer) pair force in 3-D is antisymmetric under swapping the two "
        "bodies, for every positions, positive masses and positive softening ε. Proved "
        "by z3 over ℝ: the square root is a fresh symbol r ≥ 0 with r² = |d|² + ε², and "
        "the swapped pair's root is shown equal to it. Does not cover float rounding (in "
        "floats −(a − b) = b − a exactly, but the two roots are computed from the same "
        "squares, so a kernel that evaluates once and negates is exact), forces that "
        "depend on more than the pair (three-body terms), or ε = 0 at coincident "
        "bodies.")

ASYMMETRIC_FORCE = Law(
    id="newton_third_law.asymmetric_force", property=Property.SYMMETRY, expect=FAILS,
    statement="a(rᵢ, rⱼ, mⱼ) = −a(rⱼ, rᵢ, mᵢ), a = G·mⱼ(rⱼ − rᵢ)/(|rⱼ − rᵢ|² + ε²)^{3/2}",
    licenses="nothing: accelerations are not antisymmetric; negating body i's "
             "acceleration for body j is wrong unless the masses are equal — apply the "
             "force, then divide by each body's own mass",
    vars=_vars(),
    lhs=pull,
    rhs=lambda ri, rj, mi, mj, eps: [-f for f in pull(rj, ri, mj, mi, eps)],
    teaches="newton_third_law.antisymmetric",
    doc="aᵢⱼ = −(mⱼ/mᵢ)·aⱼᵢ: the pair trick applied to accelerations is off by the mass "
        "ratio.")

LAWS = [ANTISYMMETRIC, ASYMMETRIC_FORCE]
