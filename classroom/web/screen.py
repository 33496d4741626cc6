"""What a student's phone shows of the class now: built once per room version and language, sent to every phone.

A screen holds nothing of one student: no nickname, no answer of anyone's before the reveal, and the
right answer only once revealed. After the reveal it carries, for every answer given (and for none),
the sentence that student reads, so each phone picks its own without asking the server again.
Every sentence is translated here (``content``), rendered from Markdown with raw HTML off, so the
page inserts it as is; anything a student typed goes through ``text.markdown`` first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from markdown_it import MarkdownIt

from classroom import variants
from classroom.judge import as_number
from classroom.steps import LiveStep, asked_question, live_step
from classroom.store import base_question
from classroom.summary import summarize, variant_summary
from content import classroom as class_texts
from content import i18n, numbers
from content.i18n import _
from content.pages import live as words
from content.pages import lessons as lesson_words
from content.pages import live_phone
from teaching import practice
from content import text

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False})
ANSWER_SLOT = "\ue000"  # where the page puts text of its own in a sentence: the student's answer, the time left


def html(markdown: str) -> str:
    return _MARKDOWN.render(markdown).strip()


def inline(markdown: str) -> str:
    return _MARKDOWN.renderInline(markdown)


@functools.lru_cache(maxsize=4096)
def _inline_kept(markdown: str) -> str:
    """:func:`inline`, kept: every phone's own list repeats the same caption, items ("31 (1)") and options."""
    return inline(markdown)


def phrases(language: str) -> dict[str, str]:
    """The page's own sentences (HTML) for its script: connection, confirmation, closed answers, the timer."""
    with i18n.speaking(language):
        return {"connecting": inline(_(live_phone.CONNECTING)), "reconnecting": inline(_(live_phone.RECONNECTING)),
                "not_sent": inline(_(live_phone.NOT_SENT)), "send": inline(_(words.SEND)),
                "ended": inline(_(words.ENDED_FOR_STUDENT)),
                "answer_in": inline(words.answer_in(ANSWER_SLOT)),
                "locked_yours": inline(words.locked_yours(ANSWER_SLOT)),
                "locked_none": inline(words.locked_yours(None)),
                "closed_locked": inline(class_texts.answers_closed("locked")),
                "closed_revealed": inline(class_texts.answers_closed("revealed")),
                "timer": inline(_(live_phone.TIMER).format(time=ANSWER_SLOT)),
                "not_a_number": inline(words.not_a_number(ANSWER_SLOT)),
                "own_list_coming": inline(_(live_phone.OWN_LIST_COMING)),
                "own_verdict_coming": inline(_(live_phone.OWN_VERDICT_COMING)),
                "own_late": inline(_(live_phone.OWN_LATE))}


def build(now: dict, distribution: Callable[[str], dict[str, int]], language: str,
          by_student: Callable[[str], dict[str, str]] | None = None) -> dict:
    """The screen for the room's state ``now`` (``Store.current``); ``distribution(question_id)`` is read
    only after the reveal (``Store.distribution``), and for a variant question ``by_student(question_id)``
    instead (``Store.answers_by_student``): each answer is judged against its student's own list. A variant
    question's screen holds no list: each phone asks for its own (``/class/CODE/mine``)."""
    with i18n.speaking(language):
        step = live_step(now["lesson"], now["step"])
        if step is None:
            return {"version": now["version"], "waiting": inline(_(words.WAITING))}
        question_id = asked_question(step, now)
        state = now["state"] if question_id == now["question_id"] else "open"
        screen = {"version": now["version"], **_content(step)}
        if question_id is None:
            return screen
        screen["question"] = {"id": question_id, "state": state, "prompt": inline(_prompt(step)),
                              **_answer_form(step)}
        if state == "revealed" and step.variant is not None:
            screen["question"]["reveal"] = _variant_reveal(step, now, question_id, by_student(question_id))
        elif state == "revealed":
            screen["question"]["reveal"] = _reveal(step, distribution(question_id))
        return screen


def _content(step: LiveStep, note: str = live_phone.CHART_ON_PROJECTOR) -> dict:
    if step.lesson_step is None:
        case = step.case
        shown = ranked_list(case.recommended, case.ground_truth, case.k, _(live_phone.RECOMMENDED_LIST))
        return {"title": inline(_(class_texts.PLAYGROUND_TITLE)), "body": html(_(class_texts.PLAYGROUND_TEXT)),
                **shown}
    body = html(_(step.text))
    if step.lesson_step.kind != "predict" or step.lesson_step.scenario:
        body += f"<p class='note'>{inline(_(note))}</p>"
    return {"title": inline(_(step.title)), "body": body}


