"""Stored formats are observed: the bound rounds each output to the dtype of the tensor
the wrapper returned, the declared format filling in only what was not observed, and
the certificate says where the two differ. Near misses: an output scaled by a factor
the observed format's rounding would not hide fails."""
import torch
import triton
import triton.language as tl

from impls.spec import backend as running_backend
from verify.cases import matrices, rows
from verify.certification.binding import bind, binding_of
from verify.certification.certify import certify_binding
from user_kernels.tiled_matmul import matmul_kernel

BACKEND = running_backend()
NOTE_C = "c: stored as float16 (the reference declares float32)"


def _matmul_into_fp16(a, b, scale=1.0):
    """The tutorial's tiled matmul, C stored in float16 whatever the inputs' dtype."""
    (m, k), n = a.shape, b.shape[1]
    c = torch.empty((m, n), dtype=torch.float16, device=a.device)
    matmul_kernel[(triton.cdiv(m, 16), triton.cdiv(n, 16))](
        a, b, c, m, n, k, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16, K_LIMIT_SHIFT=0,
        ACC=tl.float32, SCALE=scale)
    return c


def _matmul_spec(fn):
    return bind(fn, reference="matmul", dtypes=("float32",), block=16,
                inputs=matrices([(33, 17, 20)]))


def test_matmul_storing_c_in_fp16_for_fp32_inputs_certifies_and_says_so():
    spec = _matmul_spec(_matmul_into_fp16)
    cert = certify_binding(spec, BACKEND, check_laws=False)
    assert cert["pass"], cert["notes"]
    info = cert["dtypes"]["float32"]
    assert info["out"] == "float16 (c)" and info["notes"] == [NOTE_C]
    assert f"float32: {NOTE_C}" in cert["notes"]
    # the naive formulation stores C as the kernel does, so the ratio compares like with like
    case = spec.coverage.cases(0, BACKEND)[0]
    assert binding_of(spec).naive(case, "float32")["c"].dtype == torch.float16


def test_matmul_into_fp16_scaled_by_one_plus_2_to_the_minus_10_fails():
    spec = _matmul_spec(lambda a, b: _matmul_into_fp16(a, b, scale=1.0 + 2.0 ** -10))
    cert = certify_binding(spec, BACKEND, check_laws=False)
    assert cert["pass"] is False and cert["rho"] > 1


def _cumsum_spec(fn):
    return bind(fn, reference="cumsum", dtypes=("float16",), inputs=rows(n=[1, 7, 64, 257]))


def test_cumsum_returning_fp32_from_fp16_inputs_gets_no_fp16_rounding():
    cert = certify_binding(_cumsum_spec(lambda x: torch.cumsum(x.float(), -1)), BACKEND,
                           check_laws=False)
    assert cert["pass"], cert["notes"]
    info = cert["dtypes"]["float16"]
    assert info["out"] == "float32 (y)"
    assert info["notes"] == ["y: stored as float32 (the reference declares float16)"]
    # a bound with the fp16 output rounding would leave ρ far below this
    assert cert["rho"] > 2.0 ** -6


def test_cumsum_returning_fp32_scaled_by_one_plus_2_to_the_minus_13_fails():
    scaled = lambda x: torch.cumsum(x.float(), -1) * (1.0 + 2.0 ** -13)  # noqa: E731
    cert = certify_binding(_cumsum_spec(scaled), BACKEND, check_laws=False)
    assert cert["pass"] is False and cert["rho"] > 1


def test_an_output_stored_as_declared_adds_no_note():
    cert = certify_binding(_cumsum_spec(lambda x: torch.cumsum(x.float(), -1).half()),
                           BACKEND, check_laws=False)
    assert cert["pass"], cert["notes"]
    info = cert["dtypes"]["float16"]
    assert info["out"] == "float16 (y)" and "notes" not in info
    assert not any("stored as" in n for n in cert["notes"])
