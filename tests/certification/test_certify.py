"""The certifier on hand-made specs: ρ arithmetic, kernels that must fail (zeros, NaN,
wrong indices, crashes), certificate keys, atomic writes, stale detection, and the
command's exit codes and JSON document."""
import json
import math
import os
import shutil
import types

import pytest
import torch

import impls
import laws
from impls.spec import (Bounding, Case, Comparison, Coverage, Execution, KernelSpec,
                        backend as running_backend)
from impls import numerics
from verify.jsonio import dumps
from verify.certification import certify as cert_mod
from verify.certification import links
from verify.certification import sources
from verify.certification.certify import BF16_NOTE, certify
from verify.certification.document import write_certificate
from verify.certification.comparison import compare_exact, compare_float
from verify.certification.planting import planted_results
from verify.certification.sources import stale_certificates

BACKEND = running_backend()


# --------------------------------------------------------------------------- a hand-made spec
def _cases(seed, backend):
    g = torch.Generator().manual_seed(seed)
    xs = [torch.randn(3, n, generator=g, dtype=torch.float64)
          * 10.0 ** (8 * torch.rand(3, n, generator=g, dtype=torch.float64) - 4)
          for n in (1, 10, 100)]
    # float16-representable master copies, so the oracle describes what the kernel sees
    return [Case(f"rows=3 n={x.shape[1]}", {"x": x.half().double()},
                 classes=("random",), n=x.shape[1]) for x in xs]


def _run(case, dtype):
    x = case.inputs["x"].to(getattr(torch, dtype)).float()
    return {"s": x.sum(dim=1), "argmax": x.argmax(dim=1)}


def _oracle(case):
    rows = case.inputs["x"].tolist()
    return {"s": torch.tensor([math.fsum(r) for r in rows], dtype=torch.float64),
            "argmax": torch.tensor([max(range(len(r)), key=r.__getitem__) for r in rows])}


def _bound(case, dtype, outputs):
    """γ_{n−1} Σ|xᵢ| for the fp32 row sum, any order."""
    x = case.inputs["x"]
    return {"s": numerics.dot_bound(x, torch.ones_like(x), numerics.unit_roundoff("float32"))}


def make_spec(run=_run, name="rowsum", laws=(), planted=None, contract_classes=(),
              sources=()):
    return KernelSpec(
        name=name, laws=laws, summary="row sums and argmax (a test double)", combine=None,
        dtypes=("float32", "float16", "bfloat16"),
        execution=Execution(run=run, reference=lambda c, d: _run(c, d),
                            planted=dict(planted or {})),
        comparison=Comparison(oracle=_oracle, exact_outputs=("argmax",), precision=lambda d: {
            "in": d, "accumulate": "float32", "out": "float32"}),
        coverage=Coverage(cases=_cases, contract_classes=contract_classes),
        bounding=Bounding(bound=_bound, algorithm=lambda b: {"order": "torch's"}),
        sources=sources)


def _zeros(case, dtype):
    out = _run(case, dtype)
    return {"s": torch.zeros_like(out["s"]), "argmax": out["argmax"]}


def _nan_once(case, dtype):
    out = _run(case, dtype)
    out["s"][0] = math.nan
    return out


def _wrong_index(case, dtype):
    out = _run(case, dtype)
    return {"s": out["s"], "argmax": out["argmax"] + 1}


def _crash(case, dtype):
    raise RuntimeError("kernel exploded")


def _sloppy(case, dtype):  # off by 1e-3 relative: far beyond γₙ for fp32
    out = _run(case, dtype)
    return {"s": out["s"] * (1 + 1e-3), "argmax": out["argmax"]}


# --------------------------------------------------------------------------- ρ arithmetic
def test_rho_is_the_largest_error_over_bound():
    r = compare_float(torch.tensor([1.0, 2.0, 5.0]), torch.tensor([1.0, 2.5, 4.0]),
                      torch.tensor([0.0, 1.0, 4.0]))
    assert r["rho"] == pytest.approx(0.5)
    assert r["max_error"] == pytest.approx(1.0)
    assert r["ok"]


