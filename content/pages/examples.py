"""The words of the worked-examples page (pages/9_Worked_examples.py); the examples' own words are in content/examples.py."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Worked examples")
INTRO = N_(
    "Every example of the two documents this project comes from. **Load** puts the example into "
    "the scenario and opens the page that explains it. Each value is computed live; the column "
    "*document prints* shows what the document says. Where they differ, the note says why.")
MISPRINTS = N_("Where the documents print a wrong number")
LOAD = N_("Load ▶")
LOAD_HELP = N_("Load into the scenario and open its page")
NO_NUMBER = N_("(no number)")
AGREES_NOT = N_("❌ see note")
COLUMNS = {"value": N_("value"), "document prints": N_("document prints"), "exact": N_("exact"),
           "agrees": N_("agrees")}


def misprint(printed: str, exact: float) -> str:
    """The NDCG@10 misprint: ``printed`` stays as the document prints it, ``exact`` in the reader's notation."""
    return _(
        "The first document prints NDCG@10 = **{printed}** for recommended 101..110 with relevant "
        "{{101, 104, 107}}. Its own code gives **{exact}**: written out, the sum cannot reach {printed}."
    ).format(printed=printed, exact=numbers.number(exact, 5))


def noted(labels: list[str], note: str) -> str:
    """One note shared by several values, naming them all."""
    return _("**{values}:** {note}").format(values=_(", ").join(labels), note=note)
