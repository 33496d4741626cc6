"""The live class's HTTP routes (Starlette only, no Streamlit), mounted beside Streamlit by ``app.py``'s ``st.App``.

Each module serves one audience and exposes ``ROUTES``; add a module's routes to :data:`ROUTES` here.
Paths must stay clear of Streamlit's own (``/_stcore/``, ``/media/``, ``/component/``, ``/static/``)
and of the pages' URLs (``/Live_class`` ...): ``st.App`` refuses the first, the second would shadow a page.
"""

from starlette.routing import BaseRoute

from classroom.web import student
from classroom.web.hub import Hub

# One hub per process: its store (a connection pool) opens on the first request.
HUB = Hub()
ROUTES: list[BaseRoute] = [*student.routes(HUB)]
