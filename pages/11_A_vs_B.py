"""A vs B: two rankings of the same items side by side; move items in B and see every metric move."""

import streamlit as st

from content import metrics as metric_texts
from metrics import whatif
from ui.controllers import ab_lab
from ui.figures import lab_charts
from ui.input import tables
from content.labs import BY_KEY as PRESETS
from content.labs import PRESETS as PRESET_LIST
from ui.scenario import ground_truth_columns, recommended_columns
from content import numbers
from content.i18n import _
from content.pages import ab as words
from ui.widgets import chart, bound, formula, page, pitfalls, show_problems, show_table, table_editor

page(_(words.TITLE), "🔀", _(words.IDEA))
ab_lab.init()

st.markdown(_(words.PRESETS))
cells = st.columns(3)
for index, preset in enumerate(PRESET_LIST):
    cells[index % 3].button(preset.shown_title, key=f"_ab_preset_{preset.key}", on_click=ab_lab.load_preset, args=(preset.key,),
                width="stretch")
loaded = PRESETS.get(st.session_state.get("ab_preset"))
if loaded:
    st.info(words.preset_banner(loaded.shown_title, loaded.shown_text), icon="💡")

# The move controls sit beside the cards, so a move and its effect are on one 1280x720 screen.
cards_area, controls_area = st.columns([2, 1], gap="medium")
formula_area = st.container()
chart_area, b_area = st.columns([5, 3])
with b_area:
    st.markdown(_(words.LIST_B))
    parsed = tables.parse_recommended(table_editor("ab_b", recommended_columns(), reorder=tables.reorder_by_rank))
    st.markdown(_(words.RELEVANT))
    truth = tables.parse_ground_truth(table_editor(ab_lab.TRUTH, ground_truth_columns(), max_rows=8))
b = parsed.columns["recommended"]
with controls_area:
    st.markdown(_(words.PICK_AND_MOVE))
    ab_lab.move_controls(b)
    bound(st.slider, _(words.K), "ab_k", min_value=1, max_value=max(20, len(st.session_state["ab_a"]), len(b)))
    st.button(_(words.RESET), on_click=ab_lab.reset_b, key="_ab_reset", width="stretch")
    st.button(_(words.FROM_PLAYGROUND), on_click=ab_lab.take_from_playground, key="_ab_take", width="stretch",
              help=_(words.FROM_PLAYGROUND_HELP))
show_problems(parsed.problems + truth.problems)

a = ab_lab.case_a(truth.columns["ground_truth"])
comparison = whatif.compare_rankings(a, b)
ndcg = comparison.set_index("key").loc["ndcg_binary_at_k"]
with formula_area:
    formula(rf"\Delta=\text{{{_(words.METRIC)}}}(B)-\text{{{_(words.METRIC)}}}(A)",
            rf"\Delta_{{\mathrm{{NDCG@{a.k}}}}}={numbers.latex(ndcg['B'])}-{numbers.latex(ndcg['A'])}"
            rf"={numbers.number(ndcg['difference'], 4, sign=True).replace(',', '{,}')}")

with chart_area:
    chart(lab_charts.rank_arrows(whatif.rank_changes(a.recommended, b, a.binary_truth)), key="ab_arrows")
    st.caption(ab_lab.truth_caption(a.ground_truth))

with cards_area:
    st.markdown(_(words.CARDS))
    ab_lab.difference_cards(comparison, a.k, columns=3)
shown = comparison.assign(metric=[metric_texts.label(key, a.k) for key in comparison["key"]])
table = shown[["metric", "A", "B", "difference"]].rename(columns={"difference": "B − A"})
show_table(table.style.format(lambda v: numbers.number(v, 4), subset=["A", "B", "B − A"]),
           column_config={"metric": st.column_config.Column(label=_(words.METRIC))})


pitfalls(*[_(line) for line in words.PITFALLS])
