"""The child process that loads and runs a user's file: ``python -m verify.cli.child
FD``, started by ``verify.cli.sandbox``.

It reads its request (JSON, with a token the parent chose) from stdin, then answers on
file descriptor ``FD`` with lines ``TOKEN phase importing`` (the file is about to be
imported), ``TOKEN phase running`` (the file is loaded and the function accepted) and
``TOKEN result {…}``: ``{"status": "ok", "doc": …}``, ``{"status": "bad-input",
"message": …}`` or ``{"status": "crash", "message": …}``. Its own stdout and stderr
belong to the user's code (the parent discards or captures them); nothing it prints
reaches the command line's stdout.

Before anything else it leaves a guard behind that ends every process the user's code
starts, and arranges to die with its parent (both in ``verify.processes``); it then
takes its limits: CPU time and an alarm a little past the request's time limit (the
default action of SIGXCPU and SIGALRM ends the process even while C code runs) and an
address-space cap for the user's code.
"""
from __future__ import annotations

import json
import math
import os
import signal
import sys
import traceback
from typing import Any, Callable

ALARM_MARGIN_S = 3       # the child ends itself this long after the parent's limit


def _run(request: dict, phase: Callable[[str], None]) -> Any:
    from verify import api
    from verify.decide.policy import Policy
    policy = Policy(**request["policy"]) if request.get("policy") else None
    target = request["target"]
    if request["kind"] == "audit":
        import verify.auditing.audit  # noqa: F401  (loaded before the user's file runs)
        phase("importing")
        fn, label = api.load_function(target)
        phase("running")
        return api.audit(fn, request.get("example"), policy, label=label,
                         domains=request.get("domains")).to_json()
    if request["kind"] == "exercise":
        import verify.teaching.exercise  # noqa: F401
        api.exercise(request["name"])  # an unknown name before the file is loaded
        phase("importing")
        return api.check_exercise(request["name"], target, ready=lambda: phase("running"))
    if request["kind"] == "bindings":  # certify's users' kernels, loaded, tried, described
        from verify.certification.loading import load_binding
        from verify.certification.probe import check_binding
        phase("importing")
        specs = [load_binding(one) for one in request["targets"]]
        phase("running")
        if request.get("backend"):
            for one, spec in zip(request["targets"], specs):
                check_binding(spec, one, request["backend"], request.get("seed", 0))
        return {"kernels": [{"target": one, "name": spec.name, "dtypes": list(spec.dtypes)}
                            for one, spec in zip(request["targets"], specs)]}
    raise ValueError(f"unknown request {request['kind']!r}")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


def _take_limits(request: dict) -> None:
    from verify.processes import limit_resources
    timeout = float(request.get("timeout") or 0)
    if timeout > 0:
        limit_resources(timeout + ALARM_MARGIN_S, request.get("memory_bytes"))
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(math.ceil(timeout) + ALARM_MARGIN_S)
    else:
        limit_resources(None, request.get("memory_bytes"))


def main(argv: list[str]) -> int:
    from verify.processes import die_with_parent, guard_descendants
    guard_descendants()
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    answer_fd = int(argv[0])
    request = json.loads(sys.stdin.read())
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    token = request.pop("token")
    _take_limits(request)

    def send(kind: str, text: str) -> None:
        data = f"{token} {kind} {text}\n".encode()
        while data:
            data = data[os.write(answer_fd, data):]

    from verify.errors import BadInput
    try:
        result = {"status": "ok", "doc": _run(request, lambda p: send("phase", p))}
    except BadInput as exc:
        result = {"status": "bad-input", "message": _one_line(str(exc))}
    except SystemExit as exc:
        result = {"status": "bad-input",
                  "message": f"{request['target']}: the code called sys.exit({exc.code!r})"}
    except RecursionError:
        result = {"status": "bad-input",
                  "message": f"{request['target']}: the code recursed too deeply"}
    except MemoryError:
        cap = request.get("memory_bytes")
        limit = f" (the limit is {cap / 2**30:g} GiB, --memory)" if cap else ""
        result = {"status": "bad-input",
                  "message": f"{request['target']}: the code ran out of memory{limit}"}
    except BaseException as exc:  # a failure of the checker on this input: one line
        traceback.print_exc()
        result = {"status": "crash",
                  "message": _one_line(f"{type(exc).__name__}: {exc}")}
    from verify import jsonio
    try:
        send("result", jsonio.dumps(result, indent=None))
    except BaseException:  # noqa: BLE001  (nothing to say it with; the parent reports the exit)
        os._exit(3)
    sys.stdout.flush()
    os._exit(0)  # the user's threads or atexit hooks do not keep the process alive


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
