"""impls/selective_scan.py: Mamba's selective scan as a chunked parallel scan, certified
against linear_recurrence.associative; the planted bug must fail; inputs are checked."""
import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from impls import selective_scan as ss
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_bugs, planted_module, planted_results

BACKEND = backend()
CHUNK = ss.chunk_size()


@pytest.fixture(scope="module")
def certificate():
    return certify(ss.KERNEL, BACKEND, seed=0)


@pytest.fixture(scope="module")
def planted():
    return planted_results(ss.KERNEL, BACKEND, seed=0)


def test_certificate_passes_with_rounding_observed(certificate):
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    assert all(v["ok"] for v in certificate["laws"].values()), certificate["laws"]
    certified = {d for d, v in certificate["dtypes"].items() if v["status"] == "certified"}
    assert {"float32", "float16"} <= certified
    assert {"length-1", "non-multiple", "multi-block", "long-memory", "denormal",
            "dynamic-range", "cancellation"} <= set(certificate["cases"]["coverage"])


def test_no_decay_in_carry_fails_certification(planted):
    assert not planted["no_decay_in_carry"]["pass"]
    assert planted["no_decay_in_carry"]["rho"] > 1


@triton.jit
def _exp_kernel(z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.exp(tl.load(z_ptr + offs, mask=mask)), mask=mask)


def test_exp_meets_the_assumed_accuracy_on_this_backend():
    """The bound assumes tl.exp within E_EXP relative beyond argument rounding."""
    z = -torch.linspace(0.0, 80.0, 8192, dtype=torch.float32)
    out = torch.empty_like(z, device=device())
    _exp_kernel[(triton.cdiv(z.numel(), 1024),)](z.to(device()), out, z.numel(), BLOCK=1024)
    exact = torch.exp(z.double())
    normal = exact > 2.0 ** -126
    rel = ((out.cpu().double() - exact).abs() / exact)[normal]
    allowed = ss.E_EXP + 3 * 2.0 ** -24 * z.double().abs()[normal] * 1.01
    assert bool((rel <= allowed).all())


def _inputs(batch, length, channels, states, seed=0):
    rng = np.random.default_rng(seed)
    raw = ss._random(rng, batch, length, channels, states)
    master = {k: ss._on_grid(v) for k, v in raw.items()}
    stored = [master[n].to(torch.float32).to(device()).contiguous() for n in ss.NAMES]
    return master, stored


@pytest.mark.parametrize("length", [1, CHUNK - 1, CHUNK, 2 * CHUNK + 3])
def test_lengths_around_the_chunk_are_within_the_bound(length):
    master, stored = _inputs(1, length, 2, 3, seed=length)
    y = ss.selective_scan(*stored).cpu()
    exact = ss.sequential(*(master[n] for n in ss.NAMES))
    bound = ss.error_bound(master, "float32", y, CHUNK)
    assert bool(((y.double() - exact).abs() <= bound).all())


def test_carry_carries_state_across_chunks():
    master, stored = _inputs(1, 3 * CHUNK, 1, 2)
    stored[1].fill_(0.01)                # slow decay: the state outlives a chunk
    y = ss.selective_scan(*stored).cpu()
    spec = ss.KERNEL
    with planted_module(spec, planted_bugs(spec)["no_decay_in_carry"]) as copy:
        dropped = copy.selective_scan(*stored).cpu()     # the carry added without decay
    assert torch.equal(y[:, :CHUNK], dropped[:, :CHUNK])        # first chunk: no carry
    assert not torch.allclose(y[:, CHUNK:], dropped[:, CHUNK:])


def test_bound_refuses_unrepresentable_inputs():
    master, _ = _inputs(1, 4, 2, 2)
    master["x"] = master["x"] + 1e-9
    with pytest.raises(ValueError, match="representable"):
        ss.error_bound(master, "float16", torch.zeros(1, 4, 2), CHUNK)


def _good():
    _, stored = _inputs(2, 5, 3, 4)
    return dict(zip(ss.NAMES, stored))


@pytest.mark.parametrize("change, error, words", [
    (lambda t: t.update(x=[[1.0]]), TypeError, "torch.Tensor"),
    (lambda t: t.update(x=t["x"][0]), ValueError, "3-D"),
    (lambda t: t.update(Bm=t["Bm"][:, :, :3].contiguous()), ValueError, "Bm must have shape"),
    (lambda t: t.update(A=t["A"][:2].contiguous()), ValueError, "A must have shape"),
    (lambda t: t.update(delta=t["delta"].half()), TypeError, "differs"),
    (lambda t: t.update(A=t["A"].half()), TypeError, "A must be float32"),
    (lambda t: t.update(x=t["x"].double(), delta=t["delta"].double(), Bm=t["Bm"].double(),
                        Cm=t["Cm"].double()), TypeError, "dtype"),
    (lambda t: t.update(Cm=t["Cm"].transpose(0, 1).contiguous().transpose(0, 1)),
     ValueError, "contiguous"),
    (lambda t: t.update(Dskip=torch.ones(3, device="meta")), ValueError, "must be on"),
])
def test_bad_input_raises_one_line(change, error, words):
    tensors = _good()
    change(tensors)
    with pytest.raises(error, match=words) as info:
        ss.selective_scan(*(tensors[n] for n in ss.NAMES))
    assert "\n" not in str(info.value)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_covers_bfloat16():
    cert = certify(ss.KERNEL, "gpu", seed=0)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert not any(c["pass"] for c in planted_results(ss.KERNEL, "gpu").values())
