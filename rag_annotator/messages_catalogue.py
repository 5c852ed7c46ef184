"""Maintain the core's gettext catalogues with Babel: extract, update, compile.

``python -m rag_annotator.messages_catalogue`` extracts every message id of the core (the
first string argument of the functions in :data:`~rag_annotator.messages.KEYWORDS`: the
KnownError classes, ``N_``, ``Message``…) into ``resources/locale/rag_annotator.pot``, merges
it into each language's ``.po`` (new ids empty, vanished ids dropped) and compiles the
``.mo`` files the app reads.  It is what ``pybabel extract -k … / update / compile`` do,
written once so the keyword list cannot drift between the script and the completeness test
(``tests/test_messages.py``).  The UI (``ui/``) keeps Qt's ``.ts`` catalogues.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rag_annotator.messages import DOMAIN, KEYWORDS, SUPPORTED, locale_folder

PACKAGE = Path(__file__).parent
#: Qt's ``tr()`` strings live in the .ts catalogues; resources hold no code.
SKIPPED = ("ui/", "resources/")


def extract() -> Catalog:
    """Every message id the core can show, with where it is used."""
    catalog = Catalog(project="rag-annotator", domain=DOMAIN)
    keywords = {name: spec or (1,) for name, spec in KEYWORDS.items()}

    def wanted(filename: str) -> bool:
        return filename.endswith(".py") and not filename.startswith(SKIPPED)

    for filename, lineno, message, _comments, _context in extract_from_dir(
            PACKAGE, method_map=[("**.py", "python")], keywords=keywords,
            comment_tags=(), callback=None, strip_comment_tags=True):
        # a Plural's (singular, plural) pair is one entry with a form per plural category
        if wanted(filename) and isinstance(message, (str, tuple)) and all(message):
            catalog.add(message, locations=[(f"rag_annotator/{filename}", lineno)])
    return catalog


def po_path(lang: str) -> Path:
    """The translators' file of ``lang``."""
    return locale_folder() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    """A language's catalogue as it is on disk."""
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    """The ``.mo`` bytes of a catalogue (what ``pybabel compile`` writes)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def update() -> None:
    """Extract, merge into every non-English ``.po``, compile the ``.mo`` files."""
    template = extract()
    locale_folder().mkdir(exist_ok=True)
    with (locale_folder() / f"{DOMAIN}.pot").open("wb") as handle:
        write_po(handle, template, omit_header=True, sort_output=True)
    for lang in SUPPORTED:
        if lang == "en":
            continue  # the ids are the English text
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = read(lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, sort_output=True)
        path.with_suffix(".mo").write_bytes(compiled(read(lang)))


if __name__ == "__main__":
    update()
