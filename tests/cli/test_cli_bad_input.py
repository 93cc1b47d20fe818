"""Every bad input exits with status 2 and one line ``verify: error: …`` on stderr,
nothing on stdout, within seconds; the user's file runs in a child process, so what
it does at import (exit, loop, print, write to fd 1) cannot break the report."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 30  # "within seconds": generous for a loaded 2-core machine

ADD = "def f(a, b):\n    return a + b\n"
FILES = {
    "exits.py": "import sys\nsys.exit(3)\n" + ADD,
    "exits_zero.py": "import sys\nsys.exit(0)\n" + ADD,
    "loops.py": "while True:\n    pass\n" + ADD,
    "os_exit.py": "import os\n\ndef f(a, b):\n    os._exit(5)\n",
    "async_def.py": "async def f(a, b):\n    return a + b\n",
    "generator.py": "def f(a, b):\n    yield a + b\n",
    "a_class.py": "class f:\n    pass\n",
    "returns_none.py": "def f(a, b):\n    return None\n",
    "raises.py": "def f(a, b):\n    raise RuntimeError('boom')\n",
    "syntax.py": "def f(a, b)\n    return a\n",
    "import_fails.py": "raise ImportError('nope')\n" + ADD,
    "fine.py": ADD,
    "c_none.py": "def combine(a, b):\n    return None\n",
    "c_raises.py": "def combine(a, b):\n    raise ValueError('no')\n",
    "c_loops.py": "def combine(a, b):\n    while True:\n        pass\n",
    "c_async.py": "async def combine(a, b):\n    return a\n",
    "c_generator.py": "def combine(a, b):\n    yield a\n",
    "q_loops.py": "def answer():\n    while True:\n        pass\n",
    "q_not_bool.py": "def answer():\n    return 'no'\n",
    "q_exits.py": "def answer():\n    raise SystemExit(1)\n",
    "a_file": "",
}

CASES = [
    # the user's file: audit
    (("audit", "{d}/exits.py:f"), "sys.exit(3)"),
    (("audit", "{d}/exits_zero.py:f"), "sys.exit(0)"),
    (("audit", "{d}/loops.py:f", "--timeout", "3"), "time limit of 3 s"),
    (("audit", "{d}/os_exit.py:f"), "exited with status 5"),
    (("audit", "{d}/async_def.py:f"), "async function"),
    (("audit", "{d}/generator.py:f"), "generator"),
    (("audit", "{d}/a_class.py:f"), "not a Python function"),
    (("audit", "{d}/returns_none.py:f"), "returned NoneType"),
    (("audit", "{d}/raises.py:f"), "raised on the probe"),
    (("audit", "{d}/syntax.py:f"), "syntax error"),
    (("audit", "{d}/import_fails.py:f"), "importing the file failed"),
    (("audit", "{d}/missing.py:f"), "no such file"),
    (("audit", "{d}/fine.py:g"), "no function named 'g'"),
    (("audit", "{d}/fine.py"), "expected FILE.py:FUNC"),
    (("audit", "{d}/fine.py:f", "--example", "((1, 2"), ""),
    (("audit", "{d}/fine.py:f", "--timeout", "0"), "--timeout"),
    (("audit", "{d}/fine.py:f", "--timeout", "soon"), "--timeout"),
    # the user's file: exercise answers
    (("exercise", "running_mean", "{d}/c_none.py:combine"), "returned None"),
    (("exercise", "running_mean", "{d}/c_raises.py:combine"), "raised ValueError: no"),
    (("exercise", "running_mean", "{d}/c_loops.py:combine", "--timeout", "5"),
     "time limit of 5 s"),
    (("exercise", "running_mean", "{d}/c_async.py:combine"), "async function"),
    (("exercise", "running_mean", "{d}/c_generator.py:combine"), "generator"),
    (("exercise", "median", "{d}/q_loops.py:answer", "--timeout", "5"), "time limit"),
    (("exercise", "median", "{d}/q_not_bool.py:answer"), "answer True or False"),
    (("exercise", "median", "{d}/q_exits.py:answer"), "sys.exit(1)"),
    (("exercise", "median", "{d}/exits.py:f"), "sys.exit(3)"),
    (("exercise", "no_such_exercise"), "unknown exercise"),
    (("exercise", "running_mean", "{d}/missing.py:combine"), "no such file"),
    # output paths, checked before any work starts
    (("certify", "softmax", "--out", "{d}/a_file"), "not a directory"),
    (("certify", "softmax", "--out", "{d}/a_file/sub"), "not a directory"),
    (("all", "--out", "{d}/a_file"), "not a directory"),
    (("all", "--no-certify", "--report", "{d}/a_file"), "--report"),
    (("report", "--out", "{d}/a_file"), "--out"),
    (("report", "--certificates", "{d}/no_such_dir"), "--certificates"),
    (("report", "--certificates", "{d}/a_file"), "not a directory"),
    (("report", "--out", "{d}"), "holds other files"),      # would overwrite/remove them
    (("all", "--no-certify", "--report", "{d}"), "holds other files"),
    # names and numbers
    (("certify", "no_such_kernel", "--out", "{d}/certs"), "unknown kernel"),
    (("bench", "no_such_kernel"), "unknown kernel"),
    (("law", "no.such_law"), "unknown law id"),
    (("explain", "no.such_law"), "unknown law id"),
    (("laws", "--jobs", "0"), "--jobs"),
    (("laws", "--property", "beauty"), "--property"),
    (("frobnicate",), "invalid choice"),
    ((), "a command is required"),
]


@pytest.fixture(scope="module")
def user_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("user")
    for name, text in FILES.items():
        (d / name).write_text(text)
    return d


def run(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "verify", *args], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=timeout)
    return p, time.monotonic() - t0


@pytest.mark.parametrize("args, message", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_is_one_line_and_status_2(user_dir, args, message):
    p, seconds = run(*[a.format(d=user_dir) for a in args])
    assert p.returncode == 2, p.stderr[-2000:]
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("verify: error: "), p.stderr
    assert message in lines[0]
    assert seconds < SECONDS


def test_a_file_that_prints_and_writes_to_fd_1_gives_a_clean_result(tmp_path):
    path = tmp_path / "noisy.py"
    path.write_text("import os\nprint('hello')\nos.write(1, b'raw bytes\\n')\n\n"
                    "def f(a, b):\n    print('in f')\n    os.write(1, b'x')\n"
                    "    os.write(2, b'y')\n    return a + b\n")
    p, _ = run("audit", f"{path}:f", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["properties"]["associative"]["reals"]["verdict"] == "proved"
    assert p.stderr == ""
