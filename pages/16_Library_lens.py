"""Why libraries disagree: the same list scored the way ten libraries score it, and the setting behind each difference."""

import pandas as pd
import streamlit as st

from content import conventions as words_of
from content import numbers
from content.i18n import _
from content.pages import lens as words
from metrics import conventions as conv
from ui.controllers import library_lens as lens
from ui.controllers import lens_presets as presets
from content import text
from ui.library_snippets import snippet
from ui.scenario import ranking_scenario
from ui.widgets import chart, bound, page, pitfalls, show_table, usable

page(_(words.TITLE), "🔭", _(words.INTRO))
formula_area = st.container()
FOUR_PLACES = ("discount", "contribution", "precision_at_i", "one_over_rank")


def four_places(table: pd.DataFrame):
    """A breakdown table with its fractional columns to 4 places in the reader's notation (read-only)."""
    shown = [c for c in FOUR_PLACES if c in table.columns]
    return table.style.format(lambda v: numbers.number(v, 4), subset=shown) if shown else table


st.markdown(_(words.CLASSICS))
presets.buttons()
case, problems, results = ranking_scenario(show_gain=False)
presets.story_while_on_screen(case)

values, ours, diffs = conv.compare(case.recommended, case.ground_truth, case.k)
mask = lens.differing_cells(values, diffs)

# The chosen library and metric live in the session, so the formula at the top is drawn first.
with_differences = list(dict.fromkeys(diffs["library"]))
st.session_state.setdefault("lens_library", with_differences[0] if with_differences else "torchmetrics")
# As bound() below will show it: a stored name that is no library is replaced there, and said.
library, _unused = usable(st.session_state["lens_library"], _(words.LIBRARY), {"options": list(conv.CONVENTIONS)},
                    st.session_state.get("_lens_library_good"))
convention = conv.CONVENTIONS[library]
metrics_of = [m for m in conv.METRICS if convention.has(m)]
differing = diffs.loc[diffs["library"] == library, "metric"].tolist()
if st.session_state.get("lens_metric_for") != library or st.session_state.get("lens_metric") not in metrics_of:
    st.session_state["lens_metric"] = differing[0] if differing else metrics_of[0]
    st.session_state["lens_metric_for"] = library
metric = st.session_state["lens_metric"]
theirs = conv.breakdown(convention, metric, case.recommended, case.ground_truth, case.k)
app_breakdown = conv.breakdown(conv.APP, metric, case.recommended, case.ground_truth, case.k)
with formula_area:
    # One line each, so the pair fits a phone as well as a projector.
    st.latex(r"\begin{aligned}&" + words.breakdown_latex(library, metric, case.k, theirs)
             + r"\\ " + text.latex(_(words.VERSUS)) + r"\ &"
             + words.breakdown_latex(_(words.THIS_APP), metric, case.k, app_breakdown) + r"\end{aligned}")
    st.caption(words.formula_caption(words_of.possessive(library), conv.METRIC_LABELS[metric]))

with results:
    st.markdown(words.results_note(lens.disagreement_summary(mask)))
# The table takes the page's width: in the results column a 1280 px screen showed only three of its five
# metric columns, and the highlighted disagreements needed a sideways scroll.
st.subheader(words.table_heading(case.k))
show_table(lens.styled(lens.display_table(ours, values), mask, case.k), hide_index=False,
           height=(len(values) + 2) * 35 + 3)
st.caption(_(words.TABLE_NOTE))
chart(lens.values_chart(ours, values, mask, case.k), key="lens_chart")

if not any(grade > 0 for grade in case.ground_truth.values()):
    st.markdown(_(words.MEAN_INTRO))
    seed_user = ([str(i) for i in range(101, 111)], {"101": 1, "104": 1, "107": 1})
    means = conv.mean_over_users([seed_user, (case.recommended, case.ground_truth)], case.k)
    alone = conv.library_values(*seed_user, case.k)
    alone_name, with_name = _(words.MAP_ALONE), _(words.MAP_WITH)  # a table to read, so its headers are words
    means_table = pd.DataFrame({alone_name: alone["average_precision"], with_name: means["average_precision"],
                                _(words.EMPTY_USERS): [words_of.describe(c, "empty_users")
                                                       for c in conv.CONVENTIONS.values()]})
    means_table.index.name = _(words.LIBRARY_COLUMN)
    show_table(means_table.style.format(lambda v: numbers.number(v, 4), subset=[alone_name, with_name]),
               hide_index=False)

