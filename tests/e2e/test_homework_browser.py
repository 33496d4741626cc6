"""Issue 43 in Chromium, the homework half: a teacher opens the five-step lesson file written in Turkish on the lessons
page and gives it as homework with a deadline from the Live class page's own controls; a student does it on a 390 px
phone in Turkish (/homework/CODE, the link read from the console): a typed number within its tolerance, a number
for their own list, an option; each verdict at once, a reload mid-way and the link opened again resume on the same
step with the same verdict; each step shows its list (there is no projector at home), and the phone reads the same
in Chinese. The teacher's report, never reloaded, follows the student by itself; the gradebook has their answers."""

from __future__ import annotations

import csv
import datetime
import io
import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import screenshot, upload_files, wait_until_idle
from tests.e2e.test_live_class_browser import tabs

LESSON = Path(__file__).resolve().parents[1] / "data" / "ders-recall.toml"
TITLE = "Beş öğelik listede Recall"
FOLLOW = 30_000  # ms: a liveness bound, not a timing claim
FOLDER = SCREENSHOTS / "homework"  # the phone mid-homework and the teacher's report
JOIN_QUESTION = "Öğrenci numarası"
# The phone's own words in English: none of them may show on a phone that asked for Turkish.
ENGLISH = ("Homework", "Step ", "Your answer", "Send", "Next", "Back", "Right", "Not quite", "Answers close")


def give_homework(teacher: Page, url: str, day: datetime.date) -> str:
    """The teacher's way: the lesson file opened on the lessons page, then the Live class page's homework box with
    a join question, the lesson, a deadline typed into the date and time boxes (UTC); returns the phones' link."""
    teacher.goto(url + "/Lessons")
    teacher.get_by_text("Lesson files: open your own, download this one").click()
    upload_files(teacher, {"Open a lesson file (.toml)": LESSON})
    expect(teacher.get_by_text(TITLE).first).to_be_visible(timeout=FOLLOW)

    teacher.goto(url + "/Live_class")
    teacher.get_by_role("textbox", name="Gradebook: a question each student answers on entering (optional)").fill(
        JOIN_QUESTION)
    teacher.keyboard.press("Tab")
    wait_until_idle(teacher)  # the box's rerun would close a list opened before it ends
    teacher.get_by_text("📝 Homework", exact=True).click()
    wait_until_idle(teacher)  # the expander keeps its state: opening it reruns the page
    lesson_box = teacher.get_by_role("combobox", name="Lesson for the homework")
    lesson_box.click()
    teacher.keyboard.type("Beş")  # the list shows a few lessons at a time: the file's is found by typing
    expect(teacher.get_by_role("option", name=re.compile(TITLE))).to_be_visible()
    teacher.keyboard.press("Enter")
    expect(lesson_box).to_have_value(re.compile(TITLE))
    wait_until_idle(teacher)
    teacher.get_by_role("spinbutton", name="year, Deadline: date (UTC)").click()
    teacher.keyboard.type(day.strftime("%Y%m%d"))  # each part moves on to the next once typed
    teacher.get_by_role("spinbutton", name="hour, Deadline: time (UTC)").click()
    teacher.keyboard.type("1800")
    teacher.keyboard.press("Tab")
    wait_until_idle(teacher)
    teacher.get_by_role("button", name="📝 Give as homework").click()

    expect(teacher.get_by_role("heading", name=re.compile("Homework · " + TITLE))).to_be_visible(timeout=FOLLOW)
    expect(teacher.get_by_text(f"Open until {day.isoformat()} 18:00 (UTC). 0 students")).to_be_visible()
    code = teacher.get_by_test_id("live-code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{6}", code), code
    link = teacher.get_by_test_id("stCode").inner_text().strip()
    assert urlsplit(link).path == f"/homework/{code}", link
    return link


def own_recall(phone: Page) -> float:
    """Recall@K of the list on this phone, worked out here: relevant items show their grade ("12 (1)")."""
    items = phone.locator("ol.items li").all_inner_texts()
    k = int(re.search(r"K = (\d+)", phone.locator("main").inner_text()).group(1))
    relevant = [i for i, item in enumerate(items) if "(" in item]
    return sum(1 for i in relevant if i < k) / len(relevant)


def send(phone: Page, typed: str) -> None:
    phone.locator("#value").fill(typed)
    phone.locator("#send").click()


