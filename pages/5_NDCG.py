"""NDCG: position-discounted gains of a ranked list, divided by the best possible."""

import pandas as pd
import streamlit as st

from metrics import ndcg
from metrics import seed_examples as seeds
from metrics.registry import BY_KEY
from ui import charts, formulas, tables, text
from ui.scenario import ranking_scenario
from ui.widgets import show_table, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor

GAIN_TEXT = {"linear": "linear gain: rel", "exponential": "exponential gain: 2^rel − 1"}
DCG_COLUMNS = {
    "rank": st.column_config.NumberColumn("i", help="Rank", pinned=True),
    "item": st.column_config.TextColumn("item"),
    "relevance": st.column_config.NumberColumn("rel", format="%g", help="Relevance grade"),
    "gain": st.column_config.NumberColumn("gain", format="%g"),
    "discount": st.column_config.NumberColumn("1/log2(i+1)", format="%.4f", help="Discount of rank i"),
    "contribution": st.column_config.NumberColumn("gain × disc.", format="%.4f", help="Contribution to DCG"),
    "running_dcg": st.column_config.NumberColumn("DCG so far", format="%.4f", help="Running DCG", pinned=True),
}
SCORE_COLUMNS = {
    "item": st.column_config.TextColumn("Item"),
    "true_relevance": st.column_config.NumberColumn("True relevance", help="Grade >= 0."),
    "score": st.column_config.NumberColumn("Score", help="The model's score; higher is ranked first."),
}
TIE_COLUMNS = {
    "item": st.column_config.TextColumn("item"),
    "relevance": st.column_config.NumberColumn("relevance", format="%g"),
    "gain": st.column_config.NumberColumn("gain", format="%g"),
    "score": st.column_config.NumberColumn("score", format="%g"),
    "tie_group": st.column_config.NumberColumn("tie group"),
    "positions": st.column_config.TextColumn("positions spanned"),
    "group_size": st.column_config.NumberColumn("items in group"),
    "averaged_gain": st.column_config.NumberColumn("averaged gain", format="%.4f"),
    "summed_discount": st.column_config.NumberColumn("summed discount", format="%.4f"),
    "contribution": st.column_config.NumberColumn("contribution", format="%.4f"),
}


page(
    "NDCG", "📐",
    "NDCG asks how close your list's order is to the best possible order. Each relevant item earns a "
    "**gain** (its grade), shrunk by a **discount** 1/log2(i+1) that grows with its rank i; the sum is DCG. "
    "Dividing by the DCG of the ideal order (IDCG) puts the score between 0 and 1.",
)
loaded_example_banner("ndcg")
if st.session_state.get("loaded_example") == "ndcg_sklearn":
    st.caption("⬇️ This example is in the section *Score-based NDCG with ties* further down.")

case, _, results = ranking_scenario()
other_gain = "exponential" if case.gain == "linear" else "linear"
actual, ideal = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
graded = BY_KEY["ndcg_graded_at_k"].compute(case)
with results:
    st.markdown("**Binary vs graded, linear vs exponential gain**")
    metric_cards(
        {
            "ndcg_binary_at_k": BY_KEY["ndcg_binary_at_k"].compute(case),
            "ndcg_graded_at_k": graded,
            f"NDCG@{case.k} (graded, {other_gain} gain)": ndcg.ndcg_at_k(
                case.recommended, case.ground_truth, case.k, gain=other_gain),
        },
        group="ndcg", k=case.k, columns=1,
        help_text={"ndcg_graded_at_k": f"The grades as typed, with the selected {GAIN_TEXT[case.gain]}."},
    )
    st.caption(
        f"The graded card uses the selected **{GAIN_TEXT[case.gain]}**; the third card the other gain. Binary "
        "grades give the same NDCG under both gains, because 2^1 − 1 = 1: the binary card stands for both."
    )

st.subheader("The formula with your numbers")
formula(BY_KEY["ndcg_graded_at_k"].latex, formulas.ndcg_latex(actual, ideal, case.k, graded))

grades = sorted(set(case.ground_truth.values()))
if grades:
    show_table(
        pd.DataFrame({"grade": grades, GAIN_TEXT["linear"]: ndcg.gain_of(grades, "linear"),
                      GAIN_TEXT["exponential"]: ndcg.gain_of(grades, "exponential")}),
        width="content",
    )
    st.caption("Exponential gain makes a top grade worth far more than the next one down: 2^5 − 1 = 31 vs "
               "2^4 − 1 = 15, while linear gain gives 5 vs 4.")

