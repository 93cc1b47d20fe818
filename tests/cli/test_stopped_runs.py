"""A run stopped from outside (SIGKILL, SIGTERM, Ctrl-C) at any moment leaves nothing
behind: no process of the run is alive a second later, no temporary directory and no
partial file remains. Every process of a run is found by a mark in its environment
(children inherit it), read from /proc."""
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARK = "LAWCHECK_STOP_TEST"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc; the death signal is Linux's")

# each announces, by a file, that the run has reached it
LOOPS_WHEN_CALLED = ("def f(a, b):\n    open('reached', 'w').close()\n    while True:\n"
                     "        pass\n")
LOOPS_AT_IMPORT = ("open('reached', 'w').close()\nwhile True:\n    pass\n\n\n"
                   "def f(a, b):\n    return a + b\n")
LOOPING_COMBINE = LOOPS_WHEN_CALLED.replace("def f(", "def combine(")


def marked(token: str) -> list[int]:
    """The pids whose environment carries ``MARK=token`` (zombies have none)."""
    needle = f"{MARK}={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if needle in fh.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def start(args: list[str], tmp: Path) -> tuple[subprocess.Popen, str]:
    token = uuid.uuid4().hex
    (tmp / "tmp").mkdir(exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp / "tmp"),
               **{MARK: token})
    proc = subprocess.Popen([sys.executable, "-m", "verify", *args], cwd=tmp, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    return proc, token


def wait_for_child(proc: subprocess.Popen, token: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if [pid for pid in marked(token) if pid != proc.pid]:
            return
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.05)
    raise AssertionError("the run started no child")


def wait_for(proc: subprocess.Popen, reached: Path, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while not reached.exists():
        assert time.monotonic() < end, "the run never reached the user's code"
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.05)


def stop(proc: subprocess.Popen, how: str) -> None:
    if how == "ctrl-c":  # a terminal sends SIGINT to the whole foreground group
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, getattr(signal, how))


def assert_nothing_left(proc: subprocess.Popen, token: str, tmp: Path) -> None:
    proc.wait(timeout=30)
    ended = time.monotonic()
    alive = marked(token)
    while alive and time.monotonic() - ended < 1.0:
        time.sleep(0.05)
        alive = marked(token)
    try:
        assert alive == [], f"still running a second after the run ended: {alive}"
    finally:
        for pid in alive:  # do not leave them to the rest of the suite
            os.kill(pid, signal.SIGKILL)
    left = [p.name for p in (tmp / "tmp").iterdir()]
    assert left == [], f"left in the temporary directory: {left}"
    partial = [str(p) for p in tmp.rglob("*") if p.name.endswith(".tmp")]
    assert partial == [], f"partial files: {partial}"


@pytest.mark.parametrize("how, moment, source", [
    ("SIGKILL", "at once", LOOPS_WHEN_CALLED),
    ("SIGKILL", "child started", LOOPS_WHEN_CALLED),
    ("SIGKILL", "running", LOOPS_WHEN_CALLED),
    ("SIGTERM", "importing", LOOPS_AT_IMPORT),
    ("ctrl-c", "running", LOOPS_WHEN_CALLED),
], ids=["kill-at-once", "kill-child-started", "kill-running", "term-importing",
        "ctrl-c-running"])
def test_stopped_audit_leaves_nothing(tmp_path, how, moment, source):
    (tmp_path / "user.py").write_text(source)
    proc, token = start(["audit", "user.py:f", "--timeout", "120"], tmp_path)
    if moment == "at once":
        time.sleep(0.3)
    elif moment == "child started":
        wait_for_child(proc, token)
    else:
        wait_for(proc, tmp_path / "reached")
        time.sleep(0.2)
    stop(proc, how)
    assert_nothing_left(proc, token, tmp_path)


def test_stopped_exercise_leaves_nothing(tmp_path):
    (tmp_path / "answer.py").write_text(LOOPING_COMBINE)
    proc, token = start(["exercise", "running_mean", "answer.py:combine", "--timeout",
                         "120"], tmp_path)
    wait_for_child(proc, token)
    stop(proc, "SIGTERM")
    assert_nothing_left(proc, token, tmp_path)
    assert proc.returncode == 143


@pytest.mark.parametrize("how, moment", [("SIGKILL", "child started"),
                                         ("SIGTERM", "certifying"),
                                         ("ctrl-c", "child started")])
