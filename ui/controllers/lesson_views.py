"""Lesson scenarios and the locked view of each: numbers from ``metrics``, formulas, a figure. No Streamlit.

A scenario is a plain dict with a ``kind`` (see ``content.lessons.schema.SCENARIO_KINDS``); a view kind names
which numbers, formulas and chart a step shows.
"""

from __future__ import annotations

import re
import warnings

import pandas as pd

from content import numbers
from content.i18n import N_, _, ngettext
from content.lessons import offpolicy as offpolicy_words
from content.lessons import protocols as protocol_words
from content.lessons.schema import Control
from content.lessons.scenarios import changed, moved, parse, predicted_labels  # noqa: F401 (the views' names)
from metrics import classification_metrics as cls
from content import metrics as metric_texts
from metrics import ctr_metrics, ndcg, ranked_metrics, rating_metrics, registry, topn_metrics
from ui.controllers import lesson_offpolicy, lesson_protocols
from ui.controllers.lesson_view import View
from ui.figures import charts, lesson_charts
from ui.markup import formulas
from ui.markup.ctr_formulas import ctr_latex

LABELS = {"dcg_at_k": "DCG@K", "idcg_at_k": "IDCG@K", "ndcg_at_k": "NDCG@K", "gauc": N_("GAUC (impressions)"),
          "auc": "AUC", "base_rate_entropy": N_("LogLoss of the base rate")}
TRANSLATED_LABELS = frozenset(("gauc", "base_rate_entropy"))  # the others are metric names, the same in every language


def label(key: str, k: int | None = None) -> str:
    """The card label of a value key, with K filled in where the step has one."""
    if offpolicy_words.is_key(key):
        return offpolicy_words.label(key)
    if protocol_words.is_key(key):
        return protocol_words.label(key)
    metric = registry.BY_KEY.get(key)
    text = _(LABELS[key]) if key in TRANSLATED_LABELS else LABELS.get(key) or (metric_texts.label(key) if metric else key)
    return text.replace("@K", f"@{k}") if k is not None else text


# --------------------------------------------------------------------------- scenarios


def check_scenario(scenario: dict) -> None:
    """Raise ValueError if the scenario does not parse or its metrics reject it."""
    if scenario.get("kind") == "protocol":
        lesson_protocols.check(scenario)
        return
    if scenario.get("kind") == "offpolicy":
        lesson_offpolicy.check(scenario)
        return
    if scenario.get("kind") == "sweep":
        values = scenario["values"]
        if not values or not all(0 <= v <= 1 for v in values):
            raise ValueError(f"a sweep needs values in [0, 1], got {values!r}")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.UndefinedMetricWarning)  # undefined is valid (e.g. NE of one class)
        registry.evaluate(parse(scenario))
    if scenario["kind"] == "users" and not len(scenario["users"]) == len(scenario["recommended"]) == len(scenario["relevant"]):
        raise ValueError("users, recommended and relevant must have one entry per user")


def placed(recommended, ranks: dict) -> list:
    """The list with each item of ``ranks`` at its rank (1-based) and the others, in order, in the gaps.

    Two items asking for one rank: the later-listed one takes the next free rank.
    """
    slots = [None] * len(recommended)
    for item, rank in ranks.items():
        free = [i for i in range(len(slots)) if slots[i] is None]
        slot = next((i for i in free if i >= rank - 1), free[-1])
        slots[slot] = item
    rest = iter(i for i in recommended if i not in ranks)
    return [item if item is not None else next(rest) for item in slots]


def with_controls(scenario: dict, controls, values) -> dict:
    """The scenario with every control set; rank controls place their items together, so each
    item sits exactly at the rank its control shows."""
    ranks = {c.item: int(v) for c, v in zip(controls, values, strict=True) if c.kind == "rank"}
    if ranks:
        scenario = changed(scenario, {"recommended": placed(scenario["recommended"], ranks)})
    for control, value in zip(controls, values, strict=True):
        if control.kind != "rank":
            scenario = with_control(scenario, control, value)
    return scenario


