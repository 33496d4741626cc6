"""Compare two models honestly: paired tests, intervals, effect sizes, and where the difference comes from."""

import streamlit as st

from metrics import batch, beyond_accuracy, readers, significance
from metrics.synthetic_pair import synthetic_pair
from ui import compare_charts, text
from ui.widgets import MISSING, choice, formula, page, pitfalls, show_table

page(
    "Compare two models", "📊",
    "\"Model B has NDCG@10 0.312, model A 0.305\" starts most arguments about recommenders. Whether B is "
    "really better depends on how much the difference varies from user to user. Here both models are scored "
    "on the **same users**, and each user's difference B − A is what is tested: its mean, an interval for it, "
    "a p-value corrected for the number of metrics compared, and an effect size.",
)

TRUE_DELTAS = [-0.02, -0.01, 0.0, 0.005, 0.01, 0.02, 0.03, 0.05]
SAMPLE_SIZES = [50, 100, 200, 500, 1000, 2000, 5000, 20_000]
TEST_LABELS = {"paired_t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "permutation": "sign-flip permutation"}


# cache_resource: a hit hands back the same frames (never modified: sample() copies) instead of unpickling
# 850,000 rows on every rerun.
@st.cache_resource(max_entries=8, show_spinner="Simulating 20,000 users ...")
def population(true_delta: float, seed: int):
    """The same for every visitor who picks these settings, so it is cached for everyone."""
    return synthetic_pair(true_delta, users=20_000, seed=seed)


MAX_ROWS = 2_000_000


def comparison(recs_a, recs_b, truth, k: int, test: str, confidence: float, correction: str, categories=None) -> dict:
    """Everything the page shows about two logs: both per-user tables, the test table and the
    beyond-accuracy table (with intra-list diversity when item categories are known). Raises
    ValueError for logs that cannot be compared."""
    per_user_a, per_user_b = batch.evaluate(recs_a, truth, k), batch.evaluate(recs_b, truth, k)
    return {"a": per_user_a, "b": per_user_b,
            "table": significance.compare(per_user_a, per_user_b, test=test, confidence=confidence,
                                          correction=correction),
            "beyond": beyond_accuracy.side_by_side(recs_a, recs_b, truth, k, categories=categories)}


@st.cache_data(max_entries=32, show_spinner="Comparing the two models ...")
def synthetic_comparison(true_delta: float, seed: int, users: int, k: int, test: str, confidence: float,
                         correction: str) -> dict:
    """A synthetic pair's comparison depends only on these settings: computed once for everyone, so
    looking closer at another metric or asking how many users are needed costs no new bootstrap."""
    pair = population(true_delta, seed)
    return comparison(*pair.sample(users), k, test, confidence, correction, pair.categories)


def read_upload(upload, kind: str):
    return readers.read_table(upload.getvalue(), kind, filename=upload.name, max_rows=MAX_ROWS)


source = choice(st.radio, "Data", ["A synthetic pair with a known true difference", "My own files"],
                "compare_source", horizontal=True)
if source.startswith("A synthetic"):
    left, middle, right = st.columns(3)
    true_delta = left.select_slider("True difference in NDCG@10 (B − A) over the population", TRUE_DELTAS,
                                    value=0.01, key="compare_true_delta")
    users = middle.select_slider("Users in the experiment", SAMPLE_SIZES, value=1000, key="compare_users")
    seed = right.number_input("Random seed of the population", min_value=0, max_value=2**31 - 1, value=0, step=1,
                              key="compare_seed")
    pair = population(true_delta, int(seed))
    recs_a, recs_b, truth = pair.sample(users)
    categories = pair.categories
    st.caption(f"Both models rank candidates for a population of 20,000 users; over all of them B's mean NDCG@10 "
               f"is higher by exactly {pair.true_delta:+.4f}. Your experiment sees {users:,} of them. With few users, "
               "watch a real difference hide in the noise; with many, watch a tiny one become 'significant'.")
else:
    st.caption(f"CSV or Parquet with columns user, item, rank (or score) for each model, and user, item, "
               f"relevance for the ground truth; TREC run and qrels files work too. Optionally, item, category "
               f"for intra-list diversity. Up to {MAX_ROWS:,} rows a file.")
    cells = st.columns(4)
    uploads = {
        "a": cells[0].file_uploader("Model A's recommendations", key="compare_upload_a"),
        "b": cells[1].file_uploader("Model B's recommendations", key="compare_upload_b"),
        "truth": cells[2].file_uploader("Ground truth", key="compare_upload_truth"),
    }
    category_file = cells[3].file_uploader("Item categories (optional)", key="compare_upload_categories")
    if all(uploads.values()):
        try:
            st.session_state["compare_files"] = (
                read_upload(uploads["a"], "recommendations"), read_upload(uploads["b"], "recommendations"),
                read_upload(uploads["truth"], "ground_truth"),
                None if category_file is None else beyond_accuracy.item_categories(
                    read_upload(category_file, "item_categories")))
            st.session_state["compare_files_error"] = None
        except ValueError as error:
            st.session_state["compare_files_error"] = str(error)
    if st.session_state.get("compare_files_error"):
        st.error(f"This file cannot be used: {text.markdown(st.session_state['compare_files_error'])}"
                 + (" The results below are from the last files that could be read." if "compare_files" in st.session_state else ""))
    if "compare_files" not in st.session_state:
        st.info("Upload the three files to compare the models; until then, switch to the synthetic pair to see the page at work.")
        st.stop()
    recs_a, recs_b, truth, categories = st.session_state["compare_files"]

for model, missing in significance.users_without_recommendations(recs_a, recs_b, truth).items():
    if missing:
        st.warning(f"Model {model} recommends nothing to {missing:,} of the {truth['user'].nunique():,} users in the "
                   f"ground truth: they score 0 for model {model}, which counts against it. Check that both logs "
                   "cover the same users.")

settings = st.columns(4)
k = int(settings[0].number_input("K", min_value=1, max_value=1000, value=10, step=1, key="compare_k"))
test = choice(settings[1].selectbox, "Test", list(TEST_LABELS), "compare_test", format_func=TEST_LABELS.get)
correction = choice(settings[2].selectbox, "Correction over the metrics", ["holm", "bonferroni", "none"],
                    "compare_correction")
confidence = settings[3].select_slider("Interval", [0.8, 0.9, 0.95, 0.99], value=0.95, format_func="{:.0%}".format,
                                       key="compare_confidence")

try:
    result = (synthetic_comparison(true_delta, int(seed), users, k, test, confidence, correction)
              if source.startswith("A synthetic") else comparison(recs_a, recs_b, truth, k, test, confidence, correction,
                                                                   categories))
except ValueError as error:
    st.error(f"The two logs cannot be compared: {text.markdown(str(error))}")
    st.stop()
# On screen every metric goes by the registry's label (AP@10, RR), not the batch engine's column name.
labels = {column: compare_charts.metric_label(column) for column in result["table"].index}
per_user_a, per_user_b = result["a"].rename(columns=labels), result["b"].rename(columns=labels)
table = result["table"].rename(index=labels)

focus = choice(st.selectbox, "Metric to look at closely", list(table.index), "compare_focus",
               index=list(table.index).index(labels[f"ndcg@{k}"]))
row = table.loc[focus]
differences = significance.paired_differences(per_user_a[[focus]], per_user_b[[focus]])[focus]
n, spread = len(differences), differences.std(ddof=1)
formula(
    r"\bar d = \frac{1}{n}\sum_{u=1}^{n} (b_u - a_u), \quad d_{\text{Cohen}} = \frac{\bar d}{s_d}",
    r"\begin{aligned}"
    rf"\bar d &= {row['delta']:+.4f}\quad (n = {n}) \\"
    rf"\text{{{confidence * 100:.0f}\% interval}} &= [{row['ci_low']:+.4f},\ {row['ci_high']:+.4f}] \\"
    rf"d_{{\text{{Cohen}}}} &= {row['delta']:+.4f} / {spread:.4f} = {row['effect_size']:+.2f}"
    r"\end{aligned}",
)
st.markdown(f"**{significance.verdict(focus, row, confidence=confidence)}**")

shown = table.copy()
shown.insert(0, "verdict", ["B better" if p < 0.05 and d > 0 else "A better" if p < 0.05 and d < 0 else "no clear difference"
                            for p, d in zip(table["p_adjusted"], table["delta"], strict=True)])
show_table(shown.style.format({c: "{:.4f}" for c in ("mean_a", "mean_b", "delta", "ci_low", "ci_high")}
                              | {"p_value": "{:.3g}", "p_adjusted": "{:.3g}", "effect_size": "{:+.2f}"}, na_rep=MISSING),
           hide_index=False, column_config={"mean_a": "mean A", "mean_b": "mean B", "delta": "B − A", "ci_low": "interval low",
                          "ci_high": "interval high", "p_value": "p", "p_adjusted": f"p ({correction})",
                          "effect_size": "Cohen's d"})
st.caption(f"{n:,} users compared. Interval: bootstrap percentile interval of the mean paired difference "
           f"(10,000 resamples). p: {TEST_LABELS[test]}; adjusted for the {len(table)} metrics compared "
           f"({correction}). Wins: users for whom B scores higher.")

left, right = st.columns(2)
left.plotly_chart(compare_charts.forest_plot(table), key="compare_forest")
right.plotly_chart(compare_charts.difference_histogram(differences, focus), key="compare_histogram")

st.subheader("Where the difference comes from")
left, right = st.columns(2)
left.plotly_chart(compare_charts.waterfall(
    significance.difference_by_group(per_user_a, per_user_b, focus, significance.activity_groups(truth)),
    f"{focus}: by the user's number of relevant items"), key="compare_activity")
right.plotly_chart(compare_charts.waterfall(
    significance.difference_by_group(per_user_a, per_user_b, focus, significance.popularity_groups(truth)),
    f"{focus}: by how popular the user's relevant items are"), key="compare_popularity")

st.subheader("How many users would I need?")
observed = max(round(abs(float(row["delta"])), 4), 0.001)
# Keyed by the difference on screen: other data (another metric, files instead of the synthetic pair) starts
# from its own difference, while a changed test or interval keeps what was typed.
target = st.number_input(f"Smallest difference in {focus} worth detecting", min_value=0.0001, max_value=1.0,
                         value=observed, step=0.001, format="%.4f", key=f"compare_target_{focus}_{observed:.4f}")
needed = significance.users_needed(per_user_a, per_user_b, focus, delta=float(target))
st.markdown(f"A paired t-test needs **{needed:,} users** to detect a difference of {target:.4f} in {focus} "
            f"80% of the time at the 5% level, given the spread of the per-user differences seen here "
            f"(standard deviation {spread:.4f}). This experiment has {n:,}.")

st.subheader("Beyond accuracy")
st.caption("Popularity (ARP, novelty) is counted from the ground truth: how many users find each item relevant. "
           + ("Intra-list diversity: the share of pairs of items in a user's top K from different categories "
              "(the synthetic catalogue's items each have one of 8 genres, at random)."
              if source.startswith("A synthetic") else
              "Intra-list diversity: the share of pairs of items in a user's top K from different categories."
              if categories is not None else
              "Upload item categories (columns item, category) to add intra-list diversity."))
show_table(result["beyond"].style
           .format("{:+.4f}", subset=["B - A"], na_rep=MISSING).format("{:.4f}", subset=["A", "B"], na_rep=MISSING),
           hide_index=False)

pitfalls(
    "A p-value is not the size of the difference: with 20,000 users a difference of 0.002 is 'significant' and "
    "still negligible (look at the interval and Cohen's d).",
    "Testing seven metrics at 5% each finds a 'significant' one by chance about 30% of the time: that is what "
    "the Holm and Bonferroni corrections are for.",
    "Comparing the two means with an unpaired test throws away the pairing: the spread between easy and hard "
    "users swamps the difference between the models.",
    "Most per-user differences in hit rate and precision are exactly 0: the Wilcoxon test drops them, so it "
    "answers a question about the users whose score changed.",
)
