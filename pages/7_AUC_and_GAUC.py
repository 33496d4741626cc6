"""AUC and GAUC: how often a positive is scored above a negative, pooled or within each user."""

import math

import pandas as pd
import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import auc as words
from metrics import classification_metrics as cls
from metrics.registry import BY_KEY
from ui.figures import charts
from content import text
from ui.markup import formulas
from ui.input import tables
from ui.widgets import chart, choice, show_table, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor



def score_columns() -> dict:
    return {
        "user": st.column_config.TextColumn(_(words.USER)),
        "label": st.column_config.NumberColumn(_(words.LABEL), help=_(words.LABEL_HELP)),
        "score": st.column_config.NumberColumn(_(words.SCORE), help=_(words.SCORE_HELP)),
    }


def pair_columns() -> dict:
    # Scores and credits come as text in the reader's notation (0,5 in Turkish); rows are whole numbers.
    return {column: (st.column_config.NumberColumn if column.endswith("_row") else st.column_config.TextColumn)(
                _(label) + (" " if column == "negative_user" else ""))  # two "user" columns, told apart
            for column, label in words.PAIR_COLUMNS.items()}


def gauc_columns() -> dict:
    columns = {column: (st.column_config.TextColumn if column in ("user", "skipped_because") else
                        st.column_config.NumberColumn)(_(label)) for column, label in words.GAUC_COLUMNS.items()}
    columns["auc"] = st.column_config.TextColumn("AUC")
    return {column: columns[column] for column in ("user", "impressions", "clicks", "uniform", "auc", "skipped_because")}


page(_(words.TITLE), "⚖️", _(words.INTRO))
loaded_example_banner("auc")
formula_slot = st.container()

st.subheader(_(words.SCORES))
parsed = tables.parse_numeric_rows(table_editor("scores", score_columns()),
                                   {"user": "text", "label": "label", "score": "number"}, _(words.SCORES_TABLE))
show_problems(parsed.problems)
users, labels, scores = (parsed.columns[c] for c in ("user", "label", "score"))
rows = parsed.rows

if not labels:
    with formula_slot:
        formula(BY_KEY["auc"].latex)
    st.info(_(words.NO_ROWS))
else:
    reason = words.single_class(labels[0] == 1) if cls.single_class_reason(labels) else None
    counts = cls.auc_pair_counts(labels, scores)
    latex = formulas.auc_pairs_latex(counts)
    with formula_slot:
        formula(BY_KEY["auc"].latex, latex["ties_half"])

    st.subheader(_(words.POOLED))
    if reason:
        st.info(words.add_other_label(reason), icon="ℹ️")
    else:
        metric_cards(
            {"auc": cls.roc_auc(labels, scores), "auc_strict": counts["auc_strict"]},
            group="auc", columns=2, labels={"auc_strict": _(words.STRICT_CARD)},
            help_text={"auc_strict": _(words.STRICT_HELP)},
        )
        st.markdown(words.pairs(counts))
        st.markdown(_(words.TIES))
        st.latex(latex["strict"])

        pairs = cls.auc_pairs_table(labels, scores)
        shown = pd.DataFrame({
            "positive_row": [rows[i] for i in pairs["positive"]],
            "positive_user": [users[i] for i in pairs["positive"]],
            "positive_score": [numbers.general(float(v)) for v in pairs["positive_score"]],
            "negative_row": [rows[i] for i in pairs["negative"]],
            "negative_user": [users[i] for i in pairs["negative"]],
            "negative_score": [numbers.general(float(v)) for v in pairs["negative_score"]],
            "credit": [numbers.general(float(v)) for v in pairs["credit"]],
            "why": [_(words.CREDITS[c]) for c in pairs["credit"]],
        })
        show_table(shown, column_config=pair_columns(), height=300)
        chart(charts.roc_curve(cls.roc_curve_points(labels, scores), counts["auc"]), key="auc_roc_chart")
        st.caption(_(words.ROC_CAPTION))

    st.header(_(words.GAUC_HEADER))
    table = cls.gauc_table(users, labels, scores)
    # A skipped user has clicks only (True) or none (False); the note says why in full, the table in two words.
    only_clicks = [c == n if why else None for c, n, why in zip(table["clicks"], table["impressions"],
                                                                table["skipped_because"], strict=True)]
    table["skipped_because"] = ["" if one is None else words.single_class_short(one) for one in only_clicks]
    results = {weight: cls.gauc(users, labels, scores, weight=weight) for weight in cls.GAUC_WEIGHTS}
    skipped = results["impressions"][1]
    if skipped:
        st.info(
            words.skipped(skipped) + "\n\n"
            + "\n".join(f"- **{text.markdown(u)}**: {text.markdown(words.single_class(one))}"
                        for u, one in zip(table["user"], only_clicks, strict=True) if one is not None),
            icon="ℹ️")
    if math.isnan(results["impressions"][0]):
        st.info(_(words.GAUC_UNDEFINED), icon="ℹ️")
    else:
        metric_cards({w: value for w, (value, _skipped) in results.items()}, group="gauc", columns=3,
                     labels={w: words.gauc_card(w) for w in results})
    shown_auc = [None if math.isnan(v) else numbers.number(v, 4) for v in table["auc"]]  # the reader's notation
    show_table(table.assign(auc=shown_auc), column_config=gauc_columns(), column_order=list(gauc_columns()))
    weight = choice(st.radio, _(words.WEIGHT_RADIO), cls.GAUC_WEIGHTS, "auc_gauc_weight", horizontal=True,
                    format_func=lambda w: _(words.WEIGHTS[w]))
    if not math.isnan(results[weight][0]):
        st.latex(formulas.gauc_latex(table, weight, results[weight][0]))
        chart(charts.per_user_auc(text.plotly_column(table, "user"), weight), key="auc_per_user_chart")
    st.markdown(_(words.POOLED_VS_GAUC))

pitfalls(*(_(line) for line in words.PITFALLS))
