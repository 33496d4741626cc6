"""What a lesson step's view shows: its numbers, formulas and figure. Its own module so that the views of
every kind (``lesson_views``, ``lesson_demos``, ``lesson_protocols``) build it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go


@dataclass
class View:
    values: dict[str, float]
    general: dict[str, str]
    substituted: dict[str, str]
    figure: go.Figure
    frames: pd.DataFrame | None = None  # demonstrate: the values each animation frame shows
    k: int | None = None
    data: pd.DataFrame | None = None    # the step's data, so every number it states can be counted by hand
    data_caption: str = ""
    left_out: str = ""                  # who the metric leaves out, and why (empty if nobody)
