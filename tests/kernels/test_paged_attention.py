"""Paged attention: certified on this backend against attention over the contiguous
cache, both planted block-table bugs caught, the table changes addresses only (a
shuffled pool gives the bits of a contiguous one), inputs validated."""
from __future__ import annotations


import numpy as np
import pytest
from kernel_checks import assert_bench_reports, assert_certificate_passes
import torch

from impls import paged_attention as PA
from impls.spec import backend, device
from verify.certification.certify import certify
from verify.certification.planting import planted_results

SPEC = PA.KERNEL


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
    assert "paged_attention.block_table" in SPEC.laws
    assert "paged_attention" in REGISTRY["paged_attention.block_table"].kernels
    assert SPEC.combine is flash_state
    assert PA.paged_attention_kernel.fn.__globals__["flash_state"] is flash_state


def test_page_off_by_one_is_caught_where_pages_end_inside_the_sequence(planted):
    cert = planted["page_off_by_one"]
    assert not cert["pass"]
    failing = _failing_cases(cert)
    assert {"decode", "small pages", "one token per page", "large pages",
            "shared prefix"} <= failing
    # a sequence of 0, 1 or 3 tokens never crosses a page boundary of 16
    assert "empty and single" not in failing


def test_table_ignored_is_caught_on_every_case(planted):
    cert = planted["table_ignored"]
    assert not cert["pass"]
    cases = {c["name"].split(" B=")[0] for c in cert["per_dtype"]["float32"]["cases"]}
    assert _failing_cases(cert) == cases


def _pool(order: np.ndarray, k: torch.Tensor, v: torch.Tensor, page: int):
    """k, v (B, H, T·page, D) stored page by page in the pool slots ``order``
    (sequence b's logical page i in physical page order[b, i])."""
    b, h, n, d = k.shape
    pages = n // page
    k_cache = torch.zeros(b * pages, h, page, d, dtype=k.dtype)
    v_cache = torch.zeros_like(k_cache)
    for s in range(b):
        for i in range(pages):
            k_cache[order[s, i]] = k[s, :, i * page:(i + 1) * page]
            v_cache[order[s, i]] = v[s, :, i * page:(i + 1) * page]
    return k_cache, v_cache


@pytest.mark.parametrize("page", [1, 4, 16, 32])
def test_the_table_changes_addresses_only(page):
    """paged_attention.block_table at the bit level: the same tokens in a shuffled pool
    and in a contiguous one (identity table) give identical outputs, since the kernel
    reads the same values in the same blocks either way."""
    gen = torch.Generator().manual_seed(page)
    b, h, m, n, d = 3, 2, 3, 64, 16
    q, k, v = (torch.randn(b, h, x, d, generator=gen).to(device()) for x in (m, n, n))
    pages = n // page
    lens = torch.tensor([64, 37, 9], dtype=torch.int32, device=device())
    identity = np.arange(b * pages).reshape(b, pages)
    shuffled = np.random.default_rng(page).permutation(b * pages).reshape(b, pages)
    outs = []
    for order in (identity, shuffled):
        k_cache, v_cache = _pool(order, k.cpu(), v.cpu(), page)
        table = torch.tensor(order, dtype=torch.int32, device=device())
        outs.append(PA.paged_attention(q, k_cache.to(device()), v_cache.to(device()), table,
                                       lens))
    assert not (shuffled == identity).all()
    assert torch.equal(outs[0], outs[1])
    ref = PA.attention.reference(q.double(), k.double(), v.double(), kv_len=lens)
    assert float((outs[0].double() - ref).abs().max()) < 1e-5


def _inputs(b=2, h=2, m=1, pool=6, page=4, d=16, cols=3):
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(b, h, m, d, generator=gen).to(device())
    k_cache = torch.randn(pool, h, page, d, generator=gen).to(device())
    table = torch.arange(b * cols, dtype=torch.int32).reshape(b, cols).remainder(pool)
    lens = torch.tensor([cols * page] * b, dtype=torch.int32)
    return q, k_cache, k_cache.clone(), table.to(device()), lens.to(device())


def _one_line(excinfo):
    assert "\n" not in str(excinfo.value)
    assert str(excinfo.value).startswith("paged_attention:")


def test_sequence_lengths_and_table_entries_are_checked():
    q, kc, vc, table, lens = _inputs()
    with pytest.raises(ValueError) as excinfo:   # longer than the table's pages hold
        PA.paged_attention(q, kc, vc, table, lens + 1)
    _one_line(excinfo)
    bad = table.clone()
    bad[1, 2] = 6                                  # the pool has pages 0…5
    with pytest.raises(ValueError) as excinfo:
        PA.paged_attention(q, kc, vc, bad, lens)
    _one_line(excinfo)
    # an entry past the sequence's pages is never read, so it may hold anything
    PA.paged_attention(q, kc, vc, bad, torch.tensor([12, 8], dtype=torch.int32,
                                                     device=device()))
    with pytest.raises(TypeError) as excinfo:
        PA.paged_attention(q, kc, vc, table.float(), lens)
    _one_line(excinfo)


def test_shapes_dtypes_and_layout_are_checked():
    q, kc, vc, table, lens = _inputs()
    for args, error in [((q, kc[:, :1].contiguous(), vc, table, lens), ValueError),
                        ((q, kc, vc[:, :, :2].contiguous(), table, lens), ValueError),
                        ((q, kc, vc, table[:1].contiguous(), lens), ValueError),
                        ((q[..., :8].contiguous(), kc[..., :8].contiguous(),
                          vc[..., :8].contiguous(), table, lens), ValueError),
                        ((q.half(), kc, vc, table, lens), TypeError),
                        ((q.double(), kc.double(), vc.double(), table, lens), TypeError),
                        ((q.transpose(2, 3), kc, vc, table, lens), ValueError)]:
        with pytest.raises(error) as excinfo:
            PA.paged_attention(*args)
        _one_line(excinfo)


def test_bench_times_the_torch_formulations_without_a_gpu():
    assert_bench_reports(SPEC)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_gpu_certificate_includes_bf16():
    cert = certify(SPEC, "gpu", seed=0, check_laws=False)
    assert cert["pass"], cert["notes"]
    assert cert["dtypes"]["bfloat16"]["status"] == "certified"
    assert all(not c["pass"] for c in planted_results(SPEC, "gpu").values())
