"""Where the worker keeps what it makes once and reuses: runtime trees, builds, the start helper."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """/var/cache/ladder for root (the workers), else the user's cache."""
    if os.geteuid() == 0:
        return Path("/var/cache/ladder")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ladder"
