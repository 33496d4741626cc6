"""Plotly figure builders: each returns a go.Figure built from values, never imports Streamlit."""