def test_stopped_certify_leaves_nothing(tmp_path, how, moment):
    proc, token = start(["certify", "softmax", "--out", "certs", "--backend",
                         "interpreter"], tmp_path)
    wait_for_child(proc, token)
    if moment == "certifying":  # the progress line comes once the kernels are loaded
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert b"certifying softmax" in line, line
        time.sleep(0.5)
    stop(proc, how)
    assert_nothing_left(proc, token, tmp_path)
    assert not (tmp_path / "certs").exists() or not any((tmp_path / "certs").iterdir())


def test_a_child_past_its_limit_ends_itself(tmp_path):
    """The limit holds inside the child: started with a time limit of 1 s and a parent
    (this test) that never stops it, the child ends itself (SIGALRM) a few seconds
    later, wherever it is."""
    import json
    (tmp_path / "user.py").write_text(LOOPS_WHEN_CALLED)
    read_fd, write_fd = os.pipe()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "verify.cli.child", str(write_fd)],
                             cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             pass_fds=(write_fd,))
    os.close(write_fd)
    try:
        child.communicate(json.dumps({"kind": "audit", "target": "user.py:f",
                                      "token": "t", "timeout": 1}).encode(), timeout=30)
    finally:
        child.kill()
        os.close(read_fd)
    assert child.returncode in (-signal.SIGALRM, -signal.SIGXCPU), child.returncode
    assert time.monotonic() - t0 < 30


def test_user_code_has_a_memory_cap(tmp_path):
    (tmp_path / "user.py").write_text(
        "def f(a, b):\n    blocks = []\n    while True:\n"
        "        blocks.append(bytearray(10**8))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "verify", "audit", "user.py:f", "--memory",
                        "3", "--timeout", "60"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    last = p.stderr.splitlines()[-1]  # progress lines may come first on a busy machine
    assert last.startswith("verify: error: ") and "MemoryError" in last, p.stderr


# the user's code starts processes of its own: one in the run's process group, one in a
# session of its own (out of reach of a signal to the group)
STARTS_GRANDCHILDREN = (
    "import subprocess, time\n"
    "subprocess.Popen(['sleep', '300'])\n"
    "subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
    "open('reached', 'w').close()\n")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_stopped_audit_ends_what_the_code_started(tmp_path, how):
    (tmp_path / "user.py").write_text(STARTS_GRANDCHILDREN + "time.sleep(300)\n\n\n"
                                      "def f(a, b):\n    return a + b\n")
    proc, token = start(["audit", "user.py:f", "--timeout", "120"], tmp_path)
    wait_for(proc, tmp_path / "reached")
    stop(proc, how)
    assert_nothing_left(proc, token, tmp_path)


def test_finished_audit_ends_what_the_code_started(tmp_path):
    (tmp_path / "user.py").write_text(STARTS_GRANDCHILDREN + "\n\n"
                                      "def f(a, b):\n    return a + b\n")
    proc, token = start(["audit", "user.py:f", "--timeout", "120"], tmp_path)
    assert_nothing_left(proc, token, tmp_path)
    assert proc.returncode == 0, proc.stderr.read().decode() if proc.stderr else ""


# a guarded child as verify.certification.isolate starts one, started by a parent that
# is then killed, or stopped by its parent
GUARDED_CHILD = (
    "from verify.processes import guard_descendants, die_with_parent\n"
    "guard_descendants(); die_with_parent()\n"
    "import subprocess, time\n"
    "subprocess.Popen(['sleep', '300'])\n"
    "subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
    "open('reached', 'w').close()\n"
    "time.sleep(300)\n")
PARENT = ("import subprocess, sys, time\n"
          "from verify.processes import child_env_with_parent, stop_child\n"
          "child = subprocess.Popen([sys.executable, '-c', sys.argv[1]],"
          " env=child_env_with_parent())\n"
          "while True:\n"
          "    time.sleep(0.05)\n"
          "    if sys.argv[2] == 'stop' and __import__('os').path.exists('reached'):\n"
          "        stop_child(child)\n"
          "        print(child.returncode)\n"
          "        break\n")


@pytest.mark.parametrize("how", ["SIGKILL", "stop_child"])
def test_guarded_child_ends_its_descendants(tmp_path, how):
    token = uuid.uuid4().hex
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{MARK: token})
    proc = subprocess.Popen([sys.executable, "-c", PARENT, GUARDED_CHILD,
                             "stop" if how == "stop_child" else "wait"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    if how == "SIGKILL":
        wait_for(proc, tmp_path / "reached")
        proc.kill()
    else:
        assert proc.wait(timeout=60) == 0, proc.stderr.read().decode() if proc.stderr else ""
        assert proc.stdout is not None
        assert proc.stdout.read().strip() == b"-9"  # the worker's own end, passed on
    (tmp_path / "tmp").mkdir()
    assert_nothing_left(proc, token, tmp_path)
