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
    Page("rating", "pages/1_Rating_errors.py", "Rating errors", "📏", "Learn"),
    Page("topn", "pages/2_Precision_Recall_HR_F1.py", "Precision, Recall, HR and F1 @K", "🎣", "Learn"),
    Page("ap", "pages/3_AP_and_MAP.py", "AP and MAP", "📈", "Learn"),
    Page("rr", "pages/4_RR_and_MRR.py", "RR and MRR", "🥇", "Learn"),
    Page("ndcg", "pages/5_NDCG.py", "NDCG", "📐", "Learn"),
    Page("classification", "pages/6_Classification_metrics.py", "Classification metrics", "🧮", "Learn"),
    Page("auc", "pages/7_AUC_and_GAUC.py", "AUC and GAUC", "⚖️", "Learn"),
    Page("logloss", "pages/8_LogLoss.py", "LogLoss", "🎲", "Learn"),
    Page("examples", "pages/9_Worked_examples.py", "Worked examples", "📚", "Learn"),
)

TOPIC_PAGES = {p.topic: p.path for p in PAGES}


def grouped() -> list[tuple[str, list[Page]]]:
    """The pages of each group, in the order of ``GROUPS``, leaving out empty groups."""
    return [(group, [p for p in PAGES if p.group == group]) for group in GROUPS
            if any(p.group == group for p in PAGES)]
