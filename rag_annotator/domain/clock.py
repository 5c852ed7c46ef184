"""One timestamp format for the whole file: ISO-8601 UTC with milliseconds and a ``Z``."""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> str:
    """Now, e.g. ``2026-11-29T18:41:37.123Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
