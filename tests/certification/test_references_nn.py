"""The nn references (verify/certification/references_nn.py) and their rounding
conventions: each agrees with torch's own function in float64, naive and oracle alike;
the derived bound certifies a float32/float16 torch stand-in of every convention
(ρ ≤ 1) and fails the near misses — another convention's rounding, the first output
scaled by 1 + 2⁻¹⁰, ignored rows not zeroed, one group for two."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F
import torch_nn_kernels as K

from impls.spec import backend as running_backend
from verify.cases import representable, rows
from verify.certification import radius
from verify.certification.binding import bind, binding_of
from verify.certification.bounds import evaluate
from verify.certification.certify import certify_binding
from verify.certification.references import lookup
from verify.errors import BadInput

BACKEND = running_backend()
ROWS = rows(n=(1, 7, 64, 257), classes=("random", "ties", "huge-dynamic-range", "large-offset"))
MASKED = rows(n=(1, 7, 64, 257), classes=("random", "huge-dynamic-range", "-inf-mask",
                                          "fully-masked-row"))
GROUPS = rows(n=(1, 7, 33), classes=("random", "ties", "large-offset"))
BOTH = ("float32", "float16")


def _certify(fn, reference, inputs, **options) -> dict:
    return certify_binding(bind(fn, reference, inputs=inputs, **options), BACKEND,
                           check_laws=False)


# --------------------------------------------------------------------------- float64 agreement
def _rstd(x, eps, dims=-1):
    return torch.rsqrt((x * x).mean(dims) + eps)


def _group_stats(x, g, eps):
    grouped = x.reshape(x.shape[0], g, -1)
    return grouped.mean(-1), torch.rsqrt(grouped.var(-1, unbiased=False) + eps)


TORCH = {  # (reference, options) -> torch's own computation in float64
    ("rms_norm", "none"): lambda x, weight: {
        "y": F.rms_norm(x, (x.shape[-1],), weight, 1e-6), "rstd": _rstd(x, 1e-6)},
    ("rms_norm", "llama"): lambda x, weight: {
        "y": F.rms_norm(x, (x.shape[-1],), weight, 1e-6), "rstd": _rstd(x, 1e-6)},
    ("rms_norm", "gemma"): lambda x, weight: {
        "y": F.rms_norm(x, (x.shape[-1],), 1.0 + weight, 1e-6), "rstd": _rstd(x, 1e-6)},
    ("layer_norm", "float32"): lambda x, weight, bias: {
        "y": F.layer_norm(x, (x.shape[-1],), weight, bias, 1e-5), "mean": x.mean(-1),
        "rstd": torch.rsqrt(x.var(-1, unbiased=False) + 1e-5)},
    ("layer_norm", "input"): lambda x, weight, bias: {
        "y": F.layer_norm(x, (x.shape[-1],), weight, bias, 1e-5), "mean": x.mean(-1),
        "rstd": torch.rsqrt(x.var(-1, unbiased=False) + 1e-5)},
    ("group_norm", 2): lambda x, weight, bias: dict(
        zip(("mean", "rstd"), _group_stats(x, 2, 1e-5)), y=F.group_norm(x, 2, weight, bias, 1e-5)),
    ("swiglu", False): lambda a, b: {"y": F.silu(a) * b},
    ("swiglu", True): lambda a, b: {"y": F.silu(a) * b},
    ("geglu", "none"): lambda a, b: {"y": F.gelu(a) * b},
    ("geglu", "tanh"): lambda a, b: {"y": F.gelu(a, approximate="tanh") * b},
    ("cross_entropy", -100): lambda x, target: {
        "loss": F.cross_entropy(x, target, reduction="none", ignore_index=-100),
        "lse": torch.logsumexp(x, -1)},
    ("nll_log_softmax", -100): lambda x, target: {
        "loss": F.nll_loss(F.log_softmax(x, -1), target, reduction="none", ignore_index=-100),
        "log_softmax": F.log_softmax(x, -1), "lse": torch.logsumexp(x, -1)},
}
OPTION = {"rms_norm": "cast", "layer_norm": "stats", "group_norm": "num_groups",
          "swiglu": "round_activation", "geglu": "approximate",
          "cross_entropy": "ignore_index", "nll_log_softmax": "ignore_index"}


@pytest.mark.parametrize("name,value", list(TORCH))
def test_naive_and_oracle_agree_with_torch_in_float64(name, value):
    ref = lookup(name).configured({OPTION[name]: value})
    rng = np.random.default_rng(7)
    inputs = ref.complete({"x": representable(rng.normal(0.5, 2.0, (5, 33)))}, rng)
    used = {k: inputs[k] for k in ref.inputs}
    naive = ref.fn(**used, **ref.options)
    values, radii, _ = evaluate(lambda **kw: ref.fn(**kw, **ref.options), used, radius.HOST64)
    want = TORCH[(name, value)](**used)
    for key, expected in want.items():
        torch.testing.assert_close(naive[key], expected, rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(values[key], expected, rtol=1e-12, atol=1e-12)
        assert bool((radii[key] <= 1e-12 * (1.0 + expected.abs())).all()), key


def test_cross_entropy_ignores_fully_masked_rows_and_matches_torch_elsewhere():
    ref = lookup("cross_entropy")
    case = next(c for c in MASKED(0) if c.classes[0] == "fully-masked-row"
                and c.n == 7)
    inputs = ref.complete(dict(case.inputs), np.random.default_rng(0))
    x, target = inputs["x"], inputs["target"]
    assert target.dtype == torch.int64 and int(target[0]) == -100  # row 0 is all −∞
    assert int(target[1]) == -100                                    # every third row
    out = ref.fn(x, target)
    assert float(out["loss"][0]) == 0.0 and float(out["lse"][0]) == -float("inf")
    keep = target != -100
    torch.testing.assert_close(out["loss"][keep], F.cross_entropy(
        x[keep], target[keep], reduction="none"), rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------- conventions certify
CORRECT = {
    "rms_norm cast=none": (K.rms_norm("none"), "rms_norm", {"cast": "none"}, ROWS),
    "rms_norm cast=llama": (K.rms_norm("llama"), "rms_norm", {"cast": "llama"}, ROWS),
    "rms_norm cast=gemma": (K.rms_norm("gemma"), "rms_norm", {"cast": "gemma"}, ROWS),
    "layer_norm stats=float32": (K.layer_norm("float32"), "layer_norm", {}, ROWS),
    "layer_norm stats=input": (K.layer_norm("input"), "layer_norm", {"stats": "input"}, ROWS),
    "group_norm": (K.group_norm(2), "group_norm", {}, GROUPS),
    "swiglu": (K.swiglu(False), "swiglu", {}, ROWS),
    "swiglu round_activation": (K.swiglu(True), "swiglu", {"round_activation": True}, ROWS),
    "geglu": (K.geglu("none"), "geglu", {}, ROWS),
    "geglu round_activation": (K.geglu("none", True), "geglu", {"round_activation": True},
                               ROWS),
    "geglu tanh": (K.geglu("tanh"), "geglu", {"approximate": "tanh"}, ROWS),
    "geglu tanh as 2·sigmoid(2z) − 1": (K.geglu("tanh", tanh_by_sigmoid=True), "geglu",
                                        {"approximate": "tanh"}, ROWS),
    "cross_entropy": (K.cross_entropy(), "cross_entropy", {}, MASKED),
    "nll_log_softmax": (K.nll_log_softmax(), "nll_log_softmax", {}, MASKED),
}


@pytest.mark.parametrize("label", list(CORRECT))
def test_a_kernel_of_the_convention_certifies(label):
    fn, reference, options, inputs = CORRECT[label]
    cert = _certify(fn, reference, inputs, **options)
    assert cert["pass"], cert["notes"]
    for dtype in BOTH:
        assert 0 < cert["per_dtype"][dtype]["rho"] <= 1, (dtype, cert["per_dtype"][dtype]["rho"])


NEAR_MISSES = {  # label -> (kernel, reference, options, inputs, dtypes that must fail)
    "llama's cast certified as cast=none": (K.rms_norm("llama"), "rms_norm", {}, ROWS,
                                            ("float16",)),
    "float16 statistics certified as stats=float32": (K.layer_norm("input"), "layer_norm",
                                                      {}, ROWS, ("float16",)),
    "rounded silu certified without round_activation": (K.swiglu(True), "swiglu", {}, ROWS,
                                                        ("float16",)),
    "rounded gelu certified without round_activation": (K.geglu("none", True), "geglu", {},
                                                        ROWS, ("float16",)),
    "tanh gelu certified as the exact gelu": (K.geglu("tanh"), "geglu", {}, ROWS, BOTH),
    "one group certified as two": (K.group_norm(1), "group_norm", {}, GROUPS, BOTH),
    "ignored rows not zeroed": (K.cross_entropy(zero_ignored=False), "cross_entropy", {},
                                MASKED, BOTH),
}
for _label in ("rms_norm cast=llama", "layer_norm stats=input", "group_norm",
               "swiglu round_activation", "geglu tanh", "cross_entropy", "nll_log_softmax"):
    _fn, _ref, _opts, _inputs = CORRECT[_label]
    NEAR_MISSES[f"{_label}, first output × (1 + 2⁻¹⁰)"] = (K.scaled(_fn), _ref, _opts, _inputs,
                                                          BOTH)


@pytest.mark.parametrize("label", list(NEAR_MISSES))
def test_a_near_miss_fails(label):
    fn, reference, options, inputs, must_fail = NEAR_MISSES[label]
    cert = _certify(fn, reference, inputs, **options)
    for dtype in must_fail:
        assert cert["per_dtype"][dtype]["rho"] > 1, (dtype, cert["per_dtype"][dtype]["rho"])
        assert not cert["per_dtype"][dtype]["pass"]


# --------------------------------------------------------------------------- binding
def test_targets_reach_the_kernel_as_int64_with_ignored_rows():
    seen = []

    def loss(x, target):
        seen.append((target.dtype, target.clone()))
        return K.cross_entropy()(x, target)

    spec = bind(loss, "cross_entropy", inputs=MASKED, dtypes=("float16",))
    for case in spec.coverage.cases(0, BACKEND):
        spec.execution.run(case, "float16")
        dtype, target = seen[-1]
        assert dtype == torch.int64 and torch.equal(target.cpu(), case.inputs["target"])
    assert any(bool((t == -100).any()) for _, t in seen)
    assert any(bool((t >= 0).any()) for _, t in seen)


def test_an_options_declared_formats_reach_the_binding():
    spec = bind(K.layer_norm("input"), "layer_norm", stats="input")
    b = binding_of(spec)
    assert b.against.reference.formats("float16") == {
        "y": "float16", "mean": "float16", "rstd": "float16"}
    assert "float16 (mean)" in b.precision("float16")["out"]
    default = binding_of(bind(K.layer_norm("float32"), "layer_norm"))
    assert default.against.reference.formats("float16")["mean"] == "float32"


def test_gemma_weights_are_offsets_from_one():
    rng = np.random.default_rng(0)
    x = {"x": torch.zeros(2, 400, dtype=torch.float64)}
    gemma = lookup("rms_norm").configured({"cast": "gemma"}).complete(dict(x), rng)
    plain = lookup("rms_norm").configured({}).complete(dict(x), rng)
    assert abs(float(gemma["weight"].mean())) < 0.2 < float(plain["weight"].mean())


@pytest.mark.parametrize("reference,option,value,choices", [
    ("rms_norm", "cast", "mistral", "'none', 'llama', 'gemma'"),
    ("layer_norm", "stats", "float16", "'float32', 'input'"),
    ("geglu", "approximate", "erf", "'none', 'tanh'"),
])
def test_an_option_value_outside_its_choices_is_one_clear_error(reference, option, value,
                                                               choices):
    with pytest.raises(BadInput, match=f"{option}={value!r} is not one of {choices}"):
        bind(K.rms_norm("none"), reference, **{option: value})


def test_unknown_references_and_options_name_the_new_ones():
    with pytest.raises(BadInput) as err:
        lookup("swigl")
    for name in ("swiglu", "geglu", "group_norm", "cross_entropy", "nll_log_softmax"):
        assert name in str(err.value)
    with pytest.raises(BadInput, match=r"no option\(s\) approximate \(it has: round_activation\)"):
        bind(K.swiglu(False), "swiglu", approximate="tanh")
    with pytest.raises(BadInput, match=r"\(it has: eps, cast\)"):
        bind(K.rms_norm("none"), "rms_norm", stats="input")


def test_groups_that_do_not_divide_the_channels_are_refused():
    ref = lookup("group_norm")
    x = torch.zeros(2, 6, 5, dtype=torch.float64)
    with pytest.raises(BadInput, match="6 channels do not split into num_groups=4"):
        ref.fn(x, torch.ones(6), torch.zeros(6), num_groups=4)
