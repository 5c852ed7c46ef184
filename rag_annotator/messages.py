"""The core's messages in the reader's language (errors, warnings, reports): gettext + Babel.

The core is Qt-free, so it cannot use Qt's ``tr()``.  A message travels as a *message id*
(the English source text with named placeholders, gettext style: ``"row {row}: {value!r} is
not a known family"``) and its parameters; it is rendered as late as possible, in the
language of whoever reads it: the window's language for the error box, ``--language`` /
``RAG_ANNOTATOR_LANG`` / the system locale for the CLI.  ``str()`` of a message is its
English text, exactly what the f-string it replaced printed, so logs and tests that match
English keep working.

Catalogues are standard gettext: ``resources/locale/<lang>/LC_MESSAGES/rag_annotator.po``,
managed with Babel (``scripts/update_messages.sh``: ``pybabel extract`` / ``update`` /
``compile``); the compiled ``.mo`` files are committed next to them, so the app installs
from nothing with setuptools alone (package data), and ``tests/test_messages.py`` fails when a
``.mo`` is stale, when an id the core can raise has no French, or when a translation drops or
invents a placeholder.  English needs no catalogue: the id *is* the English text.

Numbers and dates follow the reader's locale.  A number the English text groups or rounds
(``{n:,}``, ``{share:.1f}``) or a float is written with Babel's ``format_decimal``
(``1 234,5`` in French); a bare integer (a row or line number) is written plainly in every
language.  A ``datetime`` is written by its English format spec (``2026-11-29 14:02``) and
in the locale's short form elsewhere (``29/11/2026 14:02``, Babel's ``format_datetime``).
"""

from __future__ import annotations

import gettext
import os
import re
import string
from collections.abc import Callable, Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

#: The interface's language for tests, screenshots and the CLI (read by ``ui.i18n`` too).
LANG_ENV = "RAG_ANNOTATOR_LANG"
SUPPORTED = ("en", "fr")
DOMAIN = "rag_annotator"

#: The functions whose first string argument is a message id (``ImportRejected``: the third),
#: for ``pybabel extract -k`` and the completeness test.  A new KnownError subclass raised
#: with a literal message must be listed here, or its message is not extracted.
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "N_": None, "KnownError": None, "NotAGoldSetFile": None, "EmptyFile": None,
    "DamagedFile": None, "UnexpectedSchema": None, "FileTooNew": None,
    "MigrationFailed": None, "FileNotFound": None, "FileBusy": None, "WriteFailed": None,
    "ReadOnlyLocation": None, "InvalidValue": None, "NotFound": None, "Conflict": None,
    "UnsafeLockFile": None, "FileInUse": None, "FutureLock": None,
    "ImportRejected": (3,), "TrajectoryRejected": (2,), "Message": None, "fail": None,
    "add": (3,), "_fail": (3,), "refuse": None, "warn": (2,), "RuleWarning": (2,),
    "Plural": (1, 2), "P_": (1, 2),
}


def N_(message_id: str) -> str:
    """Mark a message id defined away from where it is raised, so ``pybabel`` extracts it."""
    return message_id


def P_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message id pair (for :class:`Plural`) defined away from its use."""
    return singular, plural


_chosen: list[str] = []  # the session's language once the window or ``--language`` set it


def set_language(lang: str | None) -> None:
    """The language messages render in when none is asked for: the window's (``ui.i18n``)
    or the CLI's ``--language``; ``None`` goes back to the environment's."""
    _chosen[:] = [lang] if lang in SUPPORTED else []


def default_language(requested: str | None = None) -> str:
    """``fr`` or ``en``: ``requested``, else the session's (:func:`set_language`: the
    window's language, ``--language``), else ``RAG_ANNOTATOR_LANG``, else the system's
    locale (``fr_*`` → ``fr``), else ``en``."""
    for choice in (requested, *_chosen, os.environ.get(LANG_ENV, "").strip().lower()):
        if choice in SUPPORTED:
            return choice
    # POSIX precedence first (a locale named there may not be installed, so Python's own
    # view can be "C"), then what Python sees (Windows sets no variable).
    name = next((os.environ[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG")
                 if os.environ.get(v)), "")
    if not name:
        import locale  # here: ~2 ms to import, and every start-up imports this module

        name = locale.getlocale()[0] or ""
    return "fr" if name.lower().startswith("fr") else "en"


def locale_folder() -> Path:
    """Where the gettext catalogues are (package data: ``resources/locale``)."""
    return Path(__file__).parent / "resources" / "locale"


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, localedir=locale_folder(), languages=[lang],
                               fallback=True)


def translate(message_id: str, lang: str | None = None) -> str:
    """The message id's text in ``lang`` (the id itself in English or when not translated)."""
    lang = default_language(lang)
    if lang == "en":
        return message_id
    return _catalogue(lang).gettext(message_id)


def render(message_id: str, params: Mapping[str, Any] | None = None,
           lang: str | None = None) -> str:
    """The message in ``lang`` with its parameters filled in (formatted per locale)."""
    lang = default_language(lang)
    return _fill(translate(message_id, lang), params, lang)


