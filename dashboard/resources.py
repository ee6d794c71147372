"""Where the dashboard's files are: the sample data and the Streamlit config.

The repository keeps them at its top (``sample_data/``, ``.streamlit/config.toml``); a wheel
carries copies under ``dashboard/_bundled/`` (written by ``setup.py``'s build step), because an
installed package has no repository around it. The bundled copy wins when present, so an
installed dashboard never picks up an unrelated ``sample_data`` lying beside site-packages.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
#: where a wheel puts the files (see ``setup.py``)
BUNDLED = _HERE / "_bundled"
#: the checkout's top, when running from a clone
CHECKOUT = _HERE.parent


def resource(name: str) -> Path:
    """Path of ``name`` (``"sample_data"`` or ``".streamlit/config.toml"``), bundled copy
    first, then the checkout's; raises ``FileNotFoundError`` naming both places."""
    for base in (BUNDLED, CHECKOUT):
        path = base / name
        if path.exists():
            return path
    raise FileNotFoundError(f"{name} is neither in {BUNDLED} nor in {CHECKOUT}")
