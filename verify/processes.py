"""What the two kinds of child process share: the environment that makes a child import
this very project, and the one-line description of how a child ended.

``verify.cli.sandbox`` runs one user file per child; ``verify.certification.isolate``
keeps one child for many certification tasks. Both describe an ending the same way.
"""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]

# The limits of a child running a user's file (verify.cli.sandbox; --load-timeout and
# --memory change them). 8 GiB of address space: torch, Triton, z3 and mpmath load in
# about 1.1 GiB of it on a CPU machine, and a runaway computation stops long before it
# fills a laptop's memory.
DEFAULT_LOAD_TIMEOUT = 30.0    # seconds to import the file and accept its function
DEFAULT_MEMORY_GIB = 8.0


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


# --------------------------------------------------------------------------- dying together
PARENT_PID_VARIABLE = "LAWCHECK_PARENT_PID"
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Called first thing in a child: the kernel kills this process (SIGKILL) the moment
    the process that started it ends, however it ends (SIGKILL included). The parent's
    pid comes in ``LAWCHECK_PARENT_PID``; a parent already gone by now ends the child at
    once. Linux only (elsewhere the parent's own clean-up is all there is)."""
    expected = os.environ.pop(PARENT_PID_VARIABLE, None)
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the parent's clean-up still runs
            pass
    if expected is not None and str(os.getppid()) != expected:
        os._exit(1)  # the parent died before the death signal was set


def limit_resources(cpu_seconds: float | None, memory_bytes: int | None = None) -> None:
    """Limits the kernel enforces on this process whatever it is doing: CPU time
    (SIGXCPU, which ends the process, at ``cpu_seconds`` more than used so far) and
    address space (allocations beyond ``memory_bytes`` fail with MemoryError). No core
    files."""
    import resource
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    if cpu_seconds is not None:
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = used.ru_utime + used.ru_stime
        soft = int(spent + cpu_seconds) + 1
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        # the hard limit stays: a child serving many tasks raises its soft limit again
        wanted = (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard)
        try:
            resource.setrlimit(resource.RLIMIT_CPU, wanted)
        except (ValueError, OSError):
            pass
    if memory_bytes is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > memory_bytes:
            try:
                resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
            except (ValueError, OSError):
                pass


def child_env_with_parent() -> dict:
    """``child_env()`` plus this process's pid, for ``die_with_parent`` in the child."""
    env = child_env()
    env[PARENT_PID_VARIABLE] = str(os.getpid())
    return env


# --------------------------------------------------------------------------- being stopped
class Terminated(BaseException):
    """SIGTERM (or SIGHUP) arrived: unwinds like KeyboardInterrupt, so that every
    ``finally`` (a child killed, a temporary file removed) runs before the process
    ends."""


def raise_on_termination() -> dict:
    """Turn SIGTERM and SIGHUP into ``Terminated`` (main thread only); the handlers they
    replace, for ``restore_handlers``."""
    def handler(signum, frame):
        raise Terminated(signal.Signals(signum).name)
    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            previous[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):  # not the main thread
            pass
    return previous


def restore_handlers(previous: dict) -> None:
    for sig, handler in previous.items():
        if handler is not None:  # None: set outside Python, cannot be put back
            signal.signal(sig, handler)
