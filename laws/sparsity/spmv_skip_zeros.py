"""Sparse matrix-vector product: the stored nonzeros alone give the dense product."""
from ..core import Law, Property, Var

# Sparsity patterns: "x" a stored entry, "." a structural zero.
_TRIDIAGONAL = ("xx.", "xxx", ".xx")
_IRREGULAR = ("x.x.", "....", ".xx.", "x..x")


def _nonzeros(pattern):
    return [(i, j) for i, row in enumerate(pattern) for j, c in enumerate(row) if c == "x"]


def csr(pattern, vals):
    """Compressed sparse rows: (row pointers, column indices, values)."""
    nz = _nonzeros(pattern)
    row_ptr = [0]
    for i in range(len(pattern)):
        row_ptr.append(row_ptr[-1] + sum(1 for r, _ in nz if r == i))
    return row_ptr, [j for _, j in nz], list(vals)


def densify(pattern, vals):
    """The dense matrix: stored values at their positions, 0 at structural zeros."""
    where = {ij: t for t, ij in enumerate(_nonzeros(pattern))}
    return [[vals[where[(i, j)]] if (i, j) in where else 0.0 for j in range(len(row))]
            for i, row in enumerate(pattern)]


def dense_matvec(vals, x, pattern):
    A = densify(pattern, vals)
    return [sum(A[i][j] * x[j] for j in range(len(x))) for i in range(len(A))]


def csr_matvec(vals, x, pattern):
    """yᵢ = Σ_{p ∈ row i} val[p]·x[col[p]]: one multiply per stored entry; an empty row
    gives 0."""
    row_ptr, col, val = csr(pattern, vals)
    return [sum((val[p] * x[col[p]] for p in range(row_ptr[i], row_ptr[i + 1])), 0.0)
            for i in range(len(pattern))]


def _vars(pattern):
    return (Var("vals", (len(_nonzeros(pattern)),), tuple_state=False),
            Var("x", (len(pattern[0]),), tuple_state=False))


SKIP = Law(
    id="spmv_skip_zeros.skip", property=Property.SPARSITY,
    statement="(Ax)ᵢ = Σ_{j: (i,j) stored} a_ij x_j when a_ij = 0 at every structural zero",
    licenses="store and multiply only the nonzeros (nnz multiplies instead of m·n): "
             "CSR sparse matrix-vector products in cuSPARSE, torch.sparse.mm, SciPy, "
             "and the sparse solvers built on them",
    vars=_vars,
    lhs=dense_matvec, rhs=csr_matvec,
    instances=({"pattern": _TRIDIAGONAL}, {"pattern": _IRREGULAR}),
    bounded_by="a 3×3 tridiagonal pattern and a 4×4 irregular pattern with an empty row; "
               "stored values and x free reals",
    doc="The sparsity pattern is given (structural zeros): the dense side builds the "
        "matrix with 0 at those positions and multiplies everything; the CSR side visits "
        "only the stored entries, row by row. Proved by z3 over ℝ for the two patterns "
        "listed. Does not cover explicitly stored zeros (harmless: they are just values), "
        "other formats (CSC, COO, blocked ELL — the same sum in another order), or "
        "non-finite x in floats, where 0·∞ = NaN makes the dense product differ.")

LAWS = [SKIP]