def test_zero_over_zero_counts_as_zero_and_error_over_zero_is_infinite():
    assert compare_float(torch.tensor([3.0]), torch.tensor([3.0]), 0.0)["rho"] == 0.0
    r = compare_float(torch.tensor([3.0]), torch.tensor([3.5]), 0.0)
    assert r["rho"] == math.inf and not r["ok"]


def test_special_values():
    inf = math.inf
    same = compare_float(torch.tensor([-inf, inf, math.nan]), torch.tensor([-inf, inf, math.nan]), 0.0)
    assert same["rho"] == 0.0 and same["ok"]
    nan_out = compare_float(torch.tensor([math.nan]), torch.tensor([1.0]), torch.tensor([1e9]))
    assert not nan_out["ok"] and nan_out["nan_mismatches"] == 1
    nan_missing = compare_float(torch.tensor([1.0]), torch.tensor([math.nan]), torch.tensor([1e9]))
    assert not nan_missing["ok"]
    wrong_inf = compare_float(torch.tensor([-inf]), torch.tensor([0.0]), torch.tensor([1e9]))
    assert wrong_inf["rho"] == inf


def test_bad_bounds_and_shapes_fail():
    assert not compare_float(torch.ones(2), torch.ones(2), torch.tensor([1.0, math.nan]))["ok"]
    assert not compare_float(torch.ones(2), torch.ones(2), torch.tensor([1.0, -1.0]))["ok"]
    assert not compare_float(torch.ones(3), torch.ones(2), 1.0)["ok"]
    assert not compare_exact(torch.tensor([1, 2]), torch.tensor([1, 3]))["ok"]
    assert compare_exact(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1, 2]))["ok"]


# --------------------------------------------------------------------------- certify
def test_a_correct_kernel_passes_with_every_key():
    c = certify(make_spec(), BACKEND, seed=3)
    for key in ("kernel", "laws", "backend", "device", "dtypes", "algorithm", "bound",
                "max_error", "rho", "expected", "naive_ratio", "cases", "seed", "versions",
                "source_hash", "pass", "notes", "per_dtype"):
        assert key in c, key
    assert c["pass"] and 0 < c["rho"] <= 1
    assert c["seed"] == 3 and c["cases"]["count"] == 3 and c["cases"]["coverage"] == ["random"]
    assert set(c["versions"]) >= {"python", "torch", "triton", "z3"}
    assert c["bound"]["formula"].startswith("γ_{n−1}")
    assert c["bound"]["kind"].startswith("hand-derived")
    assert c["naive_ratio"] == pytest.approx(1.0)
    json.loads(dumps(c))  # strict JSON


@pytest.mark.skipif(BACKEND != "triton-interpreter", reason="interpreter behaviour")
def test_bf16_is_skipped_on_the_interpreter_and_says_so():
    c = certify(make_spec(), BACKEND)
    assert c["dtypes"]["bfloat16"]["status"] == "skipped"
    assert BF16_NOTE in c["notes"] and "bfloat16" not in c["per_dtype"]
    assert c["device"]["text"] == "cpu (Triton interpreter)"


@pytest.mark.parametrize("run", [_zeros, _nan_once, _wrong_index, _crash, _sloppy],
                         ids=["zeros", "nan", "wrong-index", "crash", "sloppy"])
def test_broken_kernels_fail(run):
    c = certify(make_spec(run=run), BACKEND)
    assert c["pass"] is False


def test_zeros_kernel_fails_by_rho_not_by_accident():
    c = certify(make_spec(run=_zeros), BACKEND, dtypes=["float32"])
    assert c["rho"] > 1 and c["per_dtype"]["float32"]["pass"] is False


def test_planted_variants_each_fail():
    spec = make_spec(planted={"zeros": _zeros, "nan": _nan_once})
    results = planted_results(spec, BACKEND)
    assert set(results) == {"zeros", "nan"}
    assert set(results) == {"zeros", "nan"}
    assert all(r["pass"] is False for r in results.values())


