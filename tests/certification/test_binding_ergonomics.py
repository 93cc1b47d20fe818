"""Binding a kernel as it is written: autotuned and heuristics-decorated kernels,
results matched by name or by an outputs map, references that need extra inputs
(``custom(..., complete=)``), certificate names that never take a project kernel's,
failures that say where and by how much, and crashes reported as crashes."""
import collections
import importlib
import math

import pytest
import torch
import triton
import triton.language as tl

from impls.spec import Case, backend as running_backend
from verify.certification import naming
from verify.certification.binding import bind, binding_of
from verify.certification.certify import certify
from verify.certification.comparison import compare_exact, compare_float
from verify.certification.discover import audit_kernel, find_combines
from verify.certification.outputs import OutputMap, OutputMismatch
from verify.certification.references import custom
from verify.errors import BadInput
from verify.kernelobjects import autotune_in_turn, jit_function, python_function

BACKEND = running_backend()


def _module(name):
    return importlib.import_module(f"user_kernels.{name}")


# --------------------------------------------------------------------------- autotune
@triton.jit
def _max_count(a_m, a_n, b_m, b_n):
    return tl.maximum(a_m, b_m), a_n + b_n


@triton.autotune(configs=[triton.Config({}, num_warps=1), triton.Config({}, num_warps=4)],
                 key=["n"])
@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
@triton.jit
def _decorated(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < n, other=-float("inf"))
    m, c = tl.reduce((x, tl.where(cols < n, 1.0, 0.0)), 0, _max_count)
    tl.store(out_ptr, m + c)


def test_autotune_and_heuristics_layers_are_peeled_to_the_jit_function():
    jit = jit_function(_decorated)
    assert jit is not None and jit is not _decorated and jit is _decorated.fn.fn
    assert python_function(_decorated).__name__ == "_decorated"
    assert jit_function(jit) is jit and jit_function(lambda: 0) is None


def test_the_combines_of_a_decorated_kernel_are_found_and_audited():
    assert [f["name"] for f in find_combines(_decorated)] == ["_max_count"]
    report = audit_kernel(_decorated)
    assert report["kernel"] == "_decorated" and report["ok"], report


def test_in_the_interpreter_autotune_configurations_take_turns():
    from verify.hardware.capture import recording
    x, out = torch.arange(5, dtype=torch.float32), torch.empty(1)
    warps = []
    for turn in (0, 1, 2):
        with autotune_in_turn(turn), recording() as launches:
            _decorated[(1,)](x, out, 5)
        warps.append(launches[0]["options"]["num_warps"])
        assert float(out) == 4 + 5
    assert warps == [1, 4, 1]


def test_an_autotuned_kernel_certifies_and_its_planted_bug_fails():
    mod = _module("autotuned_softmax")
    cert = certify(mod.KERNEL, BACKEND, check_laws=False, dtypes=["float32"])
    assert cert["pass"], cert["notes"]
    assert binding_of(mod.KERNEL).running.kernel is jit_function(mod.softmax_kernel)
    launches = [x["launch"] for t in ("sm_90a", "sm_100a") if t in cert.get("compiled", {})
                for x in cert["compiled"][t]["launches"]]
    for warps in (1, 2) if BACKEND != "gpu" else ():   # in the interpreter both ran
        assert any(f"num_warps={warps}]" in label for label in launches), launches
    bad = certify(mod.binding(mod.PLANTED["output scaled by 1 + 2^-10"]), BACKEND,
                  check_laws=False, dtypes=["float32"])
    assert not bad["pass"]


def test_kernel_must_be_a_triton_kernel():
    with pytest.raises(BadInput, match="kernel= expects the @triton.jit function"):
        bind(lambda x: x, reference="softmax", outputs=("softmax",), kernel=lambda x: x)


# --------------------------------------------------------------------------- outputs
Pair = collections.namedtuple("Pair", "rstd y")


def test_results_are_matched_by_name_by_field_and_by_position():
    y, rstd, other = torch.ones(2), torch.zeros(2), torch.full((2,), 7.0)
    names = OutputMap(("y", "rstd"))
    assert names.match({"rstd": rstd, "y": y, "extra": other}) == {"y": y, "rstd": rstd}
    matched = names.match(Pair(rstd=rstd, y=y))              # field names, not order
    assert matched["y"] is y and matched["rstd"] is rstd
    matched = OutputMap(("y", "rstd"), (0, 2)).match((y, other, rstd))
    assert matched["y"] is y and matched["rstd"] is rstd
    assert OutputMap(("y",)).match(y)["y"] is y
    assert OutputMap(("y", "rstd")).match([y, rstd])["rstd"] is rstd


