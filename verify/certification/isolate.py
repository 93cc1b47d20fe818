"""Certification work run where a crash cannot take the certifier down.

A task (check the cross-links, certify one kernel, or certify one planted variant) is a
plain dict; ``execute`` does it. ``ChildRunner`` sends tasks to one child Python process
that keeps torch, Triton and the kernels loaded between tasks (starting one costs a few
seconds, so one child serves a whole invocation); when the child dies — SIGABRT or
SIGSEGV from a corrupted heap in Triton's interpreter — or exceeds the time limit, the
task comes back as ``("died", reason)`` with the signal and the last line the child
wrote to stderr, and the next task starts a fresh child. ``InProcessRunner`` runs tasks
here (tests that patch the kernel registry; nothing is isolated).

Protocol: the child's original stdout carries length-prefixed pickles of results; its
file descriptor 1 is pointed at stderr first, so a kernel that prints cannot corrupt it.
The child inherits the environment (``TRITON_INTERPRET`` included) and finds the
project first on ``sys.path``.

Not covered: a kernel that corrupts memory without crashing and still produces outputs
that pass (the guarded allocations of guards.py catch what lands in their zones).
"""
from __future__ import annotations

import collections
import importlib
import importlib.util
import math
import os
import pickle
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import Any

from verify.processes import child_env_with_parent, describe_exit, stop_child

_HEADER = struct.Struct("!Q")
_CHILD_CODE = "from verify.certification.isolate import child_main; child_main()"
_MARGIN_S = 5  # the child ends itself this long after a task's time limit


# --------------------------------------------------------------------------- the work
def load_spec(name: str, ref: str | None = None):
    """The spec of kernel ``name`` in impls/, or at ``ref``: "package.module:ATTR", or a
    user's "path/to/file.py[:NAME]" (``loading.load_binding``)."""
    from verify.certification.binding import as_spec
    if ref is None:
        import impls
        return as_spec(impls.load(name))
    where, _, attr = ref.rpartition(":")
    if ref.endswith(".py") or where.endswith(".py"):
        from verify.certification.loading import load_binding
        return load_binding(ref)
    return getattr(importlib.import_module(where), attr)


