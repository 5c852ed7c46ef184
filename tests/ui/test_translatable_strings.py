"""pyside6-lupdate does not look inside f-strings: a ``tr("…")`` or ``translate(…, "…")``
written there is never extracted, so it stays English in the French UI (seen on the Agents
section's titles).  Every translated text must be a call lupdate can see."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import rag_annotator.ui

UI = Path(rag_annotator.ui.__file__).parent
# a call with a literal text: tr("…") or translate("context", "…") (tr(variable) is fine:
# its literal is marked elsewhere with QT_TRANSLATE_NOOP)
CALL = re.compile(r"""\b(?:tr|translate)\((?:\s*['"][^'"]*['"]\s*,)?\s*['"]""")


def test_no_translation_call_inside_an_f_string() -> None:
    found = []
    for path in sorted(UI.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type != tokenize.STRING:
                continue
            prefix = token.string[:token.string.find(token.string[-1])].lower()
            if "f" in prefix and CALL.search(token.string):
                found.append(f"{path.relative_to(UI)}:{token.start[0]}")
    assert found == []
