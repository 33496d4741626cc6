"""The Write-it-yourself problems in words: titles, statements (the starter's docstring), hints, the
mistakes a wrong value can match, and the judge's messages; keyed by the engine's keys and codes.

``kata/`` keeps its English texts for Python users and the tests; the page translates through here:
a problem by its key (``kata.PROBLEMS``), a mistake by (problem key, ``Mistake.key``), a judge's
message by its ``JudgeMessage.code`` and fields.
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

LOG_LOSS_EPS = "1e-15"  # as Python writes it: the statement is a docstring in the candidate's code

TITLES = {
    "precision_at_k": N_("Precision@K"),
    "recall_at_k": N_("Recall@K"),
    "hit_rate_at_k": N_("Hit rate@K (one user)"),
    "average_precision_at_k": N_("AP@K"),
    "reciprocal_rank": N_("Reciprocal rank"),
    "dcg_at_k": N_("DCG@K"),
    "ndcg_at_k": N_("NDCG@K (binary and graded)"),
    "auc": N_("AUC (ROC), by hand"),
    "gauc": N_("GAUC (impression-weighted)"),
    "log_loss": N_("LogLoss"),
    "rmse": N_("RMSE"),
    "mae": N_("MAE"),
    "f1_at_k": N_("F1@K"),
    "mean_average_precision_at_k": N_("MAP@K (several users)"),
    "mean_reciprocal_rank": N_("MRR (several users)"),
}

_RANKED = N_("recommended: the ranked list of item ids, best first, no repeats.\n"
             "relevant: the set of relevant item ids (some may never be recommended).\n"
             "k: the cut-off, an integer >= 1 (it may exceed len(recommended)).")

# The statements, with {ranked} for the three lines every ranked problem shares and {eps} for 1e-15.
_STATEMENTS = {
    "precision_at_k": N_("The share of the K slots that hold a relevant item.\n\n{ranked}\n\n"
                         "Divide by K even when the list is shorter than K (an empty slot is a miss).\n"
                         "Return a float in [0, 1]."),
    "recall_at_k": N_("The share of all relevant items that appear in the top K.\n\n{ranked}\n\n"
                      "Return 0.0 when relevant is empty."),
    "hit_rate_at_k": N_("1.0 if at least one relevant item is in the top K, else 0.0.\n\n{ranked}"),
    "average_precision_at_k": N_(
        "Average precision at K, as the NumPy tutorial defines it.\n\n{ranked}\n\n"
        "AP@K = (sum of precision@i over the ranks i <= K that hold a relevant item) / min(|relevant|, K).\n"
        "A relevant item never recommended still counts in |relevant|.\n"
        "Return 0.0 when relevant is empty."),
    "reciprocal_rank": N_(
        "1 / (the rank of the first relevant item), over the whole list (no cut-off).\n\n"
        "recommended: the ranked list of item ids, best first, no repeats.\n"
        "relevant: the set of relevant item ids.\n\n"
        "Ranks start at 1. Return 0.0 when no recommended item is relevant."),
    "dcg_at_k": N_(
        "Discounted cumulative gain of graded relevances given in ranked order, as the NumPy tutorial\n"
        "writes it: DCG@K = sum over i = 1..K of rel_i / log2(i + 1).\n\n"
        "relevances: a list of grades >= 0, best-ranked first (it may be shorter than k, or empty).\n"
        "k: the cut-off, an integer >= 1.\n\n"
        "The gain is linear (rel itself). Return a float; 0.0 for an empty list."),
    "ndcg_at_k": N_(
        "NDCG@K = DCG@K of the list / DCG@K of the ideal list.\n\n"
        "recommended: the ranked list of item ids, best first, no repeats.\n"
        "relevance: a dict {{item id: grade >= 0}}; an item not in it has grade 0. Binary relevance is\n"
        "  every grade 1. Some graded items may never be recommended.\n"
        "k: the cut-off, an integer >= 1.\n\n"
        "Gain is linear (the grade), the discount 1 / log2(i + 1), ranks from 1. The ideal list sorts\n"
        "EVERY graded item (recommended or not) by grade, best first, cut at K.\n"
        "Return 0.0 when the ideal DCG is 0."),
    "auc": N_(
        "The probability that a random positive scores higher than a random negative.\n\n"
        "y_true: a list of labels, 0 or 1. y_score: a list of floats, the same length.\n\n"
        "Count every (positive, negative) pair: 1 if the positive scores higher, 1/2 if they tie, 0\n"
        "otherwise; divide by (positives x negatives). Return float('nan') when only one class is\n"
        "present."),
    "gauc": N_(
        "Group AUC: each user's AUC (ties count 1/2), averaged with weights = that user's number of\n"
        "samples (impressions).\n\n"
        "user_ids, y_true (0/1), y_score: three lists of the same length, one entry per impression.\n\n"
        "A user whose labels are all one class has no AUC: leave them out (their weight too).\n"
        "Return one float; float('nan') when every user is left out."),
    "log_loss": N_(
        "Binary cross-entropy: -mean(y log p + (1 - y) log(1 - p)), natural log.\n\n"
        "y_true: a list of labels, 0 or 1. y_prob: predicted probabilities of 1, in [0, 1].\n\n"
        "Clip each probability to [{eps}, 1 - {eps}] before both logarithms, as\n"
        "scikit-learn does with its eps, so a probability of 0 or 1 gives a large finite loss."),
    "rmse": N_(
        "Root mean squared error: sqrt(mean((prediction - actual) ** 2)).\n\n"
        "predictions, actuals: lists of floats of the same non-zero length."),
    "mae": N_(
        "Mean absolute error: mean(|prediction - actual|).\n\n"
        "predictions, actuals: lists of floats of the same non-zero length."),
    "f1_at_k": N_(
        "The harmonic mean of Precision@K and Recall@K.\n"
        "\n"
        "{ranked}\n"
        "\n"
        "Precision@K divides the hits in the top K by K; Recall@K divides them by len(relevant).\n"
        "F1@K = 2 P R / (P + R); return 0.0 when P + R is 0 (also when relevant is empty)."),
    "mean_average_precision_at_k": N_(
        "MAP@K as the NumPy tutorial writes it: the mean over users of AP@K.\n"
        "\n"
        "all_recommended: one ranked list of item ids per user, best first, no repeats within a list.\n"
        "all_ground_truth: one set of relevant item ids per user, in the same order (at least one user).\n"
        "k: the cut-off, an integer >= 1.\n"
        "\n"
        "AP@K = (sum of precision@i over the ranks i <= K that hold a relevant item) / min(|relevant|, K).\n"
        "A user with no relevant item has AP@K = 0.0 and still counts in the mean."),
    "mean_reciprocal_rank": N_(
        "MRR as the NumPy tutorial writes it: the mean over users of the reciprocal rank.\n"
        "\n"
        "all_recommended: one ranked list of item ids per user, best first, no repeats within a list.\n"
        "all_ground_truth: one set of relevant item ids per user, in the same order (at least one user).\n"
        "\n"
        "A user's reciprocal rank is 1 / (the rank of their first relevant item), ranks from 1, over the\n"
        "whole list; 0.0 when none of their items is relevant, and that user still counts in the mean."),
}

HINTS = {
    "precision_at_k": (N_("Only the first k items count: recommended[:k]."),
                       N_("The denominator is k, not len(recommended[:k]).")),
    "recall_at_k": (N_("Count the relevant items in recommended[:k]."),
                    N_("Divide by len(relevant), guarding against 0.")),
    "hit_rate_at_k": (N_("any(...) over recommended[:k] is enough."),
                      N_("Return a float, 1.0 or 0.0, not a count.")),
    "average_precision_at_k": (
        N_("precision@i = hits among the first i items / i, taken only at ranks that are hits."),
        N_("Ranks start at 1."), N_("The denominator is min(len(relevant), k), not the number of hits.")),
    "reciprocal_rank": (N_("enumerate(recommended, start=1) gives 1-based ranks."), N_("Stop at the first hit.")),
    "dcg_at_k": (N_("The discount of rank 1 is 1 / log2(2) = 1."),
                 N_("np.log2(np.arange(2, n + 2)) gives every discount.")),
    "ndcg_at_k": (N_("Write dcg(grades, k) once and call it twice."),
                  N_("The ideal comes from relevance.values(), not from the recommended items.")),
    "auc": (N_("The offline-evaluation article's double loop is O(n^2); sorting gives O(n log n)."),
            N_("Ties count one half: average ranks (Mann-Whitney U) do that for you.")),
    "gauc": (N_("Group the indices by user first."),
             N_("Weighted mean: sum(w * auc) / sum(w) over the users kept.")),
    "log_loss": (N_("np.clip(p, eps, 1 - eps) with eps = 1e-15."), N_("The mean, not the sum.")),
    "rmse": (N_("Square, then mean, then root."), N_("Divide by n, not n - 1.")),
    "mae": (N_("abs() before the mean."),),
    "f1_at_k": (N_("Compute P and R as in their own problems, then combine them."),
                N_("The harmonic mean, not (P + R) / 2.")),
    "mean_average_precision_at_k": (N_("Write average_precision_at_k for one user first, then average it."),
                                    N_("Every user counts, also one whose ground truth is empty.")),
    "mean_reciprocal_rank": (N_("Write reciprocal_rank for one user first, then average it."),
                             N_("A user without a hit adds 0 but still counts in the denominator.")),
}

# What the candidate did, for each mistake a wrong value can match: (problem key, Mistake.key).
# A library's convention adds "that is <metric> as <libraries> compute it" (library_convention).
MISTAKES = {
    ("precision_at_k", "precision_short_list=list_length"): N_("you divided by min(K, list length) instead of K"),
    ("precision_at_k", "recall"): N_("you divided by the number of relevant items: that is Recall@K"),
    ("precision_at_k", "no_cutoff"): N_("you counted the hits in the whole list, not only the top K"),
    ("recall_at_k", "precision"): N_("you divided by K: that is Precision@K"),
    ("recall_at_k", "no_cutoff"): N_("you counted the hits in the whole list, not only the top K"),
    ("hit_rate_at_k", "hit_count"): N_("you returned the number of hits in the top K, not 1 or 0"),
    ("hit_rate_at_k", "precision"): N_("you returned hits / K: that is Precision@K (the article's '3 hits in 10 is "
                                       "0.3')"),
    ("hit_rate_at_k", "no_cutoff"): N_("you looked for a hit in the whole list, not only the top K"),
    ("average_precision_at_k", "ap_denominator=hits"): N_("you divided by the hits in the top K"),
    ("average_precision_at_k", "ap_denominator=relevant"): N_("you divided by |Rel|, all relevant items"),
    ("average_precision_at_k", "ap_denominator=k"): N_("you divided by K: that is RecTools' MAP(divide_by_k=True)"),
    ("average_precision_at_k", "ap_denominator=whole_list"): N_("you ignored K and averaged over the whole list, "
                                                                "divided by |Rel|"),
    ("average_precision_at_k", "ranks_from_zero"): N_("you counted ranks from 0: precision at a hit was hits / "
                                                      "(rank - 1)"),
    ("reciprocal_rank", "ranks_from_zero"): N_("you counted ranks from 0: 1 / (rank - 1)"),
    ("reciprocal_rank", "rank_not_reciprocal"): N_("you returned the rank of the first hit, not 1 / rank"),
    ("reciprocal_rank", "cutoff_10"): N_("you stopped looking after rank 10: that is RR@10 (ranx, RecBole, Evidently "
                                         "cut RR at K)"),
    ("dcg_at_k", "exponential_gain"): N_("you used the gain 2^rel − 1 (the offline-evaluation article's formula); "
                                         "this problem's gain is rel"),
    ("dcg_at_k", "log_base_e"): N_("you used the natural log in the discount; it is log2(i + 1)"),
    ("dcg_at_k", "ranks_off_by_one"): N_("you used log2(i + 2): the discount for ranks counted from 0, on ranks "
                                         "from 1"),
    ("dcg_at_k", "no_cutoff"): N_("you summed over the whole list, not only the top K"),
    ("ndcg_at_k", "ideal=passed"): N_("you built the ideal DCG from the recommended items only"),
    ("ndcg_at_k", "gain=binary"): N_("you ignored the grades (gain 1 for every relevant item)"),
    ("ndcg_at_k", "gain=exponential"): N_("you used the gain 2^rel − 1; this problem's gain is rel"),
    ("ndcg_at_k", "ideal=k_slots"): N_("you assumed the ideal list has K relevant items of grade 1"),
    ("ndcg_at_k", "ranks_off_by_one"): N_("you used log2(i + 2): the discount for ranks counted from 0, on ranks "
                                          "from 1"),
    ("auc", "ties_zero"): N_("a tied positive/negative pair counted 0 (strict >, the offline-evaluation article's "
                             "loop); it counts 1/2"),
    ("auc", "ties_one"): N_("a tied positive/negative pair counted 1 (>=); it counts 1/2"),
    ("gauc", "uniform"): N_("you averaged the users' AUCs with equal weights (the offline-evaluation article's "
                            "np.mean); GAUC weights each user by impressions"),
    ("gauc", "clicks"): N_("you weighted each user by clicks; GAUC weights by impressions"),
    ("gauc", "pooled"): N_("you computed one AUC over all samples, ignoring the users"),
    ("log_loss", "no_clipping"): N_("you did not clip the probabilities: log(0) is -inf"),
    ("log_loss", "machine_eps"): N_("you clipped at float64 epsilon (2.2e-16, scikit-learn 1.9's default); "
                                    "this problem clips at 1e-15"),
    ("log_loss", "sum"): N_("you returned the sum of the losses, not the mean"),
    ("log_loss", "clipped_true_label"): N_("you clipped the probability of the true label, not p itself: in "
                                           "floating point 1 - (1 - 1e-15) is not exactly 1e-15, so a probability "
                                           "of 0 or 1 comes out slightly off"),
    ("rmse", "mse"): N_("you forgot the square root: that is MSE"),
    ("rmse", "mae"): N_("you took absolute errors: that is MAE"),
    ("rmse", "n_minus_1"): N_("you divided by n − 1 (a sample standard deviation); RMSE divides by n"),
    ("mae", "signed"): N_("you forgot the absolute value: that is the mean (signed) error"),
    ("mae", "rmse"): N_("you squared the errors and took the root: that is RMSE"),
    ("f1_at_k", "arithmetic_mean"): N_("you averaged P and R as (P + R) / 2; F1 is their harmonic mean, 2PR / (P + R)"),
    ("f1_at_k", "precision_short_list"): N_("your Precision@K divided by min(K, list length) instead of K"),
    ("f1_at_k", "no_cutoff"): N_("you counted the hits in the whole list, not only the top K"),
    ("mean_average_precision_at_k", "ap_denominator=hits"): N_("you divided each user's AP by their hits in the top K "
                                                               "(torchmetrics)"),
    ("mean_average_precision_at_k", "ap_denominator=relevant"): N_("you divided each user's AP by |Rel| (trec_eval "
                                                                   "map_cut, ranx)"),
    ("mean_average_precision_at_k", "ap_denominator=k"): N_("you divided each user's AP by K: that is RecTools' "
                                                            "MAP(divide_by_k=True)"),
    ("mean_average_precision_at_k", "skip_empty"): N_("you left out the users with no relevant item (as trec_eval "
                                                      "does); the NumPy tutorial counts them as 0"),
    ("mean_reciprocal_rank", "skip_no_hit"): N_("you averaged over the users with a hit only; a user without one "
                                                "counts as 0"),
    ("mean_reciprocal_rank", "ranks_from_zero"): N_("you counted ranks from 0: 1 / (rank - 1)"),
    ("mean_reciprocal_rank", "sum"): N_("you returned the sum over users, not the mean"),
}


def title(problem) -> str:
    return _(TITLES[problem.key]) if problem.key in TITLES else problem.title


def statement(problem) -> str:
    """The problem's statement (the starter's docstring) in the reader's language."""
    template = _STATEMENTS.get(problem.key)
    if template is None:
        return problem.docstring
    return _(template).format(ranked=_(_RANKED), eps=LOG_LOSS_EPS)


