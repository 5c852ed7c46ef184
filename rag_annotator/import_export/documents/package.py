"""What a Word, OpenDocument or PowerPoint file must pass before its library opens it.

These files are zip packages of XML parts, and both the zip and the XML can be built to hurt
the reader: a zip bomb (a part that expands a thousand times), thousands of parts, an XML
part with a document type declaration whose entities expand a few bytes into gigabytes
("billion laughs") or name a file or URL to read ("external entity").  Office documents
never need a DTD, so any part that declares one is refused outright, whatever it declares:
each XML part is read once by :mod:`defusedxml` with DTDs forbidden before python-docx,
python-pptx or odfpy parse anything.  The zip checks are the workbook checks of
:mod:`~rag_annotator.import_export.safety`, with the limits of a document.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from rag_annotator.import_export.files import ImportRejected
from rag_annotator.import_export.safety import zip_excess

#: Largest total size of a document's parts once decompressed.
MAX_UNPACKED = 1024**3
#: Most parts a document package may hold.
MAX_MEMBERS = 10_000
#: Largest expansion of one part (or the whole) past 1 MB: office XML compresses about 10x.
MAX_RATIO = 100.0


def check_package(path: Path, data: bytes) -> zipfile.ZipFile:
    """The package opened once its zip and XML are found safe; ImportRejected otherwise."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise ImportRejected(path, None, "damaged: not a valid zip package ({error}); save "
                                         "the file again from its application.",
                             error=error) from None
    excess = zip_excess(members, max_ratio=MAX_RATIO, max_unpacked=MAX_UNPACKED,
                        max_members=MAX_MEMBERS)
    if excess is not None:
        limit, value, name = excess
        if limit == "members":
            raise ImportRejected(path, None, "the file has {n:,} parts; refused.", n=int(value))
        if limit == "unpacked":
            raise ImportRejected(path, None, "the file would expand to {unpacked:,} bytes "
                                             "(limit {limit:,}); refused.", unpacked=int(value),
                                 limit=MAX_UNPACKED)
        if limit == "part":
            raise ImportRejected(path, None, "part {name} expands {ratio:.0f}× (limit "
                                             "{limit:.0f}×): a zip bomb? refused.",
                                 name=name, ratio=value, limit=MAX_RATIO)
        raise ImportRejected(path, None, "the file expands {ratio:.0f}× (limit {limit:.0f}×): "
                                         "a zip bomb? refused.", ratio=value, limit=MAX_RATIO)
    for member in members:
        _check_xml(path, archive, member)
    return archive


def _check_xml(path: Path, archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> None:
    """Refuse an XML part that declares a DTD (entities, external references)."""
    from defusedxml import DefusedXmlException
    from defusedxml import ElementTree as SafeTree

    if member.is_dir():
        return
    try:
        with archive.open(member) as part:
            head = part.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
            if not head.startswith(b"<"):
                return  # an image, a font, a binary part: not XML
        with archive.open(member) as part:
            for _event, element in SafeTree.iterparse(part, events=("end",),
                                                       forbid_dtd=True):
                element.clear()
    except DefusedXmlException:
        raise ImportRejected(path, None, "part {name} declares a DTD or entities, which "
                                         "documents never need (an XML bomb or a reference to "
                                         "another file?); refused.",
                             name=member.filename) from None
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError) as error:
        raise ImportRejected(path, None, "part {name} is damaged ({error}).",
                             name=member.filename, error=error) from None
    except SyntaxError as error:  # xml.etree's ParseError
        raise ImportRejected(path, None, "part {name} is not well-formed XML ({error}).",
                             name=member.filename, error=error) from None
