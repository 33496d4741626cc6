"""Strings for a renderer: KaTeX formulas with the reader's numbers, and escaping of typed text for Markdown, KaTeX and Plotly. No Streamlit."""
