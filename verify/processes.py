"""What the two kinds of child process share: the environment that makes a child import
this very project, and the one-line description of how a child ended.

``verify.cli.sandbox`` runs one user file per child; ``verify.certification.isolate``
keeps one child for many certification tasks. Both describe an ending the same way.
"""
from __future__ import annotations

import os
import signal
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def child_env() -> dict:
    """This process's environment with the project first on PYTHONPATH (so the child
    imports this very ``verify``, wherever it was imported from) and no startup file."""
    env = dict(os.environ)
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([str(PROJECT_ROOT)] + rest)
    env.pop("PYTHONSTARTUP", None)
    return env


def describe_exit(returncode: int, who: str = "the process") -> str:
    """"<who> was killed by SIGABRT" or "<who> exited with status 3"."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"{who} was killed by {name}"
    return f"{who} exited with status {returncode}"
