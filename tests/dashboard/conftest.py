"""Shared fixtures for AppTest tests of the dashboard.

``app_test(page=None)`` (fixture returning a factory) builds
``AppTest.from_file("dashboard/app.py")`` with a generous timeout; with ``page`` (a path
relative to dashboard/, e.g. ``"views/qe.py"``) it switches to ``page``; call ``.run()`` next.
Before its first run AppTest names a page by its file name, and every page of app.py but the
default one is served at its file name (``url_path="qe"`` for ``views/qe.py``; the default
page's hidden twin at ``metrics``), so the first run is already on ``page``: no run of the
default page first (test_app_shell.py checks each page lands on its own title).

``first_run(page=None)`` (a session fixture) is the app after its first run on ``page``, one
run per test process shared by the tests that only read it. ``fresh_run(page=None)`` is an app
of the test's own in that same state (a copy of ``first_run(page)``), to set widgets on and run
again: what ``app_test(page).run()`` gives, without running the page once more.

Example::

    def test_qe_smoke(app_test):
        at = app_test("views/qe.py").run()
        assert not at.exception
"""

from __future__ import annotations

import copy
import functools
import threading
from pathlib import Path

import pytest
from streamlit import config
from streamlit.components.v2 import manifest_scanner
from streamlit.runtime.fragment import MemoryFragmentStorage
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.runtime.state.safe_session_state import SafeSessionState
from streamlit.testing.v1 import AppTest, local_script_runner
from streamlit.testing.v1.app_test import _AppTestSessionState

REPO_ROOT = Path(__file__).resolve().parents[2]
APP = str(REPO_ROOT / "dashboard" / "app.py")

#: Each new AppTest's first run scans every installed distribution's metadata for Streamlit
#: component manifests (about 0.17 s of CPU, several hundred AppTests in the suite). The
#: installed packages do not change during a test session: one scan per test process, each
#: caller getting its own copy of the list.
_scan_once = functools.cache(manifest_scanner.scan_component_manifests)
manifest_scanner.scan_component_manifests = lambda *args, **kwargs: list(
    _scan_once(*args, **kwargs)
)

#: Each new AppTest has its own script cache, so every test parsed and compiled app.py and its
#: page again (Streamlit's magic rewrites the syntax tree first): about 6 % of the CPU of the
#: AppTests. A running server compiles each script once for all its sessions; here the code
#: is shared the same way, once per test process, keyed on the file's content (an edited
#: script compiles afresh).
_compiled: dict = {}
_compiled_lock = threading.Lock()
_compile = ScriptCache.get_bytecode


def _shared_bytecode(self, script_path):
    path = str(Path(script_path).resolve())
    key = (path, Path(path).read_bytes(), config.get_option("runner.magicEnabled"))
    with _compiled_lock:
        if key not in _compiled:
            _compiled[key] = _compile(self, script_path)
        return _compiled[key]


ScriptCache.get_bytecode = _shared_bytecode


def _wait_for_the_run(runner, timeout: float = 3) -> None:
    """Streamlit's ``require_widgets_deltas``, waiting on the script thread instead of polling.

    AppTest waits for the script's SHUTDOWN event by waking every millisecond and scanning
    every event of the run (one per element sent), taking the interpreter lock from the
    script thread a thousand times a second. SHUTDOWN is the script thread's last event, so
    joining the thread waits for the same moment; the same timeout, the same error after it."""
    thread = runner._script_thread
    if thread is not None:
        thread.join(timeout)
    if runner.script_stopped():
        return
    runner.request_stop()
    runner.join()
    raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")


local_script_runner.require_widgets_deltas = _wait_for_the_run

_parse_tree = local_script_runner.parse_tree_from_messages


def _parse_tree_keeping_messages(messages):
    """Streamlit's ``parse_tree_from_messages``; the tree keeps the messages it was parsed from
    (for :func:`_copy_of_run`)."""
    tree = _parse_tree(messages)
    tree._messages = list(messages)
    return tree


local_script_runner.parse_tree_from_messages = _parse_tree_keeping_messages


def _copy_of_run(at: AppTest, timeout: float) -> AppTest:
    """A new AppTest in the state ``at`` is in after a run: its own copy of the session state
    (widget values and metadata, the page's own keys), of the elements (parsed again from the
    run's messages: setting a widget of the copy leaves ``at``'s unchanged), of the fragments
    registered and of the query parameters; the page, the script and the registered pages are
    the same. Running it continues from there as ``at.run()`` would, with ``timeout``."""
    new = copy.copy(at)
    new.default_timeout = timeout
    new._session_state = SafeSessionState(copy.deepcopy(at._session_state._state), lambda: None)
    new.session_state = _AppTestSessionState(new._session_state)
    for name in ("query_params", "secrets", "user", "context", "_cleared_form_ids"):
        setattr(new, name, copy.deepcopy(getattr(at, name)))
    storage = MemoryFragmentStorage()  # it refuses copy(): a lock and containers of its own
    with at._fragment_storage._lock:
        for name, value in vars(at._fragment_storage).items():
            if name != "_lock":
                setattr(storage, name, copy.copy(value))
    new._fragment_storage = storage
    new._tree = _parse_tree_keeping_messages(at._tree._messages)
    new._tree._runner = new
    return new


@pytest.fixture(scope="session")
def first_run():
    """``first_run(page=None)``: the app after its first run on ``page`` (a path relative to
    dashboard/ as for ``app_test``; None the default page) with nothing set before it, run
    once per test process for every test that asks for it. Only for tests that read the run:
    a test that sets a widget or runs it again takes its own from ``app_test``."""
    runs: dict[str | None, AppTest] = {}

    def get(page: str | None = None) -> AppTest:
        if page not in runs:
            at = AppTest.from_file(APP, default_timeout=300)
            if page is not None:
                at.switch_page(page)
            runs[page] = at.run()
        return runs[page]

    return get


@pytest.fixture
def fresh_run(first_run):
    """``fresh_run(page=None, timeout=60)``: the app after a first run on ``page`` with nothing
    set before it, the test's own to set widgets on and run again (with ``timeout``): a copy of
    ``first_run(page)`` (:func:`_copy_of_run`), not one more run of the page."""

    def get(page: str | None = None, timeout: float = 60) -> AppTest:
        return _copy_of_run(first_run(page), timeout)

    return get


@pytest.fixture
def app_test():
    def make(page: str | None = None, timeout: float = 60) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=timeout)
        if page is not None:
            at.switch_page(page)
        return at

    return make
