"""Mamba's chunked scan: the recurrence h_t = a_t·h_{t−1} + b_t computed as a scan inside
each chunk (from h = 0), a scan over the chunks' (decay, final state) pairs, and a
correction of every position by the carried state times its decay so far; and the
correction that forgets the decay."""
from ..core import FAILS, Law, Property, Var


def _vars(n, C):
    return (Var("a", (n,), tuple_state=False), Var("b", (n,), tuple_state=False))


def sequential(a, b, n, C):
    h, out = 0, []
    for t in range(n):
        h = a[t] * h + b[t]
        out.append(h)
    return out


def chunked(a, b, n, C, decay=True):
    """Within chunk c: local states l_t from 0 and running decays Π a. Across chunks: the
    carried state H_c = A_c·H_{c−1} + l_end(c) (a scan of chunk summaries). Then
    h_t = l_t + (Π_{chunk start ≤ s ≤ t} a_s)·H_{c−1}."""
    local, prods = [], []
    for start in range(0, n, C):
        h, p = 0, 1
        for t in range(start, min(start + C, n)):
            h = a[t] * h + b[t]
            p = p * a[t]
            local.append(h)
            prods.append(p)
    out, carry = [], 0
    for start in range(0, n, C):
        end = min(start + C, n)
        for t in range(start, end):
            out.append(local[t] + (prods[t] if decay else 1) * carry)
        carry = prods[end - 1] * carry + local[end - 1]
    return out


_SIZES = ({"n": 4, "C": 2}, {"n": 6, "C": 2}, {"n": 6, "C": 3}, {"n": 5, "C": 2}, {"n": 8, "C": 4})

TWO_LEVEL = Law(
    id="mamba_chunked_scan.two_level", property=Property.ASSOCIATIVITY,
    secondary=Property.LOCALITY,
    statement="h_t = l_t + (Π_{s ∈ chunk, s ≤ t} a_s)·H_{c−1} with l the scan inside the "
              "chunk from 0 and H the scan of the chunks' (Π a, l_end) = the sequential "
              "h_t = a_t h_{t−1} + b_t",
    licenses="compute a selective-state-space layer in chunks that fit in SRAM: a scan "
             "inside each chunk in parallel, a short scan over chunk states, then one "
             "correction per position (Mamba's and Mamba-2's chunked scan kernels, "
             "the book's chapter 36 Triton sketch)",
    vars=_vars, lhs=sequential, rhs=chunked, instances=_SIZES,
    bounded_by="(length n, chunk C) ∈ {(4, 2), (6, 2), (6, 3), (5, 2), (8, 4)} ((5, 2) with "
               "a partial chunk); scalar state (a diagonal A: each state channel an "
               "independent copy); every a_t, b_t a free real",
    float_check=False, references=("gu2023",),
    doc="Each chunk is an affine map h ↦ A_c·h + l_end(c) (the linear_recurrence monoid), "
        "so the carried states are a scan of chunk summaries, and inside a chunk the "
        "state at t is the local state plus the carried state decayed by the a's so far. "
        "Proved by z3 over ℝ at the five sizes listed (polynomial identities); the "
        "linear_recurrence laws prove the combine's associativity for every length. "
        "Does not cover the discretization (a_t = exp(Δ_t·A)), the output projection "
        "C·h, or float rounding (the chunked products round differently).")

NO_DECAY_CARRY = Law(
    id="mamba_chunked_scan.no_decay_carry", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="h_t = l_t + H_{c−1} (the carried state added without its decay)",
    licenses="nothing: the state carried into a chunk decays at every step of the chunk, "
             "as the recurrence does",
    vars=_vars, lhs=sequential, rhs=lambda a, b, n, C: chunked(a, b, n, C, decay=False),
    instances=({"n": 4, "C": 2},), teaches="mamba_chunked_scan.two_level",
    float_check=False,
    doc="Wrong whenever a carried state is nonzero and some a_s ≠ 1 in the next chunk.")

LAWS = [TWO_LEVEL, NO_DECAY_CARRY]