@pytest.mark.parametrize("result, names, positions, message", [
    ((1, 2, 3), ("y", "rstd"), None, "returned 3 values but the binding names 2 outputs"),
    ((1,), ("y", "rstd"), None, "returned 1 value but the binding names 2 outputs"),
    ({"y": 1}, ("y", "rstd"), None, "a dict with keys y but not rstd"),
    (Pair(1, 2), ("y", "mean"), None, "a Pair with fields rstd, y but not mean"),
    ((1, 2), ("y", "rstd"), (0, 2), "the outputs map expects rstd at 2"),
    (3.0, ("y",), None, "the wrapper returned a float"),
])
def test_a_result_that_does_not_fit_is_one_clear_error(result, names, positions, message):
    with pytest.raises(OutputMismatch, match=message) as info:
        OutputMap(names, positions).match(result)
    assert "\n" not in str(info.value)


def test_outputs_is_checked_when_the_binding_is_made():
    wrapper = _module("rms_norm").rms_norm
    ok = bind(wrapper, reference="rms_norm", outputs={"y": 0, "rstd": 1})
    assert binding_of(ok).running.returns == ("y", "rstd")
    assert binding_of(ok).running.positions == (0, 1)
    kept = bind(wrapper, reference="rms_norm", outputs=("rstd",))   # names, in order
    assert binding_of(kept).running.positions is None
    for outputs, message in [({"y": -1}, "integers ≥ 0"), ({"y": 0, "rstd": 0}, "two outputs"),
                             ({"z": 0}, "no output"), ((), "no output"),
                             (("y", "y"), "named twice")]:
        with pytest.raises(BadInput, match=message):
            bind(wrapper, reference="rms_norm", outputs=outputs)


def test_a_liger_shaped_result_certifies_through_a_map():
    from verify.certification.loading import load_binding
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "user_kernels" / "liger_style_rms_norm.py"
    spec = load_binding(str(path))          # imports its sibling rms_norm.py
    cert = certify(spec, BACKEND, check_laws=False, dtypes=["float32"])
    assert cert["pass"], cert["notes"]
    assert set(cert["per_dtype"]["float32"]["cases"][0]["outputs"]) == {"y", "rstd"}
    from verify import userfiles
    with userfiles.importable(str(path.parent)):
        mod = importlib.import_module("liger_style_rms_norm")
    bad = certify(mod.binding(mod.PLANTED["mask drops the last column"]), BACKEND,
                  check_laws=False, dtypes=["float32"])
    assert not bad["pass"]


# --------------------------------------------------------------------------- complete=
def test_custom_complete_makes_the_target_and_a_planted_bug_fails():
    mod = _module("smoothed_cross_entropy")
    cases = mod.KERNEL.coverage.cases(0, BACKEND)
    assert all(c.inputs["target"].dtype == torch.int64 for c in cases)
    assert all(int(c.inputs["target"].max()) < c.inputs["x"].shape[-1] for c in cases)
    cert = certify(mod.KERNEL, BACKEND, check_laws=False)
    assert cert["pass"], cert["notes"]
    bad = certify(mod.binding(mod.PLANTED["target off by one"]), BACKEND, check_laws=False,
                  dtypes=["float32"])
    assert not bad["pass"]


def test_complete_must_make_every_missing_input():
    ref = custom(lambda x, w: {"y": x * w}, ("x", "w"), ("y",),
                 complete=lambda inputs, rng: {"v": rng.normal(size=3)})
    with pytest.raises(BadInput, match="did not make the input"):
        ref.complete({"x": torch.ones(3)}, __import__("numpy").random.default_rng(0))
    with pytest.raises(BadInput, match="exact_outputs"):
        custom(lambda x: {"y": x}, ("x",), ("y",), exact_outputs=("z",))


def test_numpy_inputs_from_complete_become_float64_tensors():
    import numpy as np
    ref = custom(lambda x, w: {"y": x * w}, ("x", "w"), ("y",),
                 complete=lambda inputs, rng: {"w": rng.normal(size=3).astype(np.float32)})
    made = ref.complete({"x": torch.ones(3)}, np.random.default_rng(0))
    assert made["w"].dtype == torch.float64 and set(made) == {"x", "w"}