st.subheader(f"DCG@{case.k} of your list next to the ideal ordering")
missing = ndcg.relevant_not_recommended(case.recommended, case.ground_truth)
if not case.recommended and not any(g > 0 for g in case.ground_truth.values()):
    st.info("Both lists are empty, so there is no DCG to draw: add items to the recommended list and give "
            "at least one item of the ground truth a grade above 0.")
else:
    left, right = st.columns(2)
    with left:
        st.markdown("**Your list**")
        if actual.empty:
            st.info("The recommended list is empty: add an item (rank and id) to give it a DCG.")
        else:
            show_table(actual, column_config=DCG_COLUMNS)
    with right:
        st.markdown("**Ideal ordering** (every graded item of the ground truth, best first)")
        if ideal.empty:
            st.info("The ground truth is empty: add a relevant item with a grade above 0.")
        else:
            show_table(ideal, column_config=DCG_COLUMNS)
    if missing:
        st.info(
            f"The ideal ordering uses **every** relevant item of the ground truth, including "
            f"{', '.join(text.quoted(i) for i in missing)}, which your list never recommends (like the NumPy tutorial's 999). "
            "Such an item raises IDCG but can never add to DCG, so even a perfect order of what you recommended "
            "stays below 1.", icon="ℹ️")
    elif any(g > 0 for g in case.ground_truth.values()):
        st.caption("The ideal ordering uses every relevant item of the ground truth, recommended or not; here "
                   "every relevant item is somewhere in your list.")
    else:
        st.info("No item of the ground truth has a grade above 0, so IDCG is 0 and NDCG is scored 0: give an "
                "item a grade above 0.")
    st.plotly_chart(charts.dcg_actual_vs_ideal(text.plotly_column(actual, "item"), text.plotly_column(ideal, "item"),
                                                   window=charts.rank_window(case.k)), key="ndcg_dcg_chart")

st.subheader("Which items form the ideal?")
metric_cards(
    {
        f"NDCG@{case.k}, ideal from the whole ground truth": graded,
        f"NDCG@{case.k}, ideal from your list only": ndcg.ndcg_ideal_from_list(
            case.recommended, case.ground_truth, case.k, gain=case.gain),
    },
    group="ndcg_ideal", columns=2,
    help_text={f"NDCG@{case.k}, ideal from your list only": "What scikit-learn, torchmetrics and Evidently "
               "report when given only the recommended items"
               + (" (with linear gain: they have no exponential gain)." if case.gain == "exponential" else ".")},
)
st.caption("trec_eval, ranx and this app build the ideal from every judged item; libraries that only see the "
           "items you pass them cannot know about a relevant item you never recommended, and score higher.")

st.header("Score-based NDCG with ties (scikit-learn's `ndcg_score`)")
st.markdown(
    "scikit-learn takes each item's true relevance and a predicted score, ranks by score, and compares with "
    "the order by true relevance. When two items have **the same score** their order is undecided: "
    "scikit-learn averages over both orders, so the tied items share the gains of the positions they span."
)
score_rows = tables.parse_numeric_rows(table_editor("ndcg_scores", SCORE_COLUMNS),
                                       {"item": "text", "true_relevance": "grade", "score": "number"}, "Scores table")
show_problems(score_rows.problems)
relevance, score, names = (score_rows.columns[c] for c in ("true_relevance", "score", "item"))
if not relevance:
    st.info("No usable rows in the scores table: add an item with a relevance ≥ 0 and a numeric score.")
