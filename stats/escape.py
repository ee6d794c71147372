"""One escaping function for each language this package writes, used by every writer and
every message: :func:`latex`, :func:`markdown` (Streamlit's Markdown, KaTeX and HTML),
:func:`html`, :func:`csv_cell` (spreadsheet formulas), :func:`tsv_cell` (the CLI's and reports'
TSV: one cell, no formula) and :func:`terminal` (control characters
and ANSI escapes), with :func:`one_line` for error and warning lines (at most
:data:`MAX_LINE` characters, whatever a file name or field held).

Names in the output (systems, metrics, files, language pairs) come from user files, so each
of them passes through the function of the language it is written in, once.
"""

from __future__ import annotations

import html as _html
import re

__all__ = [
    "MAX_LINE",
    "csv_cell",
    "html",
    "latex",
    "markdown",
    "one_line",
    "terminal",
    "tsv_cell",
    "tsv_comment",
]

#: longest error or warning line, in characters (the rest is cut, marked with an ellipsis)
MAX_LINE = 300

# ---- LaTeX ----

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # text-mode safe forms of what names and headers carry ("best |r|", "p (r ≠ 0)", "Δr")
    "|": r"\textbar{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "α": r"$\alpha$",
    "ρ": r"$\rho$",
    "τ": r"$\tau$",
    "λ": r"$\lambda$",
    "ε": r"$\varepsilon$",
    "σ": r"$\sigma$",
    "μ": r"$\mu$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
    "√": r"$\surd$",
    "Δ": r"$\Delta$",
    "≠": r"$\neq$",
    "×": r"$\times$",
    "±": r"$\pm$",
    "−": "-",
    "–": "--",
    "·": r"$\cdot$",
    "†": r"\dag{}",
}
# line breaks (TeX ends a line, or a comment, at any of them) and other control characters
_LATEX_SPECIAL.update({c: " " for c in "\r\n\x0b\x0c\x85\u2028\u2029"})
_LATEX_SPECIAL_RE = re.compile(
    "|".join(re.escape(c) for c in _LATEX_SPECIAL) + "|[\x00-\x08\x0e-\x1f\x7f-\x9f]"
)


def latex(text) -> str:
    """``text`` safe inside LaTeX running text, a table cell, a caption or a ``%`` comment
    (pdflatex): ``\\ & % $ # _ { } ~ ^`` become ``\\textbackslash{} \\& \\% \\$ \\# \\_ \\{ \\}
    \\textasciitilde{} \\textasciicircum{}`` (one pass, so the braces of an inserted command
    are not escaped again, and no ``^^`` is left for TeX to read as a character code); ``| < >``
    and the Greek letters and symbols of the dashboard's headers (ρ τ α λ Δ ≠ × ± − – · †) get
    their text-mode or math forms; line breaks become spaces and other control characters are
    dropped.

    Examples
    --------
    >>> latex(r"\\input{/etc/passwd} ^^5c x_1")
    '\\\\textbackslash{}input\\\\{/etc/passwd\\\\} \\\\textasciicircum{}\\\\textasciicircum{}5c x\\\\_1'
    """
    return _LATEX_SPECIAL_RE.sub(lambda m: _LATEX_SPECIAL.get(m.group(0), ""), str(text))


# ---- Markdown (Streamlit) ----

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#$~|])")
#: a list item's marker at the start (``- x``, ``+ x``, ``1. x``, ``1) x``)
_LIST_MARKER = re.compile(r"^(\s*\d*)([-+.)])(?=\s|$)")
#: bare links and shortcodes (see :func:`markdown`)
_INERT = re.compile(r"(https?|ftp|mailto|xmpp|www|[\w.+-](?=@)|:(?=[\w/+-]+:))", re.IGNORECASE)
_WORD_JOINER = "\u2060"


def markdown(text) -> str:
    """``text`` with Markdown, KaTeX and HTML-significant characters backslash-escaped, and
    the bare links and shortcodes that no backslash stops made inert.

    Use it for every string that carries user-supplied names (file, system, metric, LP names)
    before it reaches ``st.error``/``st.warning``/``st.info``/``st.markdown``/``st.subheader``,
    ``st.table`` cells or captions, so ``**x**``, ``$x^2$``, ``_a_``, ``:red[x]``, ``<b>``,
    ``[x](url)`` or a leading list marker print literally. GitHub-flavoured Markdown finds bare
    links (``http://``, ``www.``, ``a@b.c``) in the text after escapes are resolved, and
    Streamlit draws ``:material/icon:`` and emoji shortcodes: an invisible word joiner
    (U+2060) after the scheme, ``www``, the character before ``@`` or the shortcode's colon
    stops them.

    Examples
    --------
    >>> markdown("**x** $y$")
    '\\\\*\\\\*x\\\\*\\\\* \\\\$y\\\\$'
    """
    text = _INERT.sub("\\1" + _WORD_JOINER, str(text))
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return _LIST_MARKER.sub(r"\1\\\2", text)


