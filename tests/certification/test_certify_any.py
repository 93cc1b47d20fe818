"""Kernels written outside the project (tests/user_kernels/) are certified through the
public binding with derived bounds: the correct ones pass with full test power, every
planted bug fails, and the certificate records the model and the combines found."""
import importlib

import pytest

from verify.errors import BadInput
import triton
import triton.language as tl

from impls.spec import backend as running_backend
from verify.certification.binding import bind
from verify.certification.certify import certify_binding
from verify.certification.certify import certify
from verify.certification.discover import audit_kernel, find_combines

BACKEND = running_backend()
KERNELS = ("fused_softmax", "two_pass_layer_norm", "tiled_matmul", "rms_norm")


def _module(name):
    return importlib.import_module(f"user_kernels.{name}")


@pytest.fixture(scope="module", params=KERNELS)
def certified(request):
    mod = _module(request.param)
    return mod, certify_binding(mod.KERNEL, BACKEND, check_laws=False)


def test_correct_kernel_passes_with_a_derived_bound(certified):
    mod, cert = certified
    assert cert["pass"], cert["notes"]
    assert 0 < cert["rho"] <= 1
    assert cert["algorithm"]["bound"] == "derived (radius interpretation)"
    assert cert["bound"]["kind"].startswith("derived")
    assert cert["algorithm"]["model"]["elementary_ulps"]["exp"] >= 1
    assert {"float32", "float16"} <= set(cert["per_dtype"])


def test_no_trivial_stand_in_passes(certified):
    _, cert = certified
    for dtype, power in cert["power"].items():
        assert power["weak"] is False, (dtype, power["accepted_stand_ins"])
        for output, rhos in power["rho"].items():
            assert rhos["zeros"] > 1 and rhos["scaled"] > 1, (dtype, output, rhos)


def test_planted_bugs_fail(certified):
    mod, _ = certified
    for name, planted in mod.PLANTED.items():
        cert = certify(mod.binding(planted), BACKEND, check_laws=False, dtypes=["float32"])
        assert cert["pass"] is False, f"{mod.__name__}: {name} passed"


def test_binding_is_ten_lines_or_fewer():
    import inspect
    for name in KERNELS:
        source = inspect.getsource(_module(name).binding)
        assert len(source.strip().splitlines()) <= 10, name


def test_plain_certify_accepts_the_spec_unchanged():
    mod = _module("rms_norm")
    cert = certify(mod.KERNEL, BACKEND, check_laws=False, dtypes=["float32"])
    assert cert["pass"] and cert["kernel"] == "rms_norm"
    assert any("user_kernels/rms_norm.py" in s["path"] for s in cert["sources"])


@triton.jit
def _halving(a, b):
    return (a + b) * 0.5


@triton.jit
def _max_with_count(a_m, a_n, b_m, b_n):
    return tl.maximum(a_m, b_m), a_n + b_n


@triton.jit
def _two_reductions(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    ones = tl.full((BLOCK,), 1.0, tl.float32)
    m, n = tl.reduce((x, ones), 0, _max_with_count)
    tl.store(out_ptr, tl.reduce(x, 0, combine_fn=_halving) + m + n)


def test_combines_are_found_through_globals_and_audited():
    found = {f["name"]: f for f in find_combines(_two_reductions)}
    assert set(found) == {"_max_with_count", "_halving"}
    report = audit_kernel(_two_reductions)
    by_name = {c["name"]: c for c in report["combines"]}
    good, bad = by_name["_max_with_count"], by_name["_halving"]
    assert good["ok"] and set(good["verdicts"]) == {"associative", "commutative"}, good
    assert set(good["verdicts"].values()) <= {"proved", "proved-bounded", "tested"}
    assert not bad["ok"] and bad["verdicts"]["associative"] == "refuted"
    assert "counterexample" in bad["failure"]
    assert report["ok"] is False


def test_project_softmax_combine_is_proved():
    from impls import softmax
    report = audit_kernel(softmax._softmax_kernel)
    by_name = {c["name"]: c for c in report["combines"]}
    assert by_name["online_softmax"]["verdicts"]["associative"] in ("proved", "tested")


def test_a_non_associative_combine_fails_the_binding():
    mod = _module("fused_softmax")
    spec = bind(mod.softmax, reference="softmax", outputs=("softmax",), masked_rows="nan",
                kernel=_two_reductions)
    cert = certify(spec, BACKEND, check_laws=False, dtypes=["float32"])
    assert cert["pass"] is False
    problems = [c.get("problem", "") for c in cert["per_dtype"]["float32"]["cases"]]
    assert problems and all("_halving" in p and "associative" in p for p in problems)


def test_unknown_option_and_output_are_refused():
    mod = _module("fused_softmax")
    with pytest.raises(BadInput, match="no option"):
        bind(mod.softmax, reference="softmax", masked="zeros")
    with pytest.raises(BadInput, match="no output"):
        bind(mod.softmax, reference="softmax", outputs=("probs",))
    with pytest.raises(BadInput, match="unknown reference"):
        bind(mod.softmax, reference="sofmax")


BOUND_PROJECT_KERNELS = ("scan", "matmul", "lora", "int8_matmul")


@pytest.mark.parametrize("name", BOUND_PROJECT_KERNELS)
def test_project_kernels_are_bound_through_the_public_api(name):
    from impls import load
    from impls.spec import BoundKernel
    from verify.certification.binding import Binding, as_spec, binding_of
    from verify.certification.planting import planted_bugs
    declared = load(name)
    assert isinstance(declared, BoundKernel)       # data: impls/ imports nothing from verify/
    spec = as_spec(declared)
    assert as_spec(declared) is spec                # bound once per declaration
    binding = binding_of(spec)
    assert isinstance(binding, Binding) and spec.name == name
    assert spec.laws and planted_bugs(spec) and spec.execution.bench is not None
    for dtype in spec.dtypes:
        expected = "derived" if BACKEND != "gpu" and dtype != "bfloat16" else "hand-derived"
        assert binding.kind(dtype).startswith(expected), (name, dtype)


def test_a_hand_bound_certifies_the_dtypes_not_handed_over_and_the_kind_says_so():
    from impls import matmul as MM
    from impls.numerics import half_exact
    from impls.spec import Case
    import torch

    def cases(seed, backend):
        gen = torch.Generator().manual_seed(seed)
        a, b = (half_exact(torch.randn(s, generator=gen, dtype=torch.float64))
                for s in ((9, 45), (45, 7)))
        return [Case("K=45", {"a": a, "b": b}, n=45)]

    spec = bind(MM.matmul, "matmul", cases, ("float32", "float16"), block=32,
                hand_bound=MM.hand_bound, derived_dtypes=("float32",))
    cert = certify(spec, BACKEND, check_laws=False)
    assert cert["pass"], cert["notes"]
    kinds = cert["bound"]["kind"]
    assert kinds["float32"].startswith("derived") and kinds["float16"].startswith("hand")
    assert cert["algorithm"]["bound"] == {"float32": "derived", "float16": "hand"}
