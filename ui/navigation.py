"""The sidebar, as data: every page once, grouped by what the user came to do.

A new page adds one ``Page`` line here; the sidebar, the browser suite and the rerun benchmark
read this list.
"""

from __future__ import annotations

from typing import NamedTuple

from content.i18n import N_


class Page(NamedTuple):
    """One sidebar entry; ``label`` and ``group`` are English (data for tests), translated where drawn."""

    topic: str
    path: str
    label: str
    icon: str
    group: str


GROUPS = (N_("Learn"), N_("Labs"), N_("Your data"))

PAGES = (
    Page("home", "app.py", N_("Playground"), "🎯", "Learn"),
    Page("lessons", "pages/10_Lessons.py", N_("Guided lessons"), "🎓", "Learn"),
    Page("live", "pages/19_Live_class.py", N_("Live class"), "📡", "Learn"),
    Page("practice", "pages/15_Practice.py", N_("Practice: quiz and goal challenges"), "🏋️", "Learn"),
    Page("kata", "pages/20_Write_it_yourself.py", N_("Write it yourself"), "⌨️", "Learn"),
    Page("rating", "pages/1_Rating_errors.py", N_("Rating errors"), "📏", "Learn"),
    Page("topn", "pages/2_Precision_Recall_HR_F1.py", N_("Precision, Recall, HR and F1 @K"), "🎣", "Learn"),
    Page("ap", "pages/3_AP_and_MAP.py", N_("AP and MAP"), "📈", "Learn"),
    Page("rr", "pages/4_RR_and_MRR.py", N_("RR and MRR"), "🥇", "Learn"),
    Page("ndcg", "pages/5_NDCG.py", N_("NDCG"), "📐", "Learn"),
    Page("classification", "pages/6_Classification_metrics.py", N_("Classification metrics"), "🧮", "Learn"),
    Page("auc", "pages/7_AUC_and_GAUC.py", N_("AUC and GAUC"), "⚖️", "Learn"),
    Page("logloss", "pages/8_LogLoss.py", N_("LogLoss"), "🎲", "Learn"),
    Page("examples", "pages/9_Worked_examples.py", N_("Worked examples"), "📚", "Learn"),
    Page("which_metric", "pages/21_Which_metric_when.py", N_("Which metric when"), "🧭", "Learn"),
    Page("ab", "pages/11_A_vs_B.py", N_("A vs B: what one move does"), "🔀", "Labs"),
    Page("sensitivity", "pages/12_Sensitivity_explorer.py", N_("Sensitivity explorer"), "🎚️", "Labs"),
    Page("random", "pages/13_Random_baselines.py", N_("Random and perfect baselines"), "🎰", "Labs"),
    Page("sampled", "pages/14_Sampled_negatives.py", N_("Sampled negatives: a pitfall"), "🧪", "Labs"),
    Page("lens", "pages/16_Library_lens.py", N_("Why libraries disagree"), "🔭", "Labs"),
    Page("protocols", "pages/22_Protocol_lab.py", N_("How offline evaluation lies"), "🧫", "Labs"),
    Page("logged", "pages/23_Logged_feedback.py", N_("Logged feedback"), "🪵", "Labs"),
    Page("your_data", "pages/17_Your_data.py", N_("Your data"), "🗂️", "Your data"),
    Page("compare", "pages/18_Compare_two_models.py", N_("Compare two models"), "📊", "Your data"),
)

TOPIC_PAGES = {p.topic: p.path for p in PAGES}
BY_TOPIC = {p.topic: p for p in PAGES}


def grouped() -> list[tuple[str, list[Page]]]:
    """The pages of each group, in the order of ``GROUPS``, leaving out empty groups."""
    return [(group, [p for p in PAGES if p.group == group]) for group in GROUPS
            if any(p.group == group for p in PAGES)]
