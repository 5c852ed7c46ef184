"""The CLI's read-only commands skip the damage check of a file unchanged since its last
clean check, and say so under --verbose; a change still gets the full check (issue 19)."""

from __future__ import annotations

import os
from pathlib import Path

from rag_annotator.domain import operations as ops
from rag_annotator.paths import app_paths
from rag_annotator.storage import clean_checks
from rag_annotator.storage.store import GoldSetStore
from tests.builders import build_big
from tests.damage import garbage_page
from tests.helpers import run_cli, sha256

SKIPPED = "damage check skipped"
FULL = "damage check run in full"


def _info(path: Path) -> tuple[int, str]:
    done = run_cli("info", str(path), "--verbose")
    return done.returncode, done.stderr


def test_second_read_only_command_skips_the_check_and_says_so(tmp_path: Path) -> None:
    gold = build_big(tmp_path / "g.goldset", n_docs=50, n_cases=50)
    before = sha256(gold), os.stat(gold).st_mtime_ns
    code, said = _info(gold)
    assert code == 0 and FULL in said
    code, said = _info(gold)
    assert code == 0 and SKIPPED in said
    done = run_cli("metrics", str(gold), "--run", "nope", "--verbose")
    assert SKIPPED in done.stderr  # metrics, then its own error about the run
    assert (sha256(gold), os.stat(gold).st_mtime_ns) == before  # the file is never written
    assert not list(tmp_path.glob("g.goldset?*"))  # nothing beside it either
    assert run_cli("info", str(gold)).stderr == ""  # without --verbose: nothing said


def test_a_write_makes_the_next_command_check_in_full(tmp_path: Path) -> None:
    gold = build_big(tmp_path / "g.goldset", n_docs=50, n_cases=50)
    _info(gold)
    with GoldSetStore.open(gold) as store:
        ops.create_case(store, key="NEW", question="Une autre question ?")
    code, said = _info(gold)
    assert code == 0 and FULL in said


def test_damage_after_a_clean_check_is_still_caught(tmp_path: Path) -> None:
    """In-place damage of the same size through the file system changes the times: the
    next command checks in full and refuses the file."""
    gold = build_big(tmp_path / "g.goldset", n_docs=50, n_cases=50)
    assert FULL in _info(gold)[1]
    damaged = tmp_path / "d.goldset"
    garbage_page("documents")(gold, damaged)
    size = gold.stat().st_size
    gold.write_bytes(damaged.read_bytes())  # same size, same header, new bytes
    assert gold.stat().st_size == size
    code, said = _info(gold)
    assert code == 2 and "damaged" in said and SKIPPED not in said
    # and a changed size (a truncated copy) too
    good = build_big(tmp_path / "h.goldset", n_docs=50, n_cases=50)
    _info(good)
    data = good.read_bytes()
    good.write_bytes(data[: len(data) - 4096])
    code, said = _info(good)
    assert code == 2 and SKIPPED not in said


def test_check_always_checks_in_full(tmp_path: Path) -> None:
    """Damage the fingerprint cannot see (bits rotting on the disk: simulated by recording
    the damaged file as clean) is skipped by info, never by check."""
    gold = build_big(tmp_path / "g.goldset", n_docs=50, n_cases=50)
    garbage_page("history")(gold, gold.with_suffix(".bad"))
    gold.write_bytes(gold.with_suffix(".bad").read_bytes())
    print_ = clean_checks.fingerprint(gold)
    assert print_ is not None
    clean_checks.remember_clean(app_paths().data / "checks", gold, print_)
    assert SKIPPED in _info(gold)[1]
    done = run_cli("check", str(gold))
    assert done.returncode != 0 and "damaged" in (done.stdout + done.stderr)


def test_no_fingerprint_beside_a_journal_or_in_wal_mode(tmp_path: Path) -> None:
    gold = build_big(tmp_path / "g.goldset", n_docs=30, n_cases=30)
    assert clean_checks.fingerprint(gold) is not None
    journal = Path(f"{gold}-journal")
    journal.write_bytes(b"")
    assert clean_checks.fingerprint(gold) is None
    journal.unlink()
    data = bytearray(gold.read_bytes())
    data[18:20] = b"\x02\x02"
    wal = tmp_path / "w.goldset"
    wal.write_bytes(bytes(data))
    assert clean_checks.fingerprint(wal) is None
