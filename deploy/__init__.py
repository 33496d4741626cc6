"""Running the app for a class: several app processes behind nginx (``serve``), each started warm (``warm``),
and a private PostgreSQL cluster for the tests and benchmarks (``postgres``).

May import: any package of the app (it starts them); nothing in the app imports it.
"""
