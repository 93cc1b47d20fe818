"""All-pairs gravity with Newton's third law, and the Barnes–Hut monopole bound on
measured data."""
from __future__ import annotations

import numpy as np
import pytest
from kernel_checks import assert_bench_reports
import torch
from numpy.polynomial import legendre

from impls import nbody as NB
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results, planted_spec

SPEC = NB.KERNEL


def test_certificate_passes_every_case():
    cert = certify(SPEC, backend(), seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert 0 < cert["rho"] <= 1
    for case in cert["per_dtype"]["float32"]["cases"]:
        assert case["pass"], case["name"]
        assert set(case["outputs"]) == {"forces", "forces_bh"}
    assert {"eps-0", "clustered", "zero-distance", "n-not-multiple-of-block"} <= set(
        cert["cases"]["coverage"])


def test_asymmetric_force_is_caught():
    cert = planted_results(SPEC, backend(), seed=0)["asymmetric_force"]
    assert not cert["pass"]
    for case in cert["per_dtype"]["float32"]["cases"]:
        assert "problem" not in case
        assert case["outputs"]["forces_bh"]["ok"]  # the reference is untouched
        if not case["name"].startswith("single body"):
            assert not case["outputs"]["forces"]["ok"], case["name"]


def _bodies(n, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    pos = torch.tensor(rng.uniform(-scale, scale, (n, 3)), dtype=torch.float32)
    mass = torch.tensor(rng.uniform(0.5, 2.0, n), dtype=torch.float32)
    return pos.to(device()), mass.to(device())


def test_each_pair_once_gives_exactly_opposite_forces():
    pos, mass = _bodies(2, seed=1)
    forces = NB.nbody_forces(pos, mass, 1.0, 0.0).cpu()
    assert torch.equal(forces[0], -forces[1]) and forces.abs().min() > 0


def test_net_force_vanishes_within_the_summed_bounds():
    pos, mass = _bodies(150, seed=2)
    forces = NB.nbody_forces(pos, mass, 1.0, 0.01).cpu().double()
    case = NB.Case("net", {"pos": pos.cpu().double(), "mass": mass.cpu().double()},
                   {"g": 1.0, "eps": 0.01, "theta": 0.5})
    bound = SPEC.bounding.bound(case, "float32", {"forces": forces}).values["forces"]
    net = forces.sum(0).abs()
    assert (net <= bound.sum(0) + 1e-12 * forces.abs().sum(0)).all()
    with planted_spec(SPEC, "asymmetric_force") as planted:   # j's reaction uses mᵢ twice
        wrong = planted.execution.run(case, "float32")["forces"].cpu().double()
    assert (wrong.sum(0).abs() > bound.sum(0)).any()


def test_single_body_and_empty_input():
    pos, mass = _bodies(1)
    assert torch.equal(NB.nbody_forces(pos, mass).cpu(), torch.zeros(1, 3))
    empty = torch.zeros(0, 3, device=device()), torch.zeros(0, device=device())
    assert NB.nbody_forces(*empty).shape == (0, 3)


def test_no_claim_where_an_intermediate_leaves_fp32_range():
    """Two coincident bodies without softening: their bound is infinite, not a pass."""
    pos = torch.tensor([[0.0, 0, 0], [0.0, 0, 0], [1.0, 0, 0]], dtype=torch.float64)
    case = NB.Case("coincident", {"pos": pos, "mass": torch.ones(3, dtype=torch.float64)},
                   {"g": 1.0, "eps": 0.0, "theta": 0.5})
    bound = SPEC.bounding.bound(case, "float32", {"forces": torch.zeros(3, 3)}).values["forces"]
    assert torch.isinf(bound[:2]).all() and torch.isfinite(bound[2]).all()


# --------------------------------------------------------------------------- Barnes–Hut
def test_legendre_gradient_lemma():
    """(l+1)²Pₗ² + (1−μ²)Pₗ′² ≤ (l+1)² on [−1, 1], the step the monopole bound rests on."""
    mu = np.linspace(-1, 1, 4001)
    for l in range(1, 31):
        coef = np.zeros(l + 1)
        coef[l] = 1
        p, dp = legendre.legval(mu, coef), legendre.legval(mu, legendre.legder(coef))
        assert ((l + 1) ** 2 * p ** 2 + (1 - mu ** 2) * dp ** 2 <= (l + 1) ** 2 * (1 + 1e-9)).all()


@pytest.mark.parametrize("eps", [0.0, 0.3])
def test_single_cell_bound_holds_and_is_nearly_tight(eps):
    """A dumbbell seen along its axis is the worst case of the series: the bound is close."""
    rng = np.random.default_rng(5)
    cluster = np.array([[-0.5, 0.0, 0.0], [0.5, 0.0, 0.0]])
    masses = np.array([1.0, 1.0])
    ratios = []
    for direction in [np.array([1.0, 0.0, 0.0])] + list(rng.standard_normal((50, 3))):
        direction = direction / np.linalg.norm(direction)
        for dist in (0.8, 1.5, 3.0, 10.0):
            x = dist * direction
            d = cluster - x
            s = (d * d).sum(1) + eps * eps
            exact = ((masses * s ** -1.5)[:, None] * d).sum(0)
            mono = masses.sum() * (-x) / (dist ** 2 + eps * eps) ** 1.5
            bound = NB.monopole_error_bound(1.0, masses.sum(), 0.5, dist, eps)
            ratios.append(np.linalg.norm(exact - mono) / bound)
    assert max(ratios) <= 1.0
    assert max(ratios) > 0.9


def _distribution(kind, n, rng):
    if kind == "uniform":
        return rng.uniform(-1, 1, (n, 3))
    radius = 1 / np.sqrt(rng.uniform(0.01, 1.0, n) ** (-2 / 3) - 1)
    direction = rng.standard_normal((n, 3))
    sphere = radius[:, None] * direction / np.linalg.norm(direction, axis=1, keepdims=True)
    if kind == "plummer":
        return sphere
    return sphere * 0.2 + np.where(rng.uniform(size=(n, 1)) < 0.5, 0.0, 4.0)


@pytest.mark.parametrize("kind", ["uniform", "plummer", "two clusters"])
def test_barnes_hut_error_stays_under_its_bound(kind):
    rng = np.random.default_rng(7)
    pos = _distribution(kind, 600, rng)
    mass = rng.uniform(0.5, 2.0, 600)
    errors = {}
    for theta in (0.3, 0.6, 1.0):
        for eps in (0.0, 0.05):
            forces, bound = NB.barnes_hut(pos, mass, theta, 1.0, eps)
            exact, _, _ = NB.exact_pairs(pos, mass, 1.0, eps)
            err = np.linalg.norm(forces - exact, axis=1)
            assert (err <= bound).all(), (theta, eps)
            assert (err / bound).max() > 1e-3  # the bound is not vacuous
            errors[theta, eps] = err.mean()
    assert errors[0.3, 0.0] < errors[1.0, 0.0]


def test_barnes_hut_rejects_non_positive_masses():
    with pytest.raises(ValueError):
        NB.barnes_hut(np.zeros((2, 3)), np.array([1.0, 0.0]), 0.5)


# --------------------------------------------------------------------------- validation
def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("nbody:")


def test_shape_mismatch():
    pos, mass = _bodies(10)
    for args in ((pos[:, :2].contiguous(), mass), (pos, mass[:9].contiguous()),
                 (pos.reshape(-1), mass)):
        with pytest.raises(ValueError) as excinfo:
            NB.nbody_forces(*args)
        _one_line(excinfo)


def test_dtype_rejected():
    pos, mass = _bodies(10)
    with pytest.raises(TypeError) as excinfo:
        NB.nbody_forces(pos.double(), mass.double())
    _one_line(excinfo)


def test_non_contiguous_rejected():
    pos, mass = _bodies(10)
    with pytest.raises(ValueError) as excinfo:
        NB.nbody_forces(pos.t().contiguous().t(), mass)
    _one_line(excinfo)


def test_wrong_device_rejected():
    pos, mass = (t.to("meta") for t in _bodies(10))
    with pytest.raises(ValueError) as excinfo:
        NB.nbody_forces(pos, mass)
    _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert not planted_results(SPEC, "gpu")["asymmetric_force"]["pass"]
