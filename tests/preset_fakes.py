"""What the niced child (protocols.machine_once.run_niced) runs in tests/test_preset_cache.py: light, so a
child starts in a tenth of a second instead of importing the models."""

from __future__ import annotations

import os
import threading
import time


def priorities() -> dict:
    """The child's priority, and that of a thread it starts (as numpy's and implicit's pools are started)."""
    seen = {}
    worker = threading.Thread(target=lambda: seen.update(thread=os.getpriority(os.PRIO_PROCESS,
                                                                               threading.get_native_id())))
    worker.start()
    worker.join()
    return {"process": os.getpriority(os.PRIO_PROCESS, 0), **seen, "pid": os.getpid()}


def fake_preset(key: str):
    """A preset's stand-in: one line per training in RECEVAL_TEST_TRAIN_LOG (key, process, priority)."""
    with open(os.environ["RECEVAL_TEST_TRAIN_LOG"], "a") as log:
        log.write(f"{key} {os.getpid()} {os.getpriority(os.PRIO_PROCESS, 0)}\n")
    time.sleep(0.3)  # long enough for a second starter to arrive while it runs
    return ("results of", key), {"finding": key}
