"""``python -m verify``: the command line.

Every command has ``--json`` (one JSON document on stdout, nothing else) and a readable
default. Exit status: 0 when every result agrees with its expectation, 1 when something
disagrees, 2 on bad usage or bad input (one line on stderr, no traceback).

Imports are lazy: Triton decides at import time whether kernels run in its
interpreter, so the backend is chosen from the arguments before anything imports it.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

from verify.errors import BadInput as UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verify",
                description="Prove algebraic laws and certify the kernels that rely on them.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def cmd(name: str, help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.add_argument("--json", action="store_true", help="one JSON document on stdout")
        return sp

    a = cmd("all", "every law, kernel certification on the best backend, papers")
    a.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1)
    a.add_argument("--backend", choices=("auto", "gpu", "interpreter"), default="auto")
    a.add_argument("--no-certify", action="store_true", help="laws and papers only")
    a.add_argument("--out", default="certificates", help="certificate directory")
    a.add_argument("--seed", type=int, default=0)

    l = cmd("laws", "check the law catalog")
    l.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1)
    l.add_argument("--property", choices=_PROPERTIES, help="only laws of this property")
    l.add_argument("--no-floats", action="store_true", help="skip float-format verdicts")

    cmd("list", "list the laws and kernels")

    w = cmd("law", "one law: statement, verdict, proof method, counterexample")
    w.add_argument("law_id", metavar="ID")

    e = cmd("explain", "the teaching view of a law")
    e.add_argument("law_id", metavar="ID")

    au = cmd("audit", "which of the six properties your own function has")
    au.add_argument("target", metavar="FILE.py:FUNC")
    au.add_argument("--example", help="one example call's arguments, as a Python literal")

    c = cmd("certify", "certify kernels against their laws with error bounds")
    c.add_argument("kernels", nargs="*", metavar="KERNEL")
    c.add_argument("--backend", choices=("auto", "gpu", "interpreter"), default="auto")
    c.add_argument("--out", default="certificates", help="certificate directory")
    c.add_argument("--seed", type=int, default=0)

    cmd("papers", "claims from the literature, checked by their laws")

    b = cmd("bench", "time kernels against torch's own ops")
    b.add_argument("kernels", nargs="*", metavar="KERNEL")
    b.add_argument("--backend", choices=("auto", "gpu", "interpreter"), default="auto")

    x = cmd("exercise", "exercises: list, state one, or check your answer")
    x.add_argument("name", nargs="?", metavar="NAME")
    x.add_argument("target", nargs="?", metavar="FILE.py:FUNC")
    return p


_PROPERTIES = ("associativity", "separability", "locality", "sparsity", "redundancy",
               "symmetry")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def choose_backend(backend: str) -> None:
    """Set Triton's interpreter before triton is imported, as the backend requires."""
    if backend == "interpreter":
        os.environ["TRITON_INTERPRET"] = "1"
        return
    import torch
    if backend == "gpu":
        if not torch.cuda.is_available():
            raise UsageError("--backend gpu: no CUDA device is available")
        os.environ.pop("TRITON_INTERPRET", None)
    elif not torch.cuda.is_available():
        os.environ.setdefault("TRITON_INTERPRET", "1")


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command is None:
            raise UsageError("a command is required: all, laws, list, law, explain, audit, "
                             "certify, papers, bench or exercise (see --help)")
        choose_backend(getattr(args, "backend", "auto"))
        handler: Callable[[Any], int] = _handler(args.command)
        return handler(args)
    except UsageError as exc:
        print(f"verify: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("verify: interrupted", file=sys.stderr)
        return 130


def _handler(command: str) -> Callable[[Any], int]:
    if command in ("all", "laws", "list", "law", "papers"):
        from verify.cli import commands
        return getattr(commands, f"cmd_{command}")
    if command == "explain":
        from verify.teaching.explain import cmd_explain
        return cmd_explain
    if command == "audit":
        from verify.auditing.command import cmd_audit
        return cmd_audit
    if command == "exercise":
        from verify.teaching.exercise import cmd_exercise
        return cmd_exercise
    if command == "certify":
        from verify.certification.certify import cmd_certify
        return cmd_certify
    if command == "bench":
        from verify.certification.bench import cmd_bench
        return cmd_bench
    raise UsageError(f"unknown command {command!r}")
