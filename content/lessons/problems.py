"""What is wrong with a lesson file, said where: the line and the field. Messages are English templates marked
for the catalogs and translated when shown, so a teacher reads them in the app's language."""

from __future__ import annotations

from dataclasses import dataclass

from content.i18n import N_, _

NOT_TOML = N_("this is not valid TOML: {error}")
NOT_UTF8 = N_("the file is not UTF-8 text")
TOO_BIG = N_("the file has {size} bytes; a lesson file may have at most {limit}")
TOO_MANY_STEPS = N_("the lesson has {count} steps; a lesson may have at most {limit}")
NO_STEPS = N_("a lesson needs at least one step ([[steps]])")
MISSING = N_("missing: this field is required")
UNKNOWN_KEY = N_("unknown key; expected one of: {expected}")
WRONG_TYPE = N_("expected {expected}, found {found}")
NOT_ONE_OF = N_("“{value}” is not one of: {expected}")
UNKNOWN_LANGUAGE = N_("unknown language “{value}”; the languages are: {expected}")
BAD_ID = N_("an id is lower-case letters, digits, - and _ (as in “my-lesson”), found “{value}”")
DUPLICATE_ITEM = N_("item {item} is listed twice")
K_OUT_OF_RANGE = N_("K = {k} is out of range: 1 to {most}, the length of the list")
LENGTHS_DIFFER = N_("{first} and {second} must have the same length ({one} and {other})")
NOT_BINARY = N_("labels are 0 or 1, found {value}")
OUT_OF_UNIT = N_("{value} is outside 0 to 1")
EMPTY_LIST = N_("the list is empty")
NEEDS = N_("{kind} needs {what}")
ONLY_FOR = N_("only {kind} has {what}")
NO_OPTIONS = N_("a number question has no options: the learner types the value")
ANSWER_TYPED = N_("the answer is never written in a lesson file: the app computes it from the scenario and the metric")
OPTION_COUNT = N_("a {kind} question has exactly three options, in this order: {order}")
OPTIONS_TWO = N_("a value question needs at least two options")
LABEL_TWICE = N_("two options have the label “{label}”")
LABEL_DISAGREES = N_("the label says {label} but the value is {value}")
ONE_TOLERANCE = N_("give exactly one of decimals, absolute or relative")
NOT_POSITIVE = N_("must be more than 0, found {value}")
NOT_IN_LIST = N_("item {item} is not in the recommended list")
INDEX_OUT_OF_RANGE = N_("index {index} is outside the list {field} (0 to {last})")
RANGE_EMPTY = N_("minimum {minimum} is not below maximum {maximum}")
VARIANT_RANGE = N_("must be {low} to {high}, found {value}")
VARIANT_GRADES = N_("grades are [lowest, highest], two whole numbers from 1 with the lowest first, found {value}")
VARIANT_ONLY = N_("a variant is for a value or number question on a ranking scenario")
VARIANT_METRIC = N_("a variant question asks one of: {expected}")
PAIR = N_("expected two whole numbers [first, last], found {value}")
ID_TAKEN = N_("the id “{value}” is already used by {other}")
NO_OPTION_MATCHES = N_("no option's value is the computed {metric} = {value}; the options say {stated}")
OPTIONS_MATCH = N_("{count} options match the computed {metric} = {value}: {labels}")
UNKNOWN_METRIC = N_("{metric} is not a value of this {kind} scenario; it has: {known}")
NOT_ANSWERABLE = N_("a question on a {kind} scenario cannot be answered from its numbers")
PROTOCOL_QUESTION = N_("a question on a protocol scenario compares two values it states as claims (other_metric)")
SCENARIO_REJECTED = N_("the metrics reject this scenario: {error}")
VIEW_PROBLEM = N_("this step cannot be shown: {error}")
CORRECT_ONLY_CHOICE = N_("only a choice question marks options correct: the app computes every other answer")
CHOICE_NO_METRIC = N_("a choice question has no metric: its right options are marked with correct = true")
CHOICE_OPTIONS_TWO = N_("a choice question needs at least two options")
NO_CORRECT = N_("a choice question needs at least one option with correct = true")
QUIZ_NO_SCENARIO = N_("a quiz step is a plain question: it has no scenario, view or focus")
CHOICE_IN_QUIZ = N_("a quiz step asks a choice question, and a choice question belongs to a quiz step")

# Words a message's {expected}, {found} or {kind} is filled with, translated with it.
WORDS = frozenset((
    N_("a string"), N_("a whole number"), N_("a number"), N_("true or false"), N_("a list"), N_("a table"),
    N_("a date or time"), N_("a string or a table of languages"), N_("a list of tables"),
    N_("a predict step"), N_("an explore step"), N_("a demonstrate step"), N_("a direction question"),
    N_("a compare question"), N_("a number question"), N_("a value question"),
    N_("a question"), N_("controls and a goal"), N_("an animation"), N_("a change"), N_("tolerance"),
    N_("a value for each option"), N_("a value"), N_("other or other_metric"), N_("an item"), N_("a field"),
    N_("a field and an index"), N_("a rank control"), N_("a grade control"), N_("a value control"),
    N_("a setting control"), N_("a quiz step"), N_("a choice question"), N_("a time limit"),
))


@dataclass(frozen=True)
class Problem:
    line: int | None          # 1-based, in the file's text; None when the whole file is meant
    field: str                # as in the file: steps[2].question.options[1].value (steps counted from 1)
    message: str              # an English template of this module
    params: tuple[tuple[str, object], ...] = ()

    def text(self) -> str:
        """The problem in the reader's language: ``line 12, steps[2].scenario.k: K = 12 is out of range ...``."""
        said = _(self.message).format(**{key: _(value) if value in WORDS else str(value) for key, value in self.params})
        if self.line is None:
            where = self.field
        elif self.field:
            where = _("line {line}, {field}").format(line=self.line, field=self.field)
        else:
            where = _("line {line}").format(line=self.line)
        return f"{where}: {said}" if where else said


def problem(line: int | None, field: str, message: str, **params) -> Problem:
    return Problem(line, field, message, tuple(params.items()))


class Unanswerable(ValueError):
    """A question the app cannot answer from its scenario: the message says why (a template of this module)."""

    def __init__(self, message: str, **params):
        super().__init__(message.format(**params))
        self.message, self.params = message, params