def test_missing_laws_fail_unless_loose():
    spec = make_spec(laws=("no_such.law",))
    strict = certify(spec, BACKEND, dtypes=["float32"])
    assert strict["laws"]["no_such.law"] == {"verdict": "missing", "ok": False,
                                             "detail": "not in laws.REGISTRY"}
    assert strict["pass"] is False
    assert certify(spec, BACKEND, dtypes=["float32"], strict=False)["pass"] is True


def test_a_refuted_law_fails_the_certificate(monkeypatch):
    from laws import REGISTRY
    law_id = REGISTRY.ids()[0]
    monkeypatch.setattr(cert_mod, "_LAW_VERDICTS", {law_id: {"verdict": "refuted", "ok": False}})
    c = certify(make_spec(laws=(law_id,)), BACKEND, dtypes=["float32"])
    assert c["laws"][law_id]["verdict"] == "refuted" and c["pass"] is False


def test_unrepresentable_inputs_are_reported():
    def cases(seed, backend):
        return [Case("thirds", {"x": torch.full((1, 4), 1 / 3, dtype=torch.float64)})]
    c = certify(_with_cases(make_spec(), cases), BACKEND, dtypes=["float16"])
    assert c["per_dtype"]["float16"]["cases"][0]["inputs_rounded"] == ["x"]


def _with_cases(spec, cases):
    import dataclasses
    return dataclasses.replace(spec, coverage=dataclasses.replace(spec.coverage, cases=cases))


def test_cases_limited_to_some_dtypes_are_skipped_for_others():
    def cases(seed, backend):
        return _cases(seed, backend)[:1] + [
            Case("fp32 only", {"x": torch.ones(1, 3, dtype=torch.float64)},
                 dtypes=("float32",))]
    c = certify(_with_cases(make_spec(), cases), BACKEND, dtypes=["float32", "float16"])
    assert c["per_dtype"]["float16"]["skipped_cases"] == ["fp32 only"]
    assert len(c["per_dtype"]["float32"]["cases"]) == 2


def test_unknown_dtype_and_wrong_backend_are_bad_input():
    with pytest.raises(cert_mod.BadInput):
        certify(make_spec(), BACKEND, dtypes=["int4"])
    other = "gpu" if BACKEND != "gpu" else "triton-interpreter"
    with pytest.raises(cert_mod.BadInput):
        certify(make_spec(), other)


