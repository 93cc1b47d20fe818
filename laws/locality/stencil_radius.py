"""Stencil radius: each output depends only on the inputs within the radius."""
from ..core import Law, Property, Var
from .tiled_conv import conv1d, conv1d_at, conv2d, conv2d_at


def _window_1d(x, y, i, R):
    """x inside [i−R, i+R], the other symbols y outside."""
    return [x[j] if i - R <= j <= i + R else y[j] for j in range(len(x))]


def _window_2d(X, Y, i, j, R):
    n, m = X.shape
    return [[X[a][b] if abs(a - i) <= R and abs(b - j) <= R else Y[a][b]
             for b in range(m)] for a in range(n)]


def _vars(dims, n, R):
    if dims == 1:
        vec = dict(tuple_state=False)
        return (Var("x", (n,), **vec), Var("y", (n,), **vec), Var("w", (2 * R + 1,), **vec))
    return (Var("X", (n, n)), Var("Y", (n, n)), Var("w", (2 * R + 1, 2 * R + 1)))


def _outputs(x, y, w, dims, n, R):
    if dims == 1:
        return conv1d(x, w, R)
    return conv2d(x, w, R)


def _outputs_from_windows(x, y, w, dims, n, R):
    """Output i recomputed after every input outside its window was replaced."""
    if dims == 1:
        return [conv1d_at(_window_1d(x, y, i, R), w, R, i) for i in range(n)]
    return [[conv2d_at(_window_2d(x, y, i, j, R), w, R, i, j) for j in range(n)]
            for i in range(n)]


WINDOW = Law(
    id="stencil_radius.window", property=Property.LOCALITY,
    statement="f(x)ᵢ = f(x′)ᵢ whenever x′ⱼ = xⱼ for all |j − i| ≤ R (f a radius-R "
              "stencil: zero-padded correlation with a (2R+1)-point kernel)",
    licenses="a tile of outputs needs only the inputs within R of it, which is what makes "
             "halo exchange between GPUs or MPI ranks (domain decomposition in stencil "
             "codes, tiled convolutions) and temporal blocking correct",
    vars=_vars,
    lhs=_outputs, rhs=_outputs_from_windows,
    instances=({"dims": 1, "n": 5, "R": 1}, {"dims": 1, "n": 6, "R": 2},
               {"dims": 2, "n": 4, "R": 1}),
    bounded_by="1-D signals of 5 (R = 1) and 6 (R = 2) samples; a 4×4 image with a "
               "3×3 kernel (R = 1)",
    doc="The dependence cone of one output: replacing every input outside the window "
        "[i−R, i+R] (in 2-D the (2R+1)² square) by an unrelated free symbol y leaves "
        "output i unchanged. Proved by z3 over ℝ, one output at a time, at the listed "
        "sizes, for the zero-padded correlation of tiled_conv (any kernel weights). Does "
        "not cover iterated stencils (k steps have radius kR) or other boundary "
        "conditions (periodic boundaries wrap the window around).")

LAWS = [WINDOW]
