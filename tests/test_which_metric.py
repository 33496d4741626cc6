"""The "which metric when" page: its content is data whose every metric, page and lesson exists, and
every link the page draws opens a page of the app (a lesson link opens an existing lesson step)."""

import re
from pathlib import Path
from urllib.parse import parse_qs

from content.lessons import BY_KEY as LESSONS
from metrics.registry import BY_KEY
from tests.conftest import run_page, texts
from ui.navigation import PAGES, TOPIC_PAGES, grouped
from content.pages.which_metric import ANSWERS

PAGE = TOPIC_PAGES["which_metric"]
URL_NAMES = {re.sub(r"^\d+_", "", Path(p.path).stem) if p.path != "app.py" else "" for p in PAGES}


def test_every_answer_names_known_metrics_pages_and_lessons():
    questions = [a.question for a in ANSWERS]
    assert len(set(questions)) == len(questions) >= 6
    for asked in ("anything relevant", "early", "well ordered", "probabilities right", "really better"):
        assert any(asked in q for q in questions), asked
    for answer in ANSWERS:
        assert set(answer.metrics) <= set(BY_KEY), answer.metrics
        assert answer.topic in TOPIC_PAGES and answer.pitfall.strip() and answer.why.strip()
        assert answer.lesson is None or answer.lesson in LESSONS


def test_it_closes_the_learn_group_of_the_sidebar():
    learn = dict(grouped())["Learn"]
    assert learn[-1].topic == "which_metric"


def test_the_page_shows_every_question_and_every_link_opens_a_page_of_the_app():
    at = run_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at)
    for answer in ANSWERS:
        assert answer.question in shown and answer.pitfall in shown
        assert all(BY_KEY[key].label in shown for key in answer.metrics)
    links = [link.proto for link in at.get("page_link")]
    assert links and all(link.page in URL_NAMES for link in links), sorted({l.page for l in links} - URL_NAMES)
    lesson_links = [link for link in links if link.page == "Lessons" and link.query_string]
    assert len(lesson_links) == sum(a.lesson is not None for a in ANSWERS)
    for link in lesson_links:
        query = parse_qs(link.query_string)
        lesson = LESSONS[query["lesson"][0]]
        assert 1 <= int(query["step"][0]) <= len(lesson.steps)
    for answer in ANSWERS:
        target = re.sub(r"^\d+_", "", Path(TOPIC_PAGES[answer.topic]).stem)
        assert any(link.page == target for link in links), answer.topic


def test_every_lesson_link_opens_its_lesson():
    at = run_page(PAGE)
    link = next(l.proto for l in at.get("page_link") if l.proto.query_string)
    query = {k: v[0] for k, v in parse_qs(link.query_string).items()}
    opened = run_page(TOPIC_PAGES["lessons"], query_params=query)
    assert not opened.exception
    assert [h.value for h in opened.subheader] == [LESSONS[query["lesson"]].steps[0].title]


def test_the_last_step_of_a_lesson_links_the_guide():
    lesson = LESSONS["auc"]
    at = run_page(TOPIC_PAGES["lessons"], query_params={"lesson": "auc", "step": str(len(lesson.steps))})
    assert any(l.proto.page == "Which_metric_when" for l in at.get("page_link"))
