"""Cases from the observed block schedule (verify/certification/schedule.py): an online
softmax that loops over its row in blocks of 32 certifies, the same kernel without the
running-max rescale fails through the schedule cases although the user's short rows
alone pass it, and a kernel whose block covers the row gets no extra case."""
import dataclasses
import json
import math

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from impls.spec import backend as running_backend
from verify.cases import representable, rows
from verify.certification import schedule
from verify.certification.binding import bind, binding_of
from verify.certification.certify import certify
from verify.hardware.capture import recording

BACKEND = running_backend()
BLOCK = 32
SHORT_ROWS = rows(n=[1, 7, 17])


@triton.jit
def _online_softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = tl.zeros((), tl.float32) - float("inf")
    d = tl.zeros((), tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        shift = tl.where(m_new == -float("inf"), 0.0, m_new)
        d = d * tl.exp(m - shift) + tl.sum(tl.exp(x - shift), 0)
        m = m_new
    shift = tl.where(m == -float("inf"), 0.0, m)
    d = tl.where(d == 0.0, 1.0, d)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - shift) / d
        tl.store(y_ptr + row * n + cols, y.to(y_ptr.dtype.element_ty), mask=cols < n)


@triton.jit
def _online_softmax_without_rescale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """The bug the issue reports: the running sum is not rescaled when a later block
    raises the maximum."""
    row = tl.program_id(0)
    m = tl.zeros((), tl.float32) - float("inf")
    d = tl.zeros((), tl.float32)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf")).to(tl.float32)
        m = tl.maximum(m, tl.max(x, 0))
        shift = tl.where(m == -float("inf"), 0.0, m)
        d = d + tl.sum(tl.exp(x - shift), 0)
    shift = tl.where(m == -float("inf"), 0.0, m)
    d = tl.where(d == 0.0, 1.0, d)
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - shift) / d
        tl.store(y_ptr + row * n + cols, y.to(y_ptr.dtype.element_ty), mask=cols < n)


@triton.jit
def _whole_row_softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf")).to(tl.float32)
    m = tl.max(x, 0)
    shift = tl.where(m == -float("inf"), 0.0, m)
    e = tl.exp(x - shift)
    d = tl.sum(e, 0)
    y = e / tl.where(d == 0.0, 1.0, d)
    tl.store(y_ptr + row * n + cols, y.to(y_ptr.dtype.element_ty), mask=cols < n)


def _launcher(kernel, block):
    def softmax(x):
        y = torch.empty_like(x)
        kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=block(x.shape[1]))
        return y
    return softmax


def online_softmax(x):
    return _launcher(_online_softmax, lambda n: BLOCK)(x)


def online_softmax_without_rescale(x):
    return _launcher(_online_softmax_without_rescale, lambda n: BLOCK)(x)


def whole_row_softmax(x):
    return _launcher(_whole_row_softmax, triton.next_power_of_2)(x)


def _bound(fn, inputs=SHORT_ROWS):
    return bind(fn, reference="softmax", outputs=("softmax",), inputs=inputs,
                dtypes=("float32", "float16"))


def _certify(spec):
    return certify(spec, BACKEND, check_laws=False, compiled=False)


@pytest.fixture(scope="module")
def correct():
    return _certify(_bound(online_softmax))


@pytest.fixture(scope="module")
def without_rescale():
    return _certify(_bound(online_softmax_without_rescale))


def test_the_blocked_online_softmax_certifies_with_its_schedule_cases(correct):
    assert correct["pass"], correct["notes"]
    seen = correct["schedule"]
    assert seen["verdict"] == "blocked"
    assert seen["blocked"] == [{"block": BLOCK, "constexprs": ["_online_softmax.BLOCK"],
                                "lengths": [100, 1000, 5000]}]
    assert set(seen["classes"]) == set(schedule.ROW_CLASSES)
    assert seen["cases"] == len(schedule.ROW_CLASSES)
    probe = next(p for p in seen["probes"] if p["n"] == 1000 and p["dtype"] == "float16")
    assert probe["launches"] == [{"kernel": "_online_softmax", "grid": [schedule.PROBE_ROWS],
                                  "constexprs": {"BLOCK": BLOCK}, "num_warps": 4}]
    assert {"max-in-last-block", "ascending", "fully-masked-block"} <= set(
        correct["cases"]["coverage"])
    assert json.loads(json.dumps(seen)) == seen


