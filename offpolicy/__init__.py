"""Off-policy evaluation: how good would a new recommender have been, judged only from the logs an old one left?
Simulated logs whose truth is known exactly, the classic estimators (direct method, IPS, SNIPS, doubly robust,
switch-DR, clipped IPS) with their intervals, propensity-weighted top-K metrics and the Open Bandit Dataset.

Pure numpy/pandas/scipy; never imports Streamlit. The page and the lesson that show it live above it.

May import: :mod:`protocols`, :mod:`whole_logs` and :mod:`metrics`, numpy, pandas and scipy; never Streamlit.
"""
