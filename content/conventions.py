"""What each library does, in the reader's language: the words of ``metrics.conventions``.

``metrics.conventions`` holds the conventions as data (and English sentences for Python users);
here every choice, setting, note and explanation is keyed by the same keys (field, choice,
library name) and translated for the page.
"""

from __future__ import annotations

import math

from content import numbers
from content.i18n import N_, _, ngettext
from metrics import conventions as conv
from metrics._validation import check_grades
from metrics.ranked_metrics import first_hit_rank

CHOICES: dict[str, dict[str, str]] = {
    "sees": {
        "judged": N_("the ranked list, and the ground truth as a separate set of judged items"),
        "list_rows": N_("only the recommended rows, each with its grade (a relevant item never recommended is not there)"),
        "candidates": N_("every candidate it ranks: the list, then each ground-truth item the list does not show"),
    },
    "grade_levels": {
        "numbers": N_("any number >= 0; a grade above 0 is relevant"),
        "integers": N_("whole levels: a grade is truncated to an integer, and only levels >= 1 are relevant"),
    },
    "precision_short_list": {
        "k": N_("divides by K, so empty slots count as misses"),
        "list_length": N_("divides by min(K, list length)"),
    },
    "ap_denominator": {
        "min": "min(|Rel|, K)",
        "relevant": "|Rel|",
        "hits": N_("the hits in the top K"),
        "k": "K",
        "whole_list": N_("|Rel| over the whole ranking, with no cut-off"),
    },
    "ideal": {
        "all_judged": N_("every relevant item of the ground truth, best first, cut at K"),
        "passed": N_("only the items passed in, best first, cut at K"),
        "k_slots": N_("K slots, all relevant"),
        "label_order": N_("the relevant items in the order the labels were given (not sorted), cut at K"),
    },
    "gain": {
        "linear": N_("rel (linear)"),
        "exponential": N_("2^rel − 1 (exponential)"),
        "binary": N_("1 for every relevant item: grades ignored"),
    },
    "ties": {
        "averaged": N_("averaged over the tie group"),
        "docid_descending": N_("broken by document id, descending"),
        "input_order": N_("input order"),
        "better_rank": N_("the better rank for every tied item"),
        "not_applicable": N_("no scores: the list order is the ranking"),
    },
    "empty_users": {
        "zero": N_("scored 0 and counted in the mean"),
        "skipped": N_("left out of the mean"),
        "skipped_unjudged": N_("scored 0 if it has judged items, left out if it has none at all"),
    },
    "rr_cutoff": {
        "none": N_("none: the first hit anywhere in the ranking"),
        "k": N_("K: 0 if the first hit is below rank K"),
    },
}
"""Every choice of :data:`metrics.conventions.CHOICES`, keyed the same way."""

FIELD_LABELS = {
    "sees": N_("what the library is given"),
    "grade_levels": N_("how grades are read"),
    "refuses": N_("inputs the library refuses"),
    "empty_users": N_("users with no relevant item"),
    "precision_short_list": N_("Precision@K of a list shorter than K"),
    "ap_denominator": N_("AP denominator"),
    "ideal": N_("which items form the ideal DCG"),
    "gain": N_("gain"),
    "rr_cutoff": N_("RR cut-off"),
    "ties": N_("tie rule"),
}

NOTES = {
    "RecEval Lab": N_("The defaults of this app: the definitions of the NumPy tutorial and the offline-evaluation article."),
    "trec_eval": N_("pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run); relevance must be an integer. "
                    "Where scores tie, this app's engine gives trec_eval's numbers to the last digit with "
                    "python -m metrics evaluate --ties trec_eval --format trec -q "
                    "(batch.evaluate(..., ties=\"trec_eval\", denominator=\"relevant\"))."),
    "scikit-learn": N_("No ranking Precision@K, Recall@K or RR. ndcg_score refuses a single document."),
    "ranx": N_("evaluate(qrels, run, metrics); a query needs at least one judged and one ranked item. "
               "Where scores tie, ranx keeps the run's order: this app's --ties input (ties=\"input\") does the same."),
    "torchmetrics": N_("Defaults: adaptive_k=False, empty_target_action='neg'."),
    "Recommenders": N_("recommenders.evaluation.python_evaluation; no MRR. Averages only users in both truth and "
                       "predictions; `map` (not `map_at_k`) divides by |Rel|."),
    "RecBole": N_("metrics=[...], topk=[K] in the config; only users with a test interaction are evaluated."),
    "Evidently": N_("Given the recommended rows with a target column; no_feedback_users=False by default. Fails "
                    "(KeyError) when no list in the data reaches K; a shorter list among longer ones divides "
                    "Precision by its length."),
    "RecTools": N_("MAP(divide_by_k=True) divides by K instead; the default NDCG assumes K relevant slots."),
    "cornac": N_("cornac ranks every candidate item; MAP and MRR have no cut-off."),
    "Spark MLlib": N_("RankingMetrics; no MRR. PySpark passes only the first two columns to the JVM, so its ndcgAt "
                      "is binary (gain 1, ideal min(|Rel|, K) ones)."),
}
"""Each library's note (the same English as its ``Convention.notes``), keyed by library name."""

