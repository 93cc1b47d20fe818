"""Where kernels run is decided in one place (verify/certification/environment.py), for the
command line and the Python API alike: ``verify.certify(name)`` on a machine without a
GPU runs the interpreter without ``TRITON_INTERPRET=1`` set by hand."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from verify.certification import environment
from verify.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]
NO_GPU = not torch.cuda.is_available()


@pytest.mark.skipif(not NO_GPU, reason="auto picks the GPU where there is one")
def test_api_certify_on_a_cpu_picks_the_interpreter_as_the_command_line_does(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT)
    code = ("import json, verify\n"
            "c = verify.certify('scan', planted=False).to_json()\n"
            "print(json.dumps({'pass': c['pass'], 'backend': c['backend'],"
            " 'notes': c['notes']}))\n")
    p = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(p.stdout.strip().splitlines()[-1])
    assert doc["backend"] == "triton-interpreter"
    assert doc["pass"] is True, doc["notes"]


@pytest.mark.skipif(not NO_GPU, reason="checks the choice on a machine without CUDA")
def test_auto_and_interpreter_set_the_variable_triton_reads(monkeypatch):
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    assert environment.choose_backend("auto") == environment.INTERPRETER
    assert os.environ.get("TRITON_INTERPRET") == "1"
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    assert environment.choose_backend("interpreter") == environment.INTERPRETER
    assert os.environ.get("TRITON_INTERPRET") == "1"


@pytest.mark.skipif(not NO_GPU, reason="checks the refusal on a machine without CUDA")
def test_gpu_without_cuda_is_bad_input():
    with pytest.raises(BadInput, match="CUDA is not available"):
        environment.choose_backend("gpu")


def test_unknown_backend_is_bad_input_and_names_are_normalized():
    with pytest.raises(BadInput, match="unknown backend"):
        environment.choose_backend("tpu")
    assert environment.normalize_backend("cuda") == environment.GPU
    assert environment.normalize_backend("interpreter") == environment.INTERPRETER
    with pytest.raises(BadInput):
        environment.normalize_backend("auto")


def test_the_api_and_the_command_line_share_the_choice():
    """No other module of verify/ sets TRITON_INTERPRET."""
    setters = []
    for path in (ROOT / "verify").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if 'environ["TRITON_INTERPRET"]' in text or "environ.pop(\"TRITON_INTERPRET\"" in text:
            setters.append(path.relative_to(ROOT).as_posix())
    assert setters == ["verify/certification/environment.py"]


def test_api_certify_of_a_project_spec_runs_its_planted_bugs():
    """A project kernel passed as a spec (here a BoundKernel, bound by the certifier)
    gets the planted bugs of verify/certification/planted_bugs.py, each caught."""
    import impls
    import verify
    backend = "gpu" if environment.running_backend() == environment.GPU else "interpreter"
    doc = verify.certify(impls.load("scan"), backend=backend).to_json()
    assert doc["pass"] is True, doc["notes"]
    assert set(doc["planted"]) == {"wrong_merge_order", "carry_dropped"}
    assert all(p["caught"] for p in doc["planted"].values())
