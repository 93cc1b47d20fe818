"""All-pairs softened gravity, Fᵢ = Σⱼ G mᵢ mⱼ (rⱼ − rᵢ)/(|rⱼ − rᵢ|² + ε²)^(3/2), in
float32, evaluating each pair once; plus a Barnes–Hut reference (numpy octree, monopole
about each cell's centre of mass) with a rigorous truncation bound.

Law: ``newton_third_law.antisymmetric`` — Fⱼᵢ = −Fᵢⱼ, so only the n(n−1)/2 pairs i < j
need evaluating. What the kernel does with it: the grid is the T(T+1)/2 tile pairs
(I ≤ J) of T = ⌈n/BLOCK⌉ body tiles. A program evaluates each pair of its two tiles once
(on a diagonal tile only j > i), adds the row sums Σⱼ Fᵢⱼ to the bodies of tile I and
the negated column sums −Σᵢ Fᵢⱼ to those of tile J, both with fp32 ``tl.atomic_add``.
So it does half the pair arithmetic of the plain all-pairs loop and pays for it with a
scatter: each body tile receives T + 1 atomic adds of BLOCK × 3 values instead of one
plain store, and on a GPU the summation order varies from run to run (the bound below
holds for every order). Fⱼᵢ is the bitwise negation of the computed Fᵢⱼ.

Bytes it must move: 16n (positions and mass) in, 12n out; flops: about 20 per pair,
n(n−1)/2 pairs.

Error bound of the kernel, per body and component (u = 2⁻²⁴; γₖ = ku/(1 − ku)). The
computed pair term is Fᵢⱼ·(1 + θ) with 1 + θ a product of: d̂ = fl(rⱼ − rᵢ) (one
rounding), ŝ = fl(d̂ₓ² + d̂ᵧ² + d̂_z² + fl(ε²)) with ŝ/s ∈ [1 − γ₆, 1 + γ₆] (every term is
non-negative), ŝ^(-3/2) from tl.sqrt_rn, a multiply and tl.div_rn (three roundings), then
fl(G), G·mᵢ, ·mⱼ, ·inv and ·d̂ (five roundings). So
    |θ| ≤ ρ = max((1 + u)⁷(1 − u)⁻²(1 − γ₆)^(−3/2) − 1, 1 − (1 − u)⁷(1 + u)⁻²(1 + γ₆)^(−3/2)).
The sum of body i's n − 1 terms passes through at most S = min(n − 1, BLOCK + T)
additions (a tl.sum over a tile, then atomic adds onto 0), so
    |F̂ᵢ − Fᵢ| ≤ (ρ + γ_S(1 + ρ))·Σⱼ|Fᵢⱼ|   (componentwise),
plus the float64 oracle's own error, the same expression in float64 with S = n. The
bound assumes no intermediate leaves fp32's normal range; ``_bound`` checks that on the
actual inputs and claims nothing (an infinite bound) for a body where it fails.

Barnes–Hut monopole bound (``barnes_hut.monopole_bound``). A cell of total mass M,
centre of mass c and radius b = maxₖ|yₖ − c| acts on a body at x with r = x − c. Write
R = (r, ε) and Sₖ = (yₖ − c, 0) in ℝ⁴: then |x − yₖ|² + ε² = |R − Sₖ|², the softened
potential is −G Σ mₖ/|R − Sₖ| and the force is its gradient in x. For b < D = |R| =
√(|r|² + ε²) the Legendre expansion 1/|R − S| = Σₗ |S|ˡ Pₗ(cos γ)/Dˡ⁺¹ converges with its
derivatives. The l = 0 term gives the monopole force; the l = 1 terms sum to
(Σ mₖSₖ)·R/D³ = 0 about the centre of mass. Each remaining term has gradient
    |∇(|S|ˡ Pₗ/Dˡ⁺¹)|² = |S|²ˡ ((l + 1)²Pₗ² + (1 − μ²)Pₗ′²)/D²ˡ⁺⁴ ≤ (l + 1)²|S|²ˡ/D²ˡ⁺⁴,
because f = Pₗ² + (1 − μ²)Pₗ′²/(l(l + 1)) has f′ = 2μPₗ′²/(l(l + 1)) (Legendre's
equation), so f ≤ f(±1) = 1, and (l + 1)² ≥ l(l + 1). Summing l ≥ 2 with β = b/D < 1:
    |F_cell − F_monopole| ≤ G mᵢ M/D² · Σ_{l≥2} (l + 1)βˡ = G mᵢ M/D² · (3β² − 2β³)/(1 − β)².
(Salmon & Warren 1994 state this form for ε = 0.) Assumptions: masses ≥ 0 and β < 1 for
every accepted cell. The walk accepts a cell when its side is below θ·|r| and |r| > b
(so β < 1 for every θ, and a body never accepts a cell holding it); a body's bound is
the sum over its accepted cells, plus the float64 rounding of the walk.
"""
from __future__ import annotations