TABLE_TITLES = {"Top K": N_("Top K"), "AP steps": N_("AP steps"), "DCG of the list": N_("DCG of the list"),
                "Ideal DCG": N_("Ideal DCG"), "Ranks": N_("Ranks")}


def choice(field: str, value: str) -> str:
    return _(CHOICES[field][value])


def field_label(field: str) -> str:
    return _(FIELD_LABELS[field])


def note(convention: conv.Convention) -> str:
    return _(NOTES[convention.name]) if convention.name in NOTES else convention.notes


def describe(convention: conv.Convention, field: str) -> str:
    """:meth:`Convention.describe` in the reader's language."""
    if field == "refuses":
        if not convention.refuses:
            return _("none")
        if set(convention.refuses) == set(convention.functions) and len(set(convention.refuses.values())) == 1:
            return _("every metric of a list shorter than {n}").format(n=_shortest(next(iter(convention.refuses.values()))))
        return "; ".join(_("{metric} of a list shorter than {n}").format(metric=conv.METRIC_LABELS[m], n=_shortest(n))
                         for m, n in convention.refuses.items())
    return choice(field, getattr(convention, field))


def possessive(name: str) -> str:
    """The library as an owner: "Recommenders'", "cornac's" in English; each language its own form."""
    if name.endswith("s"):
        # TRANSLATORS: a library's name as the owner of what follows ("RecTools' conventions"); the name ends in s.
        return _("{name}'").format(name=name)
    # TRANSLATORS: a library's name as the owner of what follows ("cornac's conventions").
    return _("{name}'s").format(name=name)


def _shortest(n) -> str:
    return n if isinstance(n, str) else numbers.integer(n)


def _items(items) -> str:
    shown = [str(i) for i in items]
    listed = _(", ").join(shown[:5])
    if len(shown) <= 5:
        return listed
    return ngettext("{items} and {n} more", "{items} and {n} more", len(shown) - 5).format(
        items=listed, n=numbers.integer(len(shown) - 5))


def _ap_divisor(choice_key: str, view: conv.View, k: int) -> str:
    n_rel = len(view.relevant)
    hits = sum(1 for item in view.ranking[:k] if item in view.relevant)
    integer = numbers.integer
    if choice_key == "min":
        return "min(|Rel|, K) = min({rel}, {k}) = {value}".format(rel=integer(n_rel), k=integer(k),
                                                                  value=integer(min(n_rel, k)))
    if choice_key == "relevant":
        return f"|Rel| = {integer(n_rel)}"
    if choice_key == "hits":
        return ngettext("the {n} hit in the top {k}", "the {n} hits in the top {k}", hits).format(
            n=integer(hits), k=integer(k))
    if choice_key == "k":
        return f"K = {integer(k)}"
    return _("|Rel| = {rel} over its whole ranking of {n}, with no cut-off at {k}").format(
        rel=integer(n_rel), n=integer(len(view.ranking)), k=integer(k))


