"""Which metric when: the closing page of a demo, one question a team asks per row (ui.which_metric_content)."""

import streamlit as st

from content.lessons import BY_KEY as LESSONS
from metrics.registry import BY_KEY
from ui.navigation import BY_TOPIC, TOPIC_PAGES
from ui.which_metric_content import ANSWERS
from ui.widgets import page, sources_link

page("Which metric when", "🧭",
     "Each question a team asks about a recommender, the metric that answers it, the pitfall that catches "
     "people out, and where this app teaches it.")

for answer in ANSWERS:
    with st.container(border=True):
        st.markdown(f"#### {answer.question}")
        st.markdown(f"**{' · '.join(BY_KEY[key].label for key in answer.metrics)}**: {answer.why}")
        st.markdown(f"⚠️ **Pitfall:** {answer.pitfall}")
        links = st.columns(2)
        with links[0]:
            target = BY_TOPIC[answer.topic]
            st.page_link(TOPIC_PAGES[answer.topic], label=f"The page: {target.label}", icon=target.icon)
        if answer.lesson is not None:
            lesson = LESSONS[answer.lesson]
            with links[1]:
                st.page_link(TOPIC_PAGES["lessons"], label=f"The lesson: {lesson.title}", icon=lesson.icon,
                             query_params={"lesson": lesson.key, "step": "1"})

sources_link()