def make_room(scenario: dict, controls, values, before) -> tuple[list, list[str]]:
    """Control values in which no two rank controls claim one rank, and a note for each item moved.

    A rank control that moved (its value differs from ``before``, the values shown last) keeps the
    rank it was moved to; another rank control there swaps places with it, taking its old rank. Any
    clash left (no ``before``: a first visit, a state the browser never sends) is settled the way the
    list is built: each control then shows the rank its item really has.
    """
    values, notes = list(values), []
    ranks = [i for i, control in enumerate(controls) if control.kind == "rank"]
    before = list(before) if before is not None and len(before) == len(values) else None
    for mover in (i for i in ranks if before is not None and values[i] != before[i]):
        for other in ranks:
            if other != mover and values[other] == values[mover] and before[other] == values[mover]:
                values[other] = before[mover]
                notes.append(_("{item} moved to rank {rank} to make room for {mover}.").format(
                    item=controls[other].item, rank=numbers.integer(before[mover]), mover=controls[mover].item))
    if ranks:
        where = placed(scenario["recommended"], {controls[i].item: int(values[i]) for i in ranks})
        for i in ranks:
            actual = where.index(controls[i].item) + 1
            if actual != values[i]:
                notes.append(_("{item} moved to rank {rank}: rank {wanted} is taken.").format(
                    item=controls[i].item, rank=numbers.integer(actual), wanted=numbers.integer(int(values[i]))))
                values[i] = actual
    return values, notes


def control_value(scenario: dict, control: Control):
    """The value a control shows for the scenario as it is."""
    if control.kind == "k":
        return scenario["k"]
    if control.kind == "rank":
        return scenario["recommended"].index(control.item) + 1
    if control.kind == "grade":
        return scenario["ground_truth"].get(control.item, 0)
    if control.kind == "value":
        return scenario[control.field][control.index]
    if control.kind == "threshold":
        return scenario["threshold"]
    if control.kind == "setting":
        return scenario[control.field]
    raise ValueError(f"unknown control kind {control.kind!r}")


def slider_spec(scenario: dict, control: Control) -> dict:
    """``st.slider`` arguments for a control: whole numbers for K and ranks, starting at the scenario's value."""
    value = control_value(scenario, control)
    if control.kind in ("k", "rank"):
        maximum = len(scenario["recommended"]) if control.kind == "rank" else control.maximum
        return {"min_value": int(control.minimum), "max_value": int(maximum), "step": 1, "value": int(value)}
    if control.kind == "setting" and float(control.minimum).is_integer() and float(control.step).is_integer():
        return {"min_value": int(control.minimum), "max_value": int(control.maximum), "step": int(control.step),
                "value": int(value)}
    return {"min_value": float(control.minimum), "max_value": float(control.maximum), "step": float(control.step),
            "value": float(value)}


def with_control(scenario: dict, control: Control, value) -> dict:
    """The scenario with one control set to ``value``."""
    if control.kind == "rank":
        return changed(scenario, {"move": (control.item, int(value))})
    if control.kind == "grade":
        return changed(scenario, {"ground_truth": {**scenario["ground_truth"], control.item: value}})
    if control.kind == "value":
        values = list(scenario[control.field])
        values[control.index] = value
        return changed(scenario, {control.field: values})
    if control.kind == "setting":
        return changed(scenario, {control.field: type(scenario[control.field])(value)})
    key = {"k": "k", "threshold": "threshold"}.get(control.kind)
    if key is None:
        raise ValueError(f"unknown control kind {control.kind!r}")
    return changed(scenario, {key: int(value) if key == "k" else value})


# --------------------------------------------------------------------------- static views


def _registry_values(case, keys) -> dict[str, float]:
    return {key: registry.BY_KEY[key].compute(case) for key in keys}


def _general(*keys) -> dict[str, str]:
    return {key: formulas.translated_words(registry.BY_KEY[key].latex) for key in keys}


def _topn(s: dict) -> View:
    case = parse(s)
    keys = ("precision_at_k", "recall_at_k", "hit_rate_at_k", "f1_at_k")
    values = _registry_values(case, keys)
    counts = topn_metrics.topn_counts(case.recommended, case.ground_truth, case.k)
    hits, k = counts["hits"], case.k
    substituted = {
        "precision_at_k": formulas.precision_at_k_latex(hits, k, values["precision_at_k"]),
        "recall_at_k": formulas.recall_at_k_latex(hits, counts["n_relevant"], k, values["recall_at_k"]),
        "hit_rate_at_k": formulas.hit_rate_at_k_latex(hits, k, values["hit_rate_at_k"]),
        "f1_at_k": formulas.f1_at_k_latex(values["precision_at_k"], values["recall_at_k"], k, values["f1_at_k"]),
    }
    figure = charts.top_k_window(topn_metrics.top_k_table(case.recommended, case.ground_truth, k), k)
    return View(values, _general(*keys), substituted, figure, k=k)


