"""The protocol lab's Streamlit pieces: run a preset or a protocol of the reader's, show the tables, the slope
chart and the finding. The runs are cached for the whole server (one result per protocol, shared by readers:
it holds no reader's data, only MovieLens 100K's)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import protocols as words
from metrics.errors import DataError
from protocols import lab, models, movielens, presets, splits
from protocols.once import OncePerKey
from ui import handoff
from ui.controllers import your_data as yd
from ui.figures.protocol_charts import rank_slopes
from content.text import markdown
from ui.widgets import chart

SHOWN = ("ndcg@10", "hit_rate@10", "precision@10", "recall@10", "average_precision@10", "reciprocal_rank",
         "coverage@10", "popularity@10")
SAMPLED_HR = ("full_hit_rate", "sampled_hit_rate", "expected_hit_rate", "corrected_hit_rate")
SAMPLED_NDCG = ("full_ndcg", "sampled_ndcg", "expected_ndcg", "corrected_ndcg")


@st.cache_resource(show_spinner=False)
def _ml100k() -> pd.DataFrame | None:
    try:
        return movielens.installed_ml100k()
    except movielens.DataUnavailable:
        return None


def data_available() -> bool:
    return _ml100k() is not None


def ml100k() -> pd.DataFrame | None:
    """MovieLens 100K, read once per server (the Logged feedback page simulates its logs on it too)."""
    return _ml100k()


def _preset_results(key: str):
    """The preset's runs and finding, once per process (shared with the guided lesson)."""
    return presets.measured(key)


_own_results = OncePerKey(most=16)  # (protocol, models) -> Result, shared by every reader


def _own_result(protocol: lab.Protocol, names: tuple[str, ...], shown: Callable[[lab.Result], None]) -> lab.Result:
    """The protocol's run, once per server (:class:`protocols.once.OncePerKey`). ``shown`` gets each model's row
    as it comes."""
    return _own_results.get((protocol, names), lambda: lab.run(_ml100k(), protocol, list(names), on_model=shown))


def _show_so_far(area, total: int):
    """Each model's row as soon as it is trained: the first one comes in well under a second, the tuned ones
    take seconds each."""
    def show(partial: lab.Result) -> None:
        with area.container():
            st.caption(_(words.TRAINED_SO_FAR).format(done=numbers.integer(len(partial.models)),
                                                      total=numbers.integer(total)))
            st.dataframe(_table(partial, SHOWN))
    return show


def _table(result: lab.Result, columns) -> pd.DataFrame:
    table = result.table()
    kept = [c for c in columns if c in table.columns]
    shown = table[kept].rename(index=words.model_name,
                               columns=lambda c: words.COLUMN_NAMES.get(c) or _(words.EXTRA_COLUMNS[c]))
    return shown.map(lambda v: numbers.number(v, 1 if v >= 10 else 4))


def _split_sizes(split: splits.Split) -> str:
    counts = split.counts
    return _(words.SPLIT_SIZES).format(train=numbers.integer(counts["train"]), test=numbers.integer(counts["test"]),
                                       cold_users=numbers.integer(counts["cold_users"]),
                                       cold_items=numbers.integer(counts["cold_item_rows"]))


def _statement(key: str, results, finding: dict) -> str:
    if key == "sampled_vs_full":
        return words.sampled_finding(finding)
    if key == "split_leak":
        return words.split_finding(finding, results[0].split.counts["future_rows"],
                                   results[1].split.counts["future_rows"])
    if key == "tuned_baselines":
        return words.tuned_finding(finding)
    a, b = presets.PRESETS[key].models
    return words.significance_finding(a, b, "HR@10", int(results[0].models[a].per_user.shape[0]), finding["row"])


def preset(key: str) -> None:
    st.markdown(f"**{_(words.PAPER)}** {_(words.PAPERS[key])}")
    ran = st.session_state.get("protocol_ran", set())
    if key not in ran:
        st.caption(_(words.FIRST_RUN))
        if not st.button(_(words.RUN), type="primary", key=f"protocol_run_{key}"):
            return
        st.session_state["protocol_ran"] = ran | {key}
        st.rerun()  # draw the results without the button that asked for them
    with st.spinner(_(words.RUNNING)):
        results, finding = _preset_results(key)
    st.info(f"**{_(words.NOW)}** {_statement(key, results, finding)}", icon="🔎")
    labels = tuple(_(label) for label in words.PROTOCOL_LABELS[key])
    if key in ("split_leak", "tuned_baselines"):
        chart(rank_slopes(finding["ranks_before"], finding["ranks_after"], labels, "NDCG@10"),
                        key="protocol_slopes")
    elif key == "sampled_vs_full":
        chart(rank_slopes(presets.places(finding["full"]), presets.places(finding["sampled"]), labels,
                                    "HR@10"), key="protocol_slopes")
    if results[0] is results[1]:  # one protocol, read two ways
        result = results[0]
        st.markdown(f"**{_(words.SPLIT_NAMES[result.protocol.split])}** — {_split_sizes(result.split)}")
        for columns in ((SAMPLED_HR, SAMPLED_NDCG) if key == "sampled_vs_full" else (SHOWN,)):
            st.dataframe(_table(result, columns))
    else:
        for label, result in zip(labels, results):
            st.markdown(f"**{label}** — {_split_sizes(result.split)}")
            st.dataframe(_table(result, SHOWN))
    if key == "significant_but_small":
        st.dataframe(finding["comparison"].rename(columns=str).map(lambda v: numbers.number(v, 4)))
    st.caption(_(words.TABLE_CAPTION))
    open_elsewhere(list(zip(results, labels)) if results[0] is not results[1] else [(results[0], "")], key)


