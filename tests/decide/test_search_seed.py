"""The searcher's cases stay the cases it drew before.

hypothesis derives a derandomized search's seed from the source of the test function,
here ``probe`` inside ``verify.decide.search.search`` (decorators included): editing
it, even a comment, moves every search in the project to other cases, and refutations
that replayed (or failures no one has seen) change with them. Behaviour belongs in the
oracle stand-in ``_Watched``. If ``probe`` must change, re-run the whole suite, look at
every verdict that moved, then update the pin below."""
import ast
import hashlib
from pathlib import Path

from verify.decide import search

PINNED = "d5ca74fa3952126772e3651c177a7f917fe748d6e0765a73ba8aacc1b3d119f6"


def _probe_source() -> str:
    src = Path(search.__file__).read_text()
    outer = next(n for n in ast.parse(src).body
                 if isinstance(n, ast.FunctionDef) and n.name == "search")
    probe = next(n for n in ast.walk(outer)
                 if isinstance(n, ast.FunctionDef) and n.name == "probe")
    return "\n".join(src.splitlines()[probe.decorator_list[0].lineno - 1:probe.end_lineno])


def test_the_probe_hypothesis_seeds_from_is_unchanged():
    digest = hashlib.sha256(_probe_source().encode()).hexdigest()
    assert digest == PINNED, "probe changed: every search now draws other cases " \
                             "(see this module's docstring)"
