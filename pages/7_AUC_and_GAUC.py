"""AUC and GAUC: how often a positive is scored above a negative, pooled or within each user."""

import math

import pandas as pd
import streamlit as st

from metrics import classification_metrics as cls
from metrics.registry import BY_KEY
from ui import charts, formulas, tables, text
from ui.widgets import choice, show_table, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor

SCORE_COLUMNS = {
    "user": st.column_config.TextColumn("User"),
    "label": st.column_config.NumberColumn("Label", help="1 = clicked (positive), 0 = not clicked (negative)."),
    "score": st.column_config.NumberColumn("Score", help="The model's score; higher means more likely a click."),
}
WEIGHT_LABELS = {
    "impressions": "impressions (DIN paper)",
    "clicks": "clicks (RecBole)",
    "uniform": "uniform (the offline-evaluation article's plain mean)",
}
CREDIT_TEXT = {1.0: "positive higher → 1", 0.5: "tie → 0.5", 0.0: "positive lower → 0"}
PAIR_COLUMNS = {
    "positive_row": st.column_config.NumberColumn("positive (row)"),
    "positive_user": st.column_config.TextColumn("user"),
    "positive_score": st.column_config.NumberColumn("positive score", format="%g"),
    "negative_row": st.column_config.NumberColumn("negative (row)"),
    "negative_user": st.column_config.TextColumn("user "),
    "negative_score": st.column_config.NumberColumn("negative score", format="%g"),
    "credit": st.column_config.NumberColumn("credit", format="%g"),
    "why": st.column_config.TextColumn("why"),
}
GAUC_COLUMNS = {
    "user": st.column_config.TextColumn("user"),
    "impressions": st.column_config.NumberColumn("impressions"),
    "clicks": st.column_config.NumberColumn("clicks"),
    "uniform": st.column_config.NumberColumn("uniform"),
    "auc": st.column_config.NumberColumn("AUC", format="%.4f"),
    "skipped_because": st.column_config.TextColumn("skipped because"),
}


page(
    "AUC and GAUC", "⚖️",
    "AUC is the chance that a randomly picked **positive** (a click) gets a higher score than a randomly picked "
    "**negative**: 1 is a perfect ranking, 0.5 is a coin flip. GAUC computes AUC **within each user** and "
    "averages it, so it only asks whether each user's own clicks were ranked above that user's own non-clicks.",
)
loaded_example_banner("auc")
formula_slot = st.container()

st.subheader("Scores (one row per impression)")
parsed = tables.parse_numeric_rows(table_editor("scores", SCORE_COLUMNS),
                                   {"user": "text", "label": "label", "score": "number"}, "Scores table")
show_problems(parsed.problems)
users, labels, scores = (parsed.columns[c] for c in ("user", "label", "score"))
rows = parsed.rows

if not labels:
    with formula_slot:
        formula(BY_KEY["auc"].latex)
    st.info("No usable rows: add at least one row with a user, a label 0 or 1 and a numeric score.")
