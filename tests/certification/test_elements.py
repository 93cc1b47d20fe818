"""The per-element sample a certificate keeps of each float output (elements.py): which
elements it holds, that it is the same on every run, that it measures errors as the
comparison does, and that the certifier records it with each case's classes."""
import math

import torch

from impls.spec import (Bounding, Case, Comparison, Coverage, Execution, KernelSpec,
                        backend as running_backend)
from verify.certification.certify import certify
from verify.certification.comparison import compare_float
from verify.certification.elements import SIZE, picks, sample


def _output(n=1000, seed=0):
    """A float32 output of n elements with errors and bounds spread over decades."""
    g = torch.Generator().manual_seed(seed)
    oracle = torch.randn(n, generator=g, dtype=torch.float64)
    bound = 10.0 ** (-6 + 4 * torch.rand(n, generator=g, dtype=torch.float64))
    out = (oracle + bound * (torch.rand(n, generator=g, dtype=torch.float64) - 0.5)).float()
    return out, oracle, bound


def _pairs(s):
    return list(zip(s["bound"], s["error"]))


def test_the_sample_holds_the_worst_largest_error_and_largest_bound_elements():
    out, oracle, bound = _output()
    err = (out.double() - oracle).abs()
    # the worst ρ planted where an even spread would not land, by a near miss
    worst = 517
    err_w = float(bound[worst]) * 0.999
    out[worst] = float(oracle[worst]) + err_w
    err = (out.double() - oracle).abs()
    s = sample(out, oracle, bound)
    assert len(s["bound"]) == len(s["error"]) == SIZE
    ratio = err / bound
    for i in (int(ratio.argmax()), int(err.argmax()), int(bound.argmax())):
        rounded = (float(f"{float(bound[i]):.4g}"), float(f"{float(err[i]):.4g}"))
        assert rounded in _pairs(s), i
    assert int(ratio.argmax()) == worst
    assert compare_float(out, oracle, bound)["rho"] == float(ratio.max())


def test_the_spread_covers_rho_from_smallest_to_largest():
    ratio = torch.arange(100, dtype=torch.float64) / 100
    chosen = picks(ratio, ratio, torch.ones(100, dtype=torch.float64), size=10)
    assert len(chosen) == 10 and chosen == sorted(chosen)
    assert 0 in chosen and 99 in chosen          # the extremes of ρ
    assert max(b - a for a, b in zip(chosen, chosen[1:])) <= 14   # and evenly between


def test_the_sample_is_deterministic_and_ties_go_to_the_first_element():
    out, oracle, bound = _output(seed=3)
    assert sample(out, oracle, bound) == sample(out.clone(), oracle.clone(), bound.clone())
    flat = torch.ones(50, dtype=torch.float64)
    assert picks(flat, flat, flat, size=4) == [0, 1, 25, 49]


def test_small_outputs_are_kept_whole_and_zero_errors_stay_zero():
    oracle = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    out = torch.tensor([1.0, 2.0, 3.5])
    s = sample(out, oracle, torch.tensor([0.25, 0.25, 1.0], dtype=torch.float64))
    assert s == {"bound": [0.25, 0.25, 1.0], "error": [0.0, 0.0, 0.5]}


def test_elements_without_a_finite_positive_bound_are_left_out():
    oracle = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
    out = torch.tensor([1.5, 2.0, 3.0, 4.0])
    bound = torch.tensor([0.0, math.inf, 1.0, 2.0], dtype=torch.float64)
    assert sample(out, oracle, bound) == {"bound": [1.0, 2.0], "error": [0.0, 0.0]}
    assert sample(out, oracle, torch.zeros(4, dtype=torch.float64)) is None


def test_a_nan_where_the_oracle_is_finite_is_an_infinite_error():
    oracle = torch.tensor([1.0, 2.0], dtype=torch.float64)
    s = sample(torch.tensor([math.nan, 2.0]), oracle, torch.ones(2, dtype=torch.float64))
    assert s == {"bound": [1.0, 1.0], "error": [math.inf, 0.0]}


def test_rounding_keeps_an_error_within_its_bound():
    oracle = torch.zeros(1, dtype=torch.float64)
    bound = torch.tensor([1.00049e-3], dtype=torch.float64)
    s = sample(torch.tensor([1.00041e-3], dtype=torch.float64), oracle, bound)
    assert s["error"][0] <= s["bound"][0]


def test_no_sample_where_the_comparison_has_a_problem():
    x = torch.ones(3, dtype=torch.float64)
    assert sample(torch.ones(4), x, x) is None                       # shapes differ
    assert sample(torch.ones(3), x, torch.full((3,), -1.0, dtype=torch.float64)) is None


# --------------------------------------------------------------------------- certify
def _spec(run):
    def cases(seed, backend):
        x = torch.linspace(-3, 3, 300, dtype=torch.float64).reshape(3, 100)
        return [Case("rows", {"x": x}, classes=("random", "cancellation"), n=100),
                Case("unclassified", {"x": x[:1]}, n=100)]

    return KernelSpec(
        name="rowsum", laws=(), summary="row sums", combine=None, dtypes=("float32",),
        execution=Execution(run=run),
        comparison=Comparison(oracle=lambda c: {"s": c.inputs["x"].sum(dim=1)},
                              precision=lambda d: {"in": d, "accumulate": "float32",
                                                   "out": "float32"}),
        coverage=Coverage(cases=cases),
        bounding=Bounding(
            bound=lambda c, d, o: {"s": 1e-6 * c.inputs["x"].abs().sum(dim=1) + 1e-30},
            algorithm=lambda b: {}))


def test_certified_cases_carry_their_classes_and_a_sample_per_output():
    c = certify(_spec(lambda case, d: {"s": case.inputs["x"].float().sum(dim=1)}),
                running_backend(), check_laws=False, compiled=False)
    rows, unclassified = c["per_dtype"]["float32"]["cases"]
    assert rows["classes"] == ["random", "cancellation"] and unclassified["classes"] == []
    s = rows["outputs"]["s"]["sample"]
    assert len(s["bound"]) == len(s["error"]) == 3
    assert max(e / b for b, e in zip(s["bound"], s["error"])) <= 1


def test_a_failing_element_is_in_the_sample():
    def run(case, dtype):
        s = case.inputs["x"].float().sum(dim=1)
        s[-1] += 1.0      # far beyond the bound
        return {"s": s}
    c = certify(_spec(run), running_backend(), check_laws=False, compiled=False)
    rows = c["per_dtype"]["float32"]["cases"][0]
    assert not rows["pass"]
    s = rows["outputs"]["s"]["sample"]
    assert max(e / b for b, e in zip(s["bound"], s["error"])) > 1