def ranked_list(recommended, grades: dict, k: int, caption: str) -> dict:
    """A ranked list as every phone shows one (the teacher's playground list, a student's own list, a homework step's
    list): ``list_caption`` (``caption``, Markdown), ``items`` best first, a relevant one with its grade ("12 (1)"),
    and ``facts``: K and every relevant item with its grade (one not in the list too). HTML; an item is shown as typed,
    never as markup, and a grade in the reader's notation."""
    items = [f"{text.markdown(item)} ({numbers.general(grades[item])})" if item in grades else text.markdown(item)
             for item in recommended]
    relevant = _(", ").join(f"{text.markdown(item)} ({numbers.general(grade)})" for item, grade in grades.items())
    return {"list_caption": _inline_kept(caption), "items": [_inline_kept(item) for item in items],
            "facts": inline(words.playground_facts(k, relevant or "—"))}


def scenario_lists(step: LiveStep) -> list[dict]:
    """The lists a lesson step's scenario holds, each as :func:`ranked_list` gives it, for a phone with no projector
    to look at (the homework): a ranking (a compare question's list B after it, as List A and List B), or one list
    per user (relevant items marked 1). Empty for any other scenario: its data is a chart or a table in the app.
    The live class's phone does not show them: the teacher's screen does, with its chart, and the phone says so."""
    scenario = step.lesson_step.scenario if step.lesson_step is not None else None
    if not scenario:
        return []
    question = step.lesson_step.question
    other = question.other if question is not None and question.kind == "compare" else None
    if scenario.get("kind") == "ranking":
        if other and other.get("kind") == "ranking":
            return [_named_list(_(lesson_words.LIST_A), scenario), _named_list(_(lesson_words.LIST_B), other)]
        return [ranked_list(scenario["recommended"], scenario["ground_truth"], scenario["k"],
                            _(live_phone.RECOMMENDED_LIST))]
    if scenario.get("kind") == "users":
        return [ranked_list(recommended, {item: 1 for item in relevant if isinstance(item, (int, str))},
                            scenario["k"], live_phone.named_list(text.markdown(user)))
                for user, recommended, relevant in zip(scenario["users"], scenario["recommended"],
                                                       scenario["relevant"])]
    return []


def _named_list(name: str, scenario: dict) -> dict:
    return ranked_list(scenario["recommended"], scenario["ground_truth"], scenario["k"], live_phone.named_list(name))


def _prompt(step: LiveStep) -> str:
    if step.lesson_step is not None:
        return _(step.prompt)
    return class_texts.playground_prompt(practice.QUIZ_METRICS[step.metric].display_label(step.case.k))


def _answer_form(step: LiveStep) -> dict:
    label = _(words.YOUR_ANSWER)
    if step.variant is not None:  # the list, and a value question's options, come from the phone's own route
        form = {"variant": step.lesson_step.question.kind, "note": inline(_(live_phone.VARIANT_NOTE)),
                "label": inline(_(live_phone.YOUR_OPTIONS)) if step.lesson_step.question.kind == "value" else
                inline(_(words.YOUR_NUMBER).format(example=numbers.number(0.6429, 4))),
                "max_length": practice.MAX_ANSWER_LENGTH}
        if step.tolerance is not None:
            form["tolerance"] = inline(lesson_words.tolerance(step.tolerance.kind, step.tolerance.amount))
        return form
    if step.options:  # the value sent is the option's English label, the same for every reader; a number shown in
        return {"label": inline(label),  # the reader's notation (0,3333 in Turkish)
                "options": [{"value": o.label, "text": inline(class_texts.option_text(o.label))}
                            for o in step.options]}
    form = {"label": inline(_(words.YOUR_NUMBER).format(example=numbers.number(0.6429, 4))),
            "max_length": practice.MAX_ANSWER_LENGTH}
    if step.tolerance is not None:
        form["tolerance"] = inline(lesson_words.tolerance(step.tolerance.kind, step.tolerance.amount))
    return form


def _variant_reveal(step: LiveStep, now: dict, question_id: str, answers: dict[str, str]) -> dict:
    """How many were right, each against their own list, and the room's named mistakes; each phone adds its own
    verdict (``own``)."""
    summary = variant_summary(step, now["seed"], base_question(question_id), answers)
    right = (f"{_(words.RIGHT)}: {words.right_count(summary.right, summary.answered)}" if summary.answered
             else _(words.NOBODY_ANSWERED))
    return {"variant": True, "none": "", "verdicts": {}, "counts": [], "right": inline(right),
            "mistakes": [inline(words.used_mistake(n, text.markdown(_(why)))) for why, n in summary.mistakes],
            "why": html(_(step.why)) if step.why else ""}


def own(step: LiveStep, scenario: dict, state: str, mine: str | None, question_id: str) -> dict:
    """One phone's part of a variant question: its list, a value question's choices, and after the reveal its
    verdict against its own right value (in the language being spoken)."""
    found = {"question_id": question_id, **ranked_list(scenario["recommended"], scenario["ground_truth"],
                                                      scenario["k"], _(live_phone.YOUR_LIST))}
    if step.lesson_step.question.kind == "value":
        found["options"] = [{"value": label, "text": _inline_kept(numbers.number(float(label), 4))}
                            for label in variants.options(step.lesson_step, scenario)]
    if state == "revealed":
        judged = variants.judge(step.lesson_step, scenario, mine)
        answer = numbers.number(judged.value, 4)
        if mine is None:
            found["verdict"] = html(class_texts.standing_none(answer))
        elif judged.right:
            found["verdict"] = html(lesson_words.number_right(answer))
        else:
            explanation = own_explanation(step, scenario, mine, judged.mistake)
            found["verdict"] = html(_(words.NOT_QUITE).format(explanation=explanation, answer=answer))
    return found


