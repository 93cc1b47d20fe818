"""What a kernel hands the certifier: typed oracles and bounds (no metadata entries among
the outputs), the certification facts of a case as its fields, and test power computed
once per case, a binding's included."""
import dataclasses

import pytest
import torch

from impls.spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec,
                        Oracle, backend)
from verify.cases import rows
from verify.certification.binding import bind
from verify.certification.certify import certify, certify_binding

BACKEND = backend()
FP32_ONLY = ("float32",)


def _cases(seed, which):
    x = torch.linspace(-3, 3, 300, dtype=torch.float64).reshape(3, 100)
    return [Case("rows", {"x": x}, classes=["random"], n=100)]


def _oracle(case):
    return Oracle({"s": case.inputs["x"].sum(dim=1)}, "float64 sum")


def _values(case):
    return {"s": 1e-5 * case.inputs["x"].abs().sum(dim=1) + 1e-30}


def _spec(bound, oracle=_oracle):
    return KernelSpec(
        name="rowsum", laws=(), summary="row sums", combine=None, dtypes=FP32_ONLY,
        execution=Execution(run=lambda c, d: {"s": c.inputs["x"].float().sum(dim=1)}),
        comparison=Comparison(oracle=oracle, precision=lambda d: {
            "in": d, "accumulate": "float32", "out": "float32"}),
        coverage=Coverage(cases=_cases),
        bounding=Bounding(bound=bound, algorithm=lambda b: {}))


def _certify(spec):
    return certify(spec, BACKEND, check_laws=False, compiled=False)


def test_the_formula_and_the_oracle_method_reach_the_certificate():
    cert = _certify(_spec(lambda c, d, o: Bound(_values(c), "10⁻⁵·Σ|x|")))
    assert cert["pass"], cert["notes"]
    assert cert["bound"]["formula"] == "10⁻⁵·Σ|x|"
    assert cert["oracle"] == "float64 sum"


def test_a_plain_dict_is_taken_as_values_alone():
    cert = _certify(_spec(lambda c, d, o: _values(c),
                          oracle=lambda c: {"s": c.inputs["x"].sum(dim=1)}))
    assert cert["pass"], cert["notes"]
    assert cert["oracle"] is None


def test_a_metadata_entry_among_the_outputs_is_refused_not_compared():
    """The near miss of the plain dict above: one '_' entry fails every case, naming the
    type to return instead."""
    cert = _certify(_spec(lambda c, d, o: {**_values(c), "_formula": "10⁻⁵·Σ|x|"}))
    assert not cert["pass"]
    problems = [c["problem"] for c in cert["per_dtype"]["float32"]["cases"]]
    assert problems and all("_formula" in p and "impls.spec.Bound" in p for p in problems)


def test_an_oracle_guarantee_widens_the_bound_and_is_recorded_at_its_largest():
    def oracle(case):
        return Oracle(_oracle(case).values, "balls", error_bound=2.0 ** -30)
    plain = _certify(_spec(lambda c, d, o: Bound(_values(c))))
    widened = _certify(_spec(lambda c, d, o: Bound(_values(c)), oracle=oracle))
    assert widened["bound"]["max"] > plain["bound"]["max"]
    assert widened["oracle"]["error_bound"] == 2.0 ** -30
    assert "guaranteed" in widened["oracle"]["error_bound_meaning"]


def test_a_case_keeps_its_certification_facts_as_fields_and_is_frozen():
    case = Case("c", {"x": torch.ones(2)}, {"k": 1}, classes=["ties"], n=2,
                dtypes=["float32"])
    assert case.classes == ("ties",) and case.dtypes == ("float32",)
    assert case.params == {"k": 1}
    assert case.runs_in("float32") and not case.runs_in("float16")
    assert Case("all", {}).runs_in("bfloat16")
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.n = 3  # type: ignore[misc]


def test_a_binding_s_power_is_the_certificate_s_with_the_lower_format_figure():
    spec = bind(lambda x: torch.softmax(x.float(), -1).to(x.dtype), "softmax",
                inputs=rows(n=[7, 64], classes=("random", "huge-dynamic-range")),
                outputs=("softmax",))
    cert = certify_binding(spec, BACKEND, check_laws=False, compiled=False)
    assert cert["pass"], cert["notes"]
    for dtype, result in cert["per_dtype"].items():
        assert cert["power"][dtype] == result["power"]
        assert "naive_lower" in result["power"]["rho"]["softmax"], dtype
    assert "bound_flags" in cert
    assert sum("trivial outputs" in n for n in cert["notes"]) == 0
