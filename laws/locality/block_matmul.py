"""Block matrix multiplication: the (I, J) block of a product from block products."""
from ..core import Law, Property, Var


def _clip(end, size):
    """min(end, size) for Python ints (index arithmetic stays integer in every
    interpretation)."""
    return end if end < size else size


def _blocks(size, step):
    return [(s, _clip(s + step, size)) for s in range(0, size, step)]


def blocked_product(A, B, bm, bn, bk):
    """C assembled block by block: C_IJ = Σ_K A_IK B_KJ, with ragged edge blocks."""
    m, n = A.shape
    p = B.shape[1]
    C = [[None] * p for _ in range(m)]
    for i0, i1 in _blocks(m, bm):
        for j0, j1 in _blocks(p, bn):
            acc = None
            for k0, k1 in _blocks(n, bk):
                part = A[i0:i1, k0:k1] @ B[k0:k1, j0:j1]
                acc = part if acc is None else acc + part
            for i in range(i0, i1):
                for j in range(j0, j1):
                    C[i][j] = acc[i - i0, j - j0]
    return C


_SHAPES = ({"m": 2, "n": 3, "p": 2, "bm": 1, "bn": 2, "bk": 1},
           {"m": 4, "n": 4, "p": 4, "bm": 2, "bn": 2, "bk": 2},
           {"m": 3, "n": 5, "p": 3, "bm": 2, "bn": 2, "bk": 2})

BLOCKS = Law(
    id="block_matmul.blocks", property=Property.LOCALITY, secondary=Property.ASSOCIATIVITY,
    statement="(AB)_IJ = Σ_K A_IK B_KJ for any partition of rows (I), columns (J) and the "
              "inner dimension (K) into contiguous blocks",
    licenses="tiled matrix multiplication: each program loads a bm×bk tile of A and a "
             "bk×bn tile of B into shared memory and accumulates a bm×bn tile of C "
             "(cuBLAS, CUTLASS, every Triton matmul)",
    vars=lambda m, n, p, **_: (Var("A", (m, n)), Var("B", (n, p))),
    lhs=lambda A, B, **_: A @ B,
    rhs=lambda A, B, m, n, p, bm, bn, bk: blocked_product(A, B, bm, bn, bk),
    instances=_SHAPES,
    bounded_by="symbolic shapes (m, n, p) with blocks (bm, bn, bk): (2,3,2) in 1×2×1 "
               "blocks, (4,4,4) in 2×2×2 blocks, (3,5,3) in 2×2×2 blocks with ragged "
               "edges",
    kernels=("matmul",),
    doc="The (i, j) entry Σₖ a_ik b_kj split over inner blocks K and regrouped: "
        "(AB)_IJ = Σ_K A_IK B_KJ. Proved by z3 over ℝ at the listed symbolic shapes, "
        "including blocks that do not divide the shape (ragged edges, the case kernels "
        "mask). Does not cover float rounding: the blocked sum adds partial sums in a "
        "different order (see the float verdicts; the matmul certificate bounds the "
        "error), nor split-K across programs (the same identity, with a sum across "
        "programs).")

LAWS = [BLOCKS]