def _ap(s: dict) -> View:
    case = parse(s)
    value = registry.BY_KEY["ap_at_k"].compute(case)
    table = ranked_metrics.average_precision_table(case.recommended, case.ground_truth, case.k)
    chosen = ranked_metrics.ap_denominator_table(case.recommended, case.ground_truth, case.k).set_index("denominator").loc["min"]
    hit_rows = table[table["hit"]]
    latex = formulas.average_precision_latex(hit_rows["rank"], hit_rows["hits_so_far"], chosen["sum_of_precisions"],
                                             int(chosen["divide_by"]), case.k, value)
    figure = charts.contributions(table, _("Precision@i at each hit: their sum / {divisor} is AP@{k}").format(
        divisor=numbers.integer(int(chosen["divide_by"])), k=case.k))
    return View({"ap_at_k": value}, _general("ap_at_k"), {"ap_at_k": latex}, figure, k=case.k)


def _rr(s: dict) -> View:
    case = parse(s)
    value = registry.BY_KEY["rr"].compute(case)
    rank = ranked_metrics.first_hit_rank(case.recommended, case.ground_truth)
    figure = charts.reciprocal_rank_positions(ranked_metrics.reciprocal_rank_table(case.recommended, case.ground_truth))
    return View({"rr": value}, _general("rr"), {"rr": formulas.reciprocal_rank_latex(rank, value)}, figure)


def _ndcg(s: dict) -> View:
    case = parse(s)
    actual, ideal = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
    value = ndcg.ndcg_at_k(case.recommended, case.ground_truth, case.k, gain=case.gain)
    values = {"dcg_at_k": float(actual["running_dcg"].iloc[-1]) if len(actual) else 0.0,
              "idcg_at_k": float(ideal["running_dcg"].iloc[-1]) if len(ideal) else 0.0, "ndcg_at_k": value}
    general = {"ndcg_at_k": registry.BY_KEY["ndcg_graded_at_k"].latex
               + (r",\ g(\mathrm{rel})=2^{\mathrm{rel}}-1" if case.gain == "exponential" else r",\ g(\mathrm{rel})=\mathrm{rel}"),
               "precision_at_k": registry.BY_KEY["precision_at_k"].latex}
    # P@K beside NDCG@K, for the steps where the two disagree about the same list.
    values["precision_at_k"] = registry.BY_KEY["precision_at_k"].compute(case)
    hits = topn_metrics.topn_counts(case.recommended, case.ground_truth, case.k)["hits"]
    substituted = {"ndcg_at_k": formulas.ndcg_latex(actual, ideal, case.k, value),
                   "precision_at_k": formulas.precision_at_k_latex(hits, case.k, values["precision_at_k"])}
    return View(values, general, substituted, charts.dcg_actual_vs_ideal(actual, ideal), k=case.k)


def users_data(s: dict, per_user: pd.Series, name: str) -> pd.DataFrame:
    """Each user's top K with the hits ticked, their relevant items and their metric."""
    lists = [", ".join(f"{item} ✓" if item in set(relevant) else str(item) for item in recommended[: s["k"]])
             for recommended, relevant in zip(s["recommended"], s["relevant"], strict=True)]
    return pd.DataFrame({"user": list(s["users"]), f"top {s['k']} (✓ relevant)": lists,
                         "relevant": [", ".join(str(i) for i in relevant) for relevant in s["relevant"]],
                         name: [round(float(v), 4) for v in per_user]})


def _per_user(s: dict, column: str, key: str, name: str) -> View:
    case = parse(s)
    table = ranked_metrics.per_user_table(s["users"], case.all_recommended, case.all_ground_truth, case.k)
    value = registry.BY_KEY[key].compute(case)
    shown = name.replace("@K", f"@{case.k}")
    figure = charts.per_user_bars(table.rename(columns={column: shown}), shown,
                                  value, label(key, case.k), _("{metric} per user").format(metric=shown))
    return View({key: value}, _general(key), {key: formulas.mean_over_users_latex(label(key, case.k), table[column], value)},
                figure, k=case.k, data=users_data(s, table[column], shown),
                data_caption=_("Each user's list: the {metric} averages the last column.").format(
                    metric=label(key, case.k)))


