"""A vs B: two rankings of the same items side by side; move items in B and see every metric move."""

import streamlit as st

from metrics import whatif
from metrics.registry import BY_KEY
from ui import ab_lab, lab_charts, tables
from ui.lab_content import BY_KEY as PRESETS
from ui.lab_content import PRESETS as PRESET_LIST
from ui.scenario import GROUND_TRUTH_COLUMNS, RECOMMENDED_COLUMNS
from ui.widgets import bound, formula, page, pitfalls, show_problems, show_table, table_editor

page(
    "A vs B: what one move does", "🔀",
    "List **A** is fixed; list **B** starts as a copy. Move items in B (type a new rank in the table, or "
    "use the buttons) and every metric is shown for B with its difference from A. Each preset below is a "
    "one-click lesson that states the number it shows.",
)
ab_lab.init()

st.markdown("**Presets**")
cells = st.columns(3)
for index, preset in enumerate(PRESET_LIST):
    cells[index % 3].button(preset.title, key=f"_ab_preset_{preset.key}", on_click=ab_lab.load_preset, args=(preset.key,),
                width="stretch")
loaded = PRESETS.get(st.session_state.get("ab_preset"))
if loaded:
    st.info(f"**{loaded.title}.** {loaded.text}", icon="💡")

# The move controls sit beside the cards, so a move and its effect are on one 1280x720 screen.
cards_area, controls_area = st.columns([2, 1], gap="medium")
formula_area = st.container()
chart_area, b_area = st.columns([5, 3])
with b_area:
    st.markdown("**List B**: type a new rank")
    parsed = tables.parse_recommended(table_editor("ab_b", RECOMMENDED_COLUMNS, reorder=tables.reorder_by_rank))
    st.markdown("**Relevant items** (grades, for A and B)")
    truth = tables.parse_ground_truth(table_editor(ab_lab.TRUTH, GROUND_TRUTH_COLUMNS, max_rows=8))
b = parsed.columns["recommended"]
with controls_area:
    st.markdown("**…or pick an item of B and move it**")
    ab_lab.move_controls(b)
    bound(st.slider, "K (cut-off)", "ab_k", min_value=1, max_value=max(20, len(st.session_state["ab_a"]), len(b)))
    st.button("↺ Reset B to A", on_click=ab_lab.reset_b, key="_ab_reset", width="stretch")
    st.button("⤵ From the playground", on_click=ab_lab.take_from_playground, key="_ab_take", width="stretch",
              help="Take list A, the relevant items and K from the playground's scenario; B becomes a copy of A.")
show_problems(parsed.problems + truth.problems)

a = ab_lab.case_a(truth.columns["ground_truth"])
comparison = whatif.compare_rankings(a, b)
ndcg = comparison.set_index("key").loc["ndcg_binary_at_k"]
with formula_area:
    formula(r"\Delta=\mathrm{metric}(B)-\mathrm{metric}(A)",
            rf"\Delta_{{\mathrm{{NDCG@{a.k}}}}}={ndcg['B']:.4f}-{ndcg['A']:.4f}={ndcg['difference']:+.4f}")

with chart_area:
    st.plotly_chart(lab_charts.rank_arrows(whatif.rank_changes(a.recommended, b, a.binary_truth)), key="ab_arrows")
    st.caption(ab_lab.truth_caption(a.ground_truth) + " List A (fixed) is the left column, B the right one.")

with cards_area:
    st.markdown("**Every metric for B, and its difference from A**")
    ab_lab.difference_cards(comparison, a.k, columns=3)
shown = comparison.assign(metric=[BY_KEY[key].display_label(a.k if BY_KEY[key].needs_k else None)
                                  for key in comparison["key"]])
show_table(shown[["metric", "A", "B", "difference"]].rename(columns={"difference": "B − A"}),
           column_config={c: st.column_config.NumberColumn(format="%.4f") for c in ("A", "B", "B − A")})


pitfalls(
    "A difference of 0 does not mean the lists are equally good: P@K, R@K and HR@K cannot see order inside "
    "the top K, and RR cannot see anything after the first hit.",
    "NDCG's discount is steep at the top: a swap among the first ranks moves it far more than the same swap lower down.",
    "Items of B that are not in A are scored as in any list: a relevant one can only help B.",
)