def at_step(phone: Page, number: int) -> None:
    expect(phone.locator("#where")).to_have_text(f"Adım {number} / 5", timeout=FOLLOW)


def no_wider_than_the_phone(phone: Page) -> None:
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_a_teacher_gives_the_turkish_lesson_file_as_homework_and_a_phone_does_it_reloads_and_resumes(server,
                                                                                                      browser):
    day = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=2)).date()
    with tabs(browser, [(1280, 720), (390, 844)]) as (teacher, phone):
        link = give_homework(teacher, server.url, day)
        address = f"{server.url}{urlsplit(link).path}?lang=tr"  # the link, on this machine, in Turkish

        phone.goto(address)
        expect(phone.locator("main")).to_contain_text("Ödev")
        phone.get_by_role("textbox", name=JOIN_QUESTION).fill("S-7")
        phone.locator("#nickname").fill("Ayşe")
        phone.locator("form button[type=submit]").click()
        at_step(phone, 1)
        expect(phone.locator("#deadline")).to_contain_text(f"{day.isoformat()} 18:00 (UTC)")
        # At home there is no projector: the step's list, its grades and K are on the phone.
        expect(phone.locator("#step-list li")).to_have_text(["11", "12 (1)", "13", "14", "15 (1)"])
        expect(phone.locator("main")).to_contain_text("K = 3; ilgili öğeler ve dereceleri: 12 (1), 15 (1)")
        FOLDER.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(FOLDER / "phone-390-tr-list.png"), full_page=True)
        no_wider_than_the_phone(phone)
        phone.locator("#next").click()

        # Step 2: a typed number with a tolerance (2 decimals); Recall@3 = 0.5, and 0,504 rounds to it.
        at_step(phone, 2)
        expect(phone.locator("#value")).to_have_attribute("inputmode", "decimal")
        expect(phone.locator("main")).to_contain_text("Virgülden sonra 2 basamakla yazın.")
        send(phone, "0,504")
        expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "right", timeout=FOLLOW)
        expect(phone.locator("#verdict")).to_contain_text("Doğru. Tam değer 0,5000 (= 1/2).")  # within 2 decimals
        expect(phone.locator("#yours")).to_have_text("Yanıtınız: 0,504")
        phone.locator("#next").click()

        # Step 3: this student's own list; the right number worked out from it, typed to 2 decimals (±0.01).
        at_step(phone, 3)
        expect(phone.locator("ol.items li")).to_have_count(6)
        own_list = phone.locator("ol.items li").all_inner_texts()
        value = own_recall(phone)
        send(phone, f"{value:.2f}".replace(".", ","))
        expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "right", timeout=FOLLOW)
        expect(phone.locator("#verdict")).to_contain_text("Doğru")
        expect(phone.locator("#verdict")).to_contain_text(f"{value:.4f}".replace(".", ","))
        phone.screenshot(path=str(FOLDER / "phone-390-own-list.png"), full_page=True)
        no_wider_than_the_phone(phone)

        phone.reload()  # mid-way: the same step, list, answer and verdict, no form to answer again
        at_step(phone, 3)
        expect(phone.locator("ol.items li")).to_have_text(own_list)
        expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "right")
        expect(phone.locator("#send")).to_have_count(0)
        phone.get_by_role("button", name="◀ Geri").click()  # the earlier answer is kept too
        at_step(phone, 2)
        expect(phone.locator("#yours")).to_have_text("Yanıtınız: 0,504")
        expect(phone.locator("#send")).to_have_count(0)
        phone.locator("#next").click()
        at_step(phone, 3)
        phone.locator("#next").click()

        # Step 4: an option, the wrong one (0.5 is Recall@3): its verdict, and the link opened again stays here.
        at_step(phone, 4)
        phone.get_by_role("radio", name="0,5", exact=True).check()  # the option 0.5 in the Turkish notation
        phone.locator("#send").click()
        expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "wrong", timeout=FOLLOW)
        expect(phone.locator("#verdict")).to_contain_text("Tam değil")
        phone.goto(address)
        at_step(phone, 4)
        expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "wrong")
        shown = phone.locator("main").inner_text()
        assert not [word for word in ENGLISH if word in shown], shown
        no_wider_than_the_phone(phone)

        # The teacher's report, never reloaded since the homework was given: it follows the students by itself.
        expect(teacher.get_by_text(f"Open until {day.isoformat()} 18:00 (UTC). 1 student")).to_be_visible(
            timeout=FOLLOW)
        expect(teacher.get_by_text("The report updates by itself every 10 seconds")).to_be_visible()
        expect(teacher.get_by_text("Answers by student")).to_be_visible()
        wait_until_idle(teacher)
        questions, students = (teacher.get_by_test_id("stDataFrame").nth(i) for i in (0, 1))
        expect(questions.locator("#glide-cell-0-0")).to_have_text("4. Precision@3 seçin")  # the most missed first
        # The grid is a canvas: what it draws is read from its accessibility table.
        expect(students.locator("[role=columnheader]")).to_have_text(
            [JOIN_QUESTION, "Student", "Step", "2. Recall@3 yazın", "3. Kendi listeniz", "4. Precision@3 seçin"])
        typed = f"{value:.2f}".replace(".", ",")
        expect(students.locator("[role=gridcell]")).to_have_text(
            ["S-7", "Ayşe", "4", "✓ 0,504", f"✓ {typed}", "✗ 0.5"])
        screenshot(teacher, FOLDER, "teacher-1280-report")

        with teacher.expect_download(timeout=45_000) as download:
            teacher.get_by_role("button", name="⬇️ Download the gradebook (CSV)").click()
        table = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8"))))
        header, rows = table[0], {row[0]: row for row in table[1:]}
        assert header[:3] == [JOIN_QUESTION, "nickname", "total"] and len(header) == 3 + 3 * 2, header
        code = urlsplit(link).path.rsplit("/", 1)[1]
        answers = {header[i].removesuffix(" (answer)").split(f" {code} · ")[1]: rows["S-7"][i]
                   for i in range(4, len(header), 2)}  # a column per question: "2026-12-07 CODE · 2. Title"
        assert rows["S-7"][1:3] == ["Ayşe", "2"]
        assert answers == {"2. Recall@3 yazın": "0,504", "3. Kendi listeniz": typed, "4. Precision@3 seçin": "0.5"}

        # The same phone in Chinese: the list, a verdict with its exact value, nothing in English, nothing cut.
        chinese = address.replace("lang=tr", "lang=zh")
        phone.goto(chinese)
        expect(phone.locator("#where")).to_have_text("第 4 步，共 5 步")
        expect(phone.get_by_role("radio")).to_have_count(0)  # answered: the verdict, no choices
        phone.screenshot(path=str(FOLDER / "phone-390-zh-option.png"), full_page=True)
        for number in (3, 2, 1):
            phone.locator("nav form").first.locator("button").click()  # Back, in Chinese
            expect(phone.locator("#where")).to_have_text(f"第 {number} 步，共 5 步", timeout=FOLLOW)
        expect(phone.locator("#step-list li")).to_have_text(["11", "12 (1)", "13", "14", "15 (1)"])
        phone.screenshot(path=str(FOLDER / "phone-390-zh-list.png"), full_page=True)
        shown = phone.locator("main").inner_text()
        assert not [word for word in ENGLISH if word in shown], shown
        no_wider_than_the_phone(phone)
        phone.locator("#next").click()
        expect(phone.locator("#where")).to_have_text("第 2 步，共 5 步", timeout=FOLLOW)
        expect(phone.locator("#verdict")).to_contain_text("精确值是 0.5000 (= 1/2)")
        phone.screenshot(path=str(FOLDER / "phone-390-zh-number.png"), full_page=True)
        shown = phone.locator("main").inner_text()
        assert not [word for word in ENGLISH if word in shown], shown
        no_wider_than_the_phone(phone)

        # The teacher ends it: the phone's link then says so, in Turkish.
        teacher.get_by_text("Delete every answer and nickname now").click()
        wait_until_idle(teacher)
        expect(teacher.get_by_role("checkbox", name="Delete every answer and nickname now")).to_be_checked()
        teacher.get_by_role("button", name="End the class").click()
        wait_until_idle(teacher)
        ended = phone.request.get(address)  # not through the tab: it fails on any 4xx, and this one is meant
        assert ended.status == 404 and "Bu ödev sona erdi" in ended.text(), (ended.status, ended.text())
