"""protocols.once.OncePerKey: what the protocol lab's presets and a reader's own protocols are kept in."""

from __future__ import annotations

import threading

from protocols.once import OncePerKey


def test_readers_asking_at_once_share_one_computation():
    kept, started, release, computed = OncePerKey(), threading.Event(), threading.Event(), []

    def compute():
        computed.append(1)
        started.set()
        release.wait(10)
        return "result"

    answers = []
    readers = [threading.Thread(target=lambda: answers.append(kept.get("k", compute))) for _ in range(5)]
    readers[0].start()
    started.wait(10)
    for reader in readers[1:]:
        reader.start()
    release.set()
    for reader in readers:
        reader.join(10)
    assert computed == [1] and answers == ["result"] * 5


def test_the_oldest_value_is_dropped_beyond_the_most_kept_and_a_failed_computation_is_tried_again():
    kept, calls = OncePerKey(most=2), []

    def compute(value):
        def run():
            calls.append(value)
            if value == "boom":
                raise RuntimeError(value)
            return value
        return run

    for key in ("a", "b", "c"):
        kept.get(key, compute(key))
    assert kept.get("b", compute("again")) == "b" and kept.get("a", compute("a again")) == "a again"
    try:
        kept.get("x", compute("boom"))
    except RuntimeError:
        pass
    assert kept.get("x", compute("x")) == "x"
    assert calls == ["a", "b", "c", "a again", "boom", "x"]
