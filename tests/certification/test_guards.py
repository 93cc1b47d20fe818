"""Memory errors fail certification deterministically, and a crash is a failing
certificate: the softmax kernel with its masks off by one (writing one element past each
row, or reading one past it) — planted in a scratch copy of its source, the way the
certificates plant their bugs — and kernels that abort the process."""
import dataclasses
import os

import torch
import triton
import triton.language as tl

from impls import buffers
from impls import softmax as production
from impls.spec import backend as running_backend
from verify.certification.batch import certify_all
from verify.certification.certify import certify
from verify.certification.guards import GuardedAllocator
from verify.certification.planted_bugs import Planted
from verify.certification.planting import planted_spec

BACKEND = running_backend()
HERE = os.path.abspath(__file__)


# The softmax kernel with its masks one column past the row: planted bugs, edits of a
# scratch copy of impls/softmax.py, as the certificates plant theirs.
_STAT_MASK = ('inside = cols < n_cols\n'
              '        x = tl.load(x_row + cols, mask=inside, other=-float("inf")).to(tl.float32)\n'
              '        ones')
_STORE = "tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=inside)"
READS_PAST = Planted("softmax_copy", "reads_past_end",
                     "the statistics pass loads one column past the row",
                     ((_STAT_MASK, _STAT_MASK.replace("cols < n_cols", "cols < n_cols + 1")),),
                     file="impls/softmax.py")
WRITES_PAST = Planted("softmax_copy", "writes_past_end",
                      "the output is stored one column past the row",
                      ((_STORE, _STORE.replace("mask=inside", "mask=cols < n_cols + 1")),),
                      file="impls/softmax.py")


def _abort(case, dtype):
    os.abort()


def _running(spec, run=None, planted=None):
    """``spec`` with ``run`` (default: its own) and ``planted`` bugs (default: none)."""
    execution = dataclasses.replace(spec.execution, run=run or spec.execution.run,
                                    planted=dict(planted or {}))
    return dataclasses.replace(spec, execution=execution)


COPY = dataclasses.replace(
    _running(production.KERNEL, planted={"writes_past_end": WRITES_PAST, "aborts": _abort}),
    name="softmax_copy", laws=())
ABORTING = dataclasses.replace(_running(COPY, run=_abort), name="aborting")


def _problems(cert, dtype="float32"):
    return [c.get("problem") for c in cert["per_dtype"][dtype]["cases"]]


def test_the_unmodified_copy_passes_under_guards():
    cert = certify(_running(COPY), BACKEND, dtypes=["float32"])
    assert cert["pass"] is True, cert["notes"]


def test_a_write_past_the_end_fails_with_a_one_line_reason_every_time():
    with planted_spec(COPY, WRITES_PAST) as planted:
        first = certify(planted, BACKEND, dtypes=["float32"], check_laws=False)
        again = certify(planted, BACKEND, dtypes=["float32"], check_laws=False)
    assert first["pass"] is False
    assert _problems(first) == _problems(again)
    # every row writes one element past itself; only the last row's lands past the end
    # of the tensor (rows whose length is a multiple of the block write nothing extra)
    reasons = {p for p in _problems(first) if p}
    assert reasons == {"output softmax: 1 element written past the end"}


def test_a_read_past_the_end_reads_poison_and_fails_the_same_way_every_time():
    """The last row reads the guard's NaN. This kernel's merge drops a NaN maximum and
    its s > 0 test turns a NaN sum into 1, so the poison shows as a deterministic wrong
    row, not as NaN."""
    case = production.Case("3 rows of 37", {"x": torch.randn(3, 37, dtype=torch.float64)}, {})
    runs = []
    with planted_spec(COPY, READS_PAST) as planted:
        for run in (planted.execution.run, planted.execution.run, COPY.execution.run):
            with buffers.using(GuardedAllocator()) as guard:
                runs.append(run(case, "float32"))
            assert guard.violations() == []          # a read leaves the guards intact
        first = certify(planted, BACKEND, dtypes=["float32"], check_laws=False)
        second = certify(planted, BACKEND, dtypes=["float32"], check_laws=False)
    wrong, again, right = (r["softmax"][-1] for r in runs)
    assert torch.equal(wrong.view(torch.int32), again.view(torch.int32))
    assert float((wrong - right).abs().max()) > 0.1
    assert first["pass"] is False and first["rho"] > 1e3
    assert first["per_dtype"]["float32"]["rho"] == second["per_dtype"]["float32"]["rho"]