else:
    n = len(relevance)
    truth = dict(enumerate(relevance))
    orders = ndcg.tie_broken_orders(relevance, score)
    averaged = ndcg.ndcg_score(relevance, score, gain=case.gain)
    # scikit-learn's ndcg_score has linear gain only: a card named after it shows its number.
    if case.gain == "linear":
        library_cards = {"Ties averaged (scikit-learn)": averaged}
    else:
        library_cards = {"Ties averaged (exponential gain)": averaged,
                         "scikit-learn ndcg_score (linear gain only)": ndcg.ndcg_score(relevance, score, gain="linear")}
    metric_cards(
        {
            **library_cards,
            "Tie broken in favour": ndcg.ndcg_at_k(orders["best"], truth, n, gain=case.gain),
            "Tie broken against": ndcg.ndcg_at_k(orders["worst"], truth, n, gain=case.gain),
            "Input order kept (ranx)": ndcg.ndcg_at_k(orders["input order"], truth, n, gain=case.gain),
        },
        group="ndcg_scores", columns=4,
        help_text={
            "Ties averaged (exponential gain)": "scikit-learn's averaging of tied items, with the selected exponential gain.",
            "scikit-learn ndcg_score (linear gain only)": "What sklearn.metrics.ndcg_score returns on this table: "
                                                          "it has no exponential gain.",
            "Tie broken in favour": "Tied items ordered most relevant first.",
            "Tie broken against": "Tied items ordered least relevant first.",
            "Input order kept (ranx)": "Tied items in the order of the table, as ranx (ndcg, or ndcg_burges for "
                                       "exponential gain) and Recommenders do.",
        },
    )
    st.caption(f"NDCG over all {n} positions with the selected {GAIN_TEXT[case.gain]}.")
    ties = ndcg.tie_groups_table(relevance, score, gain=case.gain, items=names)
    dcg = ndcg.tie_averaged_dcg(relevance, score, gain=case.gain)
    idcg = ndcg.dcg_at_k(ndcg.ideal_relevances(truth), n, gain=case.gain)
    st.latex(rf"\mathrm{{NDCG}}=\frac{{\text{{tie-averaged DCG}}}}{{\mathrm{{IDCG}}}}"
             rf"=\frac{{{dcg:.4f}}}{{{idcg:.4f}}}={averaged:.4f}")
    show_table(ties, column_config=TIE_COLUMNS,
                 column_order=list(TIE_COLUMNS))
    groups = ties[ties["group_size"] > 1].drop_duplicates("tie_group")
    for _, group in groups.iterrows():
        members = ties.loc[ties["tie_group"] == group["tie_group"]]
        st.markdown(
            f"- Items {', '.join(text.quoted(i) for i in members['item'])} tie at score {group['score']:g}, so they "
            f"span positions {group['positions']}. Each of those positions gets their averaged gain "
            f"({' + '.join(formulas.fmt(g) for g in members['gain'])})/{group['group_size']} = "
            f"{formulas.fmt(group['averaged_gain'])}, and the group adds {formulas.fmt(group['averaged_gain'])} × "
            f"{group['summed_discount']:.4f} (the summed "
            "discount) to DCG. The *contribution* column splits that among the items by their own gain."
        )
    if groups.empty:
        st.caption("No two items share a score, so every way of breaking ties gives the same NDCG.")
    else:
        st.caption("Ignoring ties means picking one order: the two tie-broken cards are the lowest and highest "
                   "NDCG any such choice can give; scikit-learn's average lies between them.")

pitfalls(
    "**Which items form the ideal.** trec_eval, ranx and this app build IDCG from every relevant item of the "
    "ground truth. scikit-learn, torchmetrics and Evidently only see the items passed in, so a relevant item "
    "never recommended disappears from the ideal: the NumPy tutorial's graded example gives "
    f"{ndcg.ndcg_ideal_from_list(seeds.RECOMMENDED, seeds.GT_GRADED, 10):.4f} there instead of "
    f"{ndcg.ndcg_at_k(seeds.RECOMMENDED, seeds.GT_GRADED, 10):.4f}. RecBole and cornac use min(|Rel|, K) binary "
    "slots; RecTools assumes K relevant slots.",
    "**Linear vs exponential gain.** The NumPy tutorial, trec_eval, scikit-learn, torchmetrics and ranx `ndcg` use "
    "gain = rel; the offline-evaluation article's formula, ranx `ndcg_burges` and Recommenders `score_type=\"exp\"` use "
    "2^rel − 1. The two agree for binary grades only. RecBole, cornac and RecTools ignore grades altogether.",
    "**Ties.** scikit-learn (default) and torchmetrics average tied items; trec_eval breaks ties by document "
    "id, descending (renaming items changes the score); ranx and Recommenders keep the input order; Evidently "
    "gives all tied items the better rank. scikit-learn's `ignore_ties=True` picks one order.",
    "**The NumPy tutorial prints NDCG@10 = 0.8290, which is wrong.** Its own example gives "
    "DCG = 1 + 1/log2(5) + 1/log2(8) = 1.7640 and IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.1309, so "
    f"NDCG@10 = {ndcg.ndcg_at_k(seeds.RECOMMENDED, seeds.GT_RANKED, 10):.4f}. Its float32 arithmetic only "
    "changes the 7th digit.",
    "NDCG with no relevant item in the ground truth is 0/0; this app, the NumPy tutorial and trec_eval score it 0.",
)