# --------------------------------------------------------------------------- files
def test_write_is_atomic_and_leaves_no_temporary_files(tmp_path, monkeypatch):
    c = certify(make_spec(), BACKEND, dtypes=["float32"])
    path = write_certificate(c, tmp_path)
    assert path.name == f"rowsum.{BACKEND}.json"
    assert json.loads(path.read_text())["source_hash"] == c["source_hash"]
    before = path.read_text()

    def failing_replace(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        write_certificate({**c, "rho": 0.123}, tmp_path)
    assert path.read_text() == before            # the old certificate is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_stale_detection_after_editing_a_source(tmp_path):
    source = tmp_path / "kernel_copy.py"
    shutil.copy(impls.spec.__file__, source)
    spec = make_spec(sources=(str(source),))
    c = certify(spec, BACKEND, dtypes=["float32"])
    assert str(source) in [f["path"] for f in c["sources"]]
    out = tmp_path / "certs"
    write_certificate(c, out)
    assert stale_certificates(out) == []
    source.write_text(source.read_text() + "\n# edited\n")
    stale = stale_certificates(out)
    assert len(stale) == 1 and stale[0]["kernel"] == "rowsum"
    assert "changed" in stale[0]["reason"] and str(source) in stale[0]["reason"]
    source.unlink()
    assert "missing" in stale_certificates(out)[0]["reason"]
    (out / "junk.json").write_text("{not json")
    assert any(s["path"].endswith("junk.json") for s in stale_certificates(out))


# --------------------------------------------------------------------------- command
@pytest.fixture
def fake_kernels(monkeypatch):
    specs = {"good": make_spec(name="good", planted={"zeros": _zeros}),
             "bad": make_spec(name="bad", run=_zeros)}
    monkeypatch.setattr(impls, "kernel_names", lambda: sorted(specs))
    monkeypatch.setattr(impls, "load", lambda name: specs[name])
    monkeypatch.setattr(laws, "REGISTRY", [])   # a project of two kernels and no laws
    return specs


def cmd_certify(args):
    """``verify certify`` on in-process fake kernels, with the command line's exit rules."""
    from verify.cli.kernel_cmd import cmd_certify as command
    from verify.cli.main import run_command
    return run_command(command, args)


def _args(tmp_path, *kernels, **kw):
    base = dict(kernels=list(kernels), backend="auto", out=str(tmp_path), json=False, seed=0,
                isolate=False)   # the fake kernels live in this process only
    base.update(kw)
    return types.SimpleNamespace(**base)


def test_cmd_certify_exit_codes(fake_kernels, tmp_path, capsys):
    assert cmd_certify(_args(tmp_path, "good")) == 0
    assert (tmp_path / f"good.{BACKEND}.json").exists()
    assert cmd_certify(_args(tmp_path, "good", "bad")) == 1
    capsys.readouterr()
    assert cmd_certify(_args(tmp_path, "nope")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("verify: error: unknown kernel") and "\n" not in err


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cmd_certify_gpu_without_cuda_is_bad_input(fake_kernels, tmp_path, capsys):
    assert cmd_certify(_args(tmp_path, "good", backend="gpu")) == 2
    assert "\n" not in capsys.readouterr().err.strip()


def test_cmd_certify_json_is_one_document(fake_kernels, tmp_path, capsys):
    code = cmd_certify(_args(tmp_path, json=True))
    out = capsys.readouterr().out
    doc = json.loads(out)  # the whole of stdout parses as one document
    assert code == 1
    assert set(doc) == {"certificates", "summary"}
    assert [c["kernel"] for c in doc["certificates"]] == ["bad", "good"]
    assert doc["summary"]["failed"] == ["bad"]
    good = doc["certificates"][1]
    assert good["pass"] is True and good["planted"]["zeros"]["caught"] is True


def test_cmd_certify_fails_a_kernel_whose_planted_bug_passes(monkeypatch, tmp_path, capsys):
    spec = make_spec(name="weak", planted={"not_a_bug": _run})
    monkeypatch.setattr(impls, "kernel_names", lambda: ["weak"])
    monkeypatch.setattr(impls, "load", lambda name: spec)
    assert cmd_certify(_args(tmp_path, "weak", json=True)) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["certificates"][0]["planted"]["not_a_bug"]["caught"] is False


# --------------------------------------------------------------------------- laws reused, cross-links
def test_law_results_given_by_the_caller_are_reused_and_only_the_rest_checked(monkeypatch):
    from laws import REGISTRY
    given, other = REGISTRY.ids()[:2]
    checked = []
    monkeypatch.setattr(cert_mod, "_LAW_VERDICTS", {})
    monkeypatch.setattr(cert_mod, "_check_one",
                        lambda law: checked.append(law.id) or {"verdict": "proved", "ok": True})
    c = certify(make_spec(laws=(given, other)), BACKEND, dtypes=["float32"],
                law_results={given: {"id": given, "verdict": "refuted", "ok": False}})
    assert checked == [other]
    assert c["laws"][given] == {"verdict": "refuted", "ok": False} and c["pass"] is False


def _law(law_id, *kernels):
    return types.SimpleNamespace(id=law_id, kernels=kernels)


def test_cross_links_of_the_project_agree():
    links.check_cross_links()


def test_a_broken_cross_link_is_reported_with_both_sides():
    catalog = [_law("sum.associative", "scan"), _law("sum.identity", "scan"),
               _law("max.associative", "softmax"), _law("ghost.law", "nowhere")]
    specs = {"scan": types.SimpleNamespace(laws=("sum.associative", "sum.missing")),
             "softmax": types.SimpleNamespace(laws=("sum.identity",))}
    problems = links.cross_link_problems(catalog, specs)
    assert problems == [
        "kernel scan (impls/scan.py KERNEL.laws) names law sum.missing, which is not in "
        "laws.REGISTRY",
        "kernel softmax names law sum.identity, but that law's kernels are ('scan',)",
        "law max.associative names kernel softmax, but kernel softmax (impls/softmax.py "
        "KERNEL.laws ('sum.identity',)) names no max.* law",
        "law ghost.law names kernel nowhere, which is not a kernel in impls/",
    ]
    # a monoid's identity law names scan too; scan names another sum.* law: consistent
    assert not any("sum.identity names kernel scan" in p for p in problems)
    assert links.cross_link_problems(catalog, specs, report_unknown=False)[-1].startswith(
        "law max.associative")


def test_cmd_certify_refuses_inconsistent_links_before_running(fake_kernels, tmp_path,
                                                               monkeypatch, capsys):
    monkeypatch.setattr(laws, "REGISTRY", [_law("sum.associative", "scan")])
    fake_kernels["good"] = make_spec(name="good", laws=("sum.associative",))
    assert cmd_certify(_args(tmp_path, "good")) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err.startswith("verify: error: laws and kernels disagree: kernel good names law "
                          "sum.associative, but that law's kernels are ('scan',)")
    assert "\n" not in err and captured.out == "" and not list(tmp_path.iterdir())


# --------------------------------------------------------------------------- hashed sources
def test_sources_follow_the_kernels_project_imports():
    files = sources.source_files(impls.load("softmax"))
    for needed in ("impls/softmax.py", "impls/launch.py", "impls/numerics.py", "impls/spec.py",
                   "laws/associativity/combines.py", "laws/associativity/softmax.py",
                   "laws/associativity/extrema.py", "verify/certification/certify.py"):
        assert needed in files, needed
    assert not any(f.startswith("verify/decide") or f.startswith("verify/cli") for f in files)


def test_touching_an_imported_helper_makes_the_certificate_stale(tmp_path):
    """A copy of every hashed file in a temporary tree; editing impls/launch.py there (a
    helper module softmax imports) makes the softmax certificate stale."""
    files = sources.source_files(impls.load("softmax"))
    tree = tmp_path / "tree"
    for rel in files:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(sources.REPO_ROOT / rel, tree / rel)
    hashed = sources.hash_sources(files, tree)
    assert [f["path"] for f in hashed["files"]] == files and all(
        f["sha256"] for f in hashed["files"])
    out = tmp_path / "certs"
    out.mkdir()
    (out / "softmax.json").write_text(json.dumps(
        {"kernel": "softmax", "source_hash": hashed["sha256"], "sources": hashed["files"]}))
    assert stale_certificates(out, root=tree) == []
    helper = tree / "impls" / "launch.py"
    helper.write_text(helper.read_text() + "\n")
    stale = stale_certificates(out, root=tree)
    assert [s["reason"] for s in stale] == ["changed: impls/launch.py"]


def test_a_binding_named_like_a_project_kernel_records_its_own_file():
    files = sources.source_files(make_spec(name="softmax"))
    assert "tests/certification/test_certify.py" in files and "impls/softmax.py" not in files


# --------------------------------------------------------------------------- sources, contract, fidelity
def _kernel(name):
    """A project kernel's module, imported by a computed name: a static import here
    would put it among the sources of this file's test doubles."""
    import importlib
    return importlib.import_module(f"impls.{name}")


def test_project_kernel_hashes_every_file_its_result_depends_on():
    softmax = _kernel("softmax")
    from verify.certification.sources import source_files
    files = set(source_files(softmax.KERNEL))
    assert {"impls/softmax.py", "impls/launch.py", "impls/numerics.py", "impls/buffers.py",
            "laws/associativity/combines.py", "verify/certification/certify.py",
            "verify/certification/power.py", "verify/certification/contract.py",
            "verify/certification/fidelity.py", "verify/certification/guards.py"} <= files


def test_binding_named_like_a_project_kernel_hashes_its_own_file():
    import dataclasses
    import importlib
    from verify.certification.binding import bind
    from verify.certification.sources import source_files
    mod = importlib.import_module("user_kernels.fused_softmax")
    spec = bind(mod.softmax, reference="softmax", outputs=("softmax",))
    assert spec.name == "user.softmax"         # bind never takes a project kernel's name
    spec = dataclasses.replace(spec, name="softmax")   # a spec renamed by hand
    files = set(source_files(spec))
    assert "tests/user_kernels/fused_softmax.py" in files
    assert "impls/softmax.py" not in files
    assert {"verify/cases.py", "verify/certification/binding.py",
            "verify/certification/references.py"} <= files


def test_certificate_lists_required_classes_and_fails_when_one_is_uncovered():
    ok = certify(make_spec(contract_classes=("random",)), BACKEND, check_laws=False,
                 dtypes=["float32"])
    assert ok["pass"] and ok["cases"]["contract_classes"] == ["random"]
    assert ok["cases"]["missing_contract_classes"] == []
    bad = certify(make_spec(contract_classes=("random", "nan", "length-1")), BACKEND,
                  check_laws=False, dtypes=["float32"])
    assert not bad["pass"]
    assert bad["cases"]["missing_contract_classes"] == ["length-1", "nan"]
    reason = [n for n in bad["notes"] if "not covered" in n]
    assert reason == ["rowsum: contract class(es) not covered by any case: length-1, nan"]


def test_tightness_names_the_worst_case_per_dtype():
    cert = certify(make_spec(), BACKEND, check_laws=False, dtypes=["float32", "float16"])
    for dtype, result in cert["per_dtype"].items():
        tight = cert["tightness"][dtype]
        assert tight["output"] == "s"
        assert tight["rho"] == max(c["outputs"]["s"]["rho"] for c in result["cases"])
        worst = [c for c in result["cases"] if c["outputs"]["s"]["rho"] == tight["rho"]]
        assert tight["case"] == worst[0]["name"]
        assert 0 < tight["rho"] <= 1 and tight["slack"] == pytest.approx(1 / tight["rho"])


def test_tightness_of_exact_outputs_only_says_so():
    from verify.certification.contract import tightness
    result = {"cases": [{"name": "c", "outputs": {"i": {"ok": True, "mismatches": 0}}}]}
    assert tightness({"float32": result})["float32"]["rho"] is None


@pytest.mark.skipif(BACKEND == "gpu", reason="describes Triton's interpreter")
def test_backend_exactness_states_what_the_interpreter_does():
    from verify.certification import fidelity
    attention, topk = _kernel("attention"), _kernel("topk")
    assert fidelity.kernel_ops(attention.KERNEL) == ["division", "dot", "exp", "sum"]
    assert fidelity.kernel_ops(topk.KERNEL) == []
    # a bound kernel's run is its binding's method: its ops are its wrapper module's
    from verify.certification.binding import as_spec
    for name in ("matmul", "lora", "int8_matmul"):
        assert fidelity.kernel_ops(as_spec(_kernel(name).KERNEL)) == ["dot"], name
    info = {"float16": {"accumulate": "float32", "status": "certified"},
            "float32": {"accumulate": "float32", "status": "certified"}}
    field = fidelity.backend_exactness(attention.KERNEL, BACKEND, info)
    assert set(field["operations"]) == {"division", "dot", "exp", "sum"}
    assert "exp" in field["more_precise_than_gpu"]["float32"]
    assert "dot" not in field["more_precise_than_gpu"]["float16"]
    assert fidelity.more_precise_on_interpreter("sum", "float16", "float16")
    assert fidelity.more_precise_on_interpreter("sum", "float16", "float32") is None


@pytest.mark.skipif(BACKEND == "gpu", reason="measures Triton's interpreter")
def test_interpreter_probe_matches_the_stated_behaviour():
    """fp16 tl.sum accumulates in fp32 and rounds once (far closer than a sequential
    fp16 fold); numpy's float32 exp/log/rsqrt stay within the 4 ulp the bounds assume."""
    from verify.certification.fidelity import probe_interpreter
    probe = probe_interpreter()
    total = probe["fp16_tl_sum_4096"]
    assert total["accumulates_in_fp32"]
    assert total["interpreter_error"] * 10 < total["sequential_fp16_error"]
    assert all(0 <= ulps <= 4 for ulps in probe["float32_ulps"].values())


def test_certificate_records_backend_exactness():
    cert = certify(make_spec(), BACKEND, check_laws=False, dtypes=["float32"])
    assert cert["backend_exactness"]["backend"] == BACKEND
    assert "tightness" in cert and "float32" in cert["tightness"]