def own_explanation(step: LiveStep, scenario: dict, mine: str, mistake: str | None) -> str:
    """Why a wrong answer to a list of one's own is wrong (Markdown): the named mistake it matches, else what was
    answered. A value question's phone offers options only: an option is named as it was shown, and chosen; a
    number typed (a number question, or a value sent by hand) as typed."""
    labels = variants.options(step.lesson_step, scenario) if step.lesson_step.question.kind == "value" else []
    chosen = mine in labels
    shown = numbers.number(float(mine), 4) if chosen else text.quoted(mine)
    if mistake:
        return words.what_you_get(shown, _(mistake))
    return words.you_chose(shown) if chosen else words.you_typed(shown)


def _reveal(step: LiveStep, tally: dict[str, int]) -> dict:
    """Every answer's verdict and standing (one per value given, not per student), and the class's summary."""
    summary = summarize(step, tally)
    verdicts = {value: html(_verdict(step, value)) + html(class_texts.standing(summary, value)) for value in tally}
    labels = {o.label for o in step.options}  # anything else is what someone typed: shown as typed
    counts = [{"answer": inline(class_texts.option_text(value) if value in labels else text.markdown(value)),
               "value": value, "students": n, "right": right} for value, n, right in summary.counts if n]
    chosen = {o.explanation: o.label for o in step.options}  # a mistake is named by its explanation
    mistakes = [inline(words.chose_mistake(n, text.markdown(class_texts.option_text(chosen[why])),
                                           text.markdown(_(why))) if step.options
                       else words.used_mistake(n, text.markdown(_(why)))) for why, n in summary.mistakes]
    why = _(step.why) if step.lesson_step is not None and step.why else (
        class_texts.playground_why(describe(step.exact_value)) if step.lesson_step is None else None)
    right = (f"{_(words.RIGHT)}: {words.right_count(summary.right, summary.answered)}" if summary.answered
             else _(words.NOBODY_ANSWERED))
    return {"none": html(class_texts.standing(summary, None)), "verdicts": verdicts, "counts": counts,
            "right": inline(right),
            "mistakes": mistakes, "why": html(why) if why else ""}


def content(step: LiveStep, note: str = live_phone.CHART_ON_PROJECTOR) -> dict:
    """A step's title and body (HTML), as the phones show it; ``note``: what is said of a chart left out."""
    return _content(step, note)


def answer_form(step: LiveStep) -> dict:
    """A question's answer form (a label, the options or a number box with its tolerance), as the phones show it."""
    return _answer_form(step)


def prompt(step: LiveStep) -> str:
    return _prompt(step)


def verdict(step: LiveStep, mine: str) -> str:
    """One answer's verdict (Markdown) against the step's own scenario: right, or not quite and why, and the
    mistake a typed number matches."""
    return _verdict(step, mine)


def _verdict(step: LiveStep, mine: str) -> str:
    if summarize(step, {mine: 1}).right:
        if not step.options:  # typed within a tolerance: the exact value, as a list of one's own says it
            return lesson_words.number_right(describe(step.exact_value))
        chosen = next((_(o.explanation) for o in step.options if o.label == mine), "")
        return _(words.RIGHT_VERDICT).format(explanation=chosen)
    if step.options:
        chosen = next((_(o.explanation) for o in step.options if o.label == mine), "")
        return _(words.NOT_QUITE).format(explanation=chosen,
                                         answer=text.markdown(class_texts.option_text(step.right_answer)))
    return _(words.NOT_QUITE).format(explanation=_number_verdict(mine, step), answer=text.markdown(
        describe(step.exact_value)))


def _number_verdict(mine: str, step: LiveStep) -> str:
    if step.tolerance is not None:  # a lesson's typed number: the file's tolerance, not the practice mode's decimals
        typed = as_number(mine)
        named = next((name for name, value in step.mistakes().items()
                      if typed is not None and variants.accepts(step.tolerance, typed, value)), None)
        return words.what_you_get(text.quoted(mine), _(named)) if named else words.you_typed(text.quoted(mine))
    verdict = practice.check_number(mine, step.exact_value, step.mistakes())
    if verdict.correct:
        return ""
    if verdict.mistake:
        return words.what_you_get(text.quoted(mine), _(verdict.mistake))
    if verdict.unreadable:
        return words.too_few_decimals(text.quoted(mine), practice.MIN_DECIMALS)
    return words.you_typed(text.quoted(mine))


def describe(value: float) -> str:
    """0.6429 (= 9/14) when a small fraction is exact, else the four decimals, in the reader's notation."""
    fraction = practice.as_fraction(value)
    if fraction is not None and fraction.denominator > 1:
        return f"{numbers.number(value, 4)} (= {fraction})"
    return numbers.number(value, 4)
