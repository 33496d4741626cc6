"""The shared scenario: the tables every page edits, kept in the session across page switches."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.seed_examples import Example
from ui.input import tables

from ui.navigation import TOPIC_PAGES  # noqa: E402  (re-exported for the pages and tests)


def recommended_table(items) -> pd.DataFrame:
    """Ranks are kept as text, like grades, so whatever is typed in the Rank column stays visible."""
    return pd.DataFrame({"rank": [str(r) for r in range(1, len(items) + 1)], "item": [str(i) for i in items]},
                        dtype=object)


def ground_truth_table(grades: dict) -> pd.DataFrame:
    """Grades are kept as text so that whatever the user types stays visible, even "high"."""
    return pd.DataFrame({"item": [str(i) for i in grades], "grade": [f"{g:g}" for g in grades.values()]}, dtype=object)


def scores_table(user_ids, y_true, y_score) -> pd.DataFrame:
    return pd.DataFrame({"user": [str(u) for u in user_ids], "label": list(y_true), "score": list(y_score)})


def _defaults() -> dict:
    """The first seed document's example: 101..110, relevant {101, 104, 107}, K = 10."""
    return {
        "recommended": recommended_table(range(101, 111)),
        "ground_truth": ground_truth_table({101: 1, 104: 1, 107: 1}),
        "k": 10,
        "gain": "linear",
        "ap_denominator": "min",
        "users": pd.DataFrame({
            "user": ["alice", "bob", "carol"],
            "recommended": ["101, 102, 103, 104, 105", "201, 202, 203, 204, 205", "301, 302, 303, 304, 305"],
            "relevant": ["101, 104", "203", "399"],
        }),
        "ratings": pd.DataFrame({"prediction": [3.5, 4.0, 2.0, 5.0, 3.0], "actual": [4.0, 4.0, 1.0, 5.0, 5.0]}),
        "rating_demo": {"noise": 0.5, "outlier_share": 0.05, "seed": 42},
        "labels": pd.DataFrame({"label": [0, 1, 1, 0, 1, 1], "predicted": [0, 1, 0, 1, 1, 1]}),
        "scores": scores_table(["user1"] * 4 + ["user2"] * 4 + ["user3"] * 2, [1, 1, 0, 0, 1, 0, 1, 0, 1, 1],
                               [0.9, 0.5, 0.5, 0.4, 0.7, 0.8, 0.3, 0.2, 0.6, 0.4]),
        "probabilities": pd.DataFrame({"label": [1, 1, 0], "probability": [0.8, 0.6, 0.3]}),
        "ndcg_scores": pd.DataFrame({"item": list("ABCDE"), "true_relevance": [3, 2, 3, 0, 1],
                                     "score": [3.0, 2.0, 1.0, 0.0, 3.0]}),
        "loaded_example": None,
    }


def init_state() -> None:
    """Give every scenario table its default once per session; every page calls this first.

    The defaults (a dozen DataFrames, ~2 ms) are built only when one is missing, not on every rerun.
    """
    if all(name in st.session_state for name in _DEFAULT_NAMES):
        return
    for name, value in _defaults().items():
        st.session_state.setdefault(name, value)


_DEFAULT_NAMES = tuple(_defaults())


def reset_editor(name: str) -> None:
    """Make the editor of a table show the stored table afresh (after a preset replaced it)."""
    st.session_state[f"{name}_version"] = st.session_state.get(f"{name}_version", 0) + 1


def _put(name: str, table) -> None:
    st.session_state[name] = table
    reset_editor(name)


def load_example(example: Example) -> str:
    """Load a seed example into the scenario; returns the page path that teaches it."""
    data = example.data
    kind = data["kind"]
    if kind == "ranking":
        _put("recommended", recommended_table(data["recommended"]))
        _put("ground_truth", ground_truth_table(data["ground_truth"]))
        st.session_state["k"] = data["k"]
        st.session_state["gain"] = data["gain"]
        st.session_state["ap_denominator"] = "min"  # the seed's, which the example's values use
    elif kind == "rating_demo":
        st.session_state["rating_demo"] = {k: data[k] for k in ("noise", "outlier_share", "seed")}
    elif kind == "labels":
        _put("labels", pd.DataFrame({"label": data["y_true"], "predicted": data["y_pred"]}))
    elif kind == "scores":
        _put("scores", scores_table(data["user_ids"], data["y_true"], data["y_score"]))
    elif kind == "probabilities":
        _put("probabilities", pd.DataFrame({"label": data["y_true"], "probability": data["y_prob"]}))
    elif kind == "ndcg_scores":
        n = len(data["y_true"])
        _put("ndcg_scores", pd.DataFrame({"item": [chr(ord("A") + i) for i in range(n)],
                                          "true_relevance": data["y_true"], "score": data["y_score"]}))
    else:
        raise ValueError(f"unknown example data kind {kind!r}")
    st.session_state["loaded_example"] = example.key
    return TOPIC_PAGES[example.topic]


def current_table(name: str) -> pd.DataFrame:
    """The scenario table with the edits its editor has received but not yet applied in this run.

    A banner drawn above the editor needs this: the editor applies its new edits only when drawn.
    """
    key = f"{name}_editor_{st.session_state.get(f'{name}_version', 0)}"
    if key in st.session_state and f"{name}_base" in st.session_state:
        try:
            return tables.apply_edits(st.session_state[f"{name}_base"], st.session_state[key])
        except tables.RejectedEdit:
            pass
    return st.session_state[name]


def _numbers(name: str, rules: dict[str, str]) -> dict[str, list]:
    return tables.parse_numeric_rows(current_table(name), rules, name).columns


def changed_from_example(example: Example) -> bool:
    """Whether the scenario no longer holds the data that ``example`` loaded (the user edited it)."""
    data, state = example.data, st.session_state
    kind = data["kind"]
    if kind == "ranking":
        return (tables.parse_recommended(current_table("recommended")).columns["recommended"]
                != [str(i) for i in data["recommended"]]
                or tables.parse_ground_truth(current_table("ground_truth")).columns["ground_truth"]
                != {str(i): float(g) for i, g in data["ground_truth"].items()}
                or (state["k"], state["gain"], state["ap_denominator"]) != (data["k"], data["gain"], "min"))
    if kind == "rating_demo":
        return any(state["rating_demo"][field] != data[field] for field in ("noise", "outlier_share", "seed"))
    if kind == "labels":
        return _numbers("labels", {"label": "label", "predicted": "label"}) != {
            "label": list(data["y_true"]), "predicted": list(data["y_pred"])}
    if kind == "scores":
        return _numbers("scores", {"user": "text", "label": "label", "score": "number"}) != {
            "user": [str(u) for u in data["user_ids"]], "label": list(data["y_true"]), "score": list(data["y_score"])}
    if kind == "probabilities":
        return _numbers("probabilities", {"label": "label", "probability": "probability"}) != {
            "label": list(data["y_true"]), "probability": list(data["y_prob"])}
    if kind == "ndcg_scores":
        shown = _numbers("ndcg_scores", {"true_relevance": "grade", "score": "number"})
        return shown != {"true_relevance": list(data["y_true"]), "score": list(data["y_score"])}
    raise ValueError(f"unknown example data kind {kind!r}")
