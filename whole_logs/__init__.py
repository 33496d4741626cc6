"""The engine for whole logs: readers of CSV, Parquet and trec_eval files, the vectorised engine and its blocks,
streaming larger-than-memory logs, Spark, synthetic logs, significance tests and beyond-accuracy measures.

May import: :mod:`metrics`, numpy, pandas, pyarrow and scipy (pyspark only in ``spark``, on demand); never
Streamlit, and nothing above it.
"""
