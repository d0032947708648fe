"""Clocks across days, pure and synchronous: time controls and banks (:mod:`.control`), when a
player's clock runs (:mod:`.calendar`: weekend pause, playing hours, vacations), vacations
(:mod:`.vacation`), quiet hours and how a player is told (:mod:`.notify`) and the list of games
waiting on a player (:mod:`.turns`).

No I/O, no wall clock: every function takes its instants (epoch seconds, UTC, float) as
arguments; time zones are IANA names read with the standard library's ``zoneinfo`` (the
``tzdata`` package supplies them where the system has none).  The host stores what these
modules compute and calls them; the cogs only translate (docs/clocks.md).

This package module holds only what its modules share, and imports none of them (each is
imported on its own: ``from host.clocks import control``).
"""
from __future__ import annotations

from typing import Any

from data import i18n


class ClockError(ValueError):
    """A refused clock input (a time control, a time zone, playing hours) or a damaged stored
    one: ``key`` is a catalog key (``data/i18n/*/clock.json``) and ``params`` its placeholders,
    so the refusal is told in the reader's language (``err.text(locale)``).

    >>> err = ClockError("clock.err.control.too_long", max=64)
    >>> err.key, err.params
    ('clock.err.control.too_long', {'max': 64})
    """

    def __init__(self, key: str, params: dict[str, Any] | None = None, **more: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, Any] = {**(params or {}), **more}

    def text(self, locale: Any = "en") -> str:
        """The refusal in ``locale``'s words."""
        return i18n.t(self.key, locale, **self.params)

    def __repr__(self) -> str:
        return f"ClockError({self.key!r}, {self.params!r})"
