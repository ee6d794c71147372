"""Uploads and input errors: file uploaders that keep a session's files, the reference +
outputs pair, warnings and input errors shown as one escaped line."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

import streamlit as st

from dashboard import state
from dashboard.data import Uploads, upload_memory, uploads_from_widget
from dashboard.page_run import record_inputs, record_note
from stats import StatsInputError, memory_limit
from stats.escape import markdown as escape_markdown
from stats.escape import one_line


def file_input(
    label: str,
    *,
    key: str,
    sample: Uploads = (),
    sample_note: str | None = None,
    types: list[str] | None = None,
    help: str | None = None,
    directory: bool = False,
) -> tuple[Uploads, bool]:
    """A multi-file uploader that falls back to bundled sample data and keeps the session's
    uploads across page switches (``directory=True``: a folder, each file named by its path
    relative to the folder's parent).

    Returns ``(uploads, is_sample)``. While nothing is uploaded, ``sample`` is returned and an
    ``st.info`` note says so (``sample_note`` or a default naming the sample files). Uploads are
    copied to ``(name, bytes)`` tuples so they can key :mod:`dashboard.data` caches.

    Streamlit drops the state of widgets that are not rendered, so after a switch to another
    page and back the uploader is re-created empty. The uploads are therefore also kept in
    ``st.session_state[state.upload_store_key(key)]`` (this session only) and reused, with an
    ``st.info`` naming them and a "Clear uploads / use sample data" button
    (key ``f"{key}_clear"``). A new upload replaces them; removing the files in the widget
    (its x buttons) while it is shown clears them. The two empty cases are told apart by the
    widget's file ids remembered from the previous run: a re-created widget has no state
    before it is drawn, a widget whose files the user removed does.
    """
    uploads, is_sample = _file_input(
        label,
        key=key,
        sample=sample,
        sample_note=sample_note,
        types=types,
        help=help,
        multiple="directory" if directory else True,
    )
    record_inputs(key, uploads, sample=is_sample)
    return uploads, is_sample


def _file_input(
    label, *, key, sample, sample_note, types, help, multiple=True
) -> tuple[Uploads, bool]:
    store_key = state.upload_store_key(key)
    stored = st.session_state.get(store_key)
    widget_existed = key in st.session_state
    files = st.file_uploader(label, accept_multiple_files=multiple, key=key, type=types, help=help)
    # the note below the uploader has its place in every run, empty when there is none: a new
    # upload clears the sample's note at once, not when the run that reads it has finished
    # (until then the browser keeps the last run's elements where this run has drawn nothing)
    note = st.empty()
    if files is not None and not isinstance(files, (list, tuple)):
        files = [files]
    files = list(files or [])
    ids = tuple(f.file_id for f in files)
    if ids:
        if stored is None or stored["ids"] != ids:
            uploads = uploads_from_widget(files)
            held = state.kept_upload_bytes(st.session_state, other_than=key)
            refused = upload_memory.refusal(key, uploads, held=held, cap=memory_limit())
            # a refused upload is not kept (its bytes dropped here), only why it was refused
            stored = {"uploads": () if refused else uploads, "ids": ids, "refused": refused}
            st.session_state[store_key] = stored
        if stored.get("refused"):
            _refuse(stored["refused"], key, note)
        return stored["uploads"], False
    if stored is not None and stored.get("refused"):
        del st.session_state[store_key]  # the refused files were removed (or the page left)
        stored = None
    if stored is not None and stored["ids"] and widget_existed:
        # the widget showed files last run and the user removed them: forget them
        del st.session_state[store_key]
        stored = None
    if stored is not None:
        # the widget was re-created empty (page switch): keep analysing the kept uploads
        stored = {"uploads": stored["uploads"], "ids": ()}
        st.session_state[store_key] = stored
        names = ", ".join(escape_markdown(name) for name, _ in stored["uploads"])
        with note.container():
            st.info(f"Using your uploaded files: {names}", icon=":material/upload_file:")
            st.button(
                "Clear uploads / use sample data" if sample else "Clear uploads",
                key=f"{key}_clear",
                on_click=_clear_uploads,
                args=(store_key,),
                icon=":material/delete:",
            )
        return stored["uploads"], False
    if sample:
        names = ", ".join(escape_markdown(name) for name, _ in sample)
        note.info(
            sample_note
            or f"Showing the bundled **synthetic sample data** ({names}). "
            "Upload your own files above to analyse them.",
            icon=":material/science:",
        )
    return sample, True


def _refuse(message: str, key: str, place=None) -> None:
    """``message`` as the page's one error line (in ``place``), in the report too; stops."""
    (place or st).error(escape_markdown(message), icon=":material/error:")
    record_note(f"error_{key}", "error", message)
    st.stop()


def check_upload_memory(kind: str, uploads: Uploads, *, kept: bool = True) -> None:
    """Refuse ``uploads`` (the user's, kept by :func:`file_input`) in one error line, and stop
    the page, when reading them as ``kind`` (a key of
    :data:`dashboard.data.upload_memory.READ_FACTORS`) would take the session past its memory
    cap: for files a page reads in the server on a path its uploader's own check does not
    cover (:func:`file_input` checks every upload by its uploader's key). ``kept``: whether
    ``uploads`` are among the session's kept uploads (else they come from a plain uploader)."""
    own = sum(len(data) for _, data in uploads) if kept else 0
    held = max(0, state.kept_upload_bytes(st.session_state) - own)
    refused = upload_memory.refusal(kind, uploads, held=held, cap=memory_limit())
    if refused:
        _refuse(refused, kind)


def _clear_uploads(store_key: str) -> None:
    st.session_state.pop(store_key, None)


def reference_and_outputs(
    labels: tuple[str, str],
    *,
    keys: tuple[str, str],
    sample: tuple[Uploads, Uploads],
    sample_note: str,
    helps: tuple[str | None, str | None] = (None, None),
    types: list[str] | None = None,
    side_by_side: bool = False,
) -> tuple[Uploads, Uploads, bool]:
    """Two :func:`file_input` uploaders, the reference file(s) and one output file per system,
    with one bundled sample for both.

    Returns ``(references, outputs, is_sample)``. The sample pair is used only while neither
    uploader has a file, with one ``st.info`` note (``sample_note``): an uploaded output is never
    paired with the sample reference, nor the reverse. ``labels``, ``keys`` and ``helps`` are
    (reference, outputs); ``side_by_side`` puts the uploaders in two columns.
    """
    places = st.columns(2) if side_by_side else (st.container(), st.container())
    uploaded = []
    for place, label, key, help_text in zip(places, labels, keys, helps, strict=True):
        with place:
            uploaded.append(file_input(label, key=key, help=help_text, types=types)[0])
    references, outputs = uploaded
    note = st.empty()  # in every run: an upload clears the sample's note at once (file_input)
    if references or outputs:
        return references, outputs, False
    note.info(sample_note, icon=":material/science:")
    for key, files in zip(keys, sample, strict=True):
        record_inputs(key, files, sample=True)
    return *sample, True


def ask_for_the_other_half(references: Uploads, outputs: Uploads) -> None:
    """With system outputs but no reference, or a reference but no outputs (one half of
    :func:`reference_and_outputs`), say which upload comes next (``st.info``) and stop the
    run: the other half is the user's next step, not an error. Anything else wrong with the
    files (a single system, unaligned lines) stays an input error of the data layer."""
    if outputs and not references:
        missing = "the reference file (one segment per line)"
    elif references and not outputs:
        missing = "one output file per system (at least two), aligned with the reference"
    else:
        return
    st.info(f"Now upload {missing}.", icon=":material/upload_file:")
    st.stop()


#: more distinct warnings than this are folded into one expander saying how many
FOLD_WARNINGS = 3


def page_words(message: str, controls: Mapping[str, str] | None = None) -> str:
    """``message`` in the page's words: each library phrase of ``controls`` (the page's own
    map, e.g. ``{"include_human=True": "the “Human translations as systems” control"}``)
    replaced by the control the page has for it (:func:`name_controls`), as the CLI shows
    its flags."""
    return name_controls(message, controls)


def show_warnings(
    messages, *, prefix: str | None = None, controls: Mapping[str, str] | None = None
) -> None:
    """One ``st.warning`` per distinct message, escaped with :func:`escape_markdown` (the
    messages of :mod:`dashboard.data` / :mod:`stats` name user files, systems, metrics, LPs).

    ``messages`` is an iterable of strings, or a mapping ``{name: message}`` shown as
    ``"<name> <prefix>: <message>"`` (e.g. ``prefix="left out"`` for per-LP problems); only
    the messages/names are escaped, ``prefix`` is trusted page text. ``controls`` maps the
    library's argument phrases to the page's controls (:func:`name_controls`): a warning names
    what to change on the page, not a Python argument.
    """
    if isinstance(messages, dict):
        messages = {name: page_words(str(msg), controls) for name, msg in messages.items()}
        raw = [f"{name}{' ' + prefix if prefix else ''}: {msg}" for name, msg in messages.items()]
        lines = [
            escape_markdown(one_line(f"{name}{' ' + prefix if prefix else ''}: {msg}", 2000))
            for name, msg in messages.items()
        ]
    else:
        raw = [one_line(page_words(str(msg), controls), 2000) for msg in messages]
        lines = [escape_markdown(msg) for msg in raw]
    unique = dict(zip(lines, raw, strict=True))
    # more than a few: folded into one expander with their count (a wall of testsuite
    # warnings took the top of a page)
    place = (
        st.expander(f"{len(unique)} warnings", icon=":material/warning:")
        if len(unique) > FOLD_WARNINGS
        else contextlib.nullcontext()
    )
    with place:
        for line, text in unique.items():
            st.warning(line, icon=":material/warning:")
            record_note(f"warning_{text}", "warning", text)  # the report states it, unescaped


#: the readers' advice to give a language pair as an argument, as every page says it: the
#: dashboard takes the language pair of a DA file from its name only
FILE_NAMES = {
    ", or give the language pair (lp=XX-YY)": "; rename the file so that it does",
    "; give it with lp=XX-YY": "; rename the file so that it does",
}


def resamples_named(label: str, controls: Mapping[str, str] | None = None) -> dict:
    """A page's map (:func:`name_controls`) naming the library's ``n_resamples`` (a budget's
    "reduce n_resamples to at most N") as the page's resamples control ``label``, with
    ``controls`` (the page's other phrases)."""
    return {**(controls or {}), "n_resamples=": f"“{label}” = ", "n_resamples": f"“{label}”"}


def name_controls(message: str, controls: Mapping[str, str] | None) -> str:
    """``message`` with each library phrase of ``controls`` (``{"input_format=long": ...}``)
    and of :data:`FILE_NAMES` replaced by what the page calls it (the control and the option
    to choose), longest first."""
    every = {**FILE_NAMES, **(controls or {})}
    for phrase in sorted(every, key=len, reverse=True):
        message = message.replace(phrase, every[phrase])
    return message


@contextlib.contextmanager
def input_errors(controls: Mapping[str, str] | None = None) -> Iterator[None]:
    """Turn a :class:`stats.StatsInputError` into ``st.error`` + ``st.stop()``; ``controls``
    maps the library's argument phrases to the page's controls (:func:`name_controls`), so
    the message names what to change on the page, not a Python argument.

    Only input errors are caught: any other exception is a bug and must stay visible to tests.
    """
    try:
        yield
    except StatsInputError as exc:
        text = name_controls(one_line(exc), controls)
        st.error(escape_markdown(text), icon=":material/error:")
        record_note(f"error_{exc}", "error", text)  # the report states it too
        st.stop()
