"""Numerical agreement of two evaluation orders of attention in float64.

Orders: PyTorch's textbook formulation softmax(QKᵀ·c)·V (its intermediates written out),
PyTorch's ``scaled_dot_product_attention`` (default and math backends), and a one-pass,
intermediate-free order — key blocks folded into a running (m, ℓ, o) state with the
project's shared ``flash_state`` combine, normalised once at the end (the order of
FlashAttention and of any normal form that fuses away the score matrix).

Each result is compared bitwise with the others and, against a 113-bit mpmath oracle,
with a componentwise γₙ-style bound (Higham, ch. 3) that covers every order above:

  u = 2⁻⁵³, γ_k = ku/(1 − ku), n keys, n_b key blocks (1 for the textbook order).
  Scores: |ŝⱼ − sⱼ| ≤ ηⱼ = γ_{d+1}·c·Σₖ|qₖ||kⱼₖ|;  Δ = maxⱼ ηⱼ;  xⱼ = (max s − sⱼ) + 2Δ.
  Weights: key j's term carries a factor φⱼ = e^{ηⱼ + 2u·xⱼ}(1 + E)^{n_b+1}(1 + u)^{n_b+2}
  or its inverse (score error; exponent-argument roundings, which add up to at most xⱼ
  along the rescales; n_b + 1 exps; multiplies and the per-term division), E = 2u
  (assumed: exp within 1 ulp). Sums: G = γ_{n+n_b+1}.
  With pⱼ the exact softmax, V̄ = Σ pⱼ|vⱼ|, λ = Σ pⱼ(φⱼ(1 + G) − 1),
  ν = Σ pⱼ|vⱼ|(φⱼ(1 + G) − 1) and F = n·2⁻¹⁰²²·max|v| for exponentials that underflow:
      |ô − o| ≤ B = (ν + V̄λ)/(1 − λ)·(1 + u) + u·V̄ + F.
The distance between two orders is then at most B_a + B_b; ρ = measured / bound ≤ 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

U = 2.0 ** -53


def gamma(k: int) -> float:
    return k * U / (1 - k * U)


# --------------------------------------------------------------------------- the orders
def textbook(q, k, v, scale: float):
    """PyTorch's formulation with its intermediates: softmax(QKᵀ·c) then ·V."""
    import torch
    return torch.softmax(q @ k.T * scale, dim=-1) @ v


