"""A live class kept in a database, so every app process (and a restart) sees the same class.

No Streamlit here: ``pages/19_Live_class.py`` draws it, tests and benchmarks drive it directly.
:class:`Store` works on SQLite (the embedded default) and PostgreSQL through one SQLAlchemy Core
code path.

May import: :mod:`content`, :mod:`teaching` and :mod:`metrics`, SQLAlchemy and Starlette (``web/``, the
phones' light view); never Streamlit or :mod:`ui`.
"""

from classroom.codes import ALPHABET, CODE_LENGTH
from classroom.clients import client_address
from classroom.limits import JoinThrottled
from classroom.store import AnswersClosed, ClassFull, NicknameTaken, Room, RoomLocked, RoomNotFound, Store

__all__ = ["ALPHABET", "CODE_LENGTH", "AnswersClosed", "ClassFull", "JoinThrottled", "NicknameTaken", "Room",
           "RoomLocked", "RoomNotFound", "Store", "client_address"]
