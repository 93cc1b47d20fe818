"""Typed results: an ordered verdict and one result object per kind of answer.

Each result object wraps the JSON document the command line prints for it (the contract
in README.md), so ``result.to_json()`` is exactly what ``--json`` writes, and adds typed
accessors for use from Python.

>>> Verdict.PROVED > Verdict.PROVED_BOUNDED > Verdict.TESTED > Verdict.UNKNOWN
True
>>> Verdict("refuted").holds
False
>>> LawResult({"id": "sum.associative", "verdict": "proved", "ok": True}).verdict
<Verdict.PROVED: 'proved'>
"""
from __future__ import annotations

import enum
from typing import Any, Mapping

_STRENGTH = {"proved": 3, "proved-bounded": 2, "tested": 1, "statistical": 1, "unknown": 0}


class Verdict(str, enum.Enum):
    """A verdict over ℝ (or in a float format). ``proved`` > ``proved-bounded`` >
    ``tested`` > ``unknown`` order the answers that claim a law holds by strength;
    ``refuted`` (a replayed counterexample) and ``error`` (a malformed law, or a proof
    the independent check contradicts) stand outside that order and compare below it."""

    PROVED = "proved"
    PROVED_BOUNDED = "proved-bounded"
    TESTED = "tested"
    STATISTICAL = "statistical"  # a random estimator passed a stated statistical test
    UNKNOWN = "unknown"
    REFUTED = "refuted"
    ERROR = "error"

    @property
    def strength(self) -> int:
        """3 proved, 2 proved-bounded, 1 tested or statistical, 0 unknown, −1 refuted or
        error."""
        return _STRENGTH.get(self.value, -1)

    @property
    def holds(self) -> bool:
        """The verdict says the law holds (proved, proved-bounded, tested or statistical)."""
        return self.strength > 0

    @property
    def proved(self) -> bool:
        return self in (Verdict.PROVED, Verdict.PROVED_BOUNDED)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.strength >= other.strength

    def __str__(self) -> str:
        return self.value


def agrees(expect: str, verdict: Verdict | str) -> bool:
    """A law that should hold agrees with proved/proved-bounded/tested; an anti-law
    (``expect="fails"``) agrees only with refuted."""
    v = Verdict(verdict)
    return v.holds if expect == "holds" else v is Verdict.REFUTED


class Result:
    """A JSON document with typed accessors; ``to_json()`` returns the document."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self._doc = dict(doc)

    def to_json(self) -> dict[str, Any]:
        return self._doc

    def __getitem__(self, key: str) -> Any:
        return self._doc[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._doc.get(key, default)

    def __repr__(self) -> str:
        label = self._doc.get("id") or self._doc.get("kernel") or self._doc.get("function")
        return f"{type(self).__name__}({label!r}, {self.summary()})"

    def summary(self) -> str:
        return str(self._doc.get("verdict", ""))


class LawResult(Result):
    """The verdict on one law (``verify law ID --json``). ``values`` holds the raw
    counterexample (one value per law variable, exact or mpmath) when there is one: the
    JSON document carries its printable form."""

    def __init__(self, doc: Mapping[str, Any], values: list[Any] | None = None) -> None:
        super().__init__(doc)
        self.values = values

    @property
    def id(self) -> str:
        return self._doc["id"]

    @property
    def verdict(self) -> Verdict:
        return Verdict(self._doc["verdict"])

    @property
    def ok(self) -> bool:
        """The verdict agrees with the law's expectation."""
        return bool(self._doc.get("ok"))

    @property
    def counterexample(self) -> dict | None:
        return self._doc.get("counterexample")

    @property
    def assumptions(self) -> list[str]:
        return list(self._doc.get("assumptions") or [])

    @property
    def method(self) -> str | None:
        return self._doc.get("method")

    @property
    def reason(self) -> str | None:
        return self._doc.get("reason")

    @property
    def cases(self) -> int | None:
        return self._doc.get("cases")

    @property
    def seconds(self) -> float:
        return float(self._doc.get("seconds") or 0.0)


class FloatVerdict(Result):
    """Whether a law holds bit-exactly in one float format."""

    @property
    def exact(self) -> bool | None:
        return self._doc.get("exact")


class AuditResult(Result):
    """Which properties a user's function has (``verify audit FILE:FUNC --json``)."""

    @property
    def properties(self) -> dict[str, dict]:
        """Property name → its entry (statement, ``reals`` verdict, float verdicts)."""
        return dict(self._doc.get("properties") or {})

    def verdict(self, prop: str) -> Verdict:
        return Verdict(self.properties[prop]["reals"]["verdict"])

    def summary(self) -> str:
        return ", ".join(f"{k}={v['reals']['verdict']}" for k, v in self.properties.items())


class Certificate(Result):
    """A kernel certificate (the JSON file ``verify certify`` writes)."""

    @property
    def passed(self) -> bool:
        return bool(self._doc.get("pass"))

    def summary(self) -> str:
        return "pass" if self.passed else "fail"
