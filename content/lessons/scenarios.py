"""A lesson scenario as a metric case, and a question's change applied to it. No arithmetic of its own: the
cases are ``metrics.registry``'s. Here, below the views, so that a lesson file's answers can be computed where it
is loaded (``content.lessons.answers``)."""

from __future__ import annotations

from metrics import registry


def predicted_labels(scenario: dict) -> list[int]:
    """The labels scenario's predictions: given, or every score at or above the threshold."""
    if "y_pred" in scenario:
        return list(scenario["y_pred"])
    return [int(score >= scenario["threshold"]) for score in scenario["y_score"]]


def parse(scenario: dict):
    """The registry case a scenario describes; raises ValueError (from ``metrics``) if it is not valid."""
    kind = scenario.get("kind")
    if kind == "ranking":
        return registry.RankingCase(scenario["recommended"], scenario["ground_truth"], scenario["k"],
                                    scenario.get("gain", "linear"))
    if kind == "users":
        return registry.UsersCase(scenario["recommended"], [set(r) for r in scenario["relevant"]], scenario["k"])
    if kind == "ratings":
        return registry.RatingCase(scenario["predictions"], scenario["actuals"])
    if kind == "labels":
        return registry.LabelCase(scenario["y_true"], predicted_labels(scenario))
    if kind == "scores":
        return registry.ScoreCase(scenario["user_ids"], scenario["y_true"], scenario["y_score"])
    if kind == "probabilities":
        return registry.ProbabilityCase(scenario["y_true"], scenario["y_prob"])
    raise ValueError(f"scenario kind must be one of ranking, users, ratings, labels, scores, probabilities; got {kind!r}")


def moved(recommended, item, rank: int) -> list:
    """The list with ``item`` taken out and put back at ``rank`` (1-based), the others shifting."""
    rest = [i for i in recommended if i != item]
    return rest[: rank - 1] + [item] + rest[rank - 1:]


def changed(scenario: dict, change: dict) -> dict:
    """The scenario with a question's change applied: fields replaced, or ``move: (item, rank)``."""
    result = dict(scenario)
    for key, value in change.items():
        if key == "move":
            result["recommended"] = moved(scenario["recommended"], *value)
        else:
            result[key] = value
    return result