else:
    reason = cls.single_class_reason(labels)
    counts = cls.auc_pair_counts(labels, scores)
    latex = formulas.auc_pairs_latex(counts)
    with formula_slot:
        formula(BY_KEY["auc"].latex, latex["ties_half"])

    st.subheader("AUC over all impressions")
    if reason:
        st.info(f"{reason} Add a row with the other label to get an AUC.", icon="ℹ️")
    else:
        metric_cards(
            {"auc": cls.roc_auc(labels, scores), "AUC, ties count 0 (strict >)": counts["auc_strict"]},
            group="auc", columns=2,
            help_text={"AUC, ties count 0 (strict >)": "The offline-evaluation article's hand-written loop and cornac: a tie earns nothing."},
        )
        st.markdown(
            f"Of the {counts['positives']} × {counts['negatives']} positive/negative pairs, **{counts['higher']}** "
            f"have the positive higher (credit 1), **{counts['tied']}** are tied (credit 0.5) and "
            f"**{counts['lower']}** have the positive lower (credit 0)."
        )
        st.markdown(
            "**Ties: 0.5 or 0?** scikit-learn counts a tied pair as half a win: with equal scores the model "
            "cannot tell the two apart, so it is right half the time. The offline-evaluation article's hand-written loop "
            "(`if y_score[i] > y_score[j]`) and cornac use a strict `>`, so a tie earns nothing and AUC comes out "
            "lower whenever a positive ties a negative:"
        )
        st.latex(latex["strict"])

        pairs = cls.auc_pairs_table(labels, scores)
        shown = pd.DataFrame({
            "positive_row": [rows[i] for i in pairs["positive"]],
            "positive_user": [users[i] for i in pairs["positive"]],
            "positive_score": pairs["positive_score"],
            "negative_row": [rows[i] for i in pairs["negative"]],
            "negative_user": [users[i] for i in pairs["negative"]],
            "negative_score": pairs["negative_score"],
            "credit": pairs["credit"],
            "why": [CREDIT_TEXT[c] for c in pairs["credit"]],
        })
        show_table(shown, column_config=PAIR_COLUMNS, height=300)
        st.plotly_chart(charts.roc_curve(cls.roc_curve_points(labels, scores), counts["auc"]), key="auc_roc_chart")
        st.caption("Each step of the curve is one score threshold. A group of tied scores holding positives and "
                   "negatives moves the curve diagonally: the triangle under that diagonal is the 0.5 per tied pair.")

    st.header("GAUC: AUC within each user")
    table = cls.gauc_table(users, labels, scores)
    results = {weight: cls.gauc(users, labels, scores, weight=weight) for weight in cls.GAUC_WEIGHTS}
    skipped = results["impressions"][1]
    if skipped:
        who = table[table["skipped_because"] != ""]
        st.info(
            f"**{skipped} user(s) skipped**, because AUC needs both a click and a non-click from the same user:\n\n"
            + "\n".join(f"- **{text.markdown(u)}**: {text.markdown(why)}" for u, why in zip(who["user"], who["skipped_because"], strict=True)),
            icon="ℹ️")
    if math.isnan(results["impressions"][0]):
        st.info("GAUC is undefined: no user has both a click and a non-click, so there is no per-user AUC to "
                "average.", icon="ℹ️")
    else:
        metric_cards({f"GAUC, {WEIGHT_LABELS[w]}": value for w, (value, _) in results.items()},
                     group="gauc", columns=3)
    show_table(table, column_config=GAUC_COLUMNS, column_order=list(GAUC_COLUMNS))
    weight = choice(st.radio, "Weight of each user's AUC", cls.GAUC_WEIGHTS, "auc_gauc_weight", horizontal=True,
                    format_func=WEIGHT_LABELS.get)
    if not math.isnan(results[weight][0]):
        st.latex(formulas.gauc_latex(table, weight, results[weight][0]))
        st.plotly_chart(charts.per_user_auc(text.plotly_column(table, "user"), weight), key="auc_per_user_chart")
    st.markdown(
        "Pooled AUC also compares one user's click with **another** user's non-click, so a model that simply "
        "scores active users higher looks good. GAUC only compares impressions of the same user, which is what a "
        "personalised ranking has to get right."
    )

pitfalls(
    "**Ties.** scikit-learn's `roc_auc_score` counts a tied positive/negative pair as 0.5; the offline-evaluation article's "
    "hand-written loop and cornac use a strict `>` and count it 0. Scores rounded to a few digits create many ties.",
    "**GAUC weights.** The DIN paper (Zhou et al., KDD 2018, eq. 10) weights each user's AUC by impressions; "
    "DIN's released code takes a plain mean; RecBole weights by clicks; cornac and torchmetrics use a plain mean. "
    "Say which one you report.",
    "**The offline-evaluation article calls its per-user mean \"AUC\".** A mean of per-user AUCs is GAUC with uniform weights, not AUC.",
    "**Users with one class.** Their AUC is undefined and they are dropped almost everywhere. scikit-learn 1.9 "
    "returns nan with a warning for them, so the offline-evaluation article's `np.mean(auc_list)` becomes nan as soon as one such user "
    "appears; this page skips them and says who.",
)