def test_a_dropped_rescale_fails_through_the_schedule_cases(without_rescale):
    assert without_rescale["pass"] is False
    for dtype in ("float32", "float16"):
        failed = {c["name"].split()[2] for c in without_rescale["per_dtype"][dtype]["cases"]
                  if not c["pass"]}
        assert {"max-in-middle-block", "max-in-last-block", "ascending"} <= failed, failed
        assert all(c["pass"] for c in without_rescale["per_dtype"][dtype]["cases"]
                   if not c["name"].startswith("schedule ")), dtype


def test_a_dropped_rescale_passes_the_short_rows_alone():
    """The issue's complaint: with rows of 1, 7 and 17 every row fits one block of 32,
    no merge rescales, and the broken kernel passes."""
    spec = _bound(online_softmax_without_rescale)
    alone = dataclasses.replace(spec, coverage=dataclasses.replace(spec.coverage,
                                                                   cases=SHORT_ROWS))
    cert = _certify(alone)
    assert cert["pass"] is True, cert["notes"]
    assert "schedule" not in cert


def test_a_whole_row_block_is_one_block_per_row_and_adds_no_case():
    spec = _bound(whole_row_softmax)
    cert = _certify(spec)
    assert cert["pass"], cert["notes"]
    assert cert["schedule"]["verdict"] == "one block per row"
    assert cert["schedule"]["blocked"] == [] and cert["schedule"]["cases"] == 0
    assert cert["cases"]["count"] == len(SHORT_ROWS(0, BACKEND))
    blocks = {p["n"]: p["launches"][0]["constexprs"]["BLOCK"]
              for p in cert["schedule"]["probes"]}
    assert blocks == {1: 1, 100: 128, 1000: 1024, 5000: 8192}


def test_a_wrapper_without_triton_launches_is_not_observed():
    spec = _bound(lambda x: torch.softmax(x, -1))
    assert not any(c.schedule_block is not None for c in spec.coverage.cases(0, BACKEND))
    seen = binding_of(spec).records.schedule[BACKEND]
    assert seen.verdict == "not observed: no Triton launch seen"


def test_a_probe_the_wrapper_refuses_is_listed_and_the_others_still_count():
    def short_rows_only(x):
        if x.shape[1] > 1024:
            raise ValueError("rows longer than 1024 are not supported")
        return online_softmax(x)
    seen = schedule.observed(binding_of(_bound(short_rows_only)), BACKEND)
    assert seen.verdict == "blocked" and seen.blocks[BLOCK]["lengths"] == [100, 1000]
    assert seen.problems == [f"{d} n=5000: ValueError: rows longer than 1024 are not "
                             "supported" for d in ("float32", "float16")]


def test_a_reference_of_another_layout_is_not_probed():
    spec = bind(lambda q, k, v: q, reference="attention", inputs=lambda seed, backend: [])
    assert spec.coverage.cases(0, BACKEND) == []
    seen = binding_of(spec).records.schedule[BACKEND]
    assert seen.verdict == "not observed: reference 'attention' takes attention inputs"
    assert seen.probes == []


def test_a_loss_gets_its_schedule_cases_completed_with_targets():
    def lse_of(x, target):
        y = online_softmax(x)
        return {"lse": torch.zeros(x.shape[0]), "loss": y[:, 0]}
    spec = bind(lse_of, reference="cross_entropy", inputs=SHORT_ROWS)
    made = [c for c in spec.coverage.cases(0, BACKEND) if c.schedule_block is not None]
    assert len(made) == len(schedule.ROW_CLASSES) - 1      # no masks option
    for case in made:
        x, target = case.inputs["x"], case.inputs["target"]
        assert target.dtype == torch.int64 and target.shape == x.shape[:1]
    last = next(c for c in made if c.classes == ("max-in-last-block",))
    assert int(last.inputs["target"][0]) == last.inputs["x"].shape[1] - 1