def render_plural(singular: str, plural: str, n: int, params: Mapping[str, Any] | None = None,
                  lang: str | None = None) -> str:
    """A counted message in ``lang``: gettext's ``ngettext`` picks the form for ``n`` by the
    catalogue's ``Plural-Forms`` (French: 0 and 1 singular), English by ``n == 1``; ``n``
    is a parameter too (``"{n} new cases"``)."""
    lang = default_language(lang)
    if lang == "en":
        text = singular if n == 1 else plural
    else:
        text = _catalogue(lang).ngettext(singular, plural, n)
    return _fill(text, {**(params or {}), "n": n}, lang)


def _fill(text: str, params: Mapping[str, Any] | None, lang: str) -> str:
    if not params:
        return text  # no placeholders: braces in the text are literal
    if lang == "en":
        return text.format(**params)
    return _LocaleFormatter(lang).vformat(text, (), dict(params))


_NUMBER_SPEC = re.compile(r"(?P<group>,)?(?:\.(?P<digits>\d+)f)?")


class _LocaleFormatter(string.Formatter):
    """``str.format`` whose grouped, rounded or fractional numbers follow the locale."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        renderer = getattr(value, "render", None)
        if callable(renderer) and not format_spec:  # a nested message or known error
            return str(renderer(self.lang))
        if isinstance(value, (date, datetime)):  # the locale's short form: 29/11/2026 14:02
            from babel.dates import format_date, format_datetime

            if isinstance(value, datetime):
                return str(format_datetime(value, "short", tzinfo=value.tzinfo,
                                           locale=self.lang))
            return str(format_date(value, "medium", locale=self.lang))
        match = _NUMBER_SPEC.fullmatch(format_spec)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or match is None or (not format_spec and isinstance(value, int)):
            return str(super().format_field(value, format_spec))  # text; a row or line
        from babel.numbers import format_decimal  # only to render a number

        if not format_spec:  # a float as Python writes it, with the locale's decimal mark
            return str(format_decimal(value, locale=self.lang))
        digits = int(match.group("digits") or 0)
        pattern = ("#,##0" if match.group("group") else "0") + ("." + "0" * digits
                                                              if digits else "")
        return str(format_decimal(value, format=pattern, locale=self.lang,
                                  decimal_quantization=True))


class Message(str):
    """A message id and its parameters, rendered in a language when someone reads it.

    It *is* its English text (a ``str``), so a report's warnings stay strings for every
    caller that joins, compares or searches them, while :func:`render_any` and the UI show
    them in the reader's language."""

    message_id: str
    params: dict[str, Any]

    def __new__(cls, message_id: str, **params: Any) -> Message:
        self = super().__new__(cls, render(message_id, params, "en"))
        self.message_id = message_id
        self.params = params
        return self

    def render(self, lang: str | None = None) -> str:
        """The text in ``lang`` (default: :func:`default_language`)."""
        return render(self.message_id, self.params, lang)

    def __repr__(self) -> str:
        return f"Message({self.message_id!r}, **{self.params!r})"


class Plural(Message):
    """A message whose words follow a count: ``Plural("{n} new case", "{n} new cases", 3)``
    (the pair is one catalogue entry with a form per plural category of the language)."""

    plural_id: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, **params: Any) -> Plural:
        text = render_plural(singular, plural, n, params, "en")
        self = str.__new__(cls, text)
        self.message_id, self.plural_id, self.n, self.params = singular, plural, n, params
        return self

    def render(self, lang: str | None = None) -> str:
        """The form for ``n`` in ``lang``."""
        return render_plural(self.message_id, self.plural_id, self.n, self.params, lang)

    def __repr__(self) -> str:
        return f"Plural({self.message_id!r}, {self.plural_id!r}, {self.n!r}, **{self.params!r})"


def render_any(text: object, lang: str | None = None) -> str:
    """A :class:`Message` or :class:`~rag_annotator.errors.KnownError` rendered in
    ``lang``; anything else as ``str()`` (a warning still built as English text)."""
    renderer = getattr(text, "render", None)
    return str(renderer(lang)) if callable(renderer) else str(text)


class Joined:
    """Several messages shown as one (row errors joined with "; "), each in the reader's
    language; behaves as a parameter of another message."""

    __slots__ = ("parts", "separator")

    def __init__(self, parts: list[Any], separator: str = "; ") -> None:
        self.parts = parts
        self.separator = separator

    def render(self, lang: str | None = None) -> str:
        """Every part in ``lang``, joined."""
        return self.separator.join(render_any(part, lang) for part in self.parts)

    def __str__(self) -> str:
        return self.render("en")


class Rendered:
    """A parameter rendered by a function of the language (a nested message trimmed)."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[[str], str]) -> None:
        self.function = function

    def render(self, lang: str | None = None) -> str:
        """The function's text for ``lang``."""
        return self.function(default_language(lang))

    def __str__(self) -> str:
        return self.render("en")
