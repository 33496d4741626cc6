"""``python -m metrics ...``: the command line's old name, kept so that users' scripts and the app's own
instructions keep working. The command itself lives in :mod:`receval`; this module is not part of the
metric library and is never imported by it, it only runs that command (run, not imported, so that the
command sets its allocator options before numpy loads)."""

import runpy

runpy.run_module("receval", run_name="__main__", alter_sys=True)
