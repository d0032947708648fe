"""The ja/en translation catalog.

Every user-facing string goes through :func:`t`.  Catalog files live in
``data/i18n/<locale>/<area>.json`` (flat ``{"key": "text with {placeholders}"}``); all files of
a locale are merged, and a key defined twice is an error.  English is the fallback locale.

>>> t("core.yes", "en")
'Yes'
>>> t("core.yes", "ja")
'はい'
>>> locale_of("ja")
'ja'
>>> locale_of("en-US")
'en'

Plural forms: a text that depends on a number has its plain key (the general form, used for
every number in Japanese, which has no plural) and, in English, ``<key>.one`` for exactly one.
:func:`t` picks the form by the ``count`` param (else ``n``); a ``.one`` text may leave the
number out ("one more").

>>> t("core.moves", "en", count=1), t("core.moves", "en", count=2)
('1 move', '2 moves')
>>> t("core.moves", "ja", count=1)
'1回'
"""
from __future__ import annotations

import json
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

LOCALES = ("en", "ja")
FALLBACK = "en"
_DIR = Path(__file__).resolve().parent


class CatalogError(ValueError):
    pass


@lru_cache(maxsize=None)
def catalog(locale: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = _DIR / locale
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CatalogError(f"{path}: invalid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise CatalogError(f"{path}: must be a JSON object of key -> text")
        for key, text in data.items():
            if not isinstance(text, str):
                raise CatalogError(f"{path}: key {key!r} must map to a string")
            if key in merged:
                raise CatalogError(f"{path}: key {key!r} is defined twice for {locale}")
            merged[key] = text
    return merged


def locale_of(value: Any) -> str:
    """Map a Discord locale (``discord.Locale`` or str like ``"ja"``/``"en-US"``) to ``ja``/``en``."""
    text = str(getattr(value, "value", value) or "").lower()
    return "ja" if text.startswith("ja") else "en"


def terminal_locale(env: Any = None) -> str:
    """The language of a terminal (``python bot.py``, the local console): ``ja`` when the first
    of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set names Japanese, else ``en``.

    >>> terminal_locale({"LANG": "ja_JP.UTF-8"}), terminal_locale({"LC_ALL": "C", "LANG": "ja_JP"})
    ('ja', 'en')
    """
    import os

    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = (env.get(name) or "").strip()
        if value:
            return locale_of(value)
    return FALLBACK


def cli_locale(argv: list[str], flag: str) -> str:
    """The language of a command line's own texts (``--help``, argument errors), known before
    argparse runs: the value of ``flag`` (``--lang ja`` / ``--lang=ja``) if given, else the
    terminal's.

    >>> cli_locale(["--game", "squares", "--locale=ja"], "--locale")
    'ja'
    """
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            return locale_of(argv[i + 1])
        if arg.startswith(flag + "="):
            return locale_of(arg.partition("=")[2])
    return terminal_locale()


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, locale: Any = FALLBACK, /, **params: Any) -> str:
    """Translate ``key`` into ``locale`` (falls back to English, then to the key itself)."""
    loc = locale_of(locale)
    number = params.get("count", params.get("n"))
    text = _plural(catalog(loc), key, loc, number)
    if text is None:
        text = _plural(catalog(FALLBACK), key, FALLBACK, number)
    if text is None:
        return key
    if not params:
        return text
    # a param may be a text in both languages ({"en": ..., "ja": ...}, e.g. a card name from
    # card data): the reader's language is used
    # a param may also be a reference to another entry (rules.Ref): that entry in this language
    params = {k: (v.get(loc, v.get(FALLBACK, "")) if _bilingual(v)
                  else t(str(v), loc) if getattr(v, "catalog_ref", False) else v) for k, v in params.items()}
    if ":~" not in text:            # no counted noun: str's own formatter (C), ~10 times faster
        return text.format_map(_Safe(params))
    return _Counted(loc).vformat(text, (), _Safe(params))


class _Counted(string.Formatter):
    """A placeholder with the format ``~one|other`` is a number with its counted noun in the
    plural form the number takes: English ``{cards:~card|cards}`` says "1 card", "2 cards" (for
    a text with several numbers, where ``.one`` keys cannot say each one right); Japanese
    counts without plurals and writes ``{cards}枚``.

    >>> _Counted("en").format("{n:~card|cards}, {m:~deck|decks}", n=1, m=3)
    '1 card, 3 decks'
    """

    def __init__(self, loc: str) -> None:
        super().__init__()
        self.loc = loc

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("~"):
            one, _, other = format_spec[1:].partition("|")
            return f"{value} {one if plural_form(self.loc, value) == 'one' else other or one}"
        return super().format_field(value, format_spec)


def plural_form(locale: str, number: Any) -> str:
    """The plural category of ``number`` in ``locale`` (CLDR): ``one`` or ``other`` in English,
    always ``other`` in Japanese.

    >>> plural_form("en", 1), plural_form("en", 0), plural_form("ja", 1)
    ('one', 'other', 'other')
    """
    if locale_of(locale) == "ja":
        return "other"
    try:
        return "one" if abs(float(number)) == 1 else "other"
    except (TypeError, ValueError):
        return "other"


def _plural(cat: dict[str, str], key: str, loc: str, number: Any) -> str | None:
    """The text of ``key`` in ``cat`` in the plural form of ``number`` (see the module doc)."""
    if number is not None and not isinstance(number, bool) and plural_form(loc, number) == "one":
        one = cat.get(f"{key}.one")
        if one is not None:
            return one
    return cat.get(key)


def _bilingual(value: Any) -> bool:
    return isinstance(value, dict) and FALLBACK in value and set(value) <= {"en", "ja"}


def has(key: str) -> bool:
    return key in catalog(FALLBACK)


def game_key(key: str, game: Any) -> str:
    """``key`` in ``game``'s own words when the catalog has them (``<key>.<game>``), else the
    shared ``key``: SQUARES' rulebook says 先番/後番 where the card games say 先攻/後攻.  The
    choice does not depend on the language (both have the same keys), so a key chosen here may
    be stored or raised and translated later.

    >>> t(game_key("stats.csv.first", "squares"), "ja"), t(game_key("stats.csv.first", "maken"), "ja")
    ('先番', '先攻')
    """
    own = f"{key}.{game}"
    return own if game and has(own) else key


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
