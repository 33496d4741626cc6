"""The command line: ``python -m metrics evaluate|compare|protocol|offpolicy`` (the name users know, kept; ``python -m
receval`` is the same command), the exact metrics of whole logs and the protocol lab from a shell.

May import: :mod:`offpolicy`, :mod:`whole_logs`, :mod:`protocols` and :mod:`metrics`; never Streamlit.
"""
