"""Kernels compiled for sm_90a/sm_100a without a GPU: the instruction profile, the error
model it backs, and the refusal of a model that claims more accuracy than the code has.
The suite compiles one GPU launch per kernel and target (the full matrix runs in CI as
``python -m verify compile --json``; both share the disk cache)."""
from __future__ import annotations

import subprocess
import sys

import pytest

import impls
from impls import accuracy
from verify.hardware import profile_launches
from verify.hardware.accuracy import check
from verify.hardware.launches import gpu_launches


def _first(name: str, dtype: str = "float32") -> tuple:
    spec = impls.load(name)
    launches, _ = gpu_launches(spec)
    chosen = [x for x in launches if any(a["kind"] == "tensor" and a["value"] == dtype
                                         for a in x["args"])] or launches
    return spec, chosen[:1]


@pytest.fixture(scope="module")
def softmax_profile():
    spec, launches = _first("softmax")
    return spec, profile_launches(launches, dict(spec.bounding.gpu_model), ("sm_90a",),
                                  kernel="softmax")


def test_softmax_compiles_to_approximate_exp_and_full_range_division(softmax_profile):
    _, prof = softmax_profile
    entry = prof["sm_90a"]["launches"][0]
    assert entry["target"] == "sm_90a"
    assert entry["operations"]["exp"] == ["ex2.approx.f32"]
    assert entry["operations"]["div"] == ["div.full.f32"]
    assert entry["operations"]["log"] == ["libdevice.logf"]
    assert entry["exp_lowering"].startswith("mul.f32 by fp32 log2(e)")
    assert entry["fma_contracted"] and entry["registers"] > 0 and entry["spill_bytes"] == 0
    where = entry["instructions"]["ex2.approx.f32"]["where"]
    assert any(w.startswith("softmax.py:") for w in where)
    assert prof["sm_90a"]["ok"], prof["sm_90a"]["problems"]
    assert prof["sm_90a"]["constants"]["exp"]["rel"] == accuracy.relative("ex2.approx.f32")
    assert prof["performance"]["float32"]["floor"]["H100-SXM"]["bound"] == "memory"


def test_a_model_claiming_a_correctly_rounded_exp_is_refused(softmax_profile):
    spec, prof = softmax_profile
    planted = dict(spec.bounding.gpu_model,
                   exp=accuracy.claimed("exp", "correctly rounded", accuracy.U32))
    verdict = check(planted, prof["sm_90a"]["launches"][0])
    assert not verdict["ok"]
    assert any(p.startswith("exp:") and "ex2.approx.f32" in p for p in verdict["problems"])
    # the near miss: the table's own figure is accepted
    assert check(dict(spec.bounding.gpu_model), prof["sm_90a"]["launches"][0])["ok"]


def test_a_model_silent_about_division_is_refused(softmax_profile):
    spec, prof = softmax_profile
    silent = {k: v for k, v in spec.bounding.gpu_model.items() if k != "div"}
    problems = check(silent, prof["sm_90a"]["launches"][0])["problems"]
    assert any(p.startswith("div:") and "div.full.f32" in p for p in problems)


def test_float32_matmul_is_tf32_and_refused_where_ieee_is_claimed():
    spec, launches = _first("matmul", "float32")
    prof = profile_launches(launches, {}, ("sm_90a", "sm_100a"))
    for target in ("sm_90a", "sm_100a"):
        entry = prof[target]["launches"][0]
        assert entry["tf32"], entry["mma"]
        assert check({}, entry, input_precision="ieee")["problems"][0].startswith("dot: ")
        assert check({}, entry, input_precision="tf32")["ok"]


@pytest.mark.slow
@pytest.mark.parametrize("name", impls.kernel_names())
def test_every_launch_compiles_and_backs_the_kernels_gpu_model(name):
    """The full matrix: every GPU launch configuration of every dtype, both targets (read
    from the disk cache that ``python -m verify compile`` fills in CI)."""
    from verify.hardware import profile_for
    prof = profile_for(impls.load(name))
    assert not prof.get("launch_problems"), prof.get("launch_problems")
    for target in ("sm_90a", "sm_100a"):
        entries = prof[target]["launches"]
        assert entries
        assert all("error" not in e for e in entries), \
            [e["error"][-400:] for e in entries if "error" in e]
        assert prof[target]["ok"], prof[target]["problems"]
        for e in entries:
            assert e["model_check"]["ok"], (e["launch"], e["model_check"]["problems"])


def test_compile_cli_bad_kernel_is_one_line_exit_2():
    run = subprocess.run([sys.executable, "-m", "verify", "compile", "no_such_kernel", "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("verify: error: unknown kernel") and run.stderr.count("\n") == 1


def test_a_gpu_certificate_with_an_over_accurate_exp_model_fails(monkeypatch):
    """Certification on an sm_90a device: the planted model (exp correctly rounded)
    fails the certificate and the note names the operation; the kernel's own model
    passes."""
    import dataclasses

    import verify.hardware as hardware
    monkeypatch.setattr(hardware, "_device_target", lambda: "sm_90a")
    spec = impls.load("softmax")
    planted = dataclasses.replace(spec, bounding=dataclasses.replace(spec.bounding, gpu_model=dict(
        spec.bounding.gpu_model, exp=accuracy.claimed("exp", "correctly rounded", accuracy.U32))))
    cert = {"pass": True, "notes": []}
    hardware.attach(cert, planted, "gpu")
    assert cert["pass"] is False
    assert any("exp: the bound assumes" in n and "ex2.approx.f32" in n for n in cert["notes"])
    assert not cert["compiled"]["sm_90a"]["ok"]
    honest = {"pass": True, "notes": []}
    hardware.attach(honest, spec, "gpu")
    assert honest["pass"] is True and honest["compiled"]["sm_90a"]["ok"]
    assert honest["compiled"]["sm_90a"]["constants"]["exp"]["instruction"] == "ex2.approx.f32"
