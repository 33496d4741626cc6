"""The live class's HTTP routes (Starlette only, no Streamlit), mounted beside Streamlit by ``app.py``'s ``st.App``.

Each module serves one audience and exposes its routes; add a module's routes to :data:`ROUTES` here.
Paths must stay clear of Streamlit's own (``/_stcore/``, ``/media/``, ``/component/``, ``/static/``)
and of the pages' URLs (``/Live_class`` ...): ``st.App`` refuses the first, the second would shadow a page.
"""

from functools import cache

from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from classroom.teachers import TeacherDevices
from classroom.web import homework, student, teacher
from classroom.web.hub import Hub

# One hub per process: its store (a connection pool) opens on the first request.
HUB = Hub()


@cache
def _teachers() -> TeacherDevices:
    """The teachers' devices, on the hub's database (opened on the first claim)."""
    return TeacherDevices(HUB.store.engine)


ROUTES: list[BaseRoute] = [*student.routes(HUB), *homework.routes(HUB), *teacher.routes(_teachers)]
MIDDLEWARE: list[Middleware] = teacher.middleware()
"""The teacher's device cookie on every page: how a reload, a new window or a restart finds the console."""
