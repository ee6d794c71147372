"""What a page run produces besides its elements: the progress bar of long computations and
the page report (what the page showed, bundled by the "Download report" button).

:mod:`dashboard.components` records into the report as it draws; ``app.py`` starts a report
each full run and draws the button; pages call :func:`run_steps` for slow cached steps.
"""

from __future__ import annotations

import collections
import contextvars
import functools
import hashlib
import os
import threading

import streamlit as st

from dashboard import export, report, state
from dashboard.data import Uploads

# ---------------------------------------------------------------------------------------------
# ---- Progress of long computations ----
# ---------------------------------------------------------------------------------------------


def progress_callback(bar, start: float, end: float, text: str):
    """A ``progress(fraction)`` callback for stats functions that moves ``bar`` (an
    ``st.progress``) from ``start`` to ``end``.

    The update runs in the page's own context, captured here, so a call made while a
    ``st.cache_data`` function computes is not recorded for cache replay (which would fail:
    the bar lives outside the cached function). On a cache hit it is never called.
    The callback's ``describe(detail)`` makes the bar say ``text: detail`` from its next
    update on (:func:`stats._core.workers.run_isolated` says there what its child does, how
    long it has run and the memory it holds).
    """
    ctx = contextvars.copy_context()
    shown = {"value": start, "text": text}

    def update(fraction: float) -> None:
        shown["value"] = min(1.0, max(0.0, start + (end - start) * float(fraction)))
        ctx.run(bar.progress, shown["value"], text=shown["text"])

    def describe(detail: str) -> None:
        shown["text"] = f"{text}: {detail}"

    update.describe = describe  # type: ignore[attr-defined]
    return update


