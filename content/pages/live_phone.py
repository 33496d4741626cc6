"""The sentences only the class's light view (a student's phone, ``classroom/web``) shows; the rest it
shares with the Live class page (``content.pages.live``, ``content.classroom``)."""

from __future__ import annotations

from content.i18n import N_, _

CONNECTING = N_("Connecting to the class…")
RECONNECTING = N_("The connection dropped: reconnecting…")
SCREEN_FAILED = N_("This screen could not be updated. Follow the teacher's screen for now: this one catches up when "
                   "the teacher moves on.")
CHART_ON_PROJECTOR = N_("This step's chart is on the teacher's screen.")
RECOMMENDED_LIST = N_("The recommended list, best first (relevant items marked with their grade):")
NOT_SENT = N_("Your answer could not be sent: check your connection, then send it again.")
# The countdown under a timed question, on the phone; {time} is minutes:seconds ("0:25"), counted by the phone.
TIMER = N_("⏱ Answers lock in {time}.")
# A question where each student answers for a list of their own (a lesson's ``variant``).
YOUR_LIST = N_("**Your own list** (every student has a different one), best first; relevant items marked with their "
               "grade:")
YOUR_OPTIONS = N_("Your answer, for your own list")
VARIANT_NOTE = N_("Each student has a list of their own: the right value differs from phone to phone.")
# A homework step's list with a name: "List A" and "List B" of a question comparing two lists, or one user's list.
NAMED_LIST = N_("**{name}**: the recommended list, best first (relevant items marked with their grade):")

# Said while the phone asks again for its own list (or, after the reveal, its own verdict) after the server refused
# or the connection dropped; the third sentence is added after a few tries.
OWN_LIST_COMING = N_("Your own list is on its way…")
OWN_VERDICT_COMING = N_("Your own verdict is on its way…")
OWN_LATE = N_("It is taking longer than usual: your phone keeps asking. If nothing comes, tell your teacher.")


def named_list(name: str) -> str:
    """``name`` (Markdown: a user's name is escaped by the caller) heading its list."""
    return _(NAMED_LIST).format(name=name)
