"""The Live class page's sentences for the teacher's devices: My classes, the phone as a remote, the
address phones open, and the presenter view."""

from __future__ import annotations

from content.i18n import N_, _

MY_CLASSES = N_("My classes")
REMOTE = N_("📱 Use my phone as a remote")
REMOTE_HIDE = N_("Hide the phone code")
REMOTE_HELP = N_("Shows a QR code that opens this console on your phone. Only on your own screen: "
                 "anyone who scans it can run the class.")
JOIN_QR = N_("QR code of the join link")
REMOTE_QR = N_("QR code that opens this console on your phone")
REMOTE_TEXT = N_("Scan it with your phone within 5 minutes. It works once and opens this console there; "
                 "do not show it to the class.")
CLAIM_INVALID = N_("That console link was already used or has expired. On the teacher's computer, press "
                   "“Use my phone as a remote” for a new one.")
OLD_TEACHER_LINK = N_("Teacher links are no longer used: open “My classes” on the computer that started the class, "
                      "or scan its “Use my phone as a remote” code.")
USES_PUBLIC = N_("Phones join at the public address set by whoever runs this app.")
NO_REACHABLE_ADDRESS = N_("Phones cannot open this link: it points to this computer itself, and no network address "
                          "of this computer is known. Ask whoever runs the app for the address phones can use (they "
                          "can set RECEVAL_PUBLIC_URL).")
PRESENTER = N_("🖥 Presenter view")
PRESENTER_HELP = N_("Opens the class without any controls or secrets, in a new tab: put that tab on the projector "
                    "and keep this console on your laptop or phone.")
JOINED = N_("Joined")


def resume(code: str) -> str:
    return _("▶ Resume class {code}").format(code=code)


def uses_network(page: str) -> str:
    return _("This page is open at {page}, which only this computer can open: the link uses this computer's "
             "network address instead. Phones must be on the same network.").format(page=page)
