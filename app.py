"""RecEval Lab home: the playground where every ranking metric follows each edit.

Also the server's entry: ``streamlit run app.py`` finds ``app = st.App(...)`` below and imports this
file as a module to serve it (Streamlit, its pages/ and the live class's HTTP routes); Streamlit then
runs this same file as ``__main__`` for each visit to the home page, which draws the playground.
"""

import streamlit as st

if __name__ != "__main__":  # imported by `streamlit run` (uvicorn): build the server, draw nothing
    from starlette.middleware import Middleware

    from classroom.web import MIDDLEWARE, ROUTES
    from ui.document_language import DocumentLanguage

    app = st.App("app.py", routes=ROUTES, middleware=[*MIDDLEWARE, Middleware(DocumentLanguage)])
else:
    from content.i18n import _
    from content.pages import home
    from metrics import registry
    from metrics.ndcg import ndcg_tables
    from ui import shared_figures
    from ui.markup import formulas
    from ui.question_editor import question_editor
    from ui.scenario import ranking_scenario
    from ui.widgets import chart, formula, loaded_example_banner, metric_cards, page, pitfalls

    page(_(home.TITLE), "🎯", _(home.IDEA))
    loaded_example_banner("home")
    # Eight cards in four rows: a little less air in each, so that after an edit that changes every row (K)
    # the last row's change figure is still on a 1280x720 screen.
    st.html("<style>.st-key-home_cards [data-testid=stMetric] {padding-top: 0.2rem; padding-bottom: 0.2rem}"
            ".st-key-home_cards [data-testid=stMetricValue] {font-size: 1.6rem}"
            ".st-key-home_cards [data-testid=stVerticalBlock] {gap: 0.25rem}</style>")
    case, _problems, results = ranking_scenario(show_denominator=True)
    values = registry.evaluate(case)
    with results:
        st.markdown(_(home.EVERY_METRIC))
        with st.container(key="home_cards"):
            metric_cards(values, group="home", k=case.k, columns=2)
        question_editor(case, "home")

    st.markdown(_(home.GRADED_NDCG))
    formula(registry.BY_KEY["ndcg_graded_at_k"].latex,
            formulas.ndcg_latex(*ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain),
                                case.k, values["ndcg_graded_at_k"]))

    if not case.recommended:
        st.info(_(home.EMPTY_LIST))
    else:
        window_chart, curves_chart = shared_figures.ranking_charts(
            tuple(case.recommended), tuple(case.ground_truth.items()), case.k, case.gain, case.ap_denominator)
        chart(window_chart, key="home_window")
        chart(curves_chart, key="home_curves")

    pitfalls(*(_(line) for line in home.PITFALLS))
