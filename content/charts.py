"""The words of every chart's text alternative: its one-sentence summary and the headers of its data table.

``ui.chart_text`` reads a figure's traces and hands the pieces (names and numbers already written in the
reader's notation by ``content.numbers``) to these functions, which put them into sentences. A chart
builder that knows better (``ui.chart_text.explain``) gives its own details, written by the functions at
the end of this module.
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext, pgettext

DATA = N_("Data of this chart")
CHART = N_("Chart")
POSITION = N_("position")
VALUE = N_("value")
LABEL = N_("label")
SERIES = N_("series")
COLOUR_MEANS = N_("colour means")
LOWER = N_("lower end")
UPPER = N_("upper end")
ROW = N_("row")
COUNT = N_("count")
OTHER = N_("other")
LATER_HIT = N_("later hit")
PRINTED_RIGHT = N_("printed right")
PRINTED_WRONG = N_("printed wrong")
NOT_RELEVANT = N_("not relevant")
MOVING = N_("the moving item")
SHARE_OF_ORDERINGS = N_("share of random orderings")
FROM = N_("from")
TO = N_("to")
RELEVANT_AT = N_("relevant at ranks")
NO_DATA = N_("no data")
STATISTICS = {"min": N_("smallest"), "q1": N_("lower quartile"), "median": N_("median"),
              "q3": N_("upper quartile"), "max": N_("largest")}


def listing(items) -> str:
    """Numbers or points one after the other: "0.5, 0.25" ("0,5; 0,25" in Turkish, where the comma is the decimal mark)."""
    # TRANSLATORS: between the numbers of a list in a chart's summary. Turkish: "; " (its decimal mark is the comma).
    return pgettext("between numbers", ", ").join(items)


def parts(items) -> str:
    """The parts of a summary (one per series, or per colour of one series), one after the other."""
    # TRANSLATORS: between the parts of a chart's summary, each "name: numbers"; stronger than the list separator.
    return pgettext("between parts", "; ").join(items)


def sentence(title: str, details: str) -> str:
    """The summary: the chart's title, then what it shows."""
    # TRANSLATORS: a chart's one-sentence summary: its title, then the numbers it shows.
    return _("{title}: {details}.").format(title=title or _(CHART), details=details)


def series(name: str, details: str) -> str:
    """One series of a chart (a line, a row of bars) and what it shows: "RMSE: model A (0.95), model B (1.2)"."""
    return _("{name}: {details}").format(name=name, details=details) if name else details


def point(at: str, shown: list[str]) -> str:
    """One point: where it is, then what it shows ("rank 3 (C; 0.5)")."""
    # TRANSLATORS: a point of a chart: where it is, then its label and value (already a list) in brackets.
    return _("{at} ({shown})").format(at=at, shown=listing(shown)) if shown else at


def on_axis(axis: str, value: str) -> str:
    """A position named by its axis: "rank 3", "K 5"."""
    # TRANSLATORS: a position on a chart's axis: the axis name, then the value ("rank 3", "K 5").
    return _("{axis} {value}").format(axis=axis, value=value) if axis else value


def cell(row: str, column: str) -> str:
    """A cell of a grid (a heatmap): its row, then its column."""
    # TRANSLATORS: a cell of a grid chart: its row label, then its column label.
    return _("{row} / {column}").format(row=row, column=column)


def in_panel(panel: str, name: str) -> str:
    """A series of one panel of a chart with several panels."""
    if not name or name == panel:
        return panel
    # TRANSLATORS: a series inside one panel of a chart with several panels: the panel's title, then the series.
    return _("{panel}, {name}").format(panel=panel, name=name)


def extremes(high: str, high_at: str, low: str, low_at: str) -> str:
    return _("highest {high} at {high_at}, lowest {low} at {low_at}").format(high=high, high_at=high_at, low=low,
                                                                             low_at=low_at)


def everywhere(value: str, count: int) -> str:
    return ngettext("{value} at {count} point", "{value} at all {count} points", count).format(
        value=value, count=numbers.integer(count))


