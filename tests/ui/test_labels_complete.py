"""Every operation the core can record has a translated title in the History and Edit menu."""

from __future__ import annotations

from rag_annotator.domain.action_names import ACTION_NAMES
from rag_annotator.ui import labels


def test_every_domain_action_has_a_ui_title() -> None:
    assert sorted(set(ACTION_NAMES) - set(labels.ACTIONS)) == []


def test_french_titles_of_actions(qapp, french: None) -> None:  # type: ignore[no-untyped-def]
    # qapp before french: translators need the QApplication
    assert labels.action_title("set_judgment") == "Jugement"
    assert labels.action_title("import_run") == "Import d’une exécution"
    assert labels.action_title("set_adjudication") == "Arbitrage"


def test_every_writable_table_has_a_ui_name() -> None:
    """The History names the row each change touched: every table an operation may write."""
    from rag_annotator.storage.transaction import WRITABLE_TABLES

    assert sorted(set(WRITABLE_TABLES) - set(labels.TABLES)) == []
