"""The reveal's numbers: how the class answered, the share right, and the mistakes named."""

from __future__ import annotations

from dataclasses import dataclass

from classroom.judge import as_number
from classroom.steps import LiveStep
from classroom import variants
from classroom.variants import accepts
from teaching import practice


@dataclass(frozen=True)
class Summary:
    answered: int
    right: int
    counts: list[tuple[str, int, bool]]          # (answer, students, right), options in their order
    mistakes: list[tuple[str, int]]               # (what the wrong answer came from, students), most first
    numbers: list[tuple[float, int]]              # numeric answers (a typed-number question), for the histogram

    @property
    def share_right(self) -> float:
        return self.right / self.answered if self.answered else float("nan")

    def same_as(self, my_answer: str) -> int:
        """How many students gave ``my_answer``, the student included, counting equal numbers as one answer."""
        return same_answers(self.counts, my_answer)


def summarize(step: LiveStep, tally: dict[str, int]) -> Summary:
    right_answer = step.right_answer
    answered = sum(tally.values())
    right = sum(n for value, n in tally.items() if step.judge(value))
    if step.options:
        labels = [o.label for o in step.options]
        counts = [(label, tally.get(label, 0), label == right_answer) for label in labels]
        counts += [(value, n, False) for value, n in tally.items() if value not in labels]
        explanations = {o.label: o.explanation for o in step.options}
        mistakes = sorted(((explanations[label], n) for label, n, ok in counts if not ok and n and label in explanations),
                          key=lambda m: -m[1])
        return Summary(answered, right, counts, mistakes, [])
    counts = [(value, n, bool(step.judge(value))) for value, n in tally.items()]
    numbers = [(as_number(value), n) for value, n in tally.items() if as_number(value) is not None]
    named: dict[str, int] = {}
    for name, wrong in step.mistakes().items():
        students = sum(n for value, n in numbers if accepts(step.tolerance, value, wrong))
        if students:
            named[name] = students
    return Summary(answered, right, counts, sorted(named.items(), key=lambda m: -m[1]), numbers)


def variant_summary(step: LiveStep, seed: str, question: str, answers: dict[str, str]) -> Summary:
    """The reveal of a variant question: each student's answer judged against their own list (``question``: the
    question's first round, as the lists are drawn), how many were right and the named mistakes their numbers
    match. No distribution: the students' right values differ."""
    right, named = 0, {}
    for student_id, value in answers.items():
        judged = variants.judge(step.lesson_step, variants.draw(step.lesson_step, seed, student_id, question), value)
        right += bool(judged.right)
        if judged.mistake:
            named[judged.mistake] = named.get(judged.mistake, 0) + 1
    return Summary(len(answers), right, [], sorted(named.items(), key=lambda m: -m[1]), [])


def same_value(value: str, other: str) -> bool:
    """Whether two answers are the same answer: the same text, or the same number however written
    ("0.8278" and "0,8278"; "3/4" and "0.75"), compared exactly."""
    if value == other:
        return True
    try:
        return practice.parse_answer(value) == practice.parse_answer(other)
    except ValueError:
        return False


def same_answers(counts: list[tuple[str, int, bool]], my_answer: str) -> int:
    """How many students gave ``my_answer``, the student included, counting equal numbers as one answer."""
    return sum(n for value, n, _right in counts if same_value(value, my_answer))


def standing(summary: Summary, my_answer: str | None) -> str:
    """Where one student stands, in a sentence (no one else's name or answer)."""
    if my_answer is None:
        return f"You did not answer; {summary.right} of {summary.answered} students got it right."
    others = same_answers(summary.counts, my_answer) - 1
    share = f"{summary.right} of {summary.answered} students got it right"
    return f"{share}; {others} other student{'s' if others != 1 else ''} gave the same answer as you."
