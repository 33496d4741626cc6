"""What draws the pages, on Streamlit: the page frame and widgets, the page controllers, the Plotly figure
builders (``figures/``, no Streamlit), formulas with numbers (``markup/``) and typed input (``input/``).

May import: every package below it (:mod:`classroom`, :mod:`kata`, :mod:`protocols`, :mod:`content`,
:mod:`teaching`, :mod:`whole_logs`, :mod:`metrics`); only ``app.py``, ``pages/`` and :mod:`deploy` import it.
"""
