"""The teaching logic: practice questions and their data, the named mistakes a wrong number can match,
the challenges and the worked solutions, shared by practice mode, the live class and the judge.

May import: :mod:`metrics`, numpy and pandas; never Streamlit, and no sentence of its own (those live in
:mod:`content`).
"""
