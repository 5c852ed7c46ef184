"""README's keyboard table must name every shortcut the action registry declares."""

from __future__ import annotations

import re
from pathlib import Path

from rag_annotator.ui.actions import REGISTRY

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_lists_every_registered_shortcut() -> None:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("### Keyboard shortcuts"):text.index("## Command line")]
    keys = set(re.findall(r"[A-Za-z0-9?+=\-]+", " ".join(
        line.split("|")[1] for line in table.splitlines() if line.startswith("| ")
        and not line.startswith("| keys"))))
    ranges = {"Ctrl+1 … Ctrl+7": [f"Ctrl+{i}" for i in range(1, 8)]}
    for written, expanded in ranges.items():
        if written in table:
            keys.update(expanded)
    missing = [s for spec in REGISTRY for s in spec.shortcuts if s not in keys]
    assert missing == []
