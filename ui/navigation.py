"""The sidebar, as data: every page once, grouped by what the user came to do.

A new page adds one ``Page`` line here; the sidebar, the browser suite and the rerun benchmark
read this list.
"""

from __future__ import annotations

from typing import NamedTuple


class Page(NamedTuple):
    topic: str
    path: str
    label: str
    icon: str
    group: str


GROUPS = ("Learn", "Labs", "Your data")

PAGES = (
    Page("home", "app.py", "Playground", "🎯", "Learn"),
    Page("lessons", "pages/10_Lessons.py", "Guided lessons", "🎓", "Learn"),
    Page("live", "pages/19_Live_class.py", "Live class", "📡", "Learn"),
    Page("practice", "pages/15_Practice.py", "Practice: quiz and goal challenges", "🏋️", "Learn"),
    Page("kata", "pages/20_Write_it_yourself.py", "Write it yourself", "⌨️", "Learn"),
    Page("rating", "pages/1_Rating_errors.py", "Rating errors", "📏", "Learn"),
    Page("topn", "pages/2_Precision_Recall_HR_F1.py", "Precision, Recall, HR and F1 @K", "🎣", "Learn"),
    Page("ap", "pages/3_AP_and_MAP.py", "AP and MAP", "📈", "Learn"),
    Page("rr", "pages/4_RR_and_MRR.py", "RR and MRR", "🥇", "Learn"),
    Page("ndcg", "pages/5_NDCG.py", "NDCG", "📐", "Learn"),
    Page("classification", "pages/6_Classification_metrics.py", "Classification metrics", "🧮", "Learn"),
    Page("auc", "pages/7_AUC_and_GAUC.py", "AUC and GAUC", "⚖️", "Learn"),
    Page("logloss", "pages/8_LogLoss.py", "LogLoss", "🎲", "Learn"),
    Page("examples", "pages/9_Worked_examples.py", "Worked examples", "📚", "Learn"),
    Page("which_metric", "pages/21_Which_metric_when.py", "Which metric when", "🧭", "Learn"),
    Page("ab", "pages/11_A_vs_B.py", "A vs B: what one move does", "🔀", "Labs"),
    Page("sensitivity", "pages/12_Sensitivity_explorer.py", "Sensitivity explorer", "🎚️", "Labs"),
    Page("random", "pages/13_Random_baselines.py", "Random and perfect baselines", "🎰", "Labs"),
    Page("sampled", "pages/14_Sampled_negatives.py", "Sampled negatives: a pitfall", "🧪", "Labs"),
    Page("lens", "pages/16_Library_lens.py", "Why libraries disagree", "🔭", "Labs"),
    Page("your_data", "pages/17_Your_data.py", "Your data", "🗂️", "Your data"),
    Page("compare", "pages/18_Compare_two_models.py", "Compare two models", "📊", "Your data"),
)

TOPIC_PAGES = {p.topic: p.path for p in PAGES}
BY_TOPIC = {p.topic: p for p in PAGES}


def grouped() -> list[tuple[str, list[Page]]]:
    """The pages of each group, in the order of ``GROUPS``, leaving out empty groups."""
    return [(group, [p for p in PAGES if p.group == group]) for group in GROUPS
            if any(p.group == group for p in PAGES)]
