"""The metric library: every metric of the two source documents (the NumPy tutorial and the offline-evaluation
article), the registry of their labels, formulas and ranges, curves over every K, the conventions of ten
libraries, and the arithmetic of the what-if labs.

May import: numpy, pandas and scipy; no other package of this project, and never Streamlit. (Its
``__main__`` is the command line's old name, ``python -m metrics``, and only hands over to :mod:`receval`.)
"""