import math

import numpy as np
import torch
import triton
import triton.language as tl

from . import accuracy, buffers
from .launch import check_shape, check_tensors
from .numerics import SLACK, U32, U64, gamma, round_up
from .spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                    backend, device)

NORMAL_RANGE = (2.0 ** -120, 2.0 ** 120)   # fp32's normal range with a margin


def pair_relative_error(u: float) -> float:
    """ρ: relative error of one computed pair term (module docstring)."""
    g6 = gamma(6, u)
    hi = (1 + u) ** 7 / (1 - u) ** 2 * (1 - g6) ** -1.5 - 1
    lo = 1 - (1 - u) ** 7 / (1 + u) ** 2 * (1 + g6) ** -1.5
    return max(hi, lo)


# --------------------------------------------------------------------------- reference
def reference(pos, mass, g=1.0, eps=0.0):
    """All pairs in torch, both halves evaluated: n × n × 3 differences in memory."""
    d = pos[None, :, :] - pos[:, None, :]                    # reads pos, writes 3n²
    s = (d * d).sum(-1) + eps * eps                          # n² more
    inv = torch.where(torch.eye(len(pos), dtype=torch.bool, device=pos.device),
                      torch.zeros_like(s), s.rsqrt() / s)
    return ((g * mass[:, None] * mass[None, :] * inv)[..., None] * d).sum(1)


def exact_pairs(pos: np.ndarray, mass: np.ndarray, g: float, eps: float):
    """float64 forces Σⱼ Fᵢⱼ, magnitudes Σⱼ|Fᵢⱼ| (per component) and, per body, whether
    every intermediate of its pairs lies in fp32's normal range (or is exactly 0)."""
    n = len(pos)
    forces, magnitude = np.zeros((n, 3)), np.zeros((n, 3))
    in_range = np.ones(n, dtype=bool)
    lo, hi = NORMAL_RANGE
    for start in range(0, n, 512):
        rows = np.arange(start, min(n, start + 512))
        d = pos[None, :, :] - pos[rows, None, :]
        s = (d * d).sum(-1) + eps * eps
        other = np.arange(n)[None, :] != rows[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):  # coincident, ε = 0: no claim
            inv = np.where(other, s ** -1.5, 0.0)
            gm = g * mass[rows, None]
            f = gm * mass[None, :] * inv
            terms = f[..., None] * d
        forces[rows] = terms.sum(1)
        magnitude[rows] = np.abs(terms).sum(1)
        ok = np.ones(s.shape, dtype=bool)
        for value in (d * d, np.broadcast_to(eps * eps, s.shape), s, s ** 1.5, inv,
                      np.broadcast_to(gm, s.shape), gm * mass[None, :], f, terms):
            a = np.abs(value).reshape(len(rows), n, -1)
            ok &= ((a == 0) | ((a >= lo) & (a <= hi))).all(-1)
        in_range[rows] = (ok | ~other).all(1)
    return forces, magnitude, in_range


