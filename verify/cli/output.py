"""Writing to stdout: the only place JSON documents are emitted."""
from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(doc: Any) -> None:
    json.dump(doc, sys.stdout, indent=2, default=str, allow_nan=False)
    sys.stdout.write("\n")