# --------------------------------------------------------------------------- names
def test_default_names_come_from_the_wrapper_then_its_file_and_never_a_project_kernel():
    mod = _module("fused_softmax")
    assert mod.KERNEL.name == "user.softmax"                       # wrapper named softmax
    spec = bind(lambda x: mod.softmax(x), reference="softmax", outputs=("softmax",))
    assert spec.name == "test_binding_ergonomics"                  # a lambda: its file
    assert naming.sanitized("my kernel/v2") == "my_kernel_v2"
    assert naming.sanitized("../x") == "_x" and naming.sanitized("") == "kernel"


def test_an_explicit_project_name_is_refused_and_others_are_sanitised():
    wrapper = _module("fused_softmax").softmax
    with pytest.raises(BadInput, match="project kernel impls/softmax.py"):
        bind(wrapper, reference="softmax", outputs=("softmax",), name="softmax")
    assert bind(wrapper, "softmax", outputs=("softmax",), name="mine/v 2").name == "mine_v_2"
    assert bind(wrapper, "softmax", outputs=("softmax",), name="user.softmax").name \
        == "user.softmax"


def test_loaded_bindings_are_named_after_file_and_variable(tmp_path):
    from verify.certification.loading import load_binding
    body = ("import torch\nfrom verify.certification.binding import bind\n"
            "KERNEL = bind(lambda x: torch.softmax(x, -1), 'softmax', outputs=('softmax',))\n"
            "OTHER = KERNEL\n"
            "NAMED = bind(lambda x: torch.softmax(x, -1), 'softmax', outputs=('softmax',), "
            "name='chosen')\n")
    for stem in ("my_softmax", "softmax", "my softmax"):
        (tmp_path / f"{stem}.py").write_text(body)
    assert load_binding(str(tmp_path / "my_softmax.py")).name == "my_softmax"
    assert load_binding(str(tmp_path / "my_softmax.py") + ":OTHER").name == "my_softmax.OTHER"
    assert load_binding(str(tmp_path / "my_softmax.py") + ":NAMED").name == "chosen"
    assert load_binding(str(tmp_path / "softmax.py")).name == "user.softmax"
    assert load_binding(str(tmp_path / "my softmax.py")).name == "my_softmax"


def test_the_certificate_file_name_is_safe():
    from verify.certification.document import filename
    assert filename({"kernel": "a/b c", "backend": "interpreter"}) == \
        "a_b_c.triton-interpreter.json"


# --------------------------------------------------------------------------- importable
def test_the_binding_folder_and_the_current_folder_import_while_loading_and_running(
        tmp_path, monkeypatch):
    from verify.certification.loading import load_binding
    here, there = tmp_path / "work", tmp_path / "bindings"
    here.mkdir()
    there.mkdir()
    (here / "cwd_kernels_for_binding.py").write_text(
        "import torch\n\ndef softmax(x):\n"
        "    import sibling_helper_for_binding as h  # lazily, at run time\n"
        "    return h.scale * torch.softmax(x.double(), -1).to(x.dtype)\n")
    (there / "sibling_helper_for_binding.py").write_text("scale = 1.0\n")
    (there / "b.py").write_text(
        "from cwd_kernels_for_binding import softmax\n"
        "from verify.certification.binding import bind\n"
        "from verify.cases import rows\n"
        "KERNEL = bind(softmax, 'softmax', outputs=('softmax',), masked_rows='nan',\n"
        "              inputs=rows(n=[1, 7], classes=('random',)))\n")
    monkeypatch.chdir(here)
    spec = load_binding(str(there / "b.py"))
    assert str(there) not in __import__("sys").path        # not left behind
    out = spec.execution.run(spec.coverage.cases(0, BACKEND)[0], "float32")
    assert out["softmax"].shape == (3, 1)


# --------------------------------------------------------------------------- failures
def test_a_failing_comparison_names_the_element_both_values_the_bound_and_rho():
    got = compare_float(torch.tensor([[1.0, 2.0], [3.0, 4.5]]),
                        torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.full((2, 2), 0.25))
    assert got["worst_index"] == [1, 1]
    assert (got["worst_kernel"], got["worst_oracle"], got["worst_bound"]) == (4.5, 4.0, 0.25)
    assert got["worst_rho"] == got["rho"] == 2.0 and not got["ok"]
    exact = compare_exact(torch.tensor([1, 2, 3]), torch.tensor([1, 5, 3]))
    assert exact["first_mismatch"] == {"index": [1], "kernel": 2, "oracle": 5}


def _raising(x):
    raise IndexError("row out of range\nsecond line")


