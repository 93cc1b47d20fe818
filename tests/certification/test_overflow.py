"""Overflow by the stored format's rules: a correctly signed infinity where the exact
value lies beyond the format's range passes; a wrong sign, or an infinity where the
exact value stays inside the range, fails; an intermediate that overflows while the
exact result is finite fails with a note naming it. Also: what each backend does with
subnormals is stated, and the interpreter's statement is probed."""
import math

import pytest
import torch
import triton
import triton.language as tl

from impls.spec import Case, backend as running_backend
from verify.certification import bounds
from verify.certification.binding import bind
from verify.certification.certify import certify_binding
from verify.certification.comparison import compare_float
from verify.certification.environment import INTERPRETER, SUBNORMALS
from verify.certification.overflow import threshold
from verify.certification.references import custom

BACKEND = running_backend()


@pytest.mark.parametrize("fmt,wide", [("float16", torch.float32), ("bfloat16", torch.float32),
                                      ("float32", torch.float64)])
def test_threshold_is_where_round_to_nearest_overflows(fmt, wide):
    # a value of the next wider format (what a kernel rounds from) at the threshold
    # becomes ∞, the one just below stays finite
    top = torch.tensor(threshold(fmt), dtype=wide)
    assert float(top) == threshold(fmt)
    assert top.to(getattr(torch, fmt)).isinf()
    below = torch.nextafter(top, torch.zeros_like(top))
    assert below.to(getattr(torch, fmt)).isfinite()
    assert threshold("float16") == 65520.0 and threshold("float64") == math.inf


def test_compare_float_judges_infinities_in_the_output_format():
    half = torch.tensor([-math.inf, 1.0], dtype=torch.float16)
    bound = torch.tensor([0.5, 0.01], dtype=torch.float64)
    exact = torch.tensor([-95120.0, 1.0], dtype=torch.float64)
    beyond = compare_float(half, exact, bound)
    assert beyond["ok"] and beyond["overflow_to_inf"] == 1 and beyond["rho"] == 0.0
    wrong_sign = compare_float(torch.tensor([math.inf, 1.0], dtype=torch.float16), exact, bound)
    assert not wrong_sign["ok"] and "overflow_to_inf" not in wrong_sign
    inside = torch.tensor([-60000.0, 1.0], dtype=torch.float64)
    assert not compare_float(half, inside, bound)["ok"]
    widened = torch.tensor([-65519.5, 1.0], dtype=torch.float64)   # + bound 0.5 reaches 65520
    assert compare_float(half, widened, bound)["ok"]
    no_bound = torch.tensor([math.inf, 0.01], dtype=torch.float64)  # an ∞ bound widens nothing
    assert not compare_float(half, inside, no_bound)["ok"]
    # the same infinity stored as float32 is an error: 95120 is inside float32's range
    assert not compare_float(half.float(), exact, bound)["ok"]


def _swiglu_reference(a, b):
    return {"y": a / (1 + torch.exp(-a)) * b}


def _swiglu_cases(seed, backend):
    a = torch.tensor([[320.0, 1.5, -2.0, 0.25, 3.0, 320.0]], dtype=torch.float64)
    b = torch.tensor([[-297.25, 2.0, 0.5, -1.0, 4.0, -187.5]], dtype=torch.float64)
    return [Case("exact -95120 and -60000", {"a": a, "b": b},
                 classes=("random",), n=1)]


def _swiglu(a, b):
    return (torch.nn.functional.silu(a.float()) * b.float()).to(a.dtype)


def _certify_swiglu(fn):
    spec = bind(fn, reference=custom(_swiglu_reference, ("a", "b"), ("y",)),
                dtypes=("float16",), inputs=_swiglu_cases)
    cert = certify_binding(spec, BACKEND, check_laws=False)
    return cert, cert["per_dtype"]["float16"]["cases"][0]


