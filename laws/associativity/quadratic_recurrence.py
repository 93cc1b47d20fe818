"""A computation with none of the six properties: h_t = h_{t−1}² + x_t. Its steps do not
compose into a step of the same form, so no fixed-size state summarizes a chunk."""
from ..core import FAILS, Law, Property, Var


def step(h, x):
    return h * h + x


CLOSED_SUMMARY = Law(
    id="quadratic_recurrence.closed_summary", property=Property.ASSOCIATIVITY,
    expect=FAILS,
    statement="g_{x₂}(g_{x₁}(h)) = g_y(h) with y = x₁² + x₂, g_x(h) = h² + x (two steps "
              "summarized as one step)",
    licenses="nothing: composing two steps gives (h² + x₁)² + x₂, a polynomial of degree "
             "4 in h; n steps give degree 2ⁿ, so a chunk has no summary of fixed size "
             "and the recurrence cannot be chunked or scanned in parallel",
    vars=(Var("h"), Var("x1"), Var("x2")),
    lhs=lambda h, x1, x2: step(step(h, x1), x2),
    rhs=lambda h, x1, x2: step(h, x1 * x1 + x2),
    float_check=False, teaches="linear_recurrence.associative",
    doc="The contrast with h_t = a_t·h_{t−1} + b_t: affine maps compose into affine maps "
        "(two numbers per chunk, the linear_recurrence monoid), quadratic maps do not "
        "compose into quadratic maps. The summary that does exist — the composed "
        "polynomial — doubles in degree with every step. None of the six properties "
        "applies: no chunkable state (associativity), no factorization (separability), "
        "every h_t depends on every earlier x through the chain (no locality), no zeros "
        "to skip (sparsity), nothing computed twice (redundancy), no transformation "
        "that leaves it unchanged (symmetry). What remains is constant-factor work: "
        "keeping h in registers, fusing the loop.")

LAWS = [CLOSED_SUMMARY]