def line(first: str, first_at: str, last: str, last_at: str, high: str | None = None,
         high_at: str | None = None) -> str:
    """A curve from its first point to its last, and its peak when that lies between them."""
    if high is None:
        return _("from {first} at {first_at} to {last} at {last_at}").format(
            first=first, first_at=first_at, last=last, last_at=last_at)
    return _("from {first} at {first_at} to {last} at {last_at}, highest {high} at {high_at}").format(
        first=first, first_at=first_at, last=last, last_at=last_at, high=high, high_at=high_at)


def group(meaning: str, points: list[str]) -> str:
    """The points drawn in one colour, named by what the colour means: "hit: rank 1 (A), rank 3 (C)"."""
    return _("{meaning}: {points}").format(meaning=meaning, points=listing(points))


def group_count(meaning: str, count: int, total: int) -> str:
    """How many of the points are drawn in one colour, when there are too many to list."""
    return _("{meaning}: {count} of {total}").format(meaning=meaning, count=numbers.integer(count),
                                                      total=numbers.integer(total))


def distribution(count: int, low: str, high: str, mean: str) -> str:
    """A histogram of raw values."""
    return ngettext("{count} value from {low} to {high}, mean {mean}", "{count} values from {low} to {high}, mean {mean}",
                    count).format(
        count=numbers.integer(count), low=low, high=high, mean=mean)


def box(median: str, low: str, high: str) -> str:
    return _("median {median}, from {low} to {high}").format(median=median, low=low, high=high)


def marked(marks: list[str]) -> str:
    """The labelled lines and areas drawn over the data (the current K, a mean)."""
    return _("marked: {marks}").format(marks=listing(marks))


def animation(count: int, last: str, details: str) -> str:
    """An animated chart (its title is its first step's caption): how many steps it plays, its last step's
    caption, and what the last step shows."""
    return _("an animation in {count} steps up to “{last}”; at its end, {details}").format(
        count=numbers.integer(count), last=last, details=details)


# --------------------------------------------------------------------------- the builders' own details

def at_point(where: str, values: list[str]) -> str:
    """Curves read at one marked position: "at K = 5: P@K 0.4, R@K 0.6667"."""
    return _("at {where}: {values}").format(where=where, values=listing(values))


def named_value(name: str, value: str) -> str:
    """A name and its number: "P@K 0.4"."""
    # TRANSLATORS: a name and its number in a chart's summary ("P@K 0.4").
    return _("{name} {value}").format(name=name, value=value)


def roc(points: int, auc: str, chance: str) -> str:
    return ngettext("the curve passes through {points} point; the area under it is AUC = {auc} (chance: {chance})",
                    "the curve passes through {points} points; the area under it is AUC = {auc} (chance: {chance})",
                    points).format(points=numbers.integer(points), auc=auc, chance=chance)


def moved(name: str, before: str, after: str) -> str:
    """An item or model that changes place: "C 3 → 1"."""
    return _("{name} {before} → {after}").format(name=name, before=before, after=after)


def moves(changes: list[str], kept: int) -> str:
    """The items or models that change place, and how many keep theirs."""
    kept_text = ngettext("{count} keeps its place", "{count} keep their places", kept).format(
        count=numbers.integer(kept))
    if not changes:
        return kept_text
    return parts([_("moved: {changes}").format(changes=listing(changes)), kept_text])


def random_baseline(metric: str, value: str, expected: str) -> str:
    """One panel of the random baselines: the list's value against the mean of random orderings."""
    return _("{metric}: your list {value}, random orderings {expected} on average").format(
        metric=metric, value=value, expected=expected)


def spread(metric: str, mean: str, users: int, low: str, high: str, count: int) -> str:
    """One histogram of per-user values: the mean, and the bin that holds the most users."""
    return ngettext("{metric}: mean {mean} over {users} user, most in {low}–{high} ({count})",
                    "{metric}: mean {mean} over {users} users, most in {low}–{high} ({count})", users).format(
        metric=metric, mean=mean, users=numbers.integer(users), low=low, high=high, count=numbers.integer(count))


def relevant_ranks(user: str, ranks: list[str]) -> str:
    """One user's row of the users puzzle: the ranks that hold a relevant item."""
    if not ranks:
        return _("{user}: no relevant item").format(user=user)
    return _("{user}: relevant at rank {ranks}").format(user=user, ranks=listing(ranks))
