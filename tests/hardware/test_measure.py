"""The instruction-accuracy harness (verify/hardware/measure.py). On this machine its
kernels run in Triton's interpreter, where the float32 functions are numpy's: the tests
check that the harness measures (a figure above zero, inputs counted, the worst input
replayed), that a table claiming too little is caught, and that the committed GPU record,
where there is one, holds against the table as it stands now."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from impls.accuracy import TABLE
from impls.numerics import U32
from verify.hardware import measure

RECORD = Path(__file__).resolve().parents[2] / "certificates" / "instructions.gpu.json"
ONE = measure._float_bits(1.0)


def test_exp_is_measured_on_every_input_of_the_range():
    r = measure.measure_unary(0, ONE - 2048, ONE + 2048, block=64, iters=4)
    assert r["inputs_measured"] == 4096
    assert r["operation"] == "exp" and r["table"]["instruction"] == "ex2.approx.f32"
    # numpy's float32 exp is within about an ulp: something measured, inside 2 ulp (4u)
    assert 0 < r["max_relative_error_in_u"] <= 4.0
    assert 0 < r["max_ratio_to_table"] <= 1.0 and r["holds"]


def test_the_worst_input_replays():
    r = measure.measure_unary(0, ONE, ONE + 4096, block=64, iters=4)
    x = float.fromhex(r["worst_input"])
    got = float(np.exp(np.float32(x)))
    exact = math.exp(x)
    assert abs(got - exact) / exact == pytest.approx(r["max_relative_error"], rel=1e-6)


def test_a_table_claiming_too_little_is_caught():
    r = measure.measure_unary(0, ONE, ONE + 4096, block=64, iters=4, rel=U32 / 64)
    assert not r["holds"] and r["max_ratio_to_table"] > 1.0


def test_log_domain_excludes_non_positive_and_subnormal_inputs():
    neg = measure._float_bits(-1.0)
    r = measure.measure_unary(2, neg, neg + 1024, block=64, iters=4)
    assert r["inputs_measured"] == 0 and r["max_ratio_to_table"] == 0.0
    r = measure.measure_unary(4, 1, 1025, block=64, iters=4)        # subnormal inputs
    assert r["inputs_measured"] == 0


def test_division_over_a_slice_of_denominators():
    r = measure.measure_div(numerators=2, b_count=256, block=64)
    assert r["holds"] and 0 < r["max_ratio_to_table"] <= 1.0
    a, b = float.fromhex(r["worst"]["a"]), float.fromhex(r["worst"]["b"])
    q = float(np.float32(a) / np.float32(b))
    assert abs(q - a / b) / abs(a / b) == pytest.approx(r["worst"]["relative_error"], rel=1e-6)


def test_dot_measures_against_the_kernels_factor():
    r = measure.measure_dot("float32", "ieee", ks=(64,))
    assert r["holds"] and r["cases"] and all(c["max_ratio"] > 0 for c in r["cases"])


@pytest.mark.skipif(not RECORD.exists(), reason="no GPU record committed")
def test_committed_gpu_record_holds_against_the_table_now():
    record = json.loads(RECORD.read_text())
    assert record["device"] != "cpu" and "Triton interpreter" not in record["device"]
    assert record["holds"]
    for m in record["measurements"]:
        assert m["holds"], m
        if "table" in m:  # the figure the table gives today is no tighter than measured
            row = TABLE[m["table"]["instruction"]]
            assert row.rel >= m["table"]["rel"] and row.abs >= m["table"]["abs"], m
            assert m["inputs_measured" if "inputs_measured" in m else "operation"]
        else:
            assert m["max_ratio_to_model"] <= 1.0


def test_device_is_reported():
    assert measure._device() in ("cpu", "cuda")
    if not torch.cuda.is_available():
        assert measure._device() == "cpu"


# --------------------------------------------------------------------------- crosscheck
from verify.hardware import crosscheck  # noqa: E402
from verify.hardware.compile import cache_dir, compile_launches  # noqa: E402
from verify.hardware.launches import gpu_launches  # noqa: E402

CROSSCHECK = RECORD.with_name("crosscheck.gpu.json")


@pytest.fixture(scope="module")
def softmax_ptx():
    import impls
    launches, _ = gpu_launches(impls.load("softmax"))
    result = compile_launches(launches[:1], ("sm_90a",))[0]
    assert "ptx" in result, result.get("error")
    return result["ptx"]


def _cache_with(tmp_path, ptx: str) -> str:
    d = tmp_path / "triton-cache" / "ABC"
    d.mkdir(parents=True)
    (d / "_softmax_kernel.ptx").write_text(ptx)
    return str(tmp_path / "triton-cache")


def test_the_same_code_has_the_same_profile(tmp_path, softmax_ptx):
    r = crosscheck.compare(_cache_with(tmp_path, softmax_ptx), cache_dir())
    assert r["ok"] and r["ptx_files"] == 1 and r["identical"] == 1


def test_an_instruction_the_offline_code_lacks_is_a_difference(tmp_path, softmax_ptx):
    assert "ex2.approx.f32" in softmax_ptx
    changed = softmax_ptx.replace("ex2.approx.f32", "ex2.approx.ftz.f32")
    r = crosscheck.compare(_cache_with(tmp_path, changed), cache_dir())
    assert not r["ok"] and r["same_profile"] == 0
    assert r["kernels"]["_softmax_kernel"]["different"][0]["operations"]["exp"] == \
        ["ex2.approx.ftz.f32"]


def test_a_scratch_copy_is_left_out_and_nothing_found_is_not_ok(tmp_path, softmax_ptx):
    scratch = softmax_ptx.replace("/impls/", "/scratch-copy/")
    r = crosscheck.compare(_cache_with(tmp_path, scratch), cache_dir())
    assert r["scratch_copies_left_out"] == 1 and r["ptx_files"] == 0 and not r["ok"]


@pytest.mark.skipif(not CROSSCHECK.exists(), reason="no GPU record committed")
def test_committed_crosscheck_found_every_profile_offline():
    record = json.loads(CROSSCHECK.read_text())
    assert record["ok"] and record["ptx_files"] == record["same_profile"] > 0
    assert all(not k["different"] for k in record["kernels"].values())
