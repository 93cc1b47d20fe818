"""The references command: the catalog references a kernel can be bound to."""
from __future__ import annotations

import textwrap

from rich.markup import escape

from verify import api
from verify.cli.output import emit_json, out_console

LEGEND = ("formats: input = the kernel's input dtype, exact = compared bit for bit; bind "
          "one with verify.certification.binding.bind(fn, reference=NAME, OPTION=VALUE)")
DEFAULT_CASES = {"rows": "verify.cases.rows()", "matrices": "verify.cases.matrices()"}


def reference_lines(ref: dict, width: int = 80) -> list[str]:
    """One reference: its name, then indented its description, inputs, outputs with
    their declared formats, options with defaults (and choices), the formats other
    option values declare, and its default cases. Rich markup; lines fit ``width``."""
    lines = [f"[bold]{escape(ref['name'])}[/]"]

    def field(label: str, text: str) -> None:
        head = f"    {label:9}" if label else "    "
        lines.extend(escape(line) for line in textwrap.wrap(
            text, width=width, initial_indent=head, subsequent_indent=" " * len(head),
            break_long_words=True, break_on_hyphens=False))

    field("", ref["description"])
    field("inputs", ", ".join(ref["inputs"]))
    field("outputs", ", ".join(f"{o} ({f})" for o, f in ref["outputs"].items()))
    options = []
    for name, spec in ref["options"].items():
        text = f"{name}={spec['default']!r}"
        others = [repr(c) for c in spec.get("choices", ()) if c != spec["default"]]
        options.append(text + (f" (or {' | '.join(others)})" if others else ""))
    field("options", "; ".join(options) or "none")
    for setting, formats in ref["formats_by_option"].items():
        field("formats", f"with {setting}: " + ", ".join(f"{o} ({f})" for o, f in formats.items()))
    cases = DEFAULT_CASES.get(ref["cases"], "none by default: give inputs= (a case set)")
    if ref["completes"] and ref["cases"] in DEFAULT_CASES:
        cases += ", the other inputs generated"
    field("cases", cases)
    return lines


def cmd_references(args) -> int:
    refs = api.references()
    if args.json:
        emit_json({"references": refs})
        return 0
    out = out_console()
    width = max(min(out.width, 100), 60)
    for ref in refs:
        for line in reference_lines(ref, width):
            out.print(line, overflow="ignore", crop=False)
    for line in textwrap.wrap(f"{len(refs)} references; {LEGEND}", width=width):
        out.print(f"[dim]{escape(line)}[/]", overflow="ignore", crop=False)
    return 0
