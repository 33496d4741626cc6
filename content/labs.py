"""Content of the what-if labs: the A vs B presets, each a one-click lesson stating the number it shows.

Every number written in a preset's text is listed in its ``shows`` (metric key, column of the A vs B
table, value); the tests load each preset and check the page shows exactly those numbers. A preset's
``title`` and ``text`` are English (marked for the catalogs); translate them with ``title_of`` and
``text_of`` where they are shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from content.i18n import N_, _

SEED = [str(i) for i in range(101, 111)]


@dataclass(frozen=True)
class Preset:
    key: str
    title: str
    text: str
    a: list
    b: list
    truth: dict
    k: int
    shows: tuple[tuple[str, str, float], ...]

    @property
    def shown_title(self) -> str:
        """The title in the reader's language."""
        return _(self.title)

    @property
    def shown_text(self) -> str:
        """The text in the reader's language."""
        return _(self.text)


def _order(*items: int) -> list[str]:
    return [str(i) for i in items]


# TRANSLATORS: the numbers in the preset texts are fixed values of the preset: write them with your
# language's decimal mark (Turkish 0,2263).
PRESETS: tuple[Preset, ...] = (
    Preset(
        "top_matters_most", N_("Rank 1 → 2 costs more than 9 → 10"),
        N_("Two relevant items, **101** at rank 1 and **109** at rank 9. B moves 101 down one place, to rank 2: "
           "**NDCG@10 falls by 0.2263** (0.7977 → 0.5714). Moving 109 down one place instead, from 9 to 10, "
           "costs only **0.0073**: the discount 1/log₂(i+1) is steep at the top and flat at the bottom. "
           "Try it: *Reset B to A*, pick 109 and press *Move down*."),
        SEED, _order(102, 101, 103, 104, 105, 106, 107, 108, 109, 110), {"101": 1, "109": 1}, 10,
        (("ndcg_binary_at_k", "A", 0.7977), ("ndcg_binary_at_k", "B", 0.5714), ("ndcg_binary_at_k", "difference", -0.2263)),
    ),
    Preset(
        "precision_ignores_order", N_("P@K does not see order inside the top K"),
        N_("B reverses the top 5 of the NumPy tutorial's list, so the hits 101 and 104 go from ranks 1 and 4 to ranks 5 and 2. "
           "**Precision@5 stays 0.4000**, while AP@5 falls from 0.5000 to **0.3000** and NDCG@5 from 0.6714 to **0.4776**."),
        SEED, _order(105, 104, 103, 102, 101, 106, 107, 108, 109, 110), {"101": 1, "104": 1, "107": 1}, 5,
        (("precision_at_k", "A", 0.4), ("precision_at_k", "B", 0.4), ("ap_at_k", "B", 0.3), ("ndcg_binary_at_k", "B", 0.4776)),
    ),
    Preset(
        "rr_first_hit_only", N_("RR ignores every hit after the first"),
        N_("B keeps 101 first and pulls the two later hits, 104 and 107, up to ranks 2 and 3. "
           "**RR stays 1.0000**: it only looks at the first hit. AP@10 rises from 0.6429 to **1.0000** "
           "and NDCG@10 from 0.8278 to **1.0000**."),
        SEED, _order(101, 104, 107, 102, 103, 105, 106, 108, 109, 110), {"101": 1, "104": 1, "107": 1}, 10,
        (("rr", "A", 1.0), ("rr", "B", 1.0), ("ap_at_k", "B", 1.0), ("ndcg_binary_at_k", "B", 1.0)),
    ),
    Preset(
        "ap_rewards_early_hits", N_("AP rewards pulling a hit forward"),
        N_("At K = 5, B pulls the late hit 107 from rank 7 up to rank 2. Precision@5 rises by **0.2000** "
           "(one more hit in the window, 0.4 → 0.6), AP@5 by **0.3667** (0.5000 → 0.8667): AP also credits "
           "that the new hit sits near the top and lifts the precision of the hits below it."),
        SEED, _order(101, 107, 102, 103, 104, 105, 106, 108, 109, 110), {"101": 1, "104": 1, "107": 1}, 5,
        (("precision_at_k", "difference", 0.2), ("ap_at_k", "difference", 0.3667), ("ap_at_k", "B", 0.8667)),
    ),
    Preset(
        "never_recommended_caps", N_("A never-recommended item caps Recall"),
        N_("Item **999** is relevant but in neither list. B is the best possible order of the recommended items "
           "(all three hits first), yet **Recall@10 stays 0.7500** and **NDCG@10 stops at 0.8319**: 999 stays in "
           "Recall's denominator and in the ideal DCG. (AP@10 also stops at 0.7500: it divides by min(4, 10) = 4.)"),
        SEED, _order(101, 104, 107, 102, 103, 105, 106, 108, 109, 110), {"101": 1, "104": 1, "107": 1, "999": 1}, 10,
        (("recall_at_k", "B", 0.75), ("ndcg_binary_at_k", "B", 0.8319), ("ap_at_k", "B", 0.75)),
    ),
)

BY_KEY = {p.key: p for p in PRESETS}


def formula_words(formula: str) -> str:
    """A metric's formula (the registry's or the quiz's LaTeX) with its words in the reader's language."""
    from content import metrics

    return metrics.formula_words(formula)