def _labels(names: dict) -> dict:
    """Each option's label in this run's language (see the page: a dict survives formatting outside the run)."""
    return {key: _(label) for key, label in names.items()}


def own_protocol() -> None:
    with st.form("protocol_own"):
        left, right = st.columns(2)
        split = left.selectbox(_(words.SPLIT), splits.SPLITS, format_func=_labels(words.SPLIT_NAMES).get)
        shares = {share: numbers.percent(share) for share in (0.1, 0.2, 0.3, 0.5)}
        share = left.select_slider(_(words.TEST_SHARE), list(shares), value=0.2, format_func=shares.get)
        kind = right.selectbox(_(words.CANDIDATES), lab.CANDIDATES, format_func=_labels(words.CANDIDATE_NAMES).get)
        negatives = right.select_slider(_(words.NEGATIVES), [10, 50, 100, 500, 1000], value=100)
        names = st.multiselect(_(words.MODELS), list(models.MODELS), default=list(presets.MODELS),
                               format_func=_labels(words.MODEL_NAMES).get)
        tuned = st.checkbox(_(words.TUNED))
        submitted = st.form_submit_button(_(words.RUN_OWN), type="primary")
    if submitted:
        candidates = "full" if kind == "full" else f"{kind}:{negatives}"
        st.session_state["protocol_own_choice"] = (lab.Protocol(split=split, test_fraction=share, candidates=candidates,
                                                         tuned=tuned), tuple(names or presets.MODELS))
    chosen = st.session_state.get("protocol_own_choice")
    if not chosen:
        return
    protocol, names = chosen
    so_far = st.empty()
    try:
        with st.spinner(_(words.RUNNING)):
            result = _own_result(protocol, names, _show_so_far(so_far, len(names)))
    except DataError as error:
        st.error(markdown(str(error)))
        return
    so_far.empty()
    st.markdown(_split_sizes(result.split))
    for columns in (SHOWN, SAMPLED_HR, SAMPLED_NDCG):
        if columns[0] in result.table().columns:
            st.dataframe(_table(result, columns))
    st.caption(_(words.TABLE_CAPTION))
    for name, model_result in result.models.items():
        st.download_button(_(words.DOWNLOAD).format(model=words.model_name(name)),
                           model_result.recommendations.to_csv(index=False), file_name=f"{name}_recommendations.csv",
                           mime="text/csv", key=f"protocol_download_{name}")
    st.download_button(_(words.DOWNLOAD_TRUTH), result.split.test[["user", "item"]].to_csv(index=False),
                       file_name="test_ground_truth.csv", mime="text/csv", key="protocol_download_truth")
    open_elsewhere([(result, "")], "own_" + "_".join(names))


def _truth(result: lab.Result) -> pd.DataFrame:
    return result.split.test[["user", "item"]].drop_duplicates().reset_index(drop=True)


def open_elsewhere(results: list[tuple[lab.Result, str]], scope: str) -> None:
    """Hand one model's log to Your data, or two models' to Compare, and go there: the recommendations are the
    model's top K of the full catalogue for every test user, the ground truth the split's test set. With two
    protocols (``results``: each with its label), the reader picks whose logs. ``scope`` keys the widgets (a
    preset's models are not another's)."""
    st.subheader(_(words.OPEN_ELSEWHERE))
    st.caption(_(words.OPEN_HELP))
    if len(results) > 1:
        labels = {number: label for number, (_result, label) in enumerate(results)}
        chosen = st.radio(_(words.OPEN_PROTOCOL), list(labels), format_func=labels.get, horizontal=True,
                          key=f"protocol_open_protocol_{scope}")
        result = results[chosen][0]
    else:
        result = results[0][0]
    names = {name: words.model_name(name) for name in result.models}
    origin = (result.protocol.split, result.protocol.tuned)
    left, right = st.columns([2, 3], vertical_alignment="bottom")
    with left:
        model = st.selectbox(_(words.OPEN_MODEL), list(names), format_func=names.get, key=f"protocol_open_model_{scope}")
        if st.button(_(words.OPEN_YOUR_DATA), key=f"protocol_open_your_data_{scope}", width="stretch"):
            handoff.open_in_your_data(yd.Log(result.models[model].recommendations, _truth(result),
                                             ("lab", model, *origin)))
    with right:
        cells = st.columns(2)
        a = cells[0].selectbox(_(words.MODEL_A), list(names), format_func=names.get, key=f"protocol_compare_a_{scope}")
        b = cells[1].selectbox(_(words.MODEL_B), list(names), index=min(1, len(names) - 1), format_func=names.get,
                               key=f"protocol_compare_b_{scope}")
        if st.button(_(words.OPEN_COMPARE), key=f"protocol_open_compare_{scope}", width="stretch", disabled=a == b,
                     help=_(words.SAME_MODEL) if a == b else None):
            handoff.open_in_compare(handoff.Pair(result.models[a].recommendations, result.models[b].recommendations,
                                                 _truth(result), ("lab", a, b, *origin)))