def test_guard_reports_writes_before_the_start_and_into_inputs():
    guard = GuardedAllocator()
    with buffers.using(guard):
        out = buffers.empty((4,), torch.float32, "cpu", "y")
        inp = buffers.operand(torch.ones(3, dtype=torch.int64), "k")
    assert torch.isnan(out).all()                         # unwritten outputs are poison
    out.as_strided((2,), (1,), out.storage_offset() - 2).fill_(0.0)
    inp[1] = 7
    assert guard.violations() == ["output y: 2 elements written before the start",
                                  "input k: 1 element overwritten"]


def test_a_kernel_that_aborts_yields_a_failing_certificate(tmp_path):
    certs = certify_all(backend="auto", out_dir=tmp_path, progress=False,
                        kernels=["aborting", "softmax_copy"],
                        refs={"aborting": f"{HERE}:ABORTING", "softmax_copy": f"{HERE}:COPY"})
    aborted, copy = certs
    assert aborted["pass"] is False
    assert aborted["notes"] == [aborted["notes"][0]] and aborted["notes"][0].startswith(
        "the certifying process was killed by SIGABRT while certifying aborting")
    # the child was restarted: the next kernel is certified, and its planted abort is
    # a caught bug, not a dead certifier
    assert copy["pass"] is True and copy["planted"]["writes_past_end"]["caught"] is True
    assert copy["planted"]["aborts"]["caught"] is True
    assert "SIGABRT" in copy["planted"]["aborts"]["crashed"]
    assert (tmp_path / f"softmax_copy.{BACKEND}.json").exists()


@triton.jit
def _copy_reading_past(x_ptr, y_ptr, n, BLOCK: tl.constexpr, PAST: tl.constexpr,
                       ATOMIC_PAST: tl.constexpr):
    """y = x; PAST also loads PAST elements after x's end (the value is never used);
    ATOMIC_PAST adds 0 atomically one element after y's end."""
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if PAST:
        unused = tl.load(x_ptr + n + offs, mask=offs < PAST, other=0.0)
        x = tl.where(unused == unused, x, x)
    tl.store(y_ptr + offs, x, mask=offs < n)
    if ATOMIC_PAST:
        tl.atomic_add(y_ptr + n + offs, tl.zeros((BLOCK,), tl.float32), mask=offs < 1)


def _reading_past_violations(past: int, atomic_past: bool) -> tuple[list[str], torch.Tensor]:
    from verify.certification.guards import watching
    allocator = GuardedAllocator()
    with buffers.using(allocator), watching(allocator):
        x = buffers.operand(torch.arange(5, dtype=torch.float32), "x")
        y = buffers.empty((5,), torch.float32, x.device, "y")
        _copy_reading_past[(1,)](x, y, 5, BLOCK=8, PAST=past, ATOMIC_PAST=atomic_past)
    return allocator.violations(), y


def test_reads_and_atomic_updates_in_a_guard_zone_are_seen_even_when_harmless():
    if BACKEND != "triton-interpreter":
        return  # on a GPU only sentinels and poison speak (module docstring)
    clean, y = _reading_past_violations(0, False)
    assert clean == [] and y.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    read, y = _reading_past_violations(3, False)
    assert read == ["input x: 3 elements read past the end"]
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]  # the output is right all the same
    assert _reading_past_violations(0, True)[0] == ["output y: 1 element updated past the end"]