def starter(problem) -> str:
    """The code the editor starts from, its docstring in the reader's language (``Problem.starter`` in English)."""
    doc = "\n".join(("    " + line) if line else "" for line in statement(problem).strip().splitlines())
    return f'{problem.signature}\n    """\n{doc}\n    """\n    raise NotImplementedError\n'


def hints(problem) -> list[str]:
    return [_(hint) for hint in HINTS[problem.key]] if problem.key in HINTS else list(problem.hints)


def join_names(names) -> str:
    """'a', 'a and b', 'a, b and c' in the reader's language."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def mistake(problem, says: str | None) -> str | None:
    """A matched mistake (the engine's English ``says``) in the reader's language."""
    if says is None:
        return None
    found = next((m for m in problem.mistakes if m.says == says), None)
    if found is None or (problem.key, found.key) not in MISTAKES:
        return says
    did = _(MISTAKES[(problem.key, found.key)])
    if found.libraries:
        return _("{did}: that is {metric} as {libraries} compute it").format(
            did=did, metric=found.metric, libraries=join_names(found.libraries))
    return did


def not_a_number(value) -> str | None:
    """The candidate's returned non-number, as the judge describes it, in the reader's language."""
    if getattr(value, "code", None) == "not_a_number":
        return _("{repr} (a {type}, not a number)").format(**value.fields)
    return None


def judge_message(message: str | None, function: str) -> str | None:
    """A judge's message (a limit, the candidate's error) in the reader's language.

    Python's own exception names and messages stay as Python wrote them, like a traceback.
    """
    if message is None:
        return None
    code, fields = getattr(message, "code", None), getattr(message, "fields", {})
    if code == "syntax_error":
        where = _("line {line}, column {column}").format(line=fields["line"], column=fields["column"])
        return f"{fields['kind']}: {fields['message']} ({where})\n    {fields['code']}"
    if code == "missing_function":
        return _("No function to call: define a function named {function}.").format(function=function)
    if code == "exception":
        lines = [f"{fields['kind']}: {fields['message']}" if fields["message"] else fields["kind"]]
        lines += ["  " + _("line {line}, in {function}: {code}").format(**frame) for frame in fields["frames"]]
        return "\n".join(lines)
    if code == "output_limit":
        return _("Output limit: your code printed more than {kb} KB.").format(kb=fields["kb"])
    if code == "load_time_limit":
        return _("Time limit: loading your code (its imports and top-level statements) took longer than {seconds} "
                 "s.").format(seconds=numbers.general(fields["seconds"]))
    if code == "case_time_limit":
        return _("Time limit: one call of your function ran longer than {seconds} s (an endless loop, or far too "
                 "slow for this case).").format(seconds=numbers.general(fields["seconds"]))
    if code == "time_limit":
        return _("Time limit: every call finished, but all of them together took longer than {seconds} s (correct "
                 "code, too slow overall).").format(seconds=numbers.general(fields["seconds"]))
    if code == "memory_limit":
        return _("Memory limit: your code (all its processes together) reached the {mb} MB cap.").format(
            mb=fields["mb"])
    if code == "channel":  # the detail names the harness's protocol: it stays in English, like Python's messages
        return _("Your code wrote to the judge's channel ({detail}): the run was stopped.").format(
            detail=fields["detail"])
    if code == "cpu_limit":
        return _("CPU limit: your code used more than {seconds} s of CPU time.").format(
            seconds=numbers.general(fields["seconds"]))
    if code == "file_limit":
        return _("File size limit: your code wrote a file larger than {kb} KB.").format(kb=fields["kb"])
    if code == "crashed":
        return _("Your code crashed the Python interpreter ({signal}).").format(signal=fields["signal"])
    if code == "exited":
        return _("Your code ended the judge's process (it exited) before every case had run.")
    return str(message)