# --------------------------------------------------------------------------- kernel
@triton.jit
def nbody_kernel(pos_ptr, mass_ptr, force_ptr, tile_i_ptr, tile_j_ptr, n, g, eps2,
                 BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    ti = tl.load(tile_i_ptr + pid)
    tj = tl.load(tile_j_ptr + pid)
    offs_i = ti * BLOCK + tl.arange(0, BLOCK)
    offs_j = tj * BLOCK + tl.arange(0, BLOCK)
    in_i = offs_i < n
    in_j = offs_j < n
    x_i = tl.load(pos_ptr + offs_i * 3, mask=in_i, other=0.0)
    y_i = tl.load(pos_ptr + offs_i * 3 + 1, mask=in_i, other=0.0)
    z_i = tl.load(pos_ptr + offs_i * 3 + 2, mask=in_i, other=0.0)
    x_j = tl.load(pos_ptr + offs_j * 3, mask=in_j, other=0.0)
    y_j = tl.load(pos_ptr + offs_j * 3 + 1, mask=in_j, other=0.0)
    z_j = tl.load(pos_ptr + offs_j * 3 + 2, mask=in_j, other=0.0)
    m_i = tl.load(mass_ptr + offs_i, mask=in_i, other=0.0)
    m_j = tl.load(mass_ptr + offs_j, mask=in_j, other=0.0)
    dx = x_j[None, :] - x_i[:, None]
    dy = y_j[None, :] - y_i[:, None]
    dz = z_j[None, :] - z_i[:, None]
    # each unordered pair once: all of an off-diagonal tile pair, j > i on the diagonal
    pair = in_i[:, None] & in_j[None, :] & ((ti != tj) | (offs_j[None, :] > offs_i[:, None]))
    s = tl.where(pair, dx * dx + dy * dy + dz * dz + eps2, 1.0)
    inv = tl.div_rn(1.0, s * tl.sqrt_rn(s))
    gm_i = g * m_i
    f = tl.where(pair, (gm_i[:, None] * m_j[None, :]) * inv, 0.0)
    tl.atomic_add(force_ptr + offs_i * 3, tl.sum(f * dx, axis=1), mask=in_i)
    tl.atomic_add(force_ptr + offs_i * 3 + 1, tl.sum(f * dy, axis=1), mask=in_i)
    tl.atomic_add(force_ptr + offs_i * 3 + 2, tl.sum(f * dz, axis=1), mask=in_i)
    # newton_third_law.antisymmetric: body j receives −Fᵢⱼ
    tl.atomic_add(force_ptr + offs_j * 3, -tl.sum(f * dx, axis=0), mask=in_j)
    tl.atomic_add(force_ptr + offs_j * 3 + 1, -tl.sum(f * dy, axis=0), mask=in_j)
    tl.atomic_add(force_ptr + offs_j * 3 + 2, -tl.sum(f * dz, axis=0), mask=in_j)


def block() -> int:
    return 64 if backend() == "gpu" else 32


# --------------------------------------------------------------------------- wrapper
def nbody_forces(pos, mass, g=1.0, eps=0.0):
    """Fᵢ for pos (n, 3) and mass (n,) float32; G and ε are Python numbers."""
    check_tensors("nbody", {"pos": pos, "mass": mass}, (torch.float32,))
    check_shape("nbody", "pos", pos, (None, 3))
    check_shape("nbody", "mass", mass, (pos.shape[0],))
    if not (math.isfinite(g) and math.isfinite(eps)):
        raise ValueError("nbody: g and eps must be finite")
    n = pos.shape[0]
    pos, mass = buffers.operand(pos, "pos"), buffers.operand(mass, "mass")
    forces = buffers.zeros((n, 3), torch.float32, pos.device, "forces")
    if n == 0:
        return forces
    tiles = triton.cdiv(n, block())
    tile_i, tile_j = torch.triu_indices(tiles, tiles, device=pos.device).to(torch.int32)
    nbody_kernel[(tile_i.numel(),)](pos, mass, forces, buffers.operand(tile_i, "tile_i"),
                                    buffers.operand(tile_j, "tile_j"), n, float(g),
                                    float(np.float32(eps * eps)), BLOCK=block())
    return forces


# --------------------------------------------------------------------------- Barnes–Hut
def monopole_error_bound(g_m_i, cell_mass, b, d, eps):
    """|F_cell − F_monopole| ≤ G mᵢ M/D² (3β² − 2β³)/(1 − β)², D = √(d² + ε²), β = b/D
    (module docstring); ``g_m_i`` is G·mᵢ. Infinite when β ≥ 1."""
    dd = np.sqrt(np.asarray(d, dtype=np.float64) ** 2 + eps * eps)
    beta = np.asarray(b, dtype=np.float64) / dd
    with np.errstate(divide="ignore", invalid="ignore"):
        series = np.where(beta < 1, (3 * beta ** 2 - 2 * beta ** 3) / (1 - beta) ** 2, np.inf)
    return g_m_i * cell_mass / dd ** 2 * series


class _Cell:
    __slots__ = ("bodies", "half", "mass", "com", "radius", "children")


def _build(pos, mass, bodies, center, half, depth):
    cell = _Cell()
    cell.bodies, cell.half = bodies, half
    m = mass[bodies]
    cell.mass = m.sum()
    cell.com = (m[:, None] * pos[bodies]).sum(0) / cell.mass
    cell.radius = np.sqrt(((pos[bodies] - cell.com) ** 2).sum(1).max()) * (1 + 4 * U64)
    cell.children = []
    if len(bodies) > 1 and depth < 48 and np.ptp(pos[bodies], axis=0).max() > 0:
        octant = ((pos[bodies] > center) * np.array([1, 2, 4])).sum(1)
        for code in np.unique(octant):
            sign = np.array([1.0 if code & bit else -1.0 for bit in (1, 2, 4)])
            cell.children.append(_build(pos, mass, bodies[octant == code],
                                        center + sign * half / 2, half / 2, depth + 1))
    return cell


def barnes_hut(pos, mass, theta, g=1.0, eps=0.0):
    """Barnes–Hut forces (n, 3) in float64 and, per body, a bound on the norm of their
    error against the exact all-pairs forces (monopole truncation plus the walk's float64
    rounding). Masses must be positive."""
    pos, mass = np.asarray(pos, np.float64), np.asarray(mass, np.float64)
    if len(pos) and (mass <= 0).any():
        raise ValueError("barnes_hut: masses must be positive")
    n = len(pos)
    forces, truncation, magnitude = np.zeros((n, 3)), np.zeros(n), np.zeros(n)
    if n == 0:
        return forces, truncation
    lo, hi = pos.min(0), pos.max(0)
    root = _build(pos, mass, np.arange(n), (lo + hi) / 2, max((hi - lo).max() / 2, 1e-300), 0)
    stack = [(root, np.arange(n))]
    while stack:
        cell, targets = stack.pop()
        if not cell.children:
            d = pos[None, cell.bodies, :] - pos[targets, None, :]
            s = (d * d).sum(-1) + eps * eps
            other = cell.bodies[None, :] != targets[:, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                f = np.where(other, g * mass[targets, None] * mass[None, cell.bodies]
                             * s ** -1.5, 0.0)
                terms = f[..., None] * d
            forces[targets] += terms.sum(1)
            magnitude[targets] += np.linalg.norm(terms, axis=-1).sum(1)
            continue
        r = cell.com - pos[targets]
        dist = np.linalg.norm(r, axis=1)
        accept = (2 * cell.half < theta * dist) & (dist > cell.radius)
        a = targets[accept]
        if a.size:
            s = dist[accept] ** 2 + eps * eps
            term = (g * mass[a] * cell.mass * s ** -1.5)[:, None] * r[accept]
            forces[a] += term
            magnitude[a] += np.linalg.norm(term, axis=1)
            truncation[a] += monopole_error_bound(g * mass[a], cell.mass, cell.radius,
                                                  dist[accept], eps)
        rest = targets[~accept]
        if rest.size:
            stack.extend((child, rest) for child in cell.children)
    rounding = (pair_relative_error(U64) + gamma(n + 8, U64)) * 2 * magnitude
    return forces, (truncation + rounding) * (1 + SLACK)


# --------------------------------------------------------------------------- certification
def _operands(case: Case):
    dev = device()
    return (case.inputs["pos"].to(dev, torch.float32), case.inputs["mass"].to(dev, torch.float32),
            case.params["g"], case.params["eps"])


def _with_barnes_hut(case: Case, forces) -> dict:
    bh, _ = barnes_hut(case.inputs["pos"].numpy(), case.inputs["mass"].numpy(),
                       case.params["theta"], case.params["g"], case.params["eps"])
    return {"forces": forces, "forces_bh": torch.from_numpy(bh)}


def _run(case: Case, dtype: str) -> dict:
    """The kernel's forces, and the Barnes–Hut reference's (numpy, float64)."""
    return _with_barnes_hut(case, nbody_forces(*_operands(case)))


def _reference(case: Case, dtype: str) -> dict:
    return {"forces": reference(*_operands(case))}


def _oracle(case: Case) -> Oracle:
    pos, mass = case.inputs["pos"].numpy(), case.inputs["mass"].numpy()
    forces, _, _ = exact_pairs(pos, mass, case.params["g"], case.params["eps"])
    exact = torch.from_numpy(forces)
    return Oracle({"forces": exact, "forces_bh": exact},
                  "float64 all pairs; its own error is in the bound")


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """forces: (ρ₃₂ + γ_S(1+ρ₃₂))Σⱼ|Fᵢⱼ| + (ρ₆₄ + γₙ(2⁻⁵³))Σⱼ|Fᵢⱼ|, S = min(n−1, BLOCK+T);
    forces_bh: Σ_cells G mᵢ M/D² (3β²−2β³)/(1−β)² + float64 rounding of walk and oracle"""
    pos, mass = case.inputs["pos"].numpy(), case.inputs["mass"].numpy()
    g, eps = case.params["g"], case.params["eps"]
    n = len(pos)
    _, magnitude, in_range = exact_pairs(pos, mass, g, eps)
    sums = min(max(n - 1, 0), block() + math.ceil(n / block()))
    rho32, rho64 = pair_relative_error(U32), pair_relative_error(U64)
    oracle = (rho64 + gamma(n + 8, U64)) * magnitude
    kernel = (rho32 + gamma(sums, U32) * (1 + rho32)) * magnitude + oracle
    kernel[~in_range] = np.inf
    _, truncation = barnes_hut(pos, mass, case.params["theta"], g, eps)
    bh = truncation[:, None] + oracle
    return Bound({"forces": round_up(torch.from_numpy(kernel)),
                  "forces_bh": round_up(torch.from_numpy(np.broadcast_to(bh, (n, 3)).copy()))},
                 _bound.__doc__)


def _cases(seed: int, which: str):
    rng = np.random.default_rng(seed)
    gpu = which == "gpu"

    def case(name, pos, mass, eps, theta, classes, g=1.0):
        pos = torch.as_tensor(pos, dtype=torch.float32).double()
        mass = torch.as_tensor(mass, dtype=torch.float32).double()
        label = f"{name} n={len(pos)} eps={eps:g} theta={theta:g}"
        return Case(label, {"pos": pos, "mass": mass},
                    {"g": g, "eps": eps, "theta": theta}, classes=classes, n=len(pos))

    def plummer(count, scale=1.0):
        radius = scale / np.sqrt(rng.uniform(0.01, 1.0, count) ** (-2 / 3) - 1)
        direction = rng.standard_normal((count, 3))
        return radius[:, None] * direction / np.linalg.norm(direction, axis=1, keepdims=True)

    n = 4000 if gpu else 200
    yield case("uniform cube", rng.uniform(-1, 1, (n, 3)), rng.uniform(0.5, 2.0, n), 1e-2, 0.5,
               ["n-not-multiple-of-block"])
    m = 3000 if gpu else 150
    yield case("plummer cluster", plummer(m), rng.uniform(0.5, 2.0, m), 1e-3, 0.7,
               ["clustered", "close-pairs"])
    yield case("no softening", rng.uniform(-1, 1, (97, 3)), rng.uniform(0.5, 2.0, 97), 0.0,
               0.3, ["eps-0"])
    both = np.concatenate([plummer(64, 0.1), plummer(64, 0.1) + np.array([5.0, 0.0, 0.0])])
    yield case("two clusters", both, rng.uniform(0.5, 2.0, 128), 1e-2, 1.0,
               ["clustered", "n-multiple-of-block"])
    yield case("wide mass range", rng.uniform(-1, 1, (64, 3)), np.exp2(rng.uniform(-20, 10, 64)),
               1e-2, 0.5, ["huge-dynamic-range"])
    p = rng.uniform(-1, 1, (40, 3))
    yield case("coincident bodies", np.concatenate([p, p[:10]]), rng.uniform(0.5, 2.0, 50),
               5e-2, 0.5, ["ties", "zero-distance"])
    yield case("physical units", rng.uniform(-1e8, 1e8, (48, 3)), rng.uniform(1e20, 1e22, 48),
               1e5, 0.5, ["g-not-representable"], g=6.674e-11)
    yield case("single body", rng.uniform(-1, 1, (1, 3)), [1.0], 1e-2, 0.5, ["length-1"])
    yield case("pair", rng.uniform(-1, 1, (2, 3)), [1.0, 3.0], 0.0, 0.5, ["length-2"])


def _algorithm(which: str) -> dict:
    return {"BLOCK": block(), "grid": "one program per tile pair I ≤ J (T(T+1)/2 programs)",
            "symmetry": "each pair evaluated once; row sums to tile I and negated column "
                        "sums to tile J by fp32 atomic adds",
            "reduction": "tl.sum within a tile, then atomic adds across tiles (any order)",
            "math": "tl.sqrt_rn and tl.div_rn (IEEE round to nearest)",
            "barnes_hut": "numpy octree, leaves of one body, monopole about the centre of "
                          "mass, accept when side < θ·|r| and |r| > cell radius"}


def _precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "float32", "out": dtype,
            "barnes_hut": "float64 (numpy)"}


def _bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel (GPU only) against torch all pairs."""
    n = 16384 if which == "gpu" else 1024
    pos = torch.rand(n, 3, device=device())
    mass = torch.rand(n, device=device())
    return {"shape": f"n={n} float32", "bytes": 28 * n, "flops": 10 * n * (n - 1),
            "kernel": (lambda: nbody_forces(pos, mass, 1.0, 0.01)) if which == "gpu" else None,
            "peer": lambda: reference(pos, mass, 1.0, 0.01)}


# The GPU bound assumes tl.div_rn and tl.sqrt_rn: correctly rounded (impls/accuracy.py).
GPU_MODEL = accuracy.model(div="div.rn.f32", sqrt="sqrt.rn.f32")

KERNEL = KernelSpec(
    name="nbody",
    laws=("newton_third_law.antisymmetric", "barnes_hut.monopole_bound"),
    summary="softened all-pairs gravity, each pair evaluated once (Fⱼᵢ = −Fᵢⱼ), plus a "
            "Barnes–Hut reference under its monopole bound",
    combine=None,
    dtypes=("float32",),
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=_oracle, precision=_precision),
    coverage=Coverage(
        cases=_cases,
        contract_classes=("length-1", "length-2", "n-not-multiple-of-block", "n-multiple-of-block",
                          "clustered", "close-pairs", "eps-0", "huge-dynamic-range", "ties",
                          "zero-distance", "g-not-representable"),
    ),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=GPU_MODEL),
    sources=("impls/matmul.py",),  # its bound and input helpers
)