# ---- HTML ----


def html(text) -> str:
    """``text`` safe in HTML text and quoted attributes: ``& < > " '`` as entities, control
    characters (other than tab and line breaks) dropped.

    Examples
    --------
    >>> html('<b title="x">&</b>')
    '&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
    """
    return _html.escape(_CONTROL_HTML.sub("", str(text)), quote=True)


_CONTROL_HTML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

# ---- CSV ----

_CSV_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value):
    """A CSV cell that no spreadsheet runs as a formula (OWASP CSV injection): a text cell
    starting with ``= + - @``, a tab or a carriage return gets a leading single quote. Numbers
    -- and text that is just a number, such as ``-0.5`` -- stay as they are.

    Examples
    --------
    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-0.5"), csv_cell(0.5)
    ("'=HYPERLINK(1)", '-0.5', 0.5)
    """
    if isinstance(value, str) and value.startswith(_CSV_TRIGGERS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


# ---- TSV ----

#: what would end a TSV cell or row: tab, the line breaks of ``str.splitlines``, and NUL
_TSV_BREAKS = re.compile("[\x00\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
#: the placeholders the writers print for a missing value (never a formula)
_PLACEHOLDERS = frozenset({"-", "--"})


def tsv_cell(value) -> str:
    """A TSV cell that stays one cell and runs as no formula: tabs and line breaks written as
    ``\\t``-style escapes (so a name cannot shift the columns after it or split the row),
    then :func:`csv_cell`'s leading quote for ``= + - @`` (as the dashboard's CSV). Numbers
    and the ``-`` of a missing value stay as they are.

    Examples
    --------
    >>> tsv_cell("A\\tB"), tsv_cell("=HYPERLINK(1)"), tsv_cell("@SUM"), tsv_cell("-0.5")
    ('A\\\\tB', "'=HYPERLINK(1)", "'@SUM", '-0.5')
    """
    text = _TSV_BREAKS.sub(_visible, str(value))
    return text if text in _PLACEHOLDERS else csv_cell(text)


def tsv_comment(text) -> str:
    """A ``#`` caption line of a TSV output: ``# `` and ``text`` with its tabs and line breaks
    escaped as :func:`tsv_cell` escapes them (a name from a file cannot end the comment and
    start a row, or open a cell).

    Examples
    --------
    >>> tsv_comment("left out: A\\n=1+1")
    '# left out: A\\\\n=1+1'
    """
    return "# " + _TSV_BREAKS.sub(_visible, str(text))


# ---- terminal ----

#: C0 controls (but tab), DEL, C1 controls (ESC and CSI start ANSI sequences), line and
#: paragraph separators, and the bidirectional overrides that reorder what a terminal shows
_TERMINAL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def terminal(text) -> str:
    """``text`` safe to print on a terminal: control characters (ESC of ANSI sequences
    included), line breaks and bidirectional overrides shown as ``\\x1b``-style escapes.

    Examples
    --------
    >>> terminal("\\x1b[31mred\\nline")
    '\\\\x1b[31mred\\\\nline'
    """
    return _TERMINAL.sub(_visible, str(text))


def _visible(match: re.Match) -> str:
    return match.group(0).encode("unicode_escape").decode("ascii")


def one_line(text, limit: int = MAX_LINE) -> str:
    """An error or warning line for a terminal or a page: :func:`terminal`-escaped (so one
    line whatever the text holds) and at most ``limit`` characters. A longer line keeps its
    start (the file, line and column) and its end (what to do), the middle cut at ``...``.
    Only the ends of a long text are looked at (a 50-million-character name costs nothing).

    Examples
    --------
    >>> line = one_line("a.tsv, line 3: name " + "x" * 400 + " is too long; rename it")
    >>> len(line), line[:24], line[-16:]
    (300, 'a.tsv, line 3: name xxxx', ' long; rename it')
    >>> one_line("bad\\r\\nline")
    'bad\\\\r\\\\nline'
    """
    text = str(text)
    if len(text) <= limit:
        line = terminal(text)
        if len(line) <= limit:
            return line
    tail = (limit - 3) * 11 // 20
    head = limit - 3 - tail
    start, end = terminal(text[:head]), terminal(text[-tail:])
    return start[:head] + "..." + end[-tail:]