def explain(field: str, convention: conv.Convention, metric: str, recommended, ground_truth, k) -> str:
    """:func:`metrics.conventions.explain` in the reader's language: one sentence with this input's numbers."""
    lib, app = convention.name, conv.APP
    view = conv.library_view(convention, recommended, ground_truth)
    ours = conv.library_view(app, recommended, ground_truth)
    integer = numbers.integer
    if field == "sees":
        if convention.sees == "list_rows":
            unseen = [i for i in ours.relevant if i not in set(recommended)]
            if len(unseen) == 1:
                return _("{library} is given only the recommended rows, so it never sees {items}: the relevant item "
                         "the list does not recommend.").format(library=lib, items=_items(unseen))
            return ngettext(
                "{library} is given only the recommended rows, so it never sees {items}: the {n} relevant item "
                "the list does not recommend.",
                "{library} is given only the recommended rows, so it never sees {items}: the {n} relevant items "
                "the list does not recommend.", len(unseen)).format(library=lib, items=_items(unseen),
                                                                    n=integer(len(unseen)))
        extra = view.ranking[len(ours.ranking):]
        return ngettext(
            "{library} ranks every candidate it is given, not only the list: {items} comes after the list, "
            "from rank {rank}.",
            "{library} ranks every candidate it is given, not only the list: {items} come after the list, "
            "from rank {rank}.", len(extra)).format(library=lib, items=_items(extra),
                                                    rank=integer(len(ours.ranking) + 1))
    if field == "grade_levels":
        changed = [i for i, g in check_grades(ground_truth).items() if g != int(g)]
        return _("{library} reads grades as whole levels, dropping the fraction of {items}: a grade below 1 "
                 "becomes 0, not relevant.").format(library=lib, items=_items(changed))
    if field == "refuses":
        return _("{library} refuses this input: {rule} (the list has {n}).").format(
            library=lib, rule=describe(convention, "refuses"), n=integer(len(view.ranking)))
    if field == "empty_users":
        if convention.empty_users == "skipped_unjudged":
            return _("{library} leaves a user with no judged item at all out of its mean; the app scores such a "
                     "user 0 and counts them.").format(library=lib)
        return _("{library} leaves a user with no relevant item out of its mean; the app scores such a user 0 "
                 "and counts them.").format(library=lib)
    if field == "precision_short_list":
        return _("{library} divides Precision@{k} by the {n} items of the list, not by K = {k}.").format(
            library=lib, k=integer(k), n=integer(min(k, len(view.ranking))))
    if field == "ap_denominator":
        return _("{library} divides AP by {theirs}, not by {ours}.").format(
            library=lib, theirs=_ap_divisor(convention.ap_denominator, view, k), ours=_ap_divisor(app.ap_denominator, ours, k))
    if field == "ideal":
        return _("{library} builds the ideal DCG from {theirs}, not from {ours}.").format(
            library=lib, theirs=choice("ideal", convention.ideal), ours=choice("ideal", app.ideal))
    if field == "gain":
        return _("{owner} gain is {theirs}, not {ours}.").format(
            owner=possessive(lib), theirs=choice("gain", convention.gain), ours=choice("gain", app.gain))
    if field == "rr_cutoff":
        rank = first_hit_rank(view.ranking, view.relevant)
        if rank:
            return _("{library} counts RR only up to rank K = {k}; the app's RR has no cut-off (the first hit is "
                     "at rank {rank}).").format(library=lib, k=integer(k), rank=integer(rank))
        return _("{library} counts RR only up to rank K = {k}; the app's RR has no cut-off (there is no "
                 "hit).").format(library=lib, k=integer(k))
    return conv.explain(field, convention, metric, recommended, ground_truth, k)


def explanation(fields, convention: conv.Convention, metric: str, recommended, ground_truth, k) -> str:
    """Every cause of one difference, explained, one sentence each."""
    return " ".join(explain(f, convention, metric, recommended, ground_truth, k) for f in fields)


def cause(fields) -> str:
    return "; ".join(field_label(f) for f in fields)


def no_value_reason(convention: conv.Convention, metric: str, recommended, ground_truth, k) -> str:
    """Why ``convention`` gives no value of ``metric`` (the Breakdown's ``reason``), in the reader's language."""
    view = conv.library_view(convention, recommended, ground_truth)
    if not convention.has(metric):
        return _("{library} has no {metric}.").format(library=convention.name, metric=conv.METRIC_LABELS[metric])
    if len(view.ranking) < convention.shortest(metric, k):
        return _("{library} refuses this input: {rule}.").format(library=convention.name,
                                                                 rule=describe(convention, "refuses"))
    return _("{library} leaves this user out of its mean: {rule}.").format(library=convention.name,
                                                                          rule=describe(convention, "empty_users"))


def breakdown_label(label: str, k: int) -> str:
    """A Breakdown's numerator or denominator label in the reader's language (formulas stay as they are)."""
    words = {
        f"hits in the top {k}": lambda: _("hits in the top {k}").format(k=numbers.integer(k)),
        "sum of precision@i at hits": lambda: _("sum of precision@i at hits"),
        "rank of the first hit": lambda: _("rank of the first hit"),
        "min(K, list length)": lambda: _("min(K, list length)"),
        conv.CHOICES["ap_denominator"]["hits"]: lambda: _(CHOICES["ap_denominator"]["hits"]),
        conv.CHOICES["ap_denominator"]["whole_list"]: lambda: _(CHOICES["ap_denominator"]["whole_list"]),
    }
    return words[label]() if label in words else label


def breakdown_fraction(b: conv.Breakdown, k: int) -> str:
    """What a Breakdown divides by what, in words: "hits in the top 10 ÷ K"."""
    return f"{breakdown_label(b.numerator_label, k)} ÷ {breakdown_label(b.denominator_label, k)}"


def table_title(title: str) -> str:
    return _(TABLE_TITLES[title]) if title in TABLE_TITLES else title


def is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
