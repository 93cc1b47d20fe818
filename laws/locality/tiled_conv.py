"""Tiled convolution: output tiles from input tiles extended by a halo of the kernel's
radius, and the tiles that forget the halo."""
from ..core import FAILS, Law, Property, Var


def _clip(end, size):
    """min(end, size) for Python ints (index arithmetic stays integer in every
    interpretation)."""
    return end if end < size else size


def conv1d_at(x, w, R, i):
    """Output i of the 'same' 1-D correlation with zero padding:
    y[i] = Σ_{t=-R..R} w[t+R]·x[i+t], terms outside the signal left out."""
    n = len(x)
    return sum(w[t + R] * x[i + t] for t in range(-R, R + 1) if 0 <= i + t < n)


def conv1d(x, w, R):
    return [conv1d_at(x, w, R, i) for i in range(len(x))]


def conv2d_at(X, w, R, i, j):
    """Output (i, j) of the 'same' 2-D correlation with zero padding and a
    (2R+1)×(2R+1) kernel."""
    H, W = len(X), len(X[0])
    return sum(w[a + R][b + R] * X[i + a][j + b]
               for a in range(-R, R + 1) for b in range(-R, R + 1)
               if 0 <= i + a < H and 0 <= j + b < W)


def conv2d(X, w, R):
    return [[conv2d_at(X, w, R, i, j) for j in range(len(X[0]))] for i in range(len(X))]


def tiled_conv1d(x, w, R, T, halo):
    """Each tile of T outputs loads its inputs plus ``halo`` on each side (zero outside
    the signal, as a masked load gives), and convolves that local buffer."""
    n = len(x)
    out = []
    for s in range(0, n, T):
        e = _clip(s + T, n)
        buf = [x[j] if 0 <= j < n else 0 for j in range(s - halo, e + halo)]
        # Outside the buffer the tile sees zeros, as if the signal ended there.
        local = [sum(w[t + R] * buf[i - s + halo + t] for t in range(-R, R + 1)
                     if 0 <= i - s + halo + t < len(buf))
                 for i in range(s, e)]
        out.extend(local)
    return out


def tiled_conv2d(X, w, R, T, halo):
    """2-D tiles of T×T outputs, each from a (T+2·halo)² input buffer."""
    H, W = len(X), len(X[0])
    out = [[None] * W for _ in range(H)]
    for si in range(0, H, T):
        for sj in range(0, W, T):
            ei, ej = _clip(si + T, H), _clip(sj + T, W)
            buf = [[X[i][j] if 0 <= i < H and 0 <= j < W else 0
                    for j in range(sj - halo, ej + halo)] for i in range(si - halo, ei + halo)]
            bh, bw = len(buf), len(buf[0])
            for i in range(si, ei):
                for j in range(sj, ej):
                    li, lj = i - si + halo, j - sj + halo
                    out[i][j] = sum(w[a + R][b + R] * buf[li + a][lj + b]
                                    for a in range(-R, R + 1) for b in range(-R, R + 1)
                                    if 0 <= li + a < bh and 0 <= lj + b < bw)
    return out


def _vars(dims, n, R, T):
    if dims == 1:
        return (Var("x", (n,), tuple_state=False), Var("w", (2 * R + 1,), tuple_state=False))
    return (Var("X", (n, n)), Var("w", (2 * R + 1, 2 * R + 1)))


def _full(x, w, dims, n, R, T):
    if dims == 1:
        return conv1d(x, w, R)
    return conv2d(x, w, R)


def _tiled(x, w, dims, n, R, T, halo):
    if dims == 1:
        return tiled_conv1d(x, w, R, T, halo)
    return tiled_conv2d(x, w, R, T, halo)


_INSTANCES = ({"dims": 1, "n": 6, "R": 1, "T": 2}, {"dims": 1, "n": 7, "R": 2, "T": 3},
              {"dims": 2, "n": 4, "R": 1, "T": 2})

HALO = Law(
    id="tiled_conv.halo", property=Property.LOCALITY,
    statement="conv(x, w)[tile] = conv(x[tile ± R], w) restricted to the tile, R = the "
              "kernel radius",
    licenses="compute a convolution tile by tile from an input buffer of the tile plus a "
             "halo of R on each side, held in shared memory (cuDNN's and Halide's tiled "
             "stencils, Triton convolution kernels)",
    vars=_vars,
    lhs=lambda x, w, **inst: _full(x, w, **inst),
    rhs=lambda x, w, **inst: _tiled(x, w, halo=inst["R"], **inst),
    instances=_INSTANCES,
    bounded_by="1-D: n = 6, R = 1, tiles of 2; n = 7, R = 2, tiles of 3 (ragged last "
               "tile); 2-D: 4×4, 3×3 kernel (R = 1), 2×2 tiles",
    doc="With zero padding, output i reads inputs i−R … i+R; a tile [s, e) therefore "
        "reads [s−R, e+R), so a buffer with a halo of R reproduces every output. Proved "
        "by z3 over ℝ (signal and kernel free reals) at the listed sizes, 1-D and 2-D. "
        "Does not cover other padding modes (reflect, circular), strides or dilation "
        "(the halo is then dilation·R), nor float rounding (both sides add in the same "
        "order here, so they agree bit for bit).")


NO_HALO = Law(
    id="tiled_conv.no_halo", property=Property.LOCALITY, expect=FAILS,
    statement="conv(x, w)[tile] = conv(x[tile], w) restricted to the tile (no halo)",
    licenses="nothing: a tile that loads only its own inputs treats its neighbours' "
             "inputs as zero padding and is wrong at every edge it shares with another "
             "tile",
    vars=_vars,
    lhs=lambda x, w, **inst: _full(x, w, **inst),
    rhs=lambda x, w, **inst: _tiled(x, w, halo=0, **inst),
    instances=({"dims": 1, "n": 4, "R": 1, "T": 2},),
    teaches="tiled_conv.halo",
    doc="Without the halo, outputs at a tile's edge miss the R inputs across it. Wrong "
        "whenever the kernel's off-centre weights and those inputs are nonzero.")

LAWS = [HALO, NO_HALO]
