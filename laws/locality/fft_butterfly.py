"""The FFT's butterflies: the radix-2 Cooley–Tukey recursion (two half-size DFTs of the
even and odd samples, combined with twiddle factors) equals the DFT; and the butterfly
that forgets the twiddles."""
from ..core import FAILS, Law, Property, Var


def _vars(N):
    """N complex samples (re, im) and c, standing for cos(π/4) = √2/2 in the eighth roots
    of unity. The FFT never multiplies two twiddles that contain c (an eighth root times
    a fourth root is all it forms), so both sides are linear in c and the law holds for
    every real c, √2/2 included: no precondition c² = 1/2 is needed (and none could be
    met by the witness check's rational points)."""
    return (Var("x", (N, 2)), Var("c"))


def _mul(a, b):
    return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def twiddles(N, c):
    """ω^k, k < N, ω = e^{−2πi/N}, written exactly: ±1, ±i and (±1 ± i)·c."""
    if N <= 4:  # no c needed: the fourth roots of unity are exact
        return [[(1, 0), (0, -1), (-1, 0), (0, 1)][(4 // N) * k] for k in range(N)]
    eighth = [(1, 0), (c, -c), (0, -1), (-c, -c), (-1, 0), (-c, c), (0, 1), (c, c)]
    return [eighth[(8 // N) * k] for k in range(N)]


def dft(x, c, N):
    """X_k = Σ_m x_m·ω^{mk}: the definition, N² terms."""
    w = twiddles(N, c)
    out = []
    for k in range(N):
        acc = (0, 0)
        for m in range(N):
            acc = _add(acc, _mul((x[m][0], x[m][1]), w[(m * k) % N]))
        out.append(acc)
    return [list(v) for v in out]


def _fft(xs, w, stride, twiddle=True):
    n = len(xs)
    if n == 1:
        return [xs[0]]
    even = _fft(xs[0::2], w, 2 * stride, twiddle)
    odd = _fft(xs[1::2], w, 2 * stride, twiddle)
    out = [None] * n
    for k in range(n // 2):
        t = _mul(w[k * stride], odd[k]) if twiddle else odd[k]
        out[k] = _add(even[k], t)
        out[k + n // 2] = _sub(even[k], t)
    return out


def fft(x, c, N, twiddle=True):
    """Radix-2 decimation in time: X_k = E_k + ω^k·O_k, X_{k+N/2} = E_k − ω^k·O_k, with E
    and O the half-size transforms of the even and odd samples (N log₂N butterflies)."""
    xs = [(x[m][0], x[m][1]) for m in range(N)]
    return [list(v) for v in _fft(xs, twiddles(N, c), 1, twiddle)]


COOLEY_TUKEY = Law(
    id="fft_butterfly.cooley_tukey", property=Property.LOCALITY,
    secondary=Property.SYMMETRY,
    statement="X_k = E_k + ω_N^k·O_k, X_{k+N/2} = E_k − ω_N^k·O_k (recursively) = "
              "Σ_m x_m ω_N^{mk}, ω_N = e^{−2πi/N}",
    licenses="the DFT in O(N log N) instead of O(N²): butterflies that each touch two "
             "values at a stride halving per level (FFTW, cuFFT, torch.fft, FFT "
             "convolution and the Fourier layers of FNO and FNet)",
    vars=lambda N: _vars(N), lhs=dft, rhs=fft,
    instances=({"N": 2}, {"N": 4}, {"N": 8}),
    bounded_by="N = 2, 4 and 8 complex samples (every real and imaginary part a free "
               "real); the twiddles exact, cos(π/4) a free real c (both sides are linear "
               "in it)",
    float_check=False,
    doc="The recursion splits the sum over m into even and odd m; ω_N² = ω_{N/2} makes "
        "each half a DFT of size N/2, and ω_N^{N/2} = −1 gives the second half of the "
        "outputs from the same two sub-results (the butterfly). Proved by z3 over ℝ at "
        "N = 2, 4, 8, complex numbers as pairs of reals; the twiddles are exact "
        "(±1, ±i, (±1 ± i)·c with c for √2/2; both sides are linear in c, so the identity "
        "is proved for every real c, √2/2 included), so larger N (which need cos(π/8), "
        "products of irrational twiddles) are not covered. The locality: each level combines "
        "values N/2^level apart, recursively (the book's 'recursive locality'). Does "
        "not cover float rounding (an FFT's error grows like log N, the DFT's like N).")

NO_TWIDDLE = Law(
    id="fft_butterfly.no_twiddle", property=Property.LOCALITY, expect=FAILS,
    statement="X_k = E_k + O_k, X_{k+N/2} = E_k − O_k (butterflies without twiddle "
              "factors) = the DFT",
    licenses="nothing: without the twiddles the recursion computes a Walsh–Hadamard "
             "transform, not the Fourier transform",
    vars=(Var("x", (4, 2)),), lhs=lambda x: dft(x, None, 4),
    rhs=lambda x: fft(x, None, 4, twiddle=False),
    teaches="fft_butterfly.cooley_tukey", float_check=False,
    doc="At N = 4 the twiddle ω^1 = −i is dropped: X_1 and X_3 are wrong whenever the "
        "odd samples' transform has a nonzero second entry.")

LAWS = [COOLEY_TUKEY, NO_TWIDDLE]
