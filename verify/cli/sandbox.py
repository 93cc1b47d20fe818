"""Run a user's file in a child process with time and memory limits.

The file (its module-level code included) is loaded and its function judged by
``verify.cli.child`` in a new process group, with stdout on /dev/null and stderr
captured to an unnamed temporary file: whatever the code prints, writes to file
descriptor 1, reads, or how it exits, the command line's stdout stays one report. The
child answers on a pipe of its own, each line marked with a token chosen here; lines
without the token are ignored and the answer is checked for its shape before it is
used, so a file that prints or writes a made-up answer gets one line and exit 2, not a
traceback or a forged report.

Limits: loading the file (its module-level code and the checks that the function can
be audited) has ``load_timeout`` seconds, the whole run ``timeout``; the message says
which phase ran over. The child caps its own address space (``memory_bytes``), CPU
time and wall-clock time, and the kernel kills it when this process ends, however it
ends (``verify.processes.die_with_parent``); a guard process left behind by the child
(``verify.processes.guard_descendants``) ends every process the code started, in a
session of its own or not, when the child ends, is stopped, or this process ends.
Nothing is written to disk, so nothing is left behind.

Does not cover: isolation. The code runs with the user's rights, can read and write
their files and the network, and can find the answer pipe: the child is not a security
boundary against malicious code.
"""
from __future__ import annotations

import json
import os
import secrets
import selectors
import subprocess
import sys
import tempfile
import time
from typing import IO, Any

from verify.cli.progress import Waiting
from verify.errors import BadInput
from verify.processes import (DEFAULT_LOAD_TIMEOUT, DEFAULT_MEMORY_GIB,
                               child_env_with_parent, describe_exit, stop_child)

LOADING_QUIET_SECONDS = 15.0   # while the file is still loading, progress waits longer


def run(request: dict, timeout: float, what: str, *, load_timeout: float | None = None,
        memory_gib: float | None = None) -> Any:
    """The document the child computes for ``request``; ``BadInput`` on every failure
    (bad file, time limit, exit, crash, a malformed answer). ``what`` names the work in
    progress lines; ``memory_gib`` 0 sets no memory cap."""
    load_timeout = min(load_timeout or DEFAULT_LOAD_TIMEOUT, timeout)
    gib = DEFAULT_MEMORY_GIB if memory_gib is None else memory_gib
    memory = int(gib * 2 ** 30) if gib > 0 else None  # 0: no cap
    token = secrets.token_hex(16)
    target = request["target"]
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "verify.cli.child", str(write_fd)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err,
                pass_fds=(write_fd,), start_new_session=True, env=_env())
        finally:
            os.close(write_fd)
        try:
            assert proc.stdin is not None
            _send_request(proc.stdin, {**request, "token": token, "timeout": timeout,
                                       "memory_bytes": memory})
            reader = _Answers(read_fd, token)
            with Waiting(what, ready=lambda: reader.phase == "running",
                         after=LOADING_QUIET_SECONDS):
                overran = reader.read(time.monotonic() + timeout, load_timeout)
            if overran == "importing":
                raise BadInput(f"{target}: loading the file (its module-level code) ran "
                               f"past the limit of {load_timeout:g} s (--load-timeout); "
                               "it may loop forever")
            if overran is not None:
                doing = {"running": "checking the function", "importing": "loading the file",
                         }.get(reader.phase, "starting the checking process")
                raise BadInput(f"{target}: {doing} ran past the time limit of {timeout:g} s "
                               "(--timeout); it may loop forever")
        finally:
            os.close(read_fd)
            stop_child(proc, group=True)
        return _result(reader.result, request, proc.returncode, err)


def _env() -> dict:
    """The child's environment: glibc's malloc keeps to a few arenas (each thread's own
    arena reserves 64 MiB of address space, which counts against the cap on a machine
    with many cores)."""
    env = child_env_with_parent()
    env.setdefault("MALLOC_ARENA_MAX", "4")
    return env


def _send_request(stream: IO[bytes], request: dict) -> None:
    try:
        stream.write(json.dumps(request).encode())
        stream.close()
    except BrokenPipeError:  # the child died at once; its exit status tells why
        pass


