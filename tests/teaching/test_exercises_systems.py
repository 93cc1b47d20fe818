"""The book's chapter 3 exercises: a property answer is judged against the catalog law
for the system (whose verdict is the evidence), and answers that are not property names
are bad input. The answer files in tests/exercise_answers cover right and wrong answers
of every exercise (test_exercise.py runs them)."""
import pytest

from laws import REGISTRY
from verify import api
from verify.teaching import exercise as X
from verify.teaching.exercise import ExerciseError

BOOK = ("paged_attention", "ring_attention", "structured_pruning", "no_property",
        "beam_search")


def test_the_books_exercises_are_listed_and_name_catalog_laws():
    names = [e["name"] for e in api.exercises()]
    for name in BOOK:
        assert name in names
        ex = X.BY_NAME[name]
        assert ex.law in REGISTRY and ex.hint and ex.explanation


@pytest.mark.parametrize("name", ["paged_attention", "structured_pruning"])
def test_a_property_answer_matches_the_laws_declared_properties(name):
    ex = X.BY_NAME[name]
    law = REGISTRY[ex.law]
    declared = {law.property.value} | ({law.secondary.value} if law.secondary else set())
    assert ex.answer <= declared


def test_property_answers_are_judged_with_the_catalog_verdict_as_evidence():
    right = api.check_exercise("structured_pruning", lambda: ("Sparsity", "separability"))
    assert right["passed"] and right["evidence"]["verdict"] == "proved-bounded"
    wrong = api.check_exercise("structured_pruning", lambda: "sparsity")
    assert not wrong["passed"] and wrong["hint"]
    assert wrong["message"] == "wrong: the answer is separability, sparsity"


@pytest.mark.parametrize("answer, message", [
    (lambda: "speed", "'speed': the properties are"),
    (lambda: 3, "returned 3"),
    (lambda: [], "returned []"),
    (lambda x: "redundancy", "takes parameters"),
])
def test_bad_property_answers_are_bad_input(answer, message):
    with pytest.raises(ExerciseError) as err:
        api.check_exercise("paged_attention", answer)
    assert message in str(err.value)


def test_a_combine_for_a_true_false_question_without_a_state_is_bad_input():
    with pytest.raises(ExerciseError, match="answer\\(\\) -> bool"):
        api.check_exercise("beam_search", lambda a, b: a)


def test_describe_a_property_exercise():
    doc = api.exercise("paged_attention")
    assert doc["kind"] == "property" and doc["sizes_checked"] is None
    assert "property" in doc["signature"]
