"""Run a user's file in a child process with a time limit.

The file (its module-level code included) is loaded and its function judged by
``verify.cli.child`` in a new process group, with stdin and stdout on /dev/null and
stderr captured to a file: whatever the code prints, writes to file descriptor 1,
reads, or how it exits, the command line's stdout stays one report. A run past the
limit kills the whole group. Every way the child can fail becomes ``BadInput`` with
one line.

Does not cover: isolation from the file system or the network (the code runs with
the user's rights), or memory limits.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from verify.cli.progress import Waiting
from verify.errors import BadInput
from verify.processes import child_env, describe_exit

LOADING_QUIET_SECONDS = 15.0   # while the file is still loading, progress waits longer


def run(request: dict, timeout: float, what: str) -> Any:
    """The document the child computes for ``request``; ``BadInput`` on every failure
    (bad file, time limit, exit, crash). ``what`` names the work in progress lines."""
    with tempfile.TemporaryDirectory(prefix="lawcheck-") as tmp:
        out = Path(tmp)
        with open(out / "stderr", "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "verify.cli.child", str(out), json.dumps(request)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                start_new_session=True, env=child_env())
            try:
                with Waiting(what, ready=(out / "phase").exists,
                             after=LOADING_QUIET_SECONDS):
                    proc.wait(timeout)
            except subprocess.TimeoutExpired:
                raise BadInput(f"{request['target']}: ran past the time limit of "
                               f"{timeout:g} s (--timeout); it may loop forever") from None
            finally:
                _kill_group(proc)
        return _result(out, proc.returncode, request["target"])


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _result(out: Path, returncode: int, target: str) -> Any:
    try:
        result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise BadInput(f"{target}: {describe_exit(returncode)} before a result was written "
                       f"{_last_line(out / 'stderr')}".rstrip()) from None
    if result["status"] == "ok":
        return result["doc"]
    if result["status"] == "bad-input":
        raise BadInput(result["message"])
    raise BadInput(f"{target}: the check failed on this input: {result['message']}")


def _last_line(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return ""
    return f"(last output: {' '.join(lines[-1].split())[:160]})" if lines else ""
