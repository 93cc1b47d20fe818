"""Truncated SVD: the best rank-r approximation and its error (Eckart–Young)."""
import mpmath

from ..core import BOUNDED, SEARCH, Law, Property, Var

# Allowance for the oracle's own SVD (computed at 113 and 177 bits), relative to σ₁.
SVD_SLACK = mpmath.mpf(2) ** -90


def _matrix(A):
    return mpmath.matrix([[A[i, j] for j in range(A.shape[1])] for i in range(A.shape[0])])


_SVD_CACHE: dict = {}


def _svd(A):
    """(U, σ, V) with A = U diag(σ) V, σ descending (mpmath.svd_r). Memoized per matrix
    and working precision: both sides and the bound of one case share one SVD. The key
    holds the entries' raw mpf tuples, never mpf numbers: looking a number key up
    compares mpf numbers, and the oracle logs every comparison in a law's code as a
    branch, so whether the SVD was memoized would change the branches it sees."""
    M = _matrix(A)
    key = (mpmath.mp.prec, tuple(M[i, j]._mpf_ for i in range(M.rows) for j in range(M.cols)))
    if key not in _SVD_CACHE:
        if len(_SVD_CACHE) > 64:
            _SVD_CACHE.clear()
        _SVD_CACHE[key] = mpmath.svd_r(M)
    return _SVD_CACHE[key]


def _spectral_norm(M):
    """‖M‖₂ for a matrix with two columns, in closed form (independent of the SVD that
    produced A_r): the square root of the larger eigenvalue of the 2×2 Gram matrix
    MᵀM = [[a, b], [b, c]], (a + c)/2 + √(((a − c)/2)² + b²)."""
    a = sum(M[i, 0] ** 2 for i in range(M.rows))
    c = sum(M[i, 1] ** 2 for i in range(M.rows))
    b = sum(M[i, 0] * M[i, 1] for i in range(M.rows))
    return mpmath.sqrt((a + c) / 2 + mpmath.sqrt(((a - c) / 2) ** 2 + b * b))


def _sigma(S, i):
    return S[i] if i < S.rows else mpmath.mpf(0)


def _truncate(U, S, V, r):
    m, n = U.rows, V.cols
    return mpmath.matrix([[sum(U[i, t] * S[t] * V[t, j] for t in range(min(r, S.rows)))
                           for j in range(n)] for i in range(m)])


def _product(P, Q):
    return mpmath.matrix([[sum(P[i, t] * Q[t, j] for t in range(P.shape[1]))
                           for j in range(Q.shape[1])] for i in range(P.shape[0])])


def _lhs(A, P, Q, x, r, **_):
    U, S, V = _svd(A)
    M = _matrix(A)
    residual = _spectral_norm(M - _truncate(U, S, V, r))
    competitor = _spectral_norm(M - _product(P, Q))
    matvec = [sum(A[i, j] * x[j] for j in range(A.shape[1])) for i in range(A.shape[0])]
    return [residual, min(competitor, _sigma(S, r))] + matvec


def _rhs(A, P, Q, x, r, **_):
    U, S, V = _svd(A)
    Ar = _truncate(U, S, V, r)
    sigma = _sigma(S, r)
    matvec = [sum(Ar[i, j] * x[j] for j in range(A.shape[1])) for i in range(A.shape[0])]
    return [sigma, sigma] + matvec


def _bound(A, P, Q, x, r, **_):
    _, S, _ = _svd(A)
    slack = SVD_SLACK * _sigma(S, 0)
    xnorm = mpmath.sqrt(sum(xi * xi for xi in x))
    return [slack, slack] + [(_sigma(S, r) + slack) * xnorm] * A.shape[0]


ECKART_YOUNG = Law(
    id="low_rank_truncation.eckart_young", property=Property.SEPARABILITY,
    exactness=BOUNDED, method=SEARCH,
    statement="‖A − A_r‖₂ = σ_{r+1} ≤ ‖A − PQ‖₂ for every rank-r PQ; "
              "|(Ax − A_r x)ᵢ| ≤ σ_{r+1}‖x‖₂, A_r = Σ_{t≤r} σ_t u_t v_tᵀ",
    licenses="replace a weight by its rank-r truncated SVD with a known worst-case error "
             "(SVD compression of linear layers, PiSSA's and SVD-LLM's low-rank "
             "initializations and compressions), and know no rank-r factorization does "
             "better in the spectral norm",
    vars=lambda m, n, r: (Var("A", (m, n)), Var("P", (m, r)), Var("Q", (r, n)),
                          Var("x", (n,), tuple_state=False)),
    lhs=_lhs, rhs=_rhs, error_bound=_bound,
    instances=({"m": 3, "n": 2, "r": 1},),
    bounded_by="3×2 matrices, rank r = 1",
    reason="the truncated SVD has no closed form over z3's reals (singular values are "
           "roots of the characteristic polynomial of AᵀA); the searcher compares the "
           "claims on random matrices with mpmath's SVD (svd_r) at 113 and 177 bits",
    references=("eckart1936",),
    doc="Eckart–Young–Mirsky in the spectral norm, three components checked on each "
        "case: (1) the truncation error ‖A − A_r‖₂ (A_r from mpmath's SVD, the norm in "
        "closed form from the 2×2 Gram matrix, independently of that SVD) equals "
        "σ_{r+1}; (2) a random rank-r "
        "competitor PQ does no better: ‖A − PQ‖₂ ≥ σ_{r+1}; (3) applying A_r to x errs "
        "by at most σ_{r+1}‖x‖₂ in every component. Each bound carries an allowance of "
        "2⁻⁹⁰·σ₁ for the oracle's own SVD, so (1) is checked as |‖A − A_r‖₂ − σ_{r+1}| "
        "≤ 2⁻⁹⁰σ₁. Tested, not proved, on 3×2 matrices at r = 1. Does not cover "
        "the Frobenius-norm version (error √(Σ_{t>r} σ_t²)), the float error of computing "
        "the SVD, or random competitors near the optimum (a random PQ is rarely close, "
        "so (2) is a weak test).")

LAWS = [ECKART_YOUNG]