def _rating(s: dict) -> View:
    case = parse(s)
    values = _registry_values(case, ("rmse", "mae", "mse"))
    table = rating_metrics.rating_errors_table(case.predictions, case.actuals)
    latex = formulas.rating_errors_latex(table, values, max_terms=5)
    return View(values, _general("rmse", "mae", "mse"), {k: formulas.aligned_steps(v) for k, v in latex.items()},
                charts.rating_errors(table))


def _confusion(s: dict) -> View:
    case = parse(s)
    keys = ("accuracy", "precision", "recall", "f1")
    values = _registry_values(case, keys)
    counts = cls.confusion_counts(case.y_true, case.y_pred)
    figure = (lesson_charts.threshold_and_confusion(case.y_true, s["y_score"], s["threshold"], counts)
              if "y_score" in s else charts.confusion_matrix(counts))
    return View(values, _general(*keys), formulas.classification_latex(counts, values), figure)


def scores_data(s: dict, with_users: bool = False) -> pd.DataFrame:
    """Every impression: its score, whether it was clicked, and for a click how many non-clicks
    (of its own user, with ``with_users``) it outscores, a tie counting half."""
    users = list(s["user_ids"])
    below: list[float | None] = [None] * len(users)
    for user in dict.fromkeys(users):
        index = [i for i, u in enumerate(users) if u == user]
        labels = [s["y_true"][i] for i in index]
        if with_users and len(set(labels)) < 2:
            continue
        if not with_users:
            index, labels = list(range(len(users))), list(s["y_true"])
        pairs = cls.auc_pairs_table(labels, [s["y_score"][i] for i in index])
        for position, credit in pairs.groupby("positive")["credit"].sum().items():
            below[index[position]] = float(credit)
        if not with_users:
            break
    table = pd.DataFrame({"impression": [f"#{i + 1}" for i in range(len(users))], "user": users,
                          "score": list(s["y_score"]),
                          "clicked": ["click" if y else "no click" for y in s["y_true"]],
                          "non-clicks scored below": below})
    return table if with_users else table.drop(columns="user")


def _pairs_caption(counts: dict) -> str:
    right = counts["higher"] + counts["tied"] / 2
    return _("{right} of {pairs} click/non-click pairs put the click higher: the last column counts, for each "
             "click, the non-clicks scored below it (a tie counts ½).").format(
        right=numbers.general(float(right)), pairs=numbers.integer(counts["positives"] * counts["negatives"]))


def _auc(s: dict) -> View:
    case = parse(s)
    counts = cls.auc_pair_counts(case.y_true, case.y_score)
    figure = charts.roc_curve(cls.roc_curve_points(case.y_true, case.y_score), counts["auc"])
    return View({"auc": counts["auc"]}, _general("auc"), {"auc": formulas.auc_pairs_latex(counts)["ties_half"]}, figure,
                data=scores_data(s), data_caption=_pairs_caption(counts))


def left_out_of_gauc(table: pd.DataFrame) -> str:
    """Who GAUC skips (one-class users) and why, from ``gauc_table``; empty if nobody."""
    skipped = table[table["skipped_because"] != ""]
    if skipped.empty:
        return ""
    kept = [str(u) for u in table.loc[table["skipped_because"] == "", "user"]]
    if len(kept) > 1:
        used = _("{first} and {last}").format(first=_(", ").join(kept[:-1]), last=kept[-1])
    else:
        used = kept[0] if kept else _("nobody")
    parts = [(ngettext("{user} ({n} impression, clicks only: no non-click to pair with)",
                       "{user} ({n} impressions, clicks only: no non-click to pair with)", int(row.impressions))
              if row.clicks == row.impressions else
              ngettext("{user} ({n} impression, no click: nothing clicked to pair with)",
                       "{user} ({n} impressions, no click: nothing clicked to pair with)", int(row.impressions))
              ).format(user=row.user, n=numbers.integer(row.impressions)) for row in skipped.itertuples()]
    return _("Left out of GAUC: {users}. With one class only, a user has no click/non-click pair, so their AUC is "
             "undefined; GAUC averages {kept}. Pooled AUC still counts their impressions.").format(
        users=_("; ").join(parts), kept=used)