def plain(value: Any) -> Any:
    """Certificates with tensors and numpy scalars turned into Python numbers and lists
    (floats keep inf and NaN), so they pickle without torch's shared-memory handles."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return plain(value.tolist())
    if hasattr(value, "item") and not isinstance(value, (str, bytes, bool, int, float)):
        try:
            return value.item()
        except (TypeError, ValueError):
            return str(value)
    return value


def execute(task: dict) -> Any:
    """Do one task; see the module docstring for the kinds."""
    from verify.certification import certify as core
    if task["op"] == "links":
        return _links(task)
    spec = load_spec(task["name"], task.get("ref"))
    variant = task.get("variant")
    if variant is None:
        cert = core.certify(spec, task["backend"], seed=task["seed"],
                            law_results=task.get("law_results"))
        from verify.certification.planting import planted_bugs
        cert["planted_names"] = list(planted_bugs(spec))
    else:
        from verify.certification.planting import planted_spec
        with planted_spec(spec, variant) as changed:
            cert = core.certify(changed, task["backend"], seed=task["seed"],
                                check_laws=False, compiled=False)
    return plain(cert)


def _links(task: dict) -> dict:
    """Load every kernel of the task and check the cross-links of those that loaded."""
    import impls
    from laws import REGISTRY
    from verify.certification.links import cross_link_problems
    specs, failed = {}, {}
    for name, ref in task["kernels"]:
        try:
            specs[name] = load_spec(name, ref)
        except Exception as exc:  # a kernel that cannot load gets a failing certificate
            failed[name] = f"{type(exc).__name__}: {exc}"
    problems = cross_link_problems(REGISTRY, specs, impls.kernel_names(),
                                   report_unknown=task["report_unknown"])
    return {"problems": problems, "failed": failed}


# --------------------------------------------------------------------------- runners
class InProcessRunner:
    """Runs each task in this process: no isolation."""

    def run(self, task: dict) -> tuple[str, Any]:
        return "done", execute(task)

    def close(self) -> None:
        pass


class ChildRunner:
    """Runs tasks in one child process, restarted after it dies."""

    def __init__(self, time_limit_s: float = 900.0):
        self.time_limit_s = time_limit_s
        self.proc: subprocess.Popen | None = None
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._relay: threading.Thread | None = None

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", _CHILD_CODE],
                                     env=child_env_with_parent(),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=os.getcwd())
        self._stderr_tail.clear()
        self._relay = threading.Thread(target=self._relay_stderr, args=(self.proc,),
                                       daemon=True)
        self._relay.start()

    def _relay_stderr(self, proc: subprocess.Popen) -> None:
        assert proc.stderr is not None
        for raw in iter(proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace")
            self._stderr_tail.append(line.rstrip("\n"))
            sys.stderr.write(line)

    def run(self, task: dict) -> tuple[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            _write_frame(self.proc.stdin, {**task, "time_limit_s": self.time_limit_s})
            reply = _read_frame(self.proc, time.monotonic() + self.time_limit_s)
        except (BrokenPipeError, EOFError, TimeoutError) as exc:
            return "died", self._death_reason(exc)
        except BaseException:  # interrupted or stopped: the child goes now, not later
            stop_child(self.proc)
            raise
        status, value = reply
        return ("done", value) if status == "ok" else ("error", value)

    def _death_reason(self, exc: BaseException) -> str:
        assert self.proc is not None
        if isinstance(exc, TimeoutError):
            stop_child(self.proc)
            head = f"exceeded the time limit of {self.time_limit_s:g} s and was stopped"
        else:
            code = self.proc.wait()
            head = describe_exit(code, "the certifying process")
        if self._relay is not None:
            self._relay.join(timeout=5)
        last = next((line.strip() for line in reversed(self._stderr_tail) if line.strip()), "")
        return head + (f" (last words: {last})" if last else "")

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                _write_frame(self.proc.stdin, None)
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired, OSError):
                stop_child(self.proc)
        if self._relay is not None:
            self._relay.join(timeout=5)


# --------------------------------------------------------------------------- frames
def _write_frame(stream, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read_exactly(proc: subprocess.Popen, size: int, deadline: float) -> bytes:
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    chunks, need = [], size
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while need:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                raise TimeoutError
            chunk = os.read(fd, need)
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            need -= len(chunk)
    return b"".join(chunks)


def _read_frame(proc: subprocess.Popen, deadline: float) -> Any:
    (size,) = _HEADER.unpack(_read_exactly(proc, _HEADER.size, deadline))
    return pickle.loads(_read_exactly(proc, size, deadline))


def child_main() -> None:
    """The child's loop: read a task from stdin, write ("ok", result) or ("error",
    text) to the original stdout; stop on None or end of input. The child dies with its
    parent, ignores Ctrl-C (the parent stops it) and ends itself (SIGALRM, SIGXCPU) a
    little after a task's time limit, should the parent not."""
    from verify.processes import die_with_parent, guard_descendants, limit_resources
    guard_descendants()
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                       # whatever prints goes to stderr
    sys.stdout = sys.stderr
    tasks = sys.stdin.buffer
    while True:
        header = tasks.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        task = pickle.loads(tasks.read(_HEADER.unpack(header)[0]))
        if task is None:
            return
        limit = task.pop("time_limit_s", None)
        if limit:
            limit_resources(limit + _MARGIN_S)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.alarm(math.ceil(limit) + _MARGIN_S)
        try:
            reply = ("ok", execute(task))
        except Exception as exc:  # reported to the parent, which decides what it means
            reply = ("error", f"{type(exc).__name__}: {exc}")
        signal.alarm(0)
        _write_frame(results, reply)
