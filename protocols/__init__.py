"""The protocol lab's engine: real interaction logs, splits, small real models and the ways of scoring them.

Pure numpy/pandas/scipy (``implicit`` for the matrix factorisation); never imports Streamlit. The
metrics themselves are the app's own (:mod:`whole_logs.batch`): this package decides *what* is scored
(which interactions are held out, which items compete), which is where offline evaluation lies.

May import: :mod:`whole_logs` and :mod:`metrics`, numpy, pandas, scipy and ``implicit``; never Streamlit.
"""