def sdpa(q, k, v, scale: float, math_backend: bool = False):
    """torch.nn.functional.scaled_dot_product_attention (default, or the math backend)."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    f = lambda: torch.nn.functional.scaled_dot_product_attention(
        q[None, None], k[None, None], v[None, None], scale=scale)[0, 0]
    if math_backend:
        with sdpa_kernel(SDPBackend.MATH):
            return f()
    return f()


def one_pass(q, k, v, scale: float, block: int):
    """Key blocks folded into (m, ℓ, o) by the shared flash_state combine; o/ℓ at the end."""
    import torch
    from laws.associativity.combines import flash_state
    from .interpret import in_torch
    merge = in_torch(flash_state)
    rows = q.shape[0]
    m = torch.full((rows, 1), -math.inf, dtype=q.dtype)
    l = torch.zeros((rows, 1), dtype=q.dtype)
    o = torch.zeros((rows, v.shape[1]), dtype=q.dtype)
    for start in range(0, k.shape[0], block):
        s = q @ k[start:start + block].T * scale
        m_b = s.amax(dim=1, keepdim=True)
        p = torch.exp(s - m_b)
        m, l, o = merge(m, l, o, m_b, p.sum(dim=1, keepdim=True), p @ v[start:start + block])
    return o / l


# --------------------------------------------------------------------------- oracle, bound
def oracle(q, k, v, scale: float, bits: int = 113):
    """o = softmax(QKᵀ·c)·V at ``bits`` bits (inputs are exact float64 values)."""
    import mpmath
    import torch
    out = []
    with mpmath.workprec(bits):
        K = [[mpmath.mpf(x) for x in row] for row in k.tolist()]
        Vt = [[mpmath.mpf(x) for x in col] for col in v.T.tolist()]
        c = mpmath.mpf(scale)
        for qi in q.tolist():
            qm = [mpmath.mpf(x) for x in qi]
            s = [c * mpmath.fsum(a * b for a, b in zip(qm, kj)) for kj in K]
            top = max(s)
            t = [mpmath.exp(x - top) for x in s]
            total = mpmath.fsum(t)
            out.append([float(mpmath.fsum(a * b for a, b in zip(t, col)) / total)
                        for col in Vt])
    return torch.tensor(out, dtype=torch.float64)


def bound(q, k, v, scale: float, n_blocks: int):
    """The componentwise bound B of the module docstring, per output entry."""
    import torch
    n, d = k.shape
    s = (q @ k.T) * scale
    eta = gamma(d + 1) * abs(scale) * (q.abs() @ k.abs().T)
    delta = eta.amax(dim=1, keepdim=True)
    x = (s.amax(dim=1, keepdim=True) - s) + 2 * delta
    p = torch.softmax(s, dim=-1)   # the exact weights to far better than the bound's slack
    phi = torch.exp(eta + 2 * U * x) * (1 + 2 * U) ** (n_blocks + 1) * (1 + U) ** (n_blocks + 2)
    g = gamma(n + n_blocks + 1)
    excess = phi * (1 + g) - 1
    lam = (p * excess).sum(dim=1, keepdim=True)
    vbar = p @ v.abs()
    nu = (p * excess) @ v.abs()
    flush = n * 2.0 ** -1022 * v.abs().max()
    b = (nu + vbar * lam) / (1 - lam) * (1 + U) + U * vbar + flush
    return b * (1 + 2.0 ** -40)    # slack for evaluating the bound itself in float64


# --------------------------------------------------------------------------- cases
@dataclass(frozen=True)
class Case:
    name: str
    q: object
    k: object
    v: object
    scale: float


def cases(seed: int = 0) -> list[Case]:
    """Adversarial inputs: ordinary, a huge score range (exponentials underflow),
    cancellation in V (outputs near 0), ties, one key; key counts not multiples of the
    block. d = 16, so the scale 1/√d = 1/4 is exact."""
    import torch
    g = torch.Generator().manual_seed(seed)
    r = lambda *shape, std=1.0: torch.randn(*shape, generator=g, dtype=torch.float64) * std
    d, n = 16, 37
    signs = torch.tensor([(-1.0) ** j for j in range(n - 1)], dtype=torch.float64)[:, None]
    return [
        Case("random", r(5, d), r(n, d), r(n, d), 0.25),
        Case("huge score range", r(5, d, std=6.0), r(n, d, std=6.0), r(n, d), 0.25),
        Case("cancellation in V", r(5, d, std=1e-8), r(n - 1, d),
             1000.0 * signs + r(n - 1, d, std=1e-3), 0.25),
        Case("ties", r(3, d), r(1, d).repeat(n, 1), r(n, d), 0.25),
        Case("one key", r(3, d), r(1, d), r(1, d), 0.25),
    ]


@dataclass(frozen=True)
class Comparison:
    entries: int
    differing: int            # entries not bitwise equal
    max_abs: float            # max |a − b|
    max_rel: float            # max |a − b| / |oracle|
    rho: float                # max |a − b| / (B_a + B_b)
    rho_a: float              # max |a − oracle| / B_a
    rho_b: float
    worst_case: str           # the case where |a − b| / |oracle| is largest


def compare(order_a, order_b, blocks_a: int | None, blocks_b: int | None,
            seed: int = 0, _exact: dict | None = None) -> Comparison:
    """Bitwise and bounded comparison of two orders over ``cases``; ``blocks_*`` is None
    for the one-key-block (textbook) orders, else the order's key block size."""
    exact_of = _exact if _exact is not None else {}
    entries = differing = 0
    max_abs = max_rel = rho = rho_a = rho_b = 0.0
    worst = ""
    for c in cases(seed):
        n = c.k.shape[0]
        a, b = order_a(c), order_b(c)
        if c.name not in exact_of:
            exact_of[c.name] = oracle(c.q, c.k, c.v, c.scale)
        exact = exact_of[c.name]
        ba = bound(c.q, c.k, c.v, c.scale, 1 if blocks_a is None else -(-n // blocks_a))
        bb = bound(c.q, c.k, c.v, c.scale, 1 if blocks_b is None else -(-n // blocks_b))
        diff = (a - b).abs()
        entries += diff.numel()
        differing += int((a != b).sum())
        max_abs = max(max_abs, float(diff.max()))
        rel = float((diff / exact.abs().clamp_min(2.0 ** -1074)).max())
        if rel > max_rel:
            max_rel, worst = rel, c.name
        rho = max(rho, float((diff / (ba + bb)).max()))
        rho_a = max(rho_a, float(((a - exact).abs() / ba).max()))
        rho_b = max(rho_b, float(((b - exact).abs() / bb).max()))
    return Comparison(entries, differing, max_abs, max_rel, rho, rho_a, rho_b, worst)


BLOCK = 8   # the one-pass order's key block


def _order(name: str):
    return {
        "textbook": lambda c: textbook(c.q, c.k, c.v, c.scale),
        "sdpa": lambda c: sdpa(c.q, c.k, c.v, c.scale),
        "sdpa-math": lambda c: sdpa(c.q, c.k, c.v, c.scale, math_backend=True),
        "one-pass": lambda c: one_pass(c.q, c.k, c.v, c.scale, BLOCK),
    }[name]


_CACHE: dict = {}


def attention_orders() -> dict:
    """The comparisons every attention claim uses, computed once: PyTorch's textbook
    order against the one-pass order and against its own SDPA paths."""
    if not _CACHE:
        blocks = {"textbook": None, "sdpa": None, "sdpa-math": None, "one-pass": BLOCK}
        exact: dict = {}
        for a, b in (("textbook", "one-pass"), ("textbook", "sdpa"), ("textbook", "sdpa-math")):
            _CACHE[(a, b)] = compare(_order(a), _order(b), blocks[a], blocks[b], _exact=exact)
    return _CACHE


# --------------------------------------------------------------------------- tiny witness
def _textbook_py(s: list[float], v: list[float]) -> float:
    m = max(s)
    t = [math.exp(x - m) for x in s]
    total = sum(t)
    return sum((tj / total) * vj for tj, vj in zip(t, v))


def _one_pass_py(s: list[float], v: list[float], block: int) -> float:
    m, l, o = -math.inf, 0.0, 0.0
    for i in range(0, len(s), block):
        sb, vb = s[i:i + block], v[i:i + block]
        mb = max(sb)
        p = [math.exp(x - mb) for x in sb]
        lb, ob = sum(p), sum(pj * vj for pj, vj in zip(p, vb))
        new = max(m, mb)
        alpha, beta = math.exp(m - new), math.exp(mb - new)
        m, l, o = new, l * alpha + lb * beta, o * alpha + ob * beta
    return o / l


def smallest_witness(values=(0.0, 1.0, 2.0, 3.0), weights=(1.0, 2.0, -3.0, 0.5, -1.0),
                     block: int = 2):
    """The first input of one query, three keys (d = 1, c = 1, scores = keys) and small
    values on which the textbook order and the one-pass order (blocks of ``block``
    keys) give different float64 results; plain Python floats, so anyone can replay it."""
    import itertools
    for s in itertools.product(values, repeat=3):
        for v in itertools.product(weights, repeat=3):
            a, b = _textbook_py(list(s), list(v)), _one_pass_py(list(s), list(v), block)
            if a != b:
                return list(s), list(v), a, b
    return None


def ulps(a: float, b: float) -> int:
    """How many float64 steps apart a and b are (same sign assumed)."""
    import struct
    ia = struct.unpack("<q", struct.pack("<d", a))[0]
    ib = struct.unpack("<q", struct.pack("<d", b))[0]
    return abs(ia - ib)
