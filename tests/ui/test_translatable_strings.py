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


def test_every_literal_text_is_in_the_french_catalogue() -> None:
    """lupdate also misses ``translate(ctx, "%n …", "", obj.count)`` (a plural whose count
    is not a plain name, or any plural through ``translate``): three team and Judge texts
    stayed English in the French window.  Every ``tr``/``translate`` call with literal
    texts must find its (context, text) in the catalogue, a plural as a plural; so must a
    ``QT_TRANSLATE_NOOP`` mark, whose context lupdate cannot read from a variable (the empty
    lists' hints were all English in French for that), nor ``translate(CONTEXT, "…")``
    with the context in a variable (the Dashboard's judge-sample panel was English)."""
    import ast
    import xml.etree.ElementTree as ET

    catalogue = ET.parse(UI.parent / "resources" / "translations" / "rag_annotator_fr.ts")
    known = {(c.findtext("name"), m.findtext("source")): m.get("numerus") == "yes"
             for c in catalogue.getroot().iter("context") for m in c.iter("message")}
    by_text = {text: plural for (_ctx, text), plural in known.items()}
    missing = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            plural = len(node.args) >= (4 if name == "translate" else 3)
            if name == "QT_TRANSLATE_NOOP":  # its context must be a literal lupdate reads
                found = (known.get((texts[0], texts[1]))
                         if len(texts) == 2 and isinstance(node.args[0], ast.Constant)
                         else None)
                plural = False
            elif name == "translate" and len(texts) >= 2 and all(
                    isinstance(t, str) for t in texts[:2]):
                found = known.get((texts[0], texts[1]))
            elif (name == "translate" and len(node.args) >= 2
                  and not isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str)):
                found = None  # a context lupdate cannot read (a variable): never extracted
            elif name == "tr" and texts and isinstance(texts[0], str):
                found = by_text.get(texts[0])  # its context is the class lupdate saw
            else:
                continue
            if found is None or (plural and not found):
                missing.append(f"{path.relative_to(UI)}:{node.lineno}")
    assert missing == []
