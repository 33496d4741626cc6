"""``python -m deploy.warm [streamlit run options]``: ``streamlit run app.py`` in a process that has
already imported what the pages need and compiled the translations, so the first visitor after a
start waits for no import.

A page's first run in a fresh process spends about a second importing (pandas, scipy.special for
the t distribution, pandas' Styler and jinja2, plotly, Streamlit's emoji table, the app's own
modules) before it computes anything; a session that comes later finds them imported. Doing that
before the server listens moves the second out of the first visitor's wait (``benchmarks/
page_rerun.py --cold`` measures both). ``deploy/serve.py`` starts its apps this way; plain
``streamlit run app.py`` still works, and only its first visitor waits longer.

The protocol lab's presets train on MovieLens 100K for about 20 s of CPU in all, once per machine: a
background thread asks for them as the server starts listening, so a visitor of the lab or of its lesson
minutes later finds them ready, and one who comes meanwhile waits for the run in progress, never starts a
second one. The training itself runs in a child process at the lowest CPU priority, and its results are
kept on disk (:func:`protocols.presets.measured`): of several app processes behind nginx one trains while
the others wait and read, a later start only reads, and a live class on the same cores goes first.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("content", "metrics", "teaching", "whole_logs", "receval", "ui", "classroom", "kata", "protocols", "offpolicy")
SKIPPED = {"whole_logs.spark", "metrics.__main__", "receval.__main__", "kata.harness"}  # pyspark on demand; the sandbox's own script
LIBRARIES = ("pandas", "pandas.io.formats.style", "scipy.special", "plotly.graph_objects", "plotly.subplots",
             "pyarrow.csv", "pyarrow.parquet", "streamlit.emojis", "streamlit.material_icon_names")


def warm() -> list[str]:
    """Import the libraries and every module of the app's packages; compile every language's
    catalog. Returns the modules imported."""
    sys.path.insert(0, str(ROOT)) if str(ROOT) not in sys.path else None
    names = list(LIBRARIES)
    for package in PACKAGES:
        module = importlib.import_module(package)
        names += [info.name for info in pkgutil.walk_packages(module.__path__, f"{package}.")
                  if info.name not in SKIPPED]
    for name in names:
        importlib.import_module(name)
    from content import i18n

    for code in i18n.languages():
        i18n.translation(code)
    _draw_one_of_each_chart()
    return names


def _draw_one_of_each_chart() -> None:
    """plotly imports a trace's or a layout property's classes when a figure first uses them: one
    figure with every trace type the app draws, finished as every chart is, loads them all."""
    import plotly.graph_objects as go
    import plotly.io
    from plotly.subplots import make_subplots

    from ui.figures.charts import _layout, guide

    fig = make_subplots(rows=1, cols=2, subplot_titles=("a", "b"))
    colour = {"color": "#3b82f6"}
    for trace in (go.Bar(x=[1], y=[1], marker=colour, error_x={"array": [0.1]}),
                  go.Scatter(x=[1], y=[1], line=colour, marker=colour, error_x={"array": [0.1]}),
                  go.Histogram(x=[1], marker=colour), go.Heatmap(z=[[1]], colorbar={"title": {"text": "c"}}),
                  go.Waterfall(x=["a"], y=[1])):
        fig.add_trace(trace, row=1, col=1)
    fig.frames = [go.Frame(data=[go.Bar(x=[1], y=[2])], name="1", layout={"title": {"text": "t"}})]
    fig.update_layout(sliders=[{"steps": [{"label": "1", "method": "animate", "args": [["1"]]}]}],
                      updatemenus=[{"type": "buttons", "buttons": [{"label": "Play", "method": "animate", "args": [None]}]}])
    guide(guide(fig, x=1, text="x"), y=1, text="y")
    plotly.io.to_json(_layout(fig, "warm", "x", "y", legend_on_top=True), validate=False)  # as st.plotly_chart


def train_presets() -> threading.Thread:
    """Start getting every preset of the protocol lab (:func:`protocols.presets.measured`: read from disk, or
    trained by a niced child process) in a daemon thread."""
    from protocols import presets

    thread = threading.Thread(target=presets.measure_all, name="receval-presets", daemon=True)
    thread.start()
    return thread


def main(argv: list[str]) -> None:
    warm()
    train_presets()
    from streamlit.web import cli

    cli.main(["run", str(ROOT / "app.py"), *argv], prog_name="streamlit")


if __name__ == "__main__":
    main(sys.argv[1:])