class _Answers:
    """The child's answer lines: the phase it reached and its result."""

    def __init__(self, fd: int, token: str) -> None:
        self.fd, self.token = fd, token.encode()
        self.phase = "starting"
        self.result: str | None = None
        self._buffer = b""

    def read(self, deadline: float, load_timeout: float) -> str | None:
        """Read until the child closes the pipe; the phase that ran past its limit, or
        None."""
        load_deadline: float | None = None
        with selectors.DefaultSelector() as sel:
            sel.register(self.fd, selectors.EVENT_READ)
            while True:
                limit = deadline if load_deadline is None else min(deadline, load_deadline)
                left = limit - time.monotonic()
                if left <= 0 or not sel.select(timeout=left):
                    if load_deadline is not None and time.monotonic() >= load_deadline:
                        return "importing"
                    return "all"
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    return None
                for phase in self._lines(chunk):
                    self.phase = phase
                    if phase == "importing":
                        load_deadline = time.monotonic() + load_timeout
                    elif phase == "running":
                        load_deadline = None

    def _lines(self, chunk: bytes) -> list[str]:
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        phases = []
        for line in lines:
            token, _, rest = line.partition(b" ")
            if token != self.token:
                continue  # not the child's own line: whatever else wrote to the pipe
            kind, _, text = rest.decode("utf-8", "replace").partition(" ")
            if kind == "phase" and text in ("importing", "running"):
                phases.append(text)
            elif kind == "result":
                self.result = text
        return phases


def _result(text: str | None, request: dict, returncode: int, err: IO[bytes]) -> Any:
    target = request["target"]
    if text is None:
        raise BadInput(f"{target}: {describe_exit(returncode)} before a result was written "
                       f"{_last_line(err)}".rstrip())
    try:
        result = json.loads(text)
    except ValueError:
        result = None
    problem = _malformed(result, request["kind"])
    if problem:
        raise BadInput(f"{target}: the checking process's answer is malformed ({problem}); "
                       "did the code write to file descriptors it does not own?")
    if result["status"] == "ok":
        return result["doc"]
    if result["status"] == "bad-input":
        raise BadInput(result["message"])
    raise BadInput(f"{target}: the check failed on this input: {result['message']}")


# the keys each kind of document must have, with their types
_DOC_KEYS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "audit": {"function": str, "kind": str, "parameters": list, "result": str,
              "notes": list, "properties": dict},
    "exercise": {"passed": bool, "message": str},
    "bindings": {"kernels": list},
}


def _malformed(result: Any, kind: str) -> str | None:
    """What is wrong with the child's answer, or None."""
    if not isinstance(result, dict) or result.get("status") not in ("ok", "bad-input",
                                                                    "crash"):
        return "not an answer"
    if result["status"] != "ok":
        return None if isinstance(result.get("message"), str) else "no message"
    doc = result.get("doc")
    if not isinstance(doc, dict):
        return f"a {type(doc).__name__} where a report belongs"
    for key, types in _DOC_KEYS.get(kind, {}).items():
        if not isinstance(doc.get(key), types):
            return f"the report has no valid {key!r}"
    if kind == "bindings" and not all(
            isinstance(k, dict) and isinstance(k.get("name"), str)
            and isinstance(k.get("dtypes"), list) for k in doc["kernels"]):
        return "a kernel without its name or dtypes"
    if kind == "audit":
        for name, prop in doc["properties"].items():
            if not (isinstance(prop, dict) and isinstance(prop.get("statement"), str)
                    and all(isinstance(prop.get(part), dict)
                            and isinstance(prop[part].get("verdict"), str)
                            for part in ("reals", "float32", "float64"))):
                return f"property {name!r} without its verdicts"
    return None


def _last_line(err: IO[bytes]) -> str:
    try:
        err.seek(0)
        lines = err.read().decode("utf-8", errors="replace").strip().splitlines()
    except OSError:
        return ""
    return f"(last output: {' '.join(lines[-1].split())[:160]})" if lines else ""
