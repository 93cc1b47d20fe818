"""The child process that loads and runs a user's file: ``python -m verify.cli.child
DIR REQUEST``, started by ``verify.cli.sandbox``.

It writes ``DIR/phase`` (``running`` once the file is loaded and the function accepted)
and then ``DIR/result.json``: ``{"status": "ok", "doc": …}``, ``{"status":
"bad-input", "message": …}`` or ``{"status": "crash", "message": …}``. Its own stdout
and stderr belong to the user's code (the parent discards or captures them); nothing it
prints reaches the command line's stdout.
"""
from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable


def _run(request: dict, mark_running: Callable[[], None]) -> Any:
    from verify import api
    from verify.decide.policy import Policy
    policy = Policy(**request["policy"]) if request.get("policy") else None
    target = request["target"]
    if request["kind"] == "audit":
        fn, label = api.load_function(target)
        mark_running()
        return api.audit(fn, request.get("example"), policy, label=label,
                         domains=request.get("domains")).to_json()
    if request["kind"] == "exercise":
        api.exercise(request["name"])  # an unknown name before the file is loaded
        return api.check_exercise(request["name"], target, ready=mark_running)
    raise ValueError(f"unknown request {request['kind']!r}")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0])
    request = json.loads(argv[1])
    from verify import jsonio
    from verify.errors import BadInput

    def mark_running() -> None:
        (out_dir / "phase").write_text("running")
    try:
        result = {"status": "ok", "doc": _run(request, mark_running)}
    except BadInput as exc:
        result = {"status": "bad-input", "message": _one_line(str(exc))}
    except SystemExit as exc:
        result = {"status": "bad-input",
                  "message": f"{request['target']}: the code called sys.exit({exc.code!r})"}
    except RecursionError:
        result = {"status": "bad-input",
                  "message": f"{request['target']}: the code recursed too deeply"}
    except BaseException as exc:  # a failure of the checker on this input: one line
        traceback.print_exc()
        result = {"status": "crash",
                  "message": _one_line(f"{type(exc).__name__}: {exc}")}
    jsonio.write_atomic(out_dir / "result.json", result)
    sys.stdout.flush()
    os._exit(0)  # the user's threads or atexit hooks do not keep the process alive


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
