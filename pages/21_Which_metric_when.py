"""Which metric when: the closing page of a demo, one question a team asks per row (content.pages.which_metric)."""

import streamlit as st

from content.i18n import _
from content.lessons import BY_KEY as LESSONS
from content.pages import which_metric as words
from metrics.registry import BY_KEY
from ui.navigation import BY_TOPIC, TOPIC_PAGES
from ui.widgets import page, sources_link

page(_(words.TITLE), "🧭", _(words.INTRO))

for answer in words.ANSWERS:
    with st.container(border=True):
        st.markdown(f"#### {_(answer.question)}")
        # Metric names, page labels and lesson titles are translated by the catalogs that define them.
        st.markdown(words.answered(" · ".join(_(BY_KEY[key].label) for key in answer.metrics), _(answer.why)))
        st.markdown(words.pitfall(_(answer.pitfall)))
        links = st.columns(2)
        with links[0]:
            target = BY_TOPIC[answer.topic]
            st.page_link(TOPIC_PAGES[answer.topic], label=words.page_link(_(target.label)), icon=target.icon)
        if answer.lesson is not None:
            lesson = LESSONS[answer.lesson]
            with links[1]:
                st.page_link(TOPIC_PAGES["lessons"], label=words.lesson_link(_(lesson.title)), icon=lesson.icon,
                             query_params={"lesson": lesson.key, "step": "1"})

sources_link()
