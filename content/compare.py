"""Words about comparing two models: test names, the verdict on a metric, the groups of users, chart texts.

``whole_logs.significance`` computes; its English ``verdict`` stays for Python users, and
:func:`verdict` here says the same in the reader's language.
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext

TESTS = {"paired_t": N_("paired t-test"), "wilcoxon": N_("Wilcoxon signed-rank"),
         "permutation": N_("sign-flip permutation")}
CORRECTIONS = {"holm": "Holm", "bonferroni": "Bonferroni", "none": N_("none")}
GROUPS = {"niche": N_("niche"), "middle": N_("middle"), "popular": N_("popular"), "other": N_("other")}
VERDICTS = {"B better": N_("B better"), "A better": N_("A better"), "no clear difference": N_("no clear difference")}


def test_name(test: str) -> str:
    return _(TESTS[test])


def correction_name(correction: str) -> str:
    return _(CORRECTIONS[correction]) if correction == "none" else CORRECTIONS[correction]


def group_name(group) -> str:
    return _(GROUPS[group]) if group in GROUPS else str(group)


def verdict_word(key: str) -> str:
    return _(VERDICTS[key])


def verdict(metric: str, row, *, alpha: float = 0.05, confidence: float = 0.95) -> str:
    """:func:`whole_logs.significance.verdict` in the reader's language."""
    size = abs(row["effect_size"])
    magnitude = (_("a negligible effect") if size < 0.2 else _("a small effect") if size < 0.5
                 else _("a medium effect") if size < 0.8 else _("a large effect"))
    interval = _("{confidence} interval {low} to {high}, adjusted p = {p}").format(
        confidence=numbers.percent(confidence), low=numbers.number(row["ci_low"], 4),
        high=numbers.number(row["ci_high"], 4), p=_p(row["p_adjusted"]))
    if row["p_adjusted"] < alpha and row["delta"] != 0:
        template = (_("B is better on {metric} by {delta} ({interval}): {magnitude} (d = {d}); {wins}, {losses}.")
                    if row["delta"] > 0 else
                    _("A is better on {metric} by {delta} ({interval}): {magnitude} (d = {d}); {wins}, {losses}."))
        wins = ngettext("B wins for {n} user", "B wins for {n} users", int(row["wins"])).format(
            n=numbers.integer(row["wins"]))
        losses = ngettext("loses for {n}", "loses for {n}", int(row["losses"])).format(n=numbers.integer(row["losses"]))
        return template.format(metric=metric, delta=numbers.number(abs(row["delta"]), 4), interval=interval,
                               magnitude=magnitude, d=numbers.number(row["effect_size"], 2), wins=wins, losses=losses)
    if row["ci_low"] <= 0 <= row["ci_high"]:
        template = _("No clear difference on {metric}: {delta} ({interval}); the data are compatible with no "
                     "difference at all.")
    else:
        template = _("No clear difference on {metric}: {delta} ({interval}); the data are compatible with no "
                     "difference at all after correcting for the metrics compared.")
    return template.format(metric=metric, delta=numbers.number(row["delta"], 4, sign=True), interval=interval)


def _p(value) -> str:
    """A p-value to 3 significant digits (0.003, 1.2e-05) in the reader's notation."""
    return numbers.general(float(f"{value:.3g}")) if value == value else numbers.number(value)


def p_value(value) -> str:
    return _p(value)


# Charts
FOREST_TITLE = N_("Difference B − A with its interval")
FOREST_AXIS = N_("mean difference per user (B − A)")
USERS_AXIS = N_("users")
CONTRIBUTION_AXIS = N_("contribution to the mean difference")
TOTAL = N_("total")


def forest_hover(metric: str, delta, low, high, p) -> str:
    return _("{metric}: {delta} [{low}, {high}], adjusted p = {p}").format(
        metric=metric, delta=numbers.number(delta, 4, sign=True), low=numbers.number(low, 4, sign=True),
        high=numbers.number(high, 4, sign=True), p=_p(p))


def mean_marker(value) -> str:
    return _("mean {value}").format(value=numbers.number(value, 4, sign=True))


def histogram_title(metric: str) -> str:
    return _("Per-user difference in {metric} (B − A)").format(metric=metric)


def histogram_axis(metric: str) -> str:
    return _("{metric}: B − A").format(metric=metric)


def group_label(group, users: int) -> str:
    return ngettext("{group} ({n} user)", "{group} ({n} users)", int(users)).format(
        group=group_name(group), n=numbers.integer(users))