st.subheader(_(words.WHY_THEY_DIFFER))
if diffs.empty:
    st.success(_(words.ALL_AGREE), icon="✅")
else:
    lines = []
    for row in diffs.itertuples():
        shown = _(words.NO_VALUE) if pd.isna(row.library_value) else numbers.number(row.library_value, 4)
        label = conv.METRIC_LABELS[row.metric].replace("K", str(case.k))
        explanation = words_of.explanation(row.causes, conv.CONVENTIONS[row.library], row.metric, case.recommended,
                                           case.ground_truth, case.k)
        lines.append(words.difference_line(row.library, label, shown, numbers.number(row.app_value, 4),
                                           text.markdown(explanation), words_of.cause(row.causes)))
    st.markdown("\n".join(lines))

st.subheader(_(words.ONE_LIBRARY))
library = bound(st.selectbox, _(words.LIBRARY), "lens_library", options=list(conv.CONVENTIONS),
                format_func=lambda n: words.library_option(n, int((diffs["library"] == n).sum()))
                if n in with_differences else n)
metric = bound(st.radio, _(words.METRIC_TO_BREAK_DOWN), "lens_metric", options=metrics_of, horizontal=True,
               format_func=lambda m: conv.METRIC_LABELS[m] + (" ≠" if m in differing else ""))

st.markdown(words.conventions_heading(words_of.possessive(library), convention.version))
this_app = _(words.THIS_APP)
rows = [{"setting": words_of.field_label(f), "library": words_of.describe(convention, f),
         "app": words_of.describe(conv.APP, f),
         "differs": "≠" if convention.describe(f) != conv.APP.describe(f) else ""}
        for f in conv.FIELD_LABELS]
rows.append({"setting": _(words.WHAT_USERS_CALL), "library": "; ".join(
    f"{conv.METRIC_LABELS[m]}: {convention.functions[m]}" for m in metrics_of), "app": "", "differs": ""})
settings_table = pd.DataFrame(rows).set_index("setting").rename(
    columns={"library": library, "app": this_app, "differs": _(words.DIFFERS)})
settings_table.index.name = _(words.SETTING)
st.table(settings_table)
if convention.notes:
    st.caption(words_of.note(convention))

st.markdown(words.step_by_step(conv.METRIC_LABELS[metric], library))
reasons = diffs.loc[(diffs["library"] == library) & (diffs["metric"] == metric), "causes"].tolist()
if reasons:
    st.warning(text.markdown(words_of.explanation(reasons[0], convention, metric, case.recommended, case.ground_truth,
                                                  case.k)), icon="🔎")
columns = st.columns(2)
for column, (who, shown_as, b) in zip(columns, ((convention, library, theirs), (conv.APP, this_app, app_breakdown)),
                                      strict=True):
    with column:
        st.latex(words.breakdown_latex(shown_as, metric, case.k, b))
        if b.reason:
            st.info(words_of.no_value_reason(who, metric, case.recommended, case.ground_truth, case.k))
        elif b.numerator_label:
            st.caption(f"{words_of.breakdown_label(b.numerator_label, case.k)} ÷ "
                       f"{words_of.breakdown_label(b.denominator_label, case.k)}")
        for title, table in b.tables.items():
            st.caption(words_of.table_title(title))
            show_table(four_places(table), column_order=lens.breakdown_columns(table))

st.markdown(words.check_it_yourself(words_of.possessive(library)))
code = snippet(library, case.recommended, case.ground_truth, case.k)
# Wrapped: a line wider than the column would make the block a scrolling region a keyboard cannot reach
# (Streamlit focuses the block around it, not the <pre> that scrolls); the copy button copies the lines as written.
st.code(code.code, language=code.language, wrap_lines=True)
st.caption(_(words.TESTED) if code.tested else words.not_run(library))

pitfalls(*[_(line) for line in words.PITFALLS])
