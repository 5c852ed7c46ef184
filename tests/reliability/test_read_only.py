"""A gold set in a read-only file or folder opens read-only, with a visible banner.

Root ignores file permissions, so as root the test makes the place really read-only: a
read-only bind mount of the file itself (file case) or a read-only tmpfs holding it (folder
case); otherwise it uses chmod.  Skipped where neither is possible.  Whatever the case:
``GoldSetStore.open`` refuses read-write with ReadOnlyLocation (a one-line message that says
what to do), opens read-only, every write raises a KnownError, the CLI reads it and refuses to
import with one ``error:`` line, nothing is created beside it, and the desktop app opens it
read-only with the banner shown.
"""

from __future__ import annotations

import gc
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_annotator.domain import operations as ops
from rag_annotator.errors import KnownError, ReadOnlyLocation
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import listing, run_cli, sha256

ROOT_USER = os.geteuid() == 0


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")


@pytest.fixture(params=["file", "folder"])
def read_only_goldset(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "place"
    folder.mkdir()
    path = folder / "lecture seule.goldset"
    unmount: list[Path] = []
    if request.param == "folder" and ROOT_USER:
        _mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder))
        unmount.append(folder)
    create_sample(path, assessor="owner").close()
    try:
        if not ROOT_USER:
            path.chmod(stat.S_IRUSR | stat.S_IRGRP)
            if request.param == "folder":
                folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
        elif request.param == "file":
            _mount("--bind", str(path), str(path))
            unmount.append(path)
            _mount("-o", "remount,bind,ro", str(path))
        else:
            _mount("-o", "remount,ro", str(folder))
        assert not os.access(path, os.W_OK) or not os.access(folder, os.W_OK)
        yield path
    finally:
        gc.collect()
        for target in reversed(unmount):
            if subprocess.run(["umount", str(target)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "--lazy", str(target)], check=False)
        if not ROOT_USER:
            folder.chmod(stat.S_IRWXU)
            if path.exists():
                path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_read_only_place_opens_read_only(read_only_goldset: Path) -> None:
    path = read_only_goldset
    digest, names = sha256(path), listing(path.parent)
    with pytest.raises(ReadOnlyLocation) as refused:
        GoldSetStore.open(path, assessor="me")
    message = str(refused.value)
    assert "\n" not in message and "read-only" in message and str(path) in message
    with GoldSetStore.open(path, assessor="me", read_only=True) as store:
        assert store.read_only
        assert store.count("cases") > 0
        assert store.integrity_problems() == []
        with pytest.raises(KnownError, match="read-only"):
            ops.create_case(store, key="NOUVEAU", question="?")
    assert sha256(path) == digest
    assert listing(path.parent) == names


def test_cli_reads_a_read_only_file_and_refuses_to_change_it(read_only_goldset: Path,
                                                            tmp_path: Path) -> None:
    path = read_only_goldset
    digest = sha256(path)
    assert run_cli("info", str(path)).returncode == 0
    assert run_cli("check", str(path)).returncode == 0
    qrels = tmp_path / "q.txt"
    qrels.write_text("Q01 0 RH-CP-2025 1\n", encoding="utf-8")
    done = run_cli("import", str(path), "qrels", str(qrels))
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), \
        done.stderr
    assert sha256(path) == digest


@pytest.mark.gui
def test_desktop_app_opens_it_read_only_with_a_banner(read_only_goldset: Path,
                                                      qtbot: object) -> None:
    from rag_annotator.app import create_main_window
    from rag_annotator.paths import app_paths
    from rag_annotator.settings import Settings

    window = create_main_window(None, Settings(assessor="me"), paths=app_paths().ensure())
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.show()
    try:
        assert window.open_file(read_only_goldset)
        assert window.store is not None and window.store.read_only
        banner = window.read_only_banner
        assert banner.isVisible()
        assert "read-only" in banner.text().lower() or "lecture seule" in banner.text().lower()
    finally:
        window.close()
