"""``mt-stats dashboard [STREAMLIT OPTIONS...]``: start the dashboard from an install.

Runs ``streamlit run <installed dashboard/app.py>`` in this interpreter with the project's
Streamlit settings (the theme, headless server, upload size of ``.streamlit/config.toml``,
bundled in the wheel) given as command-line options, followed by the user's options, which
win (``--server.port 8502``, ``--server.address 127.0.0.1``, ...). Imports nothing of the
dashboard or Streamlit itself: ``stats`` stays UI-free.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

HELP = """\
usage: mt-stats dashboard [STREAMLIT OPTIONS ...]

Start the dashboard (Streamlit) on the bundled sample data; it prints the address to open
(http://localhost:8501 by default). Every option is passed to `streamlit run`, after the
project's own settings, so yours win, e.g.:

  mt-stats dashboard --server.port 8502 --server.address 127.0.0.1

Needs the dashboard extra: pip install 'mt-significance[dashboard]'.
"""


def add_parser(sub) -> None:
    """Lists the subcommand in ``--help``; its arguments bypass argparse (see :func:`main`)."""
    sub.add_parser(
        "dashboard",
        help="start the dashboard (options are passed to `streamlit run`)",
        add_help=False,
    )


def _config_file() -> Path | None:
    spec = importlib.util.find_spec("dashboard.resources")
    if spec is None or spec.origin is None:
        return None
    here = Path(spec.origin).resolve().parent
    for path in (
        here / "_bundled" / ".streamlit" / "config.toml",
        here.parent / ".streamlit" / "config.toml",
    ):
        if path.is_file():
            return path
    return None


def _load_toml(path: Path) -> dict:
    try:
        import tomllib  # Python 3.11+
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10: Streamlit depends on toml
        import toml

        return toml.loads(path.read_text(encoding="utf-8"))
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def config_options(path: Path | None) -> list[str]:
    """The settings of a Streamlit ``config.toml`` as ``streamlit run`` options
    (``[server] headless = true`` -> ``--server.headless=true``)."""
    if path is None:
        return []
    options = []
    for section, values in _load_toml(path).items():
        for key, value in values.items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            options.append(f"--{section}.{key}={text}")
    return options


def command(argv: list[str]) -> list[str]:
    """The ``streamlit run`` command line for ``argv`` (the user's options)."""
    spec = importlib.util.find_spec("dashboard")
    if spec is None or spec.origin is None:
        raise LookupError("the dashboard package is not installed")
    app = Path(spec.origin).resolve().parent / "app.py"
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        *config_options(_config_file()),
        *argv,
    ]


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(HELP)
        return 0
    if importlib.util.find_spec("streamlit") is None:
        print(
            "error: the dashboard needs Streamlit: pip install 'mt-significance[dashboard]'",
            file=sys.stderr,
        )
        return 2
    try:
        cmd = command(argv)
    except LookupError as exc:
        print(f"error: {exc}: pip install 'mt-significance[dashboard]'", file=sys.stderr)
        return 2
    if os.name == "posix":  # the server becomes this process: signals reach it directly
        sys.stdout.flush()
        os.execv(sys.executable, cmd)
    return subprocess.call(cmd)  # pragma: no cover - Windows
