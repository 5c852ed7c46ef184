"""Shared test setup: Qt offscreen, and no test ever touches the real user profile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the app's folders (settings, sample, backups) at a fresh temporary folder."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("RAG_ANNOTATOR_HOME", str(home))
    return home


@pytest.fixture
def goldset_path(tmp_path: Path) -> Path:
    """Where a test's gold-set file goes (a folder of its own, nothing else in it)."""
    folder = tmp_path / "files"
    folder.mkdir()
    return folder / "g.goldset"


@pytest.fixture
def store(goldset_path: Path):
    """A new, empty gold set open read-write for assessor 'alice'."""
    from rag_annotator.storage.store import GoldSetStore

    opened = GoldSetStore.create(goldset_path, assessor="alice")
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def big_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed gold-set file of a few hundred pages; copy it, never change it."""
    from tests.builders import build_big

    return build_big(tmp_path_factory.mktemp("big") / "big.goldset")
