"""``read_text_lines`` reads blocks for speed; it must say exactly what a line-by-line reader
says: the same lines and numbers, BOM dropped, and the same first error (NUL, bad UTF-8)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.import_export import files
from rag_annotator.import_export.files import ImportRejected


def _reference(path: Path) -> Iterator[tuple[int, str]]:
    """The straightforward reader the block reader replaced."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if b"\x00" in raw:
                raise ImportRejected(path, number,
                                     "the line holds a NUL byte; this is not a text file.")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise ImportRejected(path, number, f"not UTF-8 (byte {error.start + 1} of the "
                                                   "line); save the file as UTF-8.") from None
            yield number, text.rstrip("\r\n")


def _outcome(reader: object, path: Path) -> object:
    try:
        return list(reader(path))  # type: ignore[operator]
    except ImportRejected as error:
        return str(error)


PIECES = [b"x", b"x", b"x", b"\n", b"\r", b"\r\n", b"\xc3\xa9", b"\xe2\x82\xac", b"\xe9",
          b"\x00", b"\xef\xbb\xbf", b" "]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 4 * 1024 * 1024])
@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join))
def test_block_reader_matches_line_reader(block: int, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.txt"
        path.write_bytes(data)
        saved = files._BLOCK_BYTES
        files._BLOCK_BYTES = block
        try:
            assert _outcome(files.read_text_lines, path) == _outcome(_reference, path)
        finally:
            files._BLOCK_BYTES = saved


@pytest.mark.parametrize("fmt", sorted(__import__(
    "rag_annotator.import_export.registry", fromlist=["IMPORTS"]).IMPORTS))
@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_no_import_crashes_on_data_nested_too_deeply(fmt: str, suffix: str,
                                                     tmp_path: Path) -> None:
    """Python's JSON reader recurses: 100,000 nested brackets end in RecursionError unless
    the importer (or the registry's guard) turns it into a one-line refusal."""
    from rag_annotator.errors import KnownError
    from rag_annotator.import_export import registry
    from rag_annotator.storage.store import GoldSetStore

    source = tmp_path / f"deep{suffix}"
    source.write_text("[" * 100_000 + "\n", encoding="utf-8")
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="ana") as store:
        with pytest.raises(KnownError) as caught:
            registry.importer(fmt)(store, source, registry.Options(run="r", assessor="j"))
        assert "\n" not in str(caught.value)
        assert store.count("cases") == 0 and store.count("runs") == 0
