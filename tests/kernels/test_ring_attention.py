"""Ring attention: certified on this backend against attention over the whole sequence,
the missing rescale between shards and the ring that stops early caught, every start of
the ring certified alike (the rotation law), inputs validated."""
from __future__ import annotations


import pytest
from kernel_checks import assert_bench_reports, assert_certificate_passes
import torch

from impls import ring_attention as RA
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planted_bugs import Planted
from verify.certification.planting import planted_results, planted_spec

SPEC = RA.KERNEL


@pytest.fixture(scope="module")
def certificate():
    return certify(SPEC, backend(), seed=0, check_laws=False)


@pytest.fixture(scope="module")
def planted():
    return planted_results(SPEC, backend(), seed=0)


def _failing_cases(cert):
    return {case["name"].split(" B=")[0] for result in cert["per_dtype"].values()
            for case in result["cases"] if not case["pass"]}


def test_certificate_passes_every_case(certificate):
    assert_certificate_passes(certificate, SPEC)


def test_the_kernel_merges_with_the_law_modules_combine():
    from laws import REGISTRY
    from laws.associativity.combines import flash_state
    assert "ring_attention.rotation" in SPEC.laws
    assert "ring_attention" in REGISTRY["ring_attention.rotation"].kernels
    assert SPEC.combine is flash_state
    assert RA.ring_attention_kernel.fn.__globals__["flash_state"] is flash_state


def test_missing_rescale_between_shards_is_caught_wherever_there_are_two(planted):
    cert = planted["rescale_dropped_between_shards"]
    assert not cert["pass"]
    failing = _failing_cases(cert)
    assert {"normal", "ragged shards", "growing max", "key padding",
            "one key per shard"} <= failing
    # one shard merges with the identity only, where no rescale is needed
    assert "one shard" not in failing


def test_ring_that_stops_early_is_caught(planted):
    cert = planted["ring_stops_early"]
    assert not cert["pass"]
    assert {"normal", "one shard", "empty last shard"} <= _failing_cases(cert)


@pytest.mark.parametrize("start", ["step % SHARDS", "(own + SHARDS - step) % SHARDS",
                                   "(own + 1 + step) % SHARDS"])
def test_every_start_and_direction_of_the_ring_certifies(start):
    """ring_attention.rotation: devices starting at shard 0, running the ring backwards,
    or starting one past their own shard still compute attention within the bound."""
    row = Planted("ring_attention", "rotation", f"shard = {start}",
                  (("shard = (own + step) % SHARDS", f"shard = {start}"),))
    with planted_spec(SPEC, row) as variant:
        cert = certify(variant, backend(), seed=0, check_laws=False, compiled=False)
    assert cert["pass"], cert["notes"]


def _qkv(b=1, h=2, n=20, d=16):
    gen = torch.Generator().manual_seed(0)
    return tuple(torch.randn(b, h, n, d, generator=gen).to(device()) for _ in range(3))


def test_shards_from_one_to_every_key_agree_within_the_bound():
    q, k, v = _qkv()
    kv_len = torch.tensor([13], dtype=torch.int32, device=device())
    ref = RA.attention.reference(q.double(), k.double(), v.double(), kv_len=kv_len)
    for shards in (1, 2, 3, 7, 20):
        out = RA.ring_attention(q, k, v, shards, kv_len=kv_len)
        assert float((out.double() - ref).abs().max()) < 1e-5, shards


def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("ring_attention:")


def test_inputs_are_checked():
    q, k, v = _qkv()
    cases = [((q, k, v, 0), ValueError), ((q, k, v, 21), ValueError),
             ((q, k, v, 2.0), ValueError), ((q, k, v, True), ValueError),
             ((q, k[:, :, :5].contiguous(), v, 2), ValueError),
             ((q[..., :8].contiguous(), k[..., :8].contiguous(), v[..., :8].contiguous(), 2),
              ValueError),
             ((q.half(), k, v, 2), TypeError),
             ((q.transpose(2, 3), k, v, 2), ValueError)]
    for args, error in cases:
        with pytest.raises(error) as excinfo:
            RA.ring_attention(*args)
        _one_line(excinfo)
    with pytest.raises(ValueError) as excinfo:
        RA.ring_attention(q, k, v, 2, kv_len=torch.tensor([21], dtype=torch.int32,
                                                          device=device()))
    _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_includes_bf16():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert all(not c["pass"] for c in planted_results(SPEC, "gpu").values())