# --------------------------------------------------------------------------- the cases
@pytest.mark.parametrize("block", [2, 32])
def test_row_cases_put_the_maximum_in_the_named_block(block):
    cases = {c.classes[0]: c for c in
             schedule.row_cases(block, np.random.default_rng(0), masks=True)}
    assert set(cases) == set(schedule.ROW_CLASSES)
    lengths = {k: cases[k].n for k in schedule.LENGTH_CLASSES}
    assert lengths == dict(zip(schedule.LENGTH_CLASSES,
                               (block - 1, block, block + 1, 3 * block + 1)))
    for cls, blocks in (("max-in-first-block", {0}), ("max-in-middle-block", {1, 2}),
                        ("max-in-last-block", {3})):
        x = cases[cls].inputs["x"]
        where = x.argmax(-1) // block
        assert set(where.tolist()) <= blocks and bool((x.amax(-1) == schedule.PEAK).all())
    up = cases["ascending"].inputs["x"]
    assert bool((up.diff(dim=-1) >= 0).all())
    assert torch.equal(cases["descending"].inputs["x"].flip(-1), up)
    masked = cases["fully-masked-block"].inputs["x"]
    assert bool((masked[0, :block] == -math.inf).all())
    assert bool((masked[1, block:2 * block] == -math.inf).all())
    assert bool(torch.isfinite(masked[2, 3 * block:]).all())
    for cls, case in cases.items():
        x = case.inputs["x"]
        placed = cls == "fully-masked-block" or cls.startswith("max-in")
        assert x.shape[0] == (3 if placed else schedule.ROWS)
        assert torch.equal(representable(x), x)


def test_matrix_cases_place_the_dominant_product_in_the_named_block():
    block = 16
    cases = {c.classes[0]: c for c in
             schedule.matrix_cases(block, np.random.default_rng(0))}
    assert set(cases) == set(schedule.MATRIX_CLASSES)
    assert [cases[k].inputs["a"].shape[1] for k in schedule.LENGTH_CLASSES] == \
        [block - 1, block, block + 1, 3 * block + 1]
    for cls, blocks in (("dominant-in-first-block", {0}), ("dominant-in-middle-block", {1}),
                        ("dominant-in-last-block", {3})):
        a, b = cases[cls].inputs["a"], cases[cls].inputs["b"]
        terms = a.unsqueeze(-1) * b.unsqueeze(0)         # (M, K, N)
        assert set((terms.abs().argmax(1) // block).flatten().tolist()) <= blocks


def test_the_tiled_matmul_of_the_examples_is_seen_blocked_in_k():
    from user_kernels import tiled_matmul
    spec = tiled_matmul.binding()
    seen = schedule.observed(binding_of(spec), BACKEND)
    assert seen.verdict == "blocked" and list(seen.blocks) == [16]
    assert "matmul_kernel.BLOCK_K" in seen.blocks[16]["constexprs"]
    made = [c for c in spec.coverage.cases(0, BACKEND) if c.schedule_block is not None]
    assert {c.classes[0] for c in made} == set(schedule.MATRIX_CLASSES)


# --------------------------------------------------------------------------- capture
def test_the_grid_is_recorded_and_a_grid_function_evaluated():
    x = torch.zeros(5, 40)
    y = torch.empty_like(x)
    with recording(execute=False) as launches:
        _online_softmax[(5,)](x, y, 40, BLOCK=8)
        _whole_row_softmax[lambda meta: (triton.cdiv(40, meta["BLOCK"]), 2)](x, y, 40,
                                                                          BLOCK=16)
    assert [launch["grid"] for launch in launches] == [[5], [3, 2]]


def test_a_compiled_launch_is_recorded_and_not_run_without_execute():
    from triton.runtime.jit import JITFunction
    compiled = JITFunction(_whole_row_softmax.fn)
    x = torch.zeros(2, 10)
    with recording(execute=False) as launches:
        compiled[(2,)](x, torch.empty_like(x), 10, BLOCK=16)
    assert [(launch["name"], launch["grid"]) for launch in launches] == \
        [("_whole_row_softmax", [2])]