#: prefix of the Stop buttons' widget keys (one per call of :func:`run_steps` on a page)
STOP_KEY = "run_steps_stop"
#: long computations the server runs at once, across all sessions (half the cores, at least
#: one): more would only share the same cores, slower each, and starve the light work of the
#: other sessions (uploads, redraws), which never waits for a slot
HEAVY_SLOTS = max(1, (os.cpu_count() or 2) // 2)


class FairSlots:
    """:data:`HEAVY_SLOTS` slots handed out first come, first served: a session that asks
    waits behind those that asked before it (never overtaken, as a semaphore's waiters can
    be), and one that finishes goes to the back of the queue if it asks again. Each run is
    bounded by the session's work budget, so a session waits for at most the bounded runs
    ahead of it; :meth:`place` tells it where it stands, and :meth:`leave` (Stop, a rerun, an
    error) gives up its place or its slot."""

    def __init__(self, slots: int):
        self.slots = slots
        self.running: set = set()
        self.queue: collections.deque = collections.deque()
        self.cond = threading.Condition()

    def enter(self) -> object:
        """A ticket at the back of the queue."""
        ticket = object()
        with self.cond:
            self.queue.append(ticket)
        return ticket

    def wait(self, ticket, timeout: float) -> bool:
        """Whether ``ticket`` got a slot within ``timeout`` seconds (it is first in the queue
        and a slot is free)."""
        with self.cond:
            ok = self.cond.wait_for(
                lambda: len(self.running) < self.slots and self.queue and self.queue[0] is ticket,
                timeout,
            )
            if ok:
                self.queue.popleft()
                self.running.add(ticket)
                self.cond.notify_all()
            return bool(ok)

    def place(self, ticket) -> int:
        """1 for the first in the queue, ...; 0 once it runs (or left)."""
        with self.cond:
            return self.queue.index(ticket) + 1 if ticket in self.queue else 0

    def leave(self, ticket) -> None:
        with self.cond:
            if ticket in self.queue:
                self.queue.remove(ticket)
            self.running.discard(ticket)
            self.cond.notify_all()


_SLOTS = FairSlots(HEAVY_SLOTS)


def _wait_for_slot(bar, text: str):
    """A slot for a long computation (its ticket); while others are ahead, say where this
    session stands on ``bar`` every half second (each update is a point where Stop or a change
    of a control ends the wait, and the session leaves the queue)."""
    ticket = _SLOTS.enter()
    waited = 0.0
    try:
        while not _SLOTS.wait(ticket, 0.5):
            waited += 0.5
            place = _SLOTS.place(ticket)
            bar.progress(
                0.0,
                text=f"{text} (waiting {waited:.0f} s: place {place} in the queue for one of "
                f"{HEAVY_SLOTS} computation slot(s) shared by all sessions; Stop cancels)",
            )
    except BaseException:
        _SLOTS.leave(ticket)
        raise
    return ticket


def _stop_key(text: str, key: str | None) -> str:
    if key is not None:
        return f"{STOP_KEY}_{key}"
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
    return f"{STOP_KEY}_{digest}"


def stopped(key: str) -> bool:
    """Whether this run follows a click on the Stop button ``key`` (a button is True in the one
    run its click triggers, and False again in the next)."""
    return bool(st.session_state.get(key))


def _show_stopped(text: str, key: str, n_steps: int) -> list | None:
    """Say what was stopped (the step that was running, as its bar named it); return the
    results of the last completed run of these steps, kept to stay on the page, or end the
    page (``st.stop``) when there are none."""
    running = st.session_state.get(f"{key}_running", text)
    last = st.session_state.get(f"{key}_last")
    kept = last is not None and len(last) == n_steps
    st.info(
        f"Stopped: {running.rstrip(' .…')} was interrupted, and nothing of it was kept. "
        + ("The results below are the last ones computed, for the settings before. "
           if kept else "")
        + "Change a setting, or press *Run again*.",
        icon=":material/stop_circle:",
    )  # fmt: skip
    st.button("Run again", key=f"{key}_again", icon=":material/play_arrow:")
    if not kept:
        st.stop()
    return list(last)


def run_steps(steps, *, text: str, key: str | None = None, keep: bool = True) -> list:
    """Run slow cached computations one after another under one ``st.progress`` bar, with a
    **Stop** button beside it.

    ``steps`` is a sequence of ``(label, call)``: step k of n gets the k-th n-th of the bar,
    shows ``label`` and is called as ``call(_progress=...)`` with a :func:`progress_callback`
    for its part (the data layer's progress argument, not part of a cache key; use
    ``functools.partial`` for the other arguments). ``text`` is shown before the first step;
    the bar and the button are removed after the last step, or when a step raises. Returns
    the results in order.

    Stop: a click asks Streamlit for a rerun, which ends the running step at its next progress
    update (Streamlit raises in the script thread; an ``st.cache_data`` function that raises
    stores nothing, and the on-disk statistics cache is written by atomic renames only). The
    rerun finds the button pressed and says which step was stopped (the label its bar showed);
    the results of the last completed run of these steps (this session's) are returned again,
    so the page keeps showing them, said so; without any it ends the page there
    (:func:`st.stop`). Every control drawn above stays usable, and the next change of one, or
    *Run again*, computes afresh. ``keep=False``: a Stop never shows earlier results (for a
    step whose earlier results belong to other inputs, such as reading the files). Every long computation of every page goes through here;
    ``key`` names the button when a page runs two computations with the same ``text``.

    At most :data:`HEAVY_SLOTS` such computations run at once across all sessions; the others
    wait for a slot in order of arrival (:class:`FairSlots`), their bar showing their place
    in the queue (Stop cancels the wait), so that a few heavy sessions cannot starve every
    other session of the server's cores, nor one session overtake another. The steps run in
    this thread at its own priority: the long computations of the data layer run in child
    processes at the lowest one (:data:`dashboard.data._isolated.HEAVY_NICE`), so that the
    light work of the other sessions is not slowed by them. A thread of the server is never lowered: on a
    busy machine a thread at the lowest priority takes a hundred times longer for the same
    Python work (docs/limits.md), every thread behind it waits for the interpreter's lock,
    and a Stop or a freed slot would wait for it.
    """
    stop_key = _stop_key(text, key)
    if stopped(stop_key):  # the results shown before Stop stay on the page
        return _show_stopped(text, stop_key, len(steps) if keep else -1)
    slot = st.empty()
    with slot.container():
        bar = st.progress(0.0, text=text)
        st.button(
            "Stop",
            key=stop_key,
            icon=":material/stop_circle:",
            help="Stop this computation; the page keeps its settings and computes again on "
            "the next change.",
        )
    results = []
    ticket = _wait_for_slot(bar, text)
    try:
        for k, (label, call) in enumerate(steps):
            start, end = k / len(steps), (k + 1) / len(steps)
            bar.progress(start, text=label)
            st.session_state[f"{stop_key}_running"] = label  # what a Stop interrupts
            results.append(call(_progress=progress_callback(bar, start, end, label)))
        st.session_state[f"{stop_key}_last"] = results  # shown again after a Stop
    finally:  # a step that fails (e.g. on an input error) leaves no bar or button behind
        _SLOTS.leave(ticket)
        slot.empty()
    return results


def run_long(call, *, text: str, key: str | None = None):
    """One slow computation under :func:`run_steps` (its progress bar and Stop button):
    ``call(_progress=...)``'s result."""
    return run_steps([(text, call)], text=text, key=key)[0]


# ---------------------------------------------------------------------------------------------
# ---- The page report: what a page showed, bundled by "Download report" ----
# ---------------------------------------------------------------------------------------------


def start_report(page: str) -> report.PageReport:
    """A new, empty :class:`dashboard.report.PageReport` for this full run of ``page`` (from
    app.py): :func:`~dashboard.components.show_figure`, ``table_downloads``, ``file_input`` and
    every ``persistent`` setting add to it; a fragment's rerun updates its own entries."""
    page_report = report.PageReport(page)
    st.session_state[state.REPORT_KEY] = page_report
    return page_report


def current_report() -> report.PageReport | None:
    """The report of the page now running, or ``None`` outside app.py (a page run alone)."""
    return st.session_state.get(state.REPORT_KEY)


def record_setting(key: str, label: str, value) -> None:
    """Add a setting (seed, α, correction, ...) to the page's report record."""
    page_report = current_report()
    if page_report is not None:
        page_report.add_setting(key, label, value)


def record_note(key: str, kind: str, text: str) -> None:
    """Add a line the page showed to its report: ``kind`` one of
    :data:`dashboard.report.NOTE_KINDS` (error, warning, signature, note)."""
    page_report = current_report()
    if page_report is not None:
        page_report.add_note(key, kind, text)


def record_inputs(key: str, uploads: Uploads, *, sample: bool) -> None:
    """Add the files analysed (uploaded or the bundled sample) to the page's report record."""
    page_report = current_report()
    if page_report is not None:
        page_report.add_inputs(key, uploads, sample=sample)


def report_button(page_report: report.PageReport, *, key: str = "download_report") -> None:
    """The "Download report" button: the zip of :func:`dashboard.report.build_report` for
    everything ``page_report`` holds when the user clicks (built then, on click: kaleido renders
    the SVG figures, which takes seconds)."""
    st.download_button(
        "Download report",
        data=functools.partial(
            report.build_report, page_report, svg=export.find_browser() is not None
        ),
        file_name=report.report_filename(page_report.page),
        mime="application/zip",
        key=key,
        on_click="ignore",
        icon=":material/folder_zip:",
        help="A zip: self-contained report.html, LaTeX tables, SVG figures and a JSON record "
        "(every number, settings, input files with SHA-256, versions).",
    )