def _gauc(s: dict) -> View:
    case = parse(s)
    counts = cls.auc_pair_counts(case.y_true, case.y_score)
    table = cls.gauc_table(case.user_ids, case.y_true, case.y_score)
    value, _weights = cls.gauc(case.user_ids, case.y_true, case.y_score, weight="impressions")
    return View({"auc": counts["auc"], "gauc": value}, _general("auc", "gauc"),
                {"auc": formulas.auc_pairs_latex(counts)["ties_half"],
                 "gauc": formulas.gauc_latex(table, "impressions", value)},
                charts.per_user_auc(table, "impressions"), data=scores_data(s, with_users=True),
                data_caption=_("Every impression; the last column counts, for each click, the non-clicks of the "
                               "same user scored below it (a tie counts ½)."),
                left_out=left_out_of_gauc(table))


def _logloss(s: dict) -> View:
    case = parse(s)
    eps = cls.default_log_loss_eps()
    terms = cls.log_loss_terms(case.y_true, case.y_prob, eps=eps)
    value = cls.log_loss(case.y_true, case.y_prob, eps=eps)
    latex = formulas.aligned_steps(formulas.log_loss_latex(terms, value, eps, max_terms=4))
    return View({"log_loss": value}, _general("log_loss"), {"log_loss": latex}, charts.log_loss_curve(terms))


def _ctr(s: dict) -> View:
    case = parse(s)
    parts = ctr_metrics.ctr_breakdown(case.y_true, case.y_prob)
    values = {key: parts[key] for key in ("log_loss", "base_rate_entropy", "normalized_entropy", "calibration")}
    logloss = _logloss(s)
    substituted = {"log_loss": logloss.substituted["log_loss"], **ctr_latex(parts, case.y_prob)}
    return View(values, _general("log_loss", "normalized_entropy", "calibration"), substituted,
                lesson_charts.base_rate_comparison(parts))


STATIC_VIEWS = {"topn": _topn, "ap": _ap, "rr": _rr, "ndcg": _ndcg, "rating": _rating, "confusion": _confusion,
                "auc": _auc, "gauc": _gauc, "logloss": _logloss, "ctr": _ctr,
                "map": lambda s: _per_user(s, "ap", "map_at_k", "AP@K"),
                "mrr": lambda s: _per_user(s, "rr", "mrr", "RR"),
                **lesson_protocols.STATIC_VIEWS, **lesson_offpolicy.STATIC_VIEWS}


def static_view(view: str, scenario: dict) -> View:
    result = STATIC_VIEWS[view](scenario)
    if result.figure.layout.height is None:  # Plotly's 450 px would push the chart past a 720 px projector
        result.figure.update_layout(height=380)
    result.figure.update_layout(separators=numbers.plotly_separators())
    return result


# The headers and words of a step's data table (``View.data``, built with these English names, which
# tests and code read), as the reader reads them.
DATA_HEADERS = {"user": N_("user"), "relevant": N_("relevant"), "impression": N_("impression"), "score": N_("score"),
                "clicked": N_("clicked"), "non-clicks scored below": N_("non-clicks scored below")}
DATA_WORDS = {"click": N_("click"), "no click": N_("no click")}


def data_for_reader(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its headers and words translated, and numbers in the reader's notation."""
    shown = table.copy()
    for column in shown.columns:
        if column == "clicked":
            shown[column] = [_(DATA_WORDS[v]) if v in DATA_WORDS else v for v in shown[column]]
        elif numbers.decimal_mark() != "." and pd.api.types.is_float_dtype(shown[column]):
            shown[column] = [None if pd.isna(v) else numbers.general(float(v)) for v in shown[column]]

    def header(name: str) -> str:
        if name in DATA_HEADERS:
            return _(DATA_HEADERS[name])
        top = re.fullmatch(r"top (\d+) \(✓ relevant\)", name)
        return _("top {k} (✓ relevant)").format(k=top.group(1)) if top else name

    return shown.rename(columns=header)
