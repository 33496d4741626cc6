"""Words of the Your data page: pages/17_Your_data.py arranges them (traps and errors: content/your_data.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext

TITLE = N_("Your data")
THE_LOG = N_("The log")
WHERE_FROM = N_("Where the log comes from")
SYNTHETIC = "Synthetic log"  # the source's key: the page tests it
LAB = "From the protocol lab"  # the source's key, offered while the log shown is one the protocol lab handed over
SOURCES = {SYNTHETIC: N_("Synthetic log"), "Upload files": N_("Upload files"), LAB: N_("From the protocol lab")}
HANDED = N_("The protocol lab handed this log over, and this page evaluates it. To evaluate another log, choose "
             "another source above.")
USERS = N_("Users")
LIST_LENGTH = N_("List length")
RELEVANT_PER_USER = N_("Relevant per user")
MODEL_QUALITY = N_("Model quality")
MODEL_QUALITY_HELP = N_("0 ranks at random; 1 puts most relevant items, best graded first, on top.")
RANDOM_SEED = N_("Random seed")
GENERATE = N_("Generate and evaluate")
GENERATING = N_("Generating the log…")
RECS_FILE = N_("Recommendations file")
TRUTH_FILE = N_("Ground-truth file")
ITS_FORMAT = N_("Its format")
FORMATS = {"auto": N_("detect"), "csv": "CSV", "parquet": "Parquet", "trec": "TREC"}
KEEP_BEST = N_("Keep the best-ranked copy of an item recommended twice to a user")
KEEP_BEST_HELP = N_("Off: such a log is refused, since the item would count twice as a hit. On: each repeated "
                    "(user, item) pair keeps its best-ranked row and the others are left out.")
READ = N_("Read and evaluate the files")
READING = N_("Reading and checking the files…")
METRICS = N_("Metrics")
K_VALUES = N_("K values")
NDCG_GAIN = N_("NDCG gain")
AP_DENOMINATOR = N_("AP denominator")
GAINS = {"linear": N_("linear"), "exponential": N_("exponential")}
DENOMINATORS = {"min": "min(|Rel|, K)", "relevant": "|Rel|", "hits": N_("hits")}
TRAP_SCAN = N_("Trap scan")
NO_TRAP = N_("No trap in this log.")
SPREAD = N_("Spread over users")
K_FOR_HISTOGRAMS = N_("K for the histograms")
MEAN_AGAINST_K = N_("Mean against K")
WORST_USERS = N_("Worst users")
RANK_BY = N_("Rank users by")
USER_TO_EXPLAIN = N_("User to explain")
OPEN_USER = N_("Open this user in the scenario")
DOWNLOAD = N_("Download the per-user results (CSV)")
TEACHING_PAGES = {"app.py": N_("Playground"), "pages/2_Precision_Recall_HR_F1.py": N_("Precision, Recall, HR, F1"),
                  "pages/3_AP_and_MAP.py": N_("AP and MAP"), "pages/4_RR_and_MRR.py": N_("RR and MRR"),
                  "pages/5_NDCG.py": "NDCG"}
NO_CUT_OFF = N_("{metric} (no cut-off)")
COLUMNS = {"metric": N_("metric"), "users": N_("users"), "meaning": N_("meaning"), "trap": N_("trap"),
           "rows": N_("rows"), "user": N_("user")}
REASONS = {
    "evaluated": N_("users with ground truth, in the means"),
    "no_recommendations": N_("ground truth but no recommendations: scored 0, in the means"),
    "no_relevant": N_("ground truth graded 0 only: scored 0, in the means"),
    "no_ground_truth": N_("recommendations but no ground truth: left out of the means"),
}
"""What each user count of whole_logs.batch.REASONS means, keyed the same way."""
SETTING_NAMES = {"users": N_("users"), "list_length": N_("list length"), "relevant": N_("relevant"),
                 "quality": N_("quality"), "seed": N_("random seed")}

# Charts
HISTOGRAMS_TITLE = N_("How the per-user values spread (dashed line = mean)")
USERS_AXIS = N_("users")
AGAINST_K_TITLE = N_("Each mean as K grows")
MEAN_AXIS = N_("mean over users")


def too_many_rows(users: int, items: int, limit: int) -> str:
    return _("{users} users × {items} items is more than the {limit} rows this page evaluates; choose fewer.").format(
        users=numbers.integer(users), items=numbers.integer(items), limit=numbers.integer(limit))


def old_results(source: str) -> str:
    return _("**Old results.** Everything below is still {source}, not the files you chose: press **Read and "
             "evaluate the files** to see yours.").format(source=source)


def not_loaded(problem: str) -> str:
    return _("**Not loaded:** {problem}  \nThe results below are still those of the previous log.").format(
        problem=problem)


def showing(source: str, recommendation_rows: int, truth_rows: int, tie_rule: str) -> str:
    recs = ngettext("{n} recommendation row", "{n} recommendation rows", recommendation_rows).format(
        n=numbers.integer(recommendation_rows))
    truth = ngettext("{n} ground-truth row", "{n} ground-truth rows", truth_rows).format(n=numbers.integer(truth_rows))
    return _("Showing {source}: {recommendations}, {truth}. {tie_rule}").format(
        source=source, recommendations=recs, truth=truth, tie_rule=tie_rule)


def evaluating(users: int) -> str:
    return ngettext("Evaluating {n} user…", "Evaluating {n} users…", users).format(n=numbers.integer(users))


def not_evaluated(problem: str) -> str:
    return _("**Not evaluated:** {problem}").format(problem=problem)


def traps_found(found: int, total: int) -> str:
    return ngettext("**{found} of {total} traps found** before any number is computed: how many users each touches, "
                    "what this page does about it, and how other libraries treat the same thing.",
                    "**{found} of {total} traps found** before any number is computed: how many users each touches, "
                    "what this page does about it, and how other libraries treat the same thing.", total).format(
        found=numbers.integer(found), total=numbers.integer(total))


def means_over(users: int) -> str:
    return ngettext("**Means over {n} user**", "**Means over {n} users**", users).format(n=numbers.integer(users))


def spread_title(label: str) -> str:
    return _("Spread of {metric} over users").format(metric=label)


def worst_caption(shown: int, label: str, users: int) -> str:
    return ngettext("The {shown} lowest {metric} of {users} user (ties: the user listed first). All columns of every "
                    "user are in the download below.",
                    "The {shown} lowest {metric} of {users} users (ties: the user listed first). All columns of every "
                    "user are in the download below.", users).format(
        shown=numbers.integer(shown), metric=label, users=numbers.integer(users))


def opened(user: str, k: int) -> str:
    return _("User **{user}** is now the shared scenario (list, ground truth, K = {k}): every teaching page explains "
             "this user.").format(user=user, k=numbers.integer(k))


def trap_note(label: str, users: int, rows: int, app: str, libraries: str) -> str:
    users_text = ngettext("{n} user", "{n} users", users).format(n=numbers.integer(users))
    rows_text = ngettext("{n} row", "{n} rows", rows).format(n=numbers.integer(rows))
    return _("**{trap}**: {users}, {rows}. *Here:* {app} *Elsewhere:* {libraries}").format(
        trap=label, users=users_text, rows=rows_text, app=app, libraries=libraries)


def synthetic_source(settings: dict) -> str:
    described = _(", ").join(_("{name} {value}").format(name=_(SETTING_NAMES.get(name, name)),
                                                        value=numbers.general(value)) for name, value in settings.items())
    return _("a synthetic log ({settings})").format(settings=described)


def files_source(recommendations: str, truth: str, dropped: int) -> str:
    if not dropped:
        return _("files “{recommendations}” and “{truth}”").format(recommendations=recommendations, truth=truth)
    return ngettext("files “{recommendations}” and “{truth}” ({n} repeated recommendation row left out: each item "
                    "counted once per user, at its best rank)",
                    "files “{recommendations}” and “{truth}” ({n} repeated recommendation rows left out: each item "
                    "counted once per user, at its best rank)", dropped).format(
        recommendations=recommendations, truth=truth, n=numbers.integer(dropped))


def k_column(k: int) -> str:
    return _("K = {k}").format(k=numbers.integer(k))


def k_marker(k: int) -> str:
    return _("K = {k}").format(k=numbers.integer(k))


def mean_of(label: str, value: str) -> str:
    return _("{metric}<br>mean {value}").format(metric=label, value=value)
