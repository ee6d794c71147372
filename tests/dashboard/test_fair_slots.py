"""The heavy-work queue of the dashboard: first come, first served across
sessions, each waiting session knows its place, and a cancelled wait leaves the queue."""

from __future__ import annotations

import threading
import time

from dashboard.page_run import FairSlots


def test_waiters_get_the_slot_in_order_of_arrival_and_see_their_place():
    slots = FairSlots(1)
    first = slots.enter()
    assert slots.wait(first, 0.1) and slots.place(first) == 0
    order, tickets = [], []
    for name in ("b", "c", "d"):
        tickets.append((name, slots.enter()))
    assert [slots.place(t) for _, t in tickets] == [1, 2, 3]

    def session(name, ticket):
        while not slots.wait(ticket, 0.01):  # polls as the page does, often
            pass
        order.append(name)
        time.sleep(0.02)
        slots.leave(ticket)

    threads = [threading.Thread(target=session, args=nt) for nt in reversed(tickets)]
    for t in threads:  # started last-first: a semaphore would let any of them win
        t.start()
    time.sleep(0.05)
    assert order == []  # nobody overtakes the running one
    slots.leave(first)
    for t in threads:
        t.join(5)
    assert order == ["b", "c", "d"]


def test_a_cancelled_wait_gives_up_its_place():
    slots = FairSlots(1)
    running, waiting, behind = slots.enter(), slots.enter(), slots.enter()
    assert slots.wait(running, 0.1)
    slots.leave(waiting)  # Stop while waiting
    assert slots.place(behind) == 1
    slots.leave(running)
    assert slots.wait(behind, 0.1)
    assert not slots.wait(slots.enter(), 0.05)  # one slot, taken


def test_a_heavy_run_is_scheduled_lower_and_threads_it_starts_inherit_it():
    """lower_priority raises the nice value of the running thread only (Linux: per thread), the
    threads it starts inherit it, and it is restored after the block."""
    import os

    from dashboard.page_run import HEAVY_NICE, lower_priority

    def nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    seen: dict = {}
    outside = nice()
    with lower_priority():
        seen["inside"] = nice()
        t = threading.Thread(target=lambda: seen.setdefault("child", nice()))
        t.start()
        t.join(5)
    assert seen["inside"] == min(outside + HEAVY_NICE, 19) == seen["child"]
    if os.geteuid() == 0:  # only a privileged process may lower it again
        assert nice() == outside
