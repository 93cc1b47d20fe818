"""Conjugate symmetry of the DFT of a real signal: half the spectrum determines the
rest."""
import triton.language as tl

from ..core import Law, Property, Var


def cos_deg(d):
    """cos of d degrees, exact, for d a multiple of 30° or 45°: the twiddles of N ∈ {4, 6,
    8, 12} are algebraic numbers (0, ±1/2, ±√2/2, ±√3/2, ±1)."""
    d = d % 360
    if d > 180:
        return cos_deg(360 - d)
    if d > 90:
        return -cos_deg(180 - d)
    if d == 0:
        return 1.0
    if d == 30:
        return tl.sqrt(3.0) / 2
    if d == 45:
        return tl.sqrt(2.0) / 2
    if d == 60:
        return 0.5
    if d == 90:
        return 0.0
    raise ValueError(f"no exact twiddle for {d} degrees")


def sin_deg(d):
    return cos_deg(90 - d)


def dft(x):
    """X[k] = Σₙ xₙ e^{−2πikn/N} as (Re X[k], Im X[k]) pairs, twiddles exact."""
    N = len(x)
    out = []
    for k in range(N):
        angles = [360 * ((k * n) % N) // N for n in range(N)]
        re = sum(x[n] * cos_deg(a) for n, a in enumerate(angles))
        im = -sum(x[n] * sin_deg(a) for n, a in enumerate(angles))
        out.append((re, im))
    return out


def mirrored(x):
    """(Re X[N−k], Im X[N−k]) for k = 0 … N−1 (indices mod N)."""
    X = dft(x)
    N = len(x)
    return [X[(N - k) % N] for k in range(N)]


def conjugated(x):
    """(Re X[k], −Im X[k]) for k = 0 … N−1."""
    return [(re, -im) for re, im in dft(x)]


CONJUGATE = Law(
    id="real_fft_symmetry.conjugate", property=Property.SYMMETRY,
    statement="x ∈ ℝᴺ ⇒ X[(N − k) mod N] = conj(X[k]) for k = 0 … N−1, X = DFT(x)",
    licenses="a real-input FFT computes and stores only N/2 + 1 bins (half the work and "
             "memory): numpy.fft.rfft, torch.fft.rfft, cuFFT's R2C transforms, FFTW's "
             "r2c plans",
    vars=lambda N: (Var("x", (N,), tuple_state=False),),
    lhs=lambda x, N: mirrored(x), rhs=lambda x, N: conjugated(x),
    instances=({"N": 4}, {"N": 6}, {"N": 8}),
    bounded_by="N ∈ {4, 6, 8} (twiddles exact algebraic numbers)",
    doc="Real and imaginary parts are separate real outputs; the DFT is the direct sum "
        "(not an FFT), with twiddles e^{−2πim/N} written exactly: for N = 4 they are "
        "±1, ±i; for N = 6 and 8 they involve √3/2 and √2/2, which z3 sees as fresh "
        "symbols r ≥ 0 with r² = 3 (or 2). Proved by z3 over ℝ at N = 4, 6, 8 (which also "
        "gives X[0] and X[N/2] real). Not checked for N whose twiddles need cos/sin of "
        "other angles (z3 has no trigonometry), nor the float FFT, whose computed bins "
        "are conjugate-symmetric only up to rounding unless the transform enforces it.")

LAWS = [CONJUGATE]
