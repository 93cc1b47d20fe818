"""Rotary position embeddings: rotating the query by its position's angle and the key
by its own makes their score depend only on the relative position (shift invariance);
and rotating only the query, which does not."""
from ..core import FAILS, Law, Property, Var


def _vars(**_):
    """q, k ∈ ℝ⁴ (two rotation pairs) and each pair's unit-circle point (cos θ_f, sin θ_f),
    θ_f the pair's frequency: symbolic, with c² + s² = 1."""
    return (Var("q", (4,), tuple_state=False), Var("k", (4,), tuple_state=False),
            Var("f1", (2,), labels=("c", "s")), Var("f2", (2,), labels=("c", "s")))


def _unit(q, k, f1, f2, **_):
    return [f1[0] * f1[0] + f1[1] * f1[1] == 1, f2[0] * f2[0] + f2[1] * f2[1] == 1]


def _angle(f, m):
    """(cos mθ, sin mθ) by the angle-addition formulas, from (cos θ, sin θ)."""
    c, s = 1, 0
    for _ in range(m):
        c, s = c * f[0] - s * f[1], s * f[0] + c * f[1]
    return c, s


def rotate(v, freqs, m, rotate_it=True):
    """RoPE at position m: pair (v_{2i}, v_{2i+1}) rotated by m·θ_i."""
    out = []
    for i, f in enumerate(freqs):
        c, s = _angle(f, m) if rotate_it else (1, 0)
        a, b = v[2 * i], v[2 * i + 1]
        out += [a * c - b * s, a * s + b * c]
    return out


def score(q, k, freqs, m, n, keys=True):
    rq, rk = rotate(q, freqs, m), rotate(k, freqs, n, rotate_it=keys)
    return sum(x * y for x, y in zip(rq, rk))


def _shifted(q, k, f1, f2, m, n, t, keys=True):
    return score(q, k, (f1, f2), m + t, n + t, keys)


def _unshifted(q, k, f1, f2, m, n, t, keys=True):
    return score(q, k, (f1, f2), m, n, keys)


_INSTANCES = ({"m": 0, "n": 1, "t": 1}, {"m": 1, "n": 0, "t": 2}, {"m": 2, "n": 1, "t": 1})

RELATIVE_POSITION = Law(
    id="rotary.relative_position", property=Property.SYMMETRY,
    statement="⟨R_{m+t}q, R_{n+t}k⟩ = ⟨R_m q, R_n k⟩ (R_m rotates pair i by m·θ_i): the "
              "score depends only on n − m",
    licenses="encode positions by rotating queries and keys, so attention sees only "
             "relative positions: cached keys never need re-encoding as the sequence "
             "grows, and the encoding composes with the KV cache and prefix sharing "
             "(RoPE in LLaMA, Mistral, Qwen; position interpolation rescales θ)",
    vars=_vars, pre=_unit, lhs=_shifted, rhs=_unshifted, instances=_INSTANCES,
    bounded_by="q, k ∈ ℝ⁴ (two frequencies, each a symbolic point on the unit circle), "
               "positions and shifts (m, n, t) ∈ {(0, 1, 1), (1, 0, 2), (2, 1, 1)}",
    float_check=False,
    doc="R_mᵀR_n = R_{n−m} for rotations: the rotation by mθ is undone by the transpose, "
        "so ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m}k⟩. Proved by z3 over ℝ for every angle: cos and "
        "sin are a symbolic pair (c, s) with c² + s² = 1 and cos mθ, sin mθ are built by "
        "the angle-addition formulas (polynomial identities), at the three position "
        "triples listed, d = 4. Does not cover float rounding (large positions lose "
        "the angle's low bits), nor the decay of scores with distance that RoPE is also "
        "credited with (a property of the frequency schedule, not an identity).")

QUERY_ONLY = Law(
    id="rotary.query_only", property=Property.SYMMETRY, expect=FAILS,
    statement="⟨R_{m+t}q, k⟩ = ⟨R_m q, k⟩ (only the query rotated)",
    licenses="nothing: the key must be rotated by its own position for the angles to "
             "cancel; rotating only queries encodes the query's absolute position",
    vars=_vars, pre=_unit,
    lhs=lambda q, k, f1, f2, m, n, t: _shifted(q, k, f1, f2, m, n, t, keys=False),
    rhs=lambda q, k, f1, f2, m, n, t: _unshifted(q, k, f1, f2, m, n, t, keys=False),
    instances=({"m": 0, "n": 1, "t": 1},), teaches="rotary.relative_position",
    float_check=False,
    doc="⟨R_t q, k⟩ ≠ ⟨q, k⟩ unless the rotation by t happens to fix the score.")

LAWS = [RELATIVE_POSITION, QUERY_ONLY]
