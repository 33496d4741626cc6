"""Words of the protocol lesson's views ("How offline evaluation lies"): card labels, table headers, chart
titles. The numbers are ``ui.controllers.lesson_protocols``'s, from the protocol lab's presets on MovieLens 100K.

A value key names a measure and, after a colon, a model (``full_hit_rate:itemknn``, ``ndcg_tuned:mf``), or a
protocol's share (``future_share_leave_last_out``).
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _
from content.pages.protocols import model_name

MEASURES = {
    "full_hit_rate": N_("HR@10, full"),
    "sampled_hit_rate": N_("HR@10, sampled"),
    "expected_hit_rate": N_("HR@10, expected when sampled"),
}
SIDES = {"leave_last_out": N_("leave-last-out"), "global_time": N_("global time"), "untuned": N_("untuned"),
         "tuned": N_("tuned")}
"""The two protocols a two-protocol preset compares, by the key their values carry."""
SHARE = "future_share_"
NEGATIVES_ABOVE = N_("sampled negatives ranked above it")
TRAINING_SET = N_("training interactions")
TEST_SET = N_("test interactions")


def is_key(key: str) -> bool:
    return ":" in key or key.startswith(SHARE)


def label(key: str) -> str:
    """A card's label: ``Item k-NN: HR@10, full``, ``Matrix factorisation (ALS): NDCG@10, tuned``."""
    if key.startswith(SHARE):
        return _("{protocol}: share of training from after the test began").format(
            protocol=_(SIDES[key[len(SHARE):]]))
    measure, model = key.split(":")
    if measure in MEASURES:
        return _("{model}: {measure}").format(model=model_name(model), measure=_(MEASURES[measure]))
    return _("{model}: NDCG@10, {protocol}").format(model=model_name(model),
                                                     protocol=_(SIDES[measure.removeprefix("ndcg_")]))


def model_header() -> str:
    return _("model")


def sampled_header(negatives: int) -> str:
    return _("HR@10, {n} sampled").format(n=numbers.integer(negatives))


def expected_header(negatives: int) -> str:
    return _("HR@10 expected with {n} sampled").format(n=numbers.integer(negatives))


def expected_label(negatives: int) -> str:
    """The slope chart's second column: the expected order with ``negatives`` sampled."""
    return _("{n} sampled, expected").format(n=numbers.integer(negatives))


def ndcg_header(side: str) -> str:
    return _("NDCG@10, {protocol}").format(protocol=_(SIDES[side]))


def place_header(side: str) -> str:
    return _("place, {protocol}").format(protocol=_(SIDES[side]))


def side_label(side: str) -> str:
    return _(SIDES[side])


def sampled_caption(users: int) -> str:
    return _("Means over the {users} test users whose held-out movie was seen in training; K = 10. Each held-out "
             "movie is ranked against all the movies its user never rated (full) or against sampled ones.").format(
        users=numbers.integer(users))


def pair_caption(first: str, second: str, users_first: int, users_second: int, future_first: int, train_first: int,
                 future_second: int, train_second: int) -> str:
    return _("NDCG@10 means over each protocol's test users ({first}: {users_first}; {second}: {users_second}). "
             "Training interactions from after the earliest test one: {first}, {future_first} of {train_first}; "
             "{second}, {future_second} of {train_second}.").format(
        first=first, second=second, users_first=numbers.integer(users_first),
        users_second=numbers.integer(users_second), future_first=numbers.integer(future_first),
        train_first=numbers.integer(train_first), future_second=numbers.integer(future_second),
        train_second=numbers.integer(train_second))


def bars_title(metric: str, protocol: str) -> str:
    return _("{metric} of each model, {protocol}").format(metric=metric, protocol=protocol)


def sweep_caption(negatives: int, first: str, first_value: float, second: str, second_value: float) -> str:
    return _("{n} negatives: {first} {a}; {second} {b}").format(
        n=numbers.integer(negatives), first=first, a=numbers.number(first_value, 4), second=second,
        b=numbers.number(second_value, 4))


def sweep_axis() -> str:
    return _("negatives per held-out movie (log scale)")


PREPARING = N_("Training the models on MovieLens 100K for this step: the first time takes several seconds.")
DATA_MISSING = N_("This lesson runs the protocol lab's models on MovieLens 100K, which is not installed on this "
                  "server: the operator can install the copy that ships with RecBole (`pip install --no-deps "
                  "recbole==1.2.1`).")
