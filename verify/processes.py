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


# --------------------------------------------------------------------------- a guard
_PR_SET_CHILD_SUBREAPER = 36
STOP_GRACE_S = 5.0   # how long ``stop_child`` lets a guard end its tree before SIGKILL


def guard_descendants() -> None:
    """Called first thing in a child (before ``die_with_parent``). On Linux the process
    splits in two: this call returns in a new process (the worker, which runs the real
    work), while the original one stays behind as the guard and never returns. The
    guard is a child subreaper (every orphan of the worker's tree is re-parented to it)
    and, when the worker ends, when it gets SIGTERM or SIGHUP, or when the parent ends
    however it ends (its death signal is SIGTERM), it SIGKILLs every process descended
    from it (a grandchild in a session of its own included), then exits as the worker
    did. The parent stops such a child with ``stop_child``. Elsewhere it does nothing."""
    expected = os.environ.pop(PARENT_PID_VARIABLE, None)
    libc = _libc()
    if libc is None or libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        if expected is not None:
            os.environ[PARENT_PID_VARIABLE] = expected  # die_with_parent checks it
        return
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    stopping = {signal.SIGTERM, signal.SIGHUP}
    signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    if expected is not None and str(os.getppid()) != expected:
        os._exit(1)  # the parent died before the death signal was set
    previous = {sig: signal.signal(sig, _stop) for sig in stopping | {signal.SIGINT}}
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    guard = os.getpid()
    worker = os.fork()
    if worker == 0:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stopping)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        os.environ[PARENT_PID_VARIABLE] = str(guard)
        return
    _guard(worker, stopping)


class _Stop(BaseException):
    pass


def _stop(signum, frame):
    raise _Stop


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True)
    except (OSError, AttributeError):
        return None


def _guard(worker: int, stopping: set) -> None:
    """The guard's life: wait for the worker or a stop, end every descendant, exit with
    the worker's status."""
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.closerange(3, 1 << 16)  # the parent sees end-of-file when the worker's copies go
    status = None
    # the stops stay blocked and are taken with sigtimedwait rather than by a handler:
    # Python runs a handler at a later bytecode, which may fall after the wait; and the
    # worker is waited for without reaping, so that its status is collected below
    watched = stopping | {signal.SIGCHLD}
    signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    try:
        while os.waitid(os.P_PID, worker, os.WEXITED | os.WNOWAIT | os.WNOHANG) is None:
            got = signal.sigtimedwait(watched, 1.0)
            if got is not None and got.si_signo in stopping:
                break
    except ChildProcessError:
        pass
    import time
    deadline = time.monotonic() + STOP_GRACE_S
    while True:
        for pid in descendants(os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while True:
                pid, code = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid == worker:
                    status = code
        except ChildProcessError:
            break  # no child left, so no descendant either
        if time.monotonic() > deadline:
            break
        time.sleep(0.005)
    code = os.waitstatus_to_exitcode(status) if status is not None else 1
    if code < 0:
        import resource
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        except (ValueError, OSError):
            pass
        try:
            if -code != signal.SIGKILL:  # SIGKILL's action cannot be set
                signal.signal(-code, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {-code})
            os.kill(os.getpid(), -code)
        except (OSError, ValueError):
            pass
        code = 128 - code
    os._exit(code)


def descendants(root: int) -> list[int]:
    """The live processes whose chain of parents reaches ``root`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if fields and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            found.append(pid)
            todo.append(pid)
    return found


def stop_child(proc, group: bool = False) -> None:
    """Stop a child started with ``guard_descendants`` and reap it: SIGTERM lets its
    guard end the whole tree; SIGKILL (to its process group when ``group``) if that
    takes longer than ``STOP_GRACE_S``, or at once where there is no guard."""
    import subprocess
    if sys.platform.startswith("linux"):
        if proc.poll() is not None:
            return  # the guard ended, and it ends its tree first
        try:
            os.kill(proc.pid, signal.SIGTERM)
            proc.wait(timeout=STOP_GRACE_S)
            return
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    if group:  # not yet reaped here, so its pid is still its group's
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    proc.kill()
    proc.wait()


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
