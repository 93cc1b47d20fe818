"""What a user's file cannot do to the command line, and what an output that cannot be
written does: a made-up answer from the child, a file that loops while it is imported,
a function whose result is huge, stdout closed, a pipe whose reader left, a full disk,
a nonsensical COLUMNS. Each ends with exit 2 and one line on stderr."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verify.cli import sandbox
from verify.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdout=subprocess.PIPE, env_extra=None, cwd=None, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env_extra or {}))
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "verify", *args], cwd=cwd or ROOT, env=env,
                       stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p, time.monotonic() - t0


def one_error_line(p) -> str:
    assert p.returncode == 2, (p.returncode, p.stderr[-2000:])
    assert not p.stdout
    lines = [line for line in p.stderr.splitlines() if " … " not in line]  # progress
    assert len(lines) == 1 and lines[0].startswith("verify: error: "), p.stderr
    return lines[0]


# ----------------------------------------------------------------- forged answers
FORGER = """import json, os, pathlib, sys
forged = {"status": "ok", "doc": 5}
try:  # where the answer file once was: the child's first argument
    (pathlib.Path(sys.argv[1]) / "result.json").write_text(json.dumps(forged))
    (pathlib.Path(sys.argv[1]) / "phase").write_text("running")
except OSError:
    pass
for fd in range(3, 64):  # every descriptor the child may answer on
    for text in ('{"status": "bad-input"}\\n', json.dumps(forged) + "\\n",
                 "x result " + json.dumps(forged) + "\\n"):
        try:
            os.write(fd, text.encode())
        except OSError:
            pass
os._exit(0)


def f(a, b):
    return a + b
"""


def test_a_file_forging_the_childs_answer_gets_one_line(tmp_path):
    (tmp_path / "forger.py").write_text(FORGER)
    p, _ = run("audit", f"{tmp_path}/forger.py:f", "--json")
    line = one_error_line(p)
    assert "exited with status 0 before a result was written" in line


@pytest.mark.parametrize("answer", [
    5, "ok", None, [], {"status": "ok", "doc": 5}, {"status": "ok"},
    {"status": "bad-input"}, {"status": "crash", "message": 3}, {"status": "fine"},
    {"status": "ok", "doc": {"function": "f"}},
    {"status": "ok", "doc": {"function": "f", "kind": "binary", "parameters": [],
                             "result": "scalar", "notes": [],
                             "properties": {"associative": {"reals": {}}}}},
])
def test_a_malformed_answer_is_one_line(answer):
    with pytest.raises(BadInput, match="answer is malformed"):
        sandbox._result(json.dumps(answer), {"kind": "audit", "target": "f.py:f"}, 0,
                        None)


def test_an_answer_that_is_not_json_is_one_line():
    with pytest.raises(BadInput, match="answer is malformed"):
        sandbox._result('{"status": "ok", "doc": {', {"kind": "audit", "target": "f.py:f"},
                        0, None)


# ----------------------------------------------------------------- loading has its own limit
def test_a_file_looping_at_import_runs_into_the_loading_limit(tmp_path):
    (tmp_path / "slow.py").write_text("while True:\n    pass\n\n\ndef f(a, b):\n"
                                      "    return a + b\n")
    p, seconds = run("audit", f"{tmp_path}/slow.py:f", "--load-timeout", "2")
    line = one_error_line(p)
    assert "loading the file (its module-level code) ran past the limit of 2 s" in line
    assert "--load-timeout" in line
    assert seconds < 60


def test_a_function_looping_when_called_names_the_phase(tmp_path):
    (tmp_path / "slow.py").write_text("def f(a, b):\n    while True:\n        pass\n")
    p, _ = run("audit", f"{tmp_path}/slow.py:f", "--timeout", "10")
    line = one_error_line(p)
    assert "checking the function ran past the time limit of 10 s (--timeout)" in line


def test_a_huge_result_is_refused_for_its_shape_at_once(tmp_path):
    (tmp_path / "big.py").write_text("def f(a, b):\n    return tuple(range(100000))\n")
    p, seconds = run("audit", f"{tmp_path}/big.py:f", "--timeout", "100")
    line = one_error_line(p)
    assert "returned a tuple of 100000 values" in line
    assert seconds < 40  # not the time limit


@pytest.mark.parametrize("args", [("--load-timeout", "0"), ("--load-timeout", "-1"),
                                  ("--memory", "0"), ("--memory", "lots")])
def test_bad_limits_are_one_line(args, tmp_path):
    (tmp_path / "ok.py").write_text("def f(a, b):\n    return a + b\n")
    p, _ = run("audit", f"{tmp_path}/ok.py:f", *args)
    assert args[0] in one_error_line(p)


# ----------------------------------------------------------------- output that cannot be written
def test_closed_stdout_is_one_line_on_stderr():
    for args in (["list"], ["exercise", "--json"]):
        p = subprocess.run([sys.executable, "-m", "verify", *args], cwd=ROOT,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: os.close(1), timeout=120)
        assert p.returncode == 2
        assert p.stderr.splitlines() == [
            "verify: error: standard output is closed; nothing could be written"]


def test_a_pipe_whose_reader_left_is_one_line():
    for args in (["list"],):
        read_end, write_end = os.pipe()
        os.close(read_end)  # like `| head -c1` once head has read its byte
        try:
            p, _ = run(*args, stdout=write_end)
        finally:
            os.close(write_end)
        assert p.returncode == 2
        assert p.stderr.splitlines() == ["verify: error: cannot write the output: "
                                         "Broken pipe"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line():
    for args in (["exercise", "--json"],):
        with open("/dev/full", "w") as full:
            p, _ = run(*args, stdout=full)
        assert p.returncode == 2
        assert p.stderr.splitlines() == ["verify: error: cannot write the output: "
                                         "No space left on device"]


def test_a_nonsensical_columns_is_unset():
    expected, _ = run("list", env_extra={"COLUMNS": "80"})
    assert "online_softmax" in expected.stdout
    for columns in ("0", "-5"):
        p, _ = run("list", env_extra={"COLUMNS": columns})
        assert p.returncode == 0, p.stderr
        assert p.stdout == expected.stdout
