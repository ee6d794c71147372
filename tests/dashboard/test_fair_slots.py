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


def test_a_freed_slot_is_taken_at_once_by_the_next_in_the_queue():
    """The waiting session is woken by the leave (a notification), not by its next look: its
    wait of 10 s ends within a tenth of a second of the slot being freed."""
    slots = FairSlots(1)
    running, waiting = slots.enter(), slots.enter()
    assert slots.wait(running, 0.1)
    got: dict = {}

    def session():
        got["ok"] = slots.wait(waiting, 10.0)
        got["at"] = time.monotonic()

    thread = threading.Thread(target=session)
    thread.start()
    time.sleep(0.05)
    freed = time.monotonic()
    slots.leave(running)
    thread.join(5)
    assert got["ok"] and got["at"] - freed < 0.1
