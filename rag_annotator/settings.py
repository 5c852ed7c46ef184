"""User settings, declared once with their types and defaults, stored as JSON.

Settings are small and human-readable (never pickled).  A damaged or unreadable settings file
is set aside as ``settings.json.bad`` and defaults are used: losing preferences must never stop
the app from opening someone's work.  Writes go through a temporary file and ``os.replace``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

MAX_RECENT = 10
#: The interval levels offered (the Dashboard's choice).
INTERVAL_LEVELS = (0.8, 0.9, 0.95, 0.99)
#: Text zoom (View menu), in percent of the system font: range and step.
ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 50, 300, 10
#: View → Appearance: the system's look, or one of the app's own.
APPEARANCES = ("system", "light", "dark", "high_contrast")


@dataclass
class Settings:
    """Every setting of the app.

    Attributes:
        assessor: the name recorded with this user's judgments and verdicts.
        language: "system", "fr" or "en".
        recent_files: most recent first, at most MAX_RECENT.
        window_geometry / window_state: Qt's saved geometry, base64 text.
        last_section: index of the section shown last.
        column_mappings: spreadsheet imports' column mapping, by header set.
        export_choices: the export dialog's last choices (format, destination, scope).
        interval_level: the level of every interval the app shows (0.95: 95 %).
        enough_points: the half-width, in points, "how many cases are enough" aims at.
        team_folders: the folder each gold set's team files arrive in, by the file's path.
        text_zoom: the text size, in percent of the system font (View → Larger Text).
        appearance: View → Appearance, one of APPEARANCES.
        welcomed: the first start's welcome was closed (it shows until then).
    """

    assessor: str = ""
    language: str = "system"
    recent_files: list[str] = field(default_factory=list)
    window_geometry: str = ""
    window_state: str = ""
    last_section: int = 0
    column_mappings: dict[str, dict[str, str]] = field(default_factory=dict)
    export_choices: dict[str, Any] = field(default_factory=dict)
    interval_level: float = 0.95
    enough_points: int = 10
    team_folders: dict[str, str] = field(default_factory=dict)
    text_zoom: int = 100
    appearance: str = "system"
    welcomed: bool = False

    @classmethod
    def load(cls, path: Path) -> Settings:
        """Read settings, keeping defaults for anything missing, mistyped or unreadable."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError):
            try:
                os.replace(path, path.with_name(path.name + ".bad"))
            except OSError:
                pass
            return cls()
        settings = cls()
        if isinstance(raw, dict):
            for f in fields(cls):
                value = raw.get(f.name)
                default = getattr(settings, f.name)
                if isinstance(value, type(default)):
                    setattr(settings, f.name, value)
        if settings.language not in ("system", "fr", "en"):
            settings.language = "system"
        if settings.interval_level not in INTERVAL_LEVELS:
            settings.interval_level = 0.95
        if not 1 <= settings.enough_points <= 50:
            settings.enough_points = 10
        if not ZOOM_MIN <= settings.text_zoom <= ZOOM_MAX:
            settings.text_zoom = 100
        if settings.appearance not in APPEARANCES:
            settings.appearance = "system"
        settings.recent_files = [p for p in settings.recent_files if isinstance(p, str)]
        settings.team_folders = {k: v for k, v in settings.team_folders.items()
                                 if isinstance(v, str)}
        return settings

    def save(self, path: Path) -> None:
        """Write settings atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(self), ensure_ascii=False, indent=2), encoding="utf-8")
        os.replace(tmp, path)

    def add_recent(self, file: str | Path) -> None:
        """Put a file first in the recent list."""
        text = str(Path(file).resolve())
        self.recent_files = [text, *[p for p in self.recent_files if p != text]][:MAX_RECENT]

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (for tests and diagnostics)."""
        return asdict(self)
