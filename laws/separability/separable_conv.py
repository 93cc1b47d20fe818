"""Separable convolution: a rank-1 kernel applied as a row pass then a column pass, and
the rank-2 kernel that cannot be split that way."""
from ..core import FAILS, Law, Property, Var


def conv2d(X, K, kh, kw):
    """Valid 2-D correlation: Y[i][j] = Σₐ Σ_b K[a][b]·X[i+a][j+b]."""
    rows, cols = X.shape
    return [[sum(K[a][b] * X[i + a][j + b] for a in range(kh) for b in range(kw))
             for j in range(cols - kw + 1)] for i in range(rows - kh + 1)]


def outer(u, v):
    return [[ua * vb for vb in v] for ua in u]


def separable(X, u, v):
    """Row pass with v (along j), then column pass with u (along i)."""
    rows, cols = X.shape
    kh, kw = len(u), len(v)
    R = [[sum(v[b] * X[i][j + b] for b in range(kw)) for j in range(cols - kw + 1)]
         for i in range(rows)]
    return [[sum(u[a] * R[i + a][j] for a in range(kh)) for j in range(cols - kw + 1)]
            for i in range(rows - kh + 1)]


_SHAPES = ({"H": 3, "W": 3, "kh": 2, "kw": 2}, {"H": 3, "W": 4, "kh": 2, "kw": 3},
           {"H": 4, "W": 3, "kh": 3, "kw": 1})

RANK1 = Law(
    id="separable_conv.rank1", property=Property.SEPARABILITY,
    statement="X ⋆ (u vᵀ) = (X ⋆_rows v) ⋆_cols u  (valid 2-D correlation)",
    licenses="a kh×kw kernel of rank 1 costs kh + kw multiplies per output instead of "
             "kh·kw: Gaussian and box blurs in OpenCV (sepFilter2D), Sobel filters, "
             "depthwise-separable-style factorized convolutions",
    vars=lambda H, W, kh, kw: (Var("X", (H, W)), Var("u", (kh,), tuple_state=False),
                               Var("v", (kw,), tuple_state=False)),
    lhs=lambda X, u, v, H, W, kh, kw: conv2d(X, outer(u, v), kh, kw),
    rhs=lambda X, u, v, **_: separable(X, u, v),
    instances=_SHAPES,
    bounded_by="image and kernel shapes (H, W, kh, kw) ∈ {(3,3,2,2), (3,4,2,3), (4,3,3,1)}, "
               "every entry a free real",
    doc="Σₐ Σ_b uₐ v_b X[i+a][j+b] = Σₐ uₐ (Σ_b v_b X[i+a][j+b]): the double sum of a "
        "product kernel splits. Proved by z3 over ℝ at the listed symbolic shapes (valid "
        "correlation, no padding). Does not cover padding modes or strides (they change "
        "which outputs exist, not the identity), and only rank-1 kernels: a rank-r kernel "
        "needs r separable passes summed.")


def _factors_from_kernel(K, kh, kw):
    """The factors a rank-1 kernel would give: its first column, and its first row
    divided by the corner."""
    u = [K[a][0] for a in range(kh)]
    v = [K[0][b] / K[0][0] for b in range(kw)]
    return u, v


def _split_general(X, K, kh, kw):
    u, v = _factors_from_kernel(K, kh, kw)
    return separable(X, u, v)


RANK2_KERNEL = Law(
    id="separable_conv.rank2_kernel", property=Property.SEPARABILITY, expect=FAILS,
    statement="X ⋆ K = (X ⋆_rows v) ⋆_cols u with u = K[:, 0], v = K[0, :]/K[0][0], "
              "for a general 2×2 kernel K (generically of rank 2)",
    licenses="nothing: only a rank-1 kernel separates; a rank-2 kernel needs two "
             "separable passes (or an SVD of the kernel), not one",
    vars=(Var("X", (3, 3)), Var("K", (2, 2))),
    lhs=lambda X, K: conv2d(X, K, 2, 2),
    rhs=lambda X, K: _split_general(X, K, 2, 2),
    pre=lambda X, K: [K[0][0] != 0],
    teaches="separable_conv.rank1",
    doc="For K = u vᵀ with u₀v₀ ≠ 0, K[:,0] (K[0,:]/K[0][0])ᵀ = K, and the split is exact. "
        "For a kernel of rank 2 (K[0][0]K[1][1] ≠ K[0][1]K[1][0]) it is not.")

LAWS = [RANK1, RANK2_KERNEL]
