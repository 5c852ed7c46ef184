"""Every operation the core can record has a translated title in the History and Edit menu."""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

import rag_annotator
from rag_annotator.domain import action_names
from rag_annotator.domain.action_names import ACTION_NAMES
from rag_annotator.ui import labels

ROOT = Path(rag_annotator.__file__).parent
FRENCH = ROOT / "resources" / "translations" / "rag_annotator_fr.ts"


def test_the_ui_shows_the_one_registry_of_titles() -> None:
    assert labels.ACTIONS is ACTION_NAMES


def _marked_titles() -> list[str]:
    """The texts lupdate extracts from ``domain/action_names.py``: QT_TRANSLATE_NOOP calls
    with two literals, in the ``labels`` context."""
    tree = ast.parse(Path(action_names.__file__).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "QT_TRANSLATE_NOOP"):
            context, text = node.args
            assert isinstance(context, ast.Constant) and context.value == "labels"
            assert isinstance(text, ast.Constant) and isinstance(text.value, str)
            found.append(text.value)
    return found


def test_every_action_title_is_marked_for_lupdate() -> None:
    """A title written without the marker would never reach the translators."""
    assert sorted(_marked_titles()) == sorted(ACTION_NAMES.values())


def test_every_action_title_has_a_french_translation() -> None:
    labels_context = next(c for c in ET.parse(FRENCH).getroot().iter("context")
                          if c.findtext("name") == "labels")
    translated = {m.findtext("source"): m.find("translation")
                  for m in labels_context.iter("message")}
    missing = [title for title in ACTION_NAMES.values()
               if title not in translated or not (translated[title].text or "").strip()
               or translated[title].get("type") == "unfinished"]
    assert missing == []


def test_translations_script_extracts_the_registry() -> None:
    script = (ROOT.parent / "scripts" / "update_translations.sh").read_text(encoding="utf-8")
    assert "rag_annotator/domain/action_names.py" in script


def test_french_titles_of_actions(qapp, french: None) -> None:  # type: ignore[no-untyped-def]
    # qapp before french: translators need the QApplication
    assert labels.action_title("set_judgment") == "Jugement"
    assert labels.action_title("import_run") == "Import d’une exécution"
    assert labels.action_title("set_adjudication") == "Arbitrage"


def test_every_writable_table_has_a_ui_name() -> None:
    """The History names the row each change touched: every table an operation may write."""
    from rag_annotator.storage.transaction import WRITABLE_TABLES

    assert sorted(set(WRITABLE_TABLES) - set(labels.TABLES)) == []