def test_a_certificate_whose_every_case_crashed_says_so():
    spec = bind(_raising, reference="softmax", outputs=("softmax",),
                inputs=lambda seed, backend: [Case("one", {"x": torch.ones(2, 3)}, n=3)])
    cert = certify(spec, BACKEND, check_laws=False)
    case = cert["per_dtype"]["float32"]["cases"][0]
    assert case["crash"] == "IndexError: row out of range"
    assert case["crash_at"].endswith(f"test_binding_ergonomics.py:{_line_of('raise IndexError')}")
    assert any(n.startswith("every case crashed: IndexError: row out of range (at ")
               for n in cert["notes"]), cert["notes"]
    assert not cert["pass"] and math.isinf(cert["rho"])


def test_a_refused_combine_is_a_failure_not_a_crash():
    from user_kernels import fused_softmax as mod
    spec = bind(mod.softmax, reference="softmax", outputs=("softmax",), masked_rows="nan",
                kernel=mod.softmax_kernel,
                inputs=lambda s, b: [Case("one", {"x": torch.ones(1, 3)}, n=3)])
    refuted = {"ok": False, "failure": "combine _halving passed to tl.reduce is not shown "
                                       "associative: refuted (counterexample [0, 0, 1])"}
    binding_of(spec).records.combines = {"combines": [refuted]}   # as audit_kernel says
    cert = certify(spec, BACKEND, check_laws=False, dtypes=["float32"])
    case = cert["per_dtype"]["float32"]["cases"][0]
    assert "crash" not in case and "_halving" in case["problem"]
    assert not any(n.startswith("every case crashed") for n in cert["notes"])


def test_the_command_line_lists_failing_cases_with_their_numbers():
    from verify.cli.failing_cases import lines
    cert = {"kernel": "k", "per_dtype": {"float16": {"cases": [
        {"name": "ties n=7", "pass": False, "outputs": {"y": {
            "ok": False, "worst_index": [0, 3], "worst_kernel": 0.5, "worst_oracle": 0.25,
            "worst_bound": 0.01, "worst_rho": 25.0}}},
        {"name": "n=1", "pass": False, "crash": "ValueError: no", "crash_at": "k.py:3"},
        {"name": "n=2", "pass": True, "outputs": {}}]}}}
    assert list(lines(cert)) == [
        "k float16 'ties n=7': y[0, 3]: kernel 0.5, oracle 0.25, bound 0.01, ρ 25",
        "k float16 'n=1': crashed: ValueError: no at k.py:3"]
    many = {"kernel": "k", "per_dtype": {"float32": {"cases": [
        {"name": str(i), "pass": False, "crash": "E"} for i in range(5)]}}}
    assert list(lines(many))[-1] == "k float32: … and 2 more failing case(s) (--json has them all)"


def _line_of(text: str) -> int:
    import inspect
    lines = inspect.getsource(inspect.getmodule(_line_of)).splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line and "_line_of" not in line)


# --------------------------------------------------------------------------- rows()
README_CLASSES = {"ties", "huge-dynamic-range", "cancellation", "-inf-mask",
                  "fully-masked-row", "negative-zero", "one-past-power-of-two", "length-1"}


def _covered(cases) -> set:
    return {k for c in cases for k in c.classes}


def test_default_rows_cover_every_class_the_readme_lists():
    from verify.cases import ROW_CLASSES, matrices, rows
    cases = rows()(0)
    assert README_CLASSES <= _covered(cases), README_CLASSES - _covered(cases)
    assert set(rows().kinds()) == set(ROW_CLASSES)
    assert len(cases) <= 45                                  # interpreter cost stays small
    assert "K=1" in _covered(matrices()(0))


def test_mask_classes_are_drawn_only_for_references_that_define_masked_rows():
    from verify.cases import rows
    softmax = bind(lambda x: x, reference="softmax", outputs=("softmax",))
    rms = bind(lambda x, w, eps: (x, x[:, 0]), reference="rms_norm")
    with_masks = _covered(softmax.coverage.cases(0, BACKEND))
    without = _covered(rms.coverage.cases(0, BACKEND))
    assert {"-inf-mask", "fully-masked-row"} <= with_masks
    assert not {"-inf-mask", "fully-masked-row"} & without
    assert README_CLASSES - {"-inf-mask", "fully-masked-row"} <= without
    chosen = bind(lambda x, w, eps: (x, x[:, 0]), reference="rms_norm",
                  inputs=rows(n=[7], classes=("random", "-inf-mask")))
    assert "-inf-mask" in _covered(chosen.coverage.cases(0, BACKEND))     # chosen: kept
