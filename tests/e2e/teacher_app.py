"""The app as an st.App with the teacher's routes and device cookie, for the browser tests (the app's
own entry mounts the same lists)."""

from functools import cache
from pathlib import Path

import streamlit as st

from classroom.teachers import TeacherDevices
from classroom.web import teacher

ROOT = Path(__file__).resolve().parents[2]


@cache
def devices() -> TeacherDevices:
    from classroom import Store
    from ui.controllers.live_class import database_url

    return TeacherDevices(Store(database_url()).engine)


app = st.App(ROOT / "app.py", routes=teacher.routes(devices), middleware=teacher.middleware())
