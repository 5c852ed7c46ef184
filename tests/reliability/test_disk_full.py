"""A full disk during an export and during a write (reliability A6).

Two ways to fill the disk: a small tmpfs mounted for the test (needs root; skipped where
mounting is not allowed), and, everywhere, a child process whose file-size limit
(RLIMIT_FSIZE, with SIGXFSZ ignored) makes every write past it fail with EFBIG.  Either way:
a clear one-line message (a KnownError; exit status 2 and ``error: …`` from the CLI), no
partial file under the final name and no temporary file left, the gold-set file unchanged
(same rows) and sound, and the next edit works once there is room again.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.sample import create_sample
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump, listing, sha256

RUN = "bm25-gpt4o-v1"
FILLER = "filler.bin"

@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("full") / "sample.goldset"
    create_sample(path, assessor="full").close()
    return path


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs (root only; skipped where mounting is not permitted)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs",
                           str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        gc.collect()  # a failed writer may still hold a file open on it
        if subprocess.run(["umount", str(mount)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "--lazy", str(mount)], check=False)


def fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` so that about ``leave`` bytes stay free."""
    stat = os.statvfs(disk)
    free = stat.f_bavail * stat.f_frsize
    with open(disk / FILLER, "wb") as handle:
        handle.write(b"\0" * max(free - leave, 0))


def big_corpus(path: Path, n: int = 300) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            handle.write(json.dumps({"_id": f"BIG-{i}", "title": f"Grand {i}",
                                     "text": f"Un long texte numéro {i}. " * 80}) + "\n")
    return path


def one_line(error: BaseException) -> str:
    text = str(error).strip()
    assert text and "\n" not in text
    return text


# -- exports onto a full disk -----------------------------------------------------------------
@pytest.mark.parametrize("fmt", sorted(registry.EXPORTS))
def test_export_to_a_full_disk(fmt: str, sample: Path, small_disk: Path,
                               tmp_path: Path) -> None:
    work = tmp_path / "g.goldset"
    shutil.copyfile(sample, work)
    before, digest = full_dump(work), sha256(work)
    fill(small_disk, leave=0)
    dest = small_disk / ("export" if fmt in ("csv", "beir") else f"export.{fmt}")
    with GoldSetStore.open(work) as store, pytest.raises(KnownError) as raised:
        registry.exporter(fmt)(store, dest, registry.Options(run=RUN))
    message = one_line(raised.value)
    assert str(dest.name) in message or str(small_disk) in message, message
    assert listing(small_disk) == [FILLER], "no partial file, no temporary file"
    assert full_dump(work) == before and sha256(work) == digest
    # With room again, the same export works.
    (small_disk / FILLER).unlink()
    with GoldSetStore.open(work) as store:
        registry.exporter(fmt)(store, dest, registry.Options(run=RUN))
    assert dest.exists()


# -- writes to a gold set on a full disk --------------------------------------------------------
def test_write_to_a_full_disk(sample: Path, small_disk: Path, tmp_path: Path) -> None:
    work = small_disk / "g.goldset"
    shutil.copyfile(sample, work)
    before = full_dump(work)
    corpus = big_corpus(tmp_path / "corpus.jsonl")
    fill(small_disk, leave=16384)
    with GoldSetStore.open(work, assessor="full") as store:
        with pytest.raises(KnownError) as raised:
            registry.importer("corpus")(store, corpus, registry.Options())
        message = one_line(raised.value)
        assert "disk" in message.lower() or "space" in message.lower(), message
        print(f"\nfull disk during a write: {message}")
        assert full_dump(work) == before
        (small_disk / FILLER).unlink()
        registry.importer("corpus")(store, corpus, registry.Options())  # room again: works
    assert sorted(listing(small_disk)) == ["g.goldset"]
    with GoldSetStore.open(work) as reopened:
        assert reopened.integrity_problems() == []
        assert reopened.count("documents") == len(before["documents"]) + 300


# -- the same without root: a file-size limit in a child process -------------------------------
LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from rag_annotator.cli import main
sys.exit(main(sys.argv[2:]))
"""


def run_limited(limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LIMITED, str(limit), *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("fmt", ["trec-run", "qrels", "json", "xlsx"])
def test_export_past_the_file_size_limit(fmt: str, sample: Path, tmp_path: Path) -> None:
    work = tmp_path / "g.goldset"
    shutil.copyfile(sample, work)
    digest = sha256(work)
    out = tmp_path / "out"
    out.mkdir()
    dest = out / f"export.{fmt}"
    done = run_limited(256, "export", str(work), fmt, str(dest), "--run", RUN)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert listing(out) == []
    assert sha256(work) == digest


def test_write_past_the_file_size_limit(sample: Path, tmp_path: Path) -> None:
    work = tmp_path / "g.goldset"
    shutil.copyfile(sample, work)
    before = full_dump(work)
    corpus = big_corpus(tmp_path / "corpus.jsonl")
    done = run_limited(work.stat().st_size + 8192, "import", str(work), "corpus", str(corpus))
    assert full_dump(work) == before
    assert listing(tmp_path) == ["corpus.jsonl", "g.goldset"]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), \
        done.stderr