def test_fp16_swiglu_storing_minus_inf_beyond_the_range_passes():
    cert, case = _certify_swiglu(_swiglu)
    assert cert["pass"], cert["notes"]
    assert case["outputs"]["y"]["overflow_to_inf"] == 1
    assert math.isfinite(cert["naive_ratio"])


def test_fp16_swiglu_storing_plus_inf_fails():
    def wrong_sign(a, b):
        y = _swiglu(a, b)
        return torch.where(torch.isinf(y), -y, y)
    cert, case = _certify_swiglu(wrong_sign)
    assert cert["pass"] is False and case["rho"] == math.inf


def test_an_infinity_where_the_exact_value_is_60000_fails_with_a_note():
    def overflowed(a, b):
        y = _swiglu(a, b).clone()
        y[0, 5] = -math.inf          # exact −60000: inside float16's range
        return y
    cert, case = _certify_swiglu(overflowed)
    assert cert["pass"] is False and case["rho"] == math.inf
    assert "y is -inf at (0, 5) where the exact value is -60000" in case["note"]


def _rms_reference(x):
    return {"r": torch.sqrt((x * x).mean(-1))}


def _rms_cases(seed, backend):
    x = torch.tensor([[300.0, 2.0, -3.0, 1.0], [1.0, 2.0, 3.0, 4.0]], dtype=torch.float64)
    return [Case("x² beyond float16", {"x": x}, classes=("random",), n=4)]


@pytest.mark.parametrize("compute", ["float16", "float32"])
def test_an_intermediate_overflow_fails_with_a_note_naming_it(compute):
    def rms_in_fp16(x):
        return torch.sqrt((x * x).mean(-1))   # x * x in float16: 300² overflows
    spec = bind(rms_in_fp16, reference=custom(_rms_reference, ("x",), ("r",)),
                dtypes=("float16",), inputs=_rms_cases, compute=compute)
    cert = certify_binding(spec, BACKEND, check_laws=False)
    case = cert["per_dtype"]["float16"]["cases"][0]
    assert cert["pass"] is False
    assert "x * x overflows float16 at 1 element(s), first (0, 0)" in case["note"]
    assert case["note"].startswith("r is inf at (0,) where the exact value is 150.01")
    if compute == "float32":      # found by evaluating the reference in the input format
        assert "in the input format, x * x" in case["note"]


def test_the_ball_evaluation_flags_an_overflowing_square():
    x = torch.tensor([300.0, 2.0], dtype=torch.float64)
    model = bounds.model_for("triton-interpreter", "float16")
    _, radii, flags = bounds.evaluate(lambda x: {"s": x * x}, {"x": x}, model, "float16")
    assert radii["s"][0] == math.inf and radii["s"][1] < math.inf
    assert flags == ["x * x overflows float16 at 1 element(s), first (0,) "
                     "(value 90000, largest finite 65504)"]


# --------------------------------------------------------------------------- subnormals
@triton.jit
def _product(x_ptr, y_ptr, out_ptr):
    tl.store(out_ptr, tl.load(x_ptr) * tl.load(y_ptr))


@pytest.mark.skipif(BACKEND != INTERPRETER, reason="probes Triton's interpreter")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_the_interpreter_keeps_subnormals_as_its_certificate_says(dtype):
    assert "never flushed" in SUBNORMALS[INTERPRETER]
    tiny = torch.finfo(dtype).tiny                       # smallest normal
    x, y = torch.tensor([tiny], dtype=dtype), torch.tensor([0.25], dtype=dtype)
    out = torch.empty(1, dtype=dtype)
    _product[(1,)](x, y, out)
    assert float(out) == tiny / 4 and float(out) > 0     # subnormal, kept


def test_the_certificate_states_the_backends_subnormals():
    cert, _ = _certify_swiglu(_swiglu)
    assert cert["device"]["subnormals"] == SUBNORMALS[BACKEND]
    assert "ftz" in SUBNORMALS["gpu"] and "compiled.<target>.launches[].ftz" in SUBNORMALS["gpu"]
