"""The ball rules of sigmoid, tanh and erf (verify/certification/radius_special.py) are
sound and not vacuous: every formulation the module covers, evaluated with torch in
float32 and float16 on inputs stored in those formats, stays within the radius of the
float64 value; arguments anywhere in a ball's interval stay within its propagated
radius; exact infinities give exact limits; an approximation the module does not cover
(a tanh off by 2⁻¹¹, torch's CPU gelu polynomial) is caught."""
import math

import pytest
import torch

from verify.certification import radius
from verify.certification.bounds import Ball, model_for

F64 = torch.float64
POINTS = torch.cat([torch.linspace(-30.0, 30.0, 4001, dtype=F64),
                    torch.logspace(-8, 1.5, 400, dtype=F64),
                    -torch.logspace(-8, 1.5, 400, dtype=F64),
                    torch.tensor([0.0, -0.0, 1e4, -1e4], dtype=F64)])


def _sigmoid_stable(x):
    e = torch.exp(-x.abs())
    return torch.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _tanh_by_exp(x):
    e = torch.exp(-2.0 * x.abs())
    return torch.sign(x) * (1.0 - e) / (1.0 + e)


FORMULATIONS = {
    "sigmoid": [torch.sigmoid, lambda x: 1.0 / (1.0 + torch.exp(-x)), _sigmoid_stable],
    "tanh": [torch.tanh, lambda x: 2.0 * torch.sigmoid(2.0 * x) - 1.0, _tanh_by_exp],
    "erf": [torch.erf],
}
EXACT = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "erf": torch.erf}


def _ball(name, x, in_dtype, compute, backend="host"):
    with radius.using(model_for(backend, compute)):
        return getattr(torch, name)(Ball.input(x, in_dtype))


@pytest.mark.parametrize("in_dtype,compute", [("float32", "float32"), ("float16", "float32"),
                                              ("float16", "float16")])
@pytest.mark.parametrize("name", list(FORMULATIONS))
def test_every_covered_formulation_stays_within_the_radius(name, in_dtype, compute):
    x = POINTS.to(getattr(torch, in_dtype)).to(F64)
    exact = EXACT[name](x)
    ball = _ball(name, x, in_dtype, compute)
    assert torch.equal(ball.v, exact)
    worst = 0.0
    for formulation in FORMULATIONS[name]:
        got = formulation(x.to(getattr(torch, compute))).to(F64)
        err = (got - exact).abs()
        bad = err > ball.r
        assert not bool(bad.any()), (formulation, x[bad][:3], err[bad][:3], ball.r[bad][:3])
        worst = max(worst, float((err / ball.r).max()))
    assert worst > 0.02  # not vacuous: the worst formulation reaches a visible fraction


@pytest.mark.parametrize("name", list(FORMULATIONS))
def test_arguments_anywhere_in_the_ball_stay_within_its_radius(name):
    v = torch.linspace(-6.0, 6.0, 241, dtype=F64)
    r = torch.full_like(v, 0.05)
    with radius.using(model_for("host", "float32")):
        out = getattr(torch, name)(Ball(v, r))
    for shift in torch.linspace(-1.0, 1.0, 21, dtype=F64):
        exact_elsewhere = EXACT[name](v + shift * r)
        assert bool(((exact_elsewhere - out.v).abs() <= out.r).all()), float(shift)
    assert bool((out.r < 0.06).all())  # slopes ≤ 1.13: the radius is not blown up


def test_exact_infinities_give_exact_limits():
    x = torch.tensor([math.inf, -math.inf], dtype=F64)
    for name, limits in (("sigmoid", [1.0, 0.0]), ("tanh", [1.0, -1.0]), ("erf", [1.0, -1.0])):
        ball = _ball(name, x, "float32", "float32")
        assert ball.v.tolist() == limits and ball.r.tolist() == [0.0, 0.0], name


def test_the_gpu_model_takes_libdevice_figures_for_tanh_and_erf():
    gpu = model_for("gpu", "float32")
    assert gpu.ulps["tanh"] == gpu.ulps["erf"] == 2.5
    assert "tanh" in gpu.assumptions()["elementary_ulps"]


def test_an_uncovered_approximation_is_caught():
    """tanh.approx.f32 (relative error 2⁻¹¹) and torch's CPU gelu (erf by a polynomial)
    are other formulas: the bound rejects both somewhere."""
    x = POINTS.to(torch.float32).to(F64)
    ball = _ball("tanh", x, "float32", "float32")
    approx = torch.tanh(x) * (1.0 + 2.0 ** -11)
    assert bool(((approx - torch.tanh(x)).abs() > ball.r).any())
    with radius.using(model_for("host", "float32")):
        gelu = torch.nn.functional.gelu(Ball.input(x, "float32"))
    cpu_gelu = torch.nn.functional.gelu(x.float()).to(F64)
    assert bool(((cpu_gelu - torch.nn.functional.gelu(x)).abs() > gelu.r).any())


def test_tensor_methods_reach_the_same_rules():
    x = Ball.input(torch.tensor([-2.0, 0.5, 3.0], dtype=F64), "float16")
    with radius.using(model_for("host", "float32")):
        for name in ("sigmoid", "tanh", "erf"):
            by_method, by_function = getattr(x, name)(), getattr(torch, name)(x)
            assert torch.equal(by_method.r, by_function.r), name
        picked = x.gather(0, torch.tensor([2, 0]))
    assert picked.v.tolist() == [3.0, -2.0] and torch.equal(picked.r, x.r[[2, 0]])
    with pytest.raises(AttributeError, match="torch.Tensor.sin has no derived error bound"):
        x.sin()
