"""A problem found in an upload, named where a designer finds it: the file, the row (a CSV line
as a spreadsheet numbers it, or a JSON entry's number), the card (or deck) and the field (a CSV
column, or a JSON field), with what is wrong in the reader's language.

>>> p = Problem("cards.csv", 4, "srv01", "damage", "cardcheck.int_range", {"low": 0, "high": 1000, "value": 2000},
...             column=True)
>>> print(p.render("en"))
cards.csv, row 4, card “srv01”, column “damage”: must be a whole number from 0 to 1000, not 2000.
>>> print(p.render("ja"))
cards.csv・4行目・カード「srv01」・列「damage」：0〜1000の整数にしてください（2000になっています）。
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from data import i18n


@dataclass(frozen=True)
class Problem:
    """``key``: a catalog key (``cardcheck.…``) with ``params``; ``row``: a CSV line (header = 1)
    or, with ``entry=True``, the number of a JSON entry in its list (from 1); ``column``: the
    field is a CSV column's header (else a JSON path); ``detail``: a part of the field (an
    effect's parameter inside an effects cell: ``effect 1 · count``)."""

    file: str | None
    row: int | None
    card: str | None
    field: str | None
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    column: bool = False
    entry: bool = False
    detail: str | None = None

    def where(self, locale: Any = "en", code: Callable[[Any], str] | None = None) -> str:
        """Where the problem is, in words; with ``code`` (a message's inline code, cogs.common.code)
        the file, card, deck and field are shown as typed instead of in quotes."""
        def part(key: str, **params: Any) -> str:
            if code is None:
                return i18n.t(key, locale, **params)
            return i18n.t(f"{key}.code", locale, **{k: code(v) for k, v in params.items()})
        parts = []
        if self.file:
            parts.append(code(self.file) if code else i18n.t("cardset.where.file", locale, file=self.file))
        if self.row is not None:
            parts.append(i18n.t("cardset.where.entry" if self.entry else "cardset.where.row", locale, row=self.row))
        if self.card:
            if self.card == "deck #":          # a deck without a usable id: the row says which
                parts.append(i18n.t("cardset.where.a_deck", locale))
            elif self.card.startswith("deck "):
                parts.append(part("cardset.where.deck", deck=self.card[5:].strip("'\"")))
            elif self.card.startswith("#"):
                pass                        # an entry without a usable id: the row says which
            else:
                parts.append(part("cardset.where.card", card=self.card))
        if self.field:
            parts.append(part("cardset.where.column" if self.column else "cardset.where.field", field=self.field))
        if self.detail:
            parts.append(code(self.detail) if code else self.detail)
        return i18n.t("cardset.where.sep", locale).join(parts)

    def text(self, locale: Any = "en", code: Callable[[Any], str] | None = None,
             words: Callable[[Any], str] | None = None) -> str:
        """What is wrong; with ``code`` a value that looks like something typed (an id, an effect,
        a column: letters, digits and ``_.:+-`` only) is shown as inline code, and with
        ``words`` any other text param is made safe for a message (markdown, mentions)."""
        params = {k: _param(v, locale, code, words) for k, v in self.params.items()}
        return i18n.t(self.key, locale, **params)

    def render(self, locale: Any = "en", code: Callable[[Any], str] | None = None,
               words: Callable[[Any], str] | None = None) -> str:
        """The whole line: plain text (a problems.txt), or with ``code`` and ``words`` for a
        Discord message.

        >>> p = Problem("a.csv", 2, "ac91", "effects", "cardcheck.unknown_effect",
        ...             {"name": "explode", "known": ["damage", "move_self"]}, column=True)
        >>> print(p.render("en", code=lambda s: f"`{s}`", words=str))
        `a.csv`, row 2, card `ac91`, column `effects`: unknown effect “`explode`”; known: `damage`, `move_self`.
        """
        where = self.where(locale, code)
        what = self.text(locale, code, words)
        return i18n.t("cardset.problem", locale, where=where, what=what) if where else what

    def sort_key(self) -> tuple:
        return (self.file or "", self.row if self.row is not None else -1, self.card or "", self.field or "")


TYPED = re.compile(r"^[A-Za-z0-9_.:+\-]{1,40}$")


def _param(value: Any, locale: Any, code: Callable[[Any], str] | None = None,
           words: Callable[[Any], str] | None = None) -> Any:
    """A list param is joined with the reader's list separator; a text in both languages is
    the reader's; anything else as it is (with ``code``/``words``: see :meth:`Problem.text`)."""
    if isinstance(value, (list, tuple)):
        return i18n.t("core.list_sep", locale).join(str(_param(v, locale, code, words)) for v in value)
    if isinstance(value, dict) and set(value) <= {"en", "ja"} and value:
        value = value.get(i18n.locale_of(locale)) or value.get("en") or next(iter(value.values()))
    if isinstance(value, str) and code is not None and TYPED.match(value):
        return code(value)
    if isinstance(value, str) and words is not None:
        return words(value)
    return value


def problem(key: str, file: str | None = None, row: int | None = None, card: str | None = None,
            field_: str | None = None, *, is_column: bool = False, **params: Any) -> Problem:
    """A :class:`Problem` with catalog key ``cardcheck.<key>`` (shorthand for the readers);
    ``is_column``: ``field_`` is a CSV column."""
    return Problem(file, row, card, field_, f"cardcheck.{key}", params, column=is_column)


__all__ = ["Problem", "problem"]
