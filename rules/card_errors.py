"""What every card game's card-data validation shares: the error it raises and the collector
that lets an upload hear about *every* problem at once instead of the first.

Each game's schema (``rules/<game>/cards.py``) raises its own ``CardDataError``, a subclass of
:class:`CardDataError` here, naming the file, the card (or deck) and the field.  Besides the
English ``message`` (what the operator's start-up log shows) an error may carry a catalog ``key``
and its ``params``: a front end shows the problem in the reader's language through
``data/i18n/<lang>/cardcheck*.json`` (``cardcheck.<key>``), as :class:`rules.IllegalCommand`
does for moves.  ``params`` are plain strings and numbers (never a catalog reference), so the
text can be rendered by any front end.

Collecting: a game's ``from_sources(..., problems=[...])`` validates card by card; a card (or
deck) with a problem is reported into the list and left out, and the validation goes on with the
next one.  Problems that follow from a card left out (a deck naming it) are not reported a
second time.

>>> err = CardDataError("a.json", "jab", "damage", "must be between 0 and 1000, not 2000",
...                     key="int_range", low=0, high=1000, value=2000)
>>> str(err)
"a.json: card 'jab': field 'damage': must be between 0 and 1000, not 2000"
>>> err.key, err.params["high"]
('int_range', 1000)
>>> seen = Collector()
>>> with seen.each():
...     raise err
>>> len(seen.problems), seen.problems[0].card
(1, 'jab')
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

MAX_PROBLEMS = 200           # an upload hears about this many problems at most (then "and N more")


class CardDataError(ValueError):
    """Bad card data.  ``file``, ``card`` (a card id, ``"deck <id>"`` / ``"deck #3"`` for a deck,
    ``"#3"`` for an entry without a usable id, or None) and ``field`` (a JSON path such as
    ``effects[0].count``, or None) name the spot; ``message`` says what is wrong in English;
    ``key``/``params``: the same in the catalog (``cardcheck.<key>``), None when the game has no
    key for it (a front end then shows :attr:`message`)."""

    def __init__(self, file: str, card: str | None, field: str | None, message: str, /,
                 *, key: str | None = None, **params: Any) -> None:
        self.file, self.card, self.field, self.message = file, card, field, message
        self.key = key
        self.params = params
        where = str(file)
        if card is not None:
            where += f": card {card!r}" if not str(card).startswith("deck ") else f": {card}"
        if field:
            where += f": field {field!r}"
        super().__init__(f"{where}: {message}")

    # older games named it ``problem``
    @property
    def problem(self) -> str:
        return self.message


class Collector:
    """Problems gathered while validating (see the module docstring)."""

    def __init__(self, limit: int = MAX_PROBLEMS) -> None:
        self.problems: list[CardDataError] = []
        self.limit = limit
        self.dropped = 0          # problems beyond ``limit``: counted, not kept

    def add(self, err: CardDataError) -> None:
        if len(self.problems) < self.limit:
            self.problems.append(err)
        else:
            self.dropped += 1

    @contextmanager
    def each(self) -> Iterator[None]:
        """``with collector.each(): …`` — a CardDataError inside is recorded, not raised."""
        try:
            yield
        except CardDataError as err:
            self.add(err)

    def __bool__(self) -> bool:
        return bool(self.problems)


def collect_into(problems: list | None, err: CardDataError) -> None:
    """Record ``err`` into ``problems`` (a list given by an upload), or raise it when there is
    none (the operator's files stop at their first problem, as they always have)."""
    if problems is None:
        raise err
    if len(problems) < MAX_PROBLEMS:
        problems.append(err)


__all__ = ["CardDataError", "Collector", "collect_into", "MAX_PROBLEMS"]
