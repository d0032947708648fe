"""The cards a draft is played with: one version of a card set (a server's own, or the shipped
cards of a game), made ready once and shared by every call of the draft's service.

:class:`DraftCards` holds what limited play needs of the version: the game's engine (its decks
interface checks and describes decks), the entries people read (names in both languages, kinds,
the card as a view shows it for the pack picture), the set's limited declaration, the cube, the
card data the computer drafter reads, and the values it drafts by.

**Values from self-play.**  ``python -m balance --card-values FILE`` measures, for a game's cards,
the win rate of decks holding each card in self-play, shrunk toward 0.5 (docs/ai.md, "The
computer drafter").  The shipped cards' values are kept in ``data/cards/card_values.json`` (when
present), and a shipped card an ``extend`` set keeps keeps its value.  A server's own cards get
theirs from the set version's balance run (``/cards balance``, host/balance_runs.py: the run
stores ``progress["card_values"]``): :class:`RunValues` finds the newest run of that exact
version that ended (done, or stopped with what it played) with values; a card that run's random
decks never held, and every own card of a version never measured, is valued from its own data
(the drafter's fallback).
"""
from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ai.drafter import Drafter, fallback_values
from data.card_sets import games
from data.card_sets.limited import GAME_RULES, Limited
from host.limited.deal import cube_of

log = logging.getLogger("host.limited")

VALUES_FILE = Path(__file__).resolve().parents[2] / "data" / "cards" / "card_values.json"
_shipped_values: dict[str, dict[str, float]] | None = None
RUN_VALUES_TTL = 60.0         # seconds a set version's looked-up run values are kept before looking again
ENDED = ("done", "stopped")   # the balance runs' statuses that may hold card values (host/balance_runs.py)


def shipped_values(game: str) -> dict[str, float]:
    """The shipped cards' values from self-play (``data/cards/card_values.json``, as ``python -m
    balance --card-values`` writes it: per game, each card's ``value``), {} without.  A value
    that is not a number from 0 to 1 is left out."""
    global _shipped_values
    if _shipped_values is None:
        out: dict[str, dict[str, float]] = {}
        try:
            data = json.loads(VALUES_FILE.read_text(encoding="utf-8"))
            for g, run in (data.get("games") or {}).items():
                cards = run.get("cards") if isinstance(run, dict) else None
                if not isinstance(cards, dict):
                    continue
                out[str(g)] = {str(cid): float(c["value"]) for cid, c in cards.items()
                               if isinstance(c, dict) and isinstance(c.get("value"), (int, float))
                               and not isinstance(c.get("value"), bool) and 0.0 <= float(c["value"]) <= 1.0}
        except (OSError, ValueError, AttributeError, TypeError):
            log.warning("the shipped cards' values could not be read; the drafter reads the cards instead")
        _shipped_values = out
    return dict(_shipped_values.get(game, {}))


class RunValues:
    """The card values of server set versions, from their balance runs: ``await of(guild_id,
    set_id, game)`` → :class:`balance.card_values.CardValues` or None.  Looked up in the store
    at most every :data:`RUN_VALUES_TTL` seconds a version (the draft service asks for its cards
    on every call, and a run's row carries every match it played).  A row whose values do not
    read is logged and skipped (an older run's may serve); a store that fails is logged and
    answers None this once (the fallback), without breaking the call."""

    def __init__(self, store: Any, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._kept: dict[int, tuple[float, Any]] = {}

    async def of(self, guild_id: int | None, set_id: int, game: str) -> Any:
        if self.store is None or guild_id is None:
            return None
        kept = self._kept.get(int(set_id))
        if kept is not None and self.clock() - kept[0] < RUN_VALUES_TTL:
            return kept[1]
        try:
            runs = await self.store.balance_runs(ENDED, int(guild_id), set_id=int(set_id))
        except Exception:
            log.warning("the balance runs of card set %s could not be read; the drafter reads the cards instead",
                        set_id, exc_info=True)
            return None
        found = read_run_values(runs, int(set_id), game)
        if len(self._kept) > 256:
            self._kept.clear()
        self._kept[int(set_id)] = (self.clock(), found)
        return found


def read_run_values(runs: list, set_id: int, game: str) -> Any:
    """The values of the newest of ``runs`` (store rows) of version ``set_id`` that has readable
    ones (:meth:`CardValues.from_json`, of ``game``), else None."""
    from balance.card_values import CardValues

    for run in sorted((r for r in runs if r.set_id == set_id and r.status in ENDED), key=lambda r: -(r.id or 0)):
        stored = run.progress.get("card_values") if isinstance(run.progress, dict) else None
        if stored is None:
            continue
        try:
            values = CardValues.from_json(stored)
            if values.game != game:
                raise ValueError(f"card values of {values.game!r}, not {game!r}")
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning("balance run %s: its stored card values are not read (%s)", run.id, exc)
            continue
        return values
    return None


@dataclass
class DraftCards:
    """One card-set version as limited play uses it."""

    game: str
    engine: Any                         # the game object (its ``decks``)
    entries: dict[str, Any]             # card id -> data.card_sets.model.Entry
    limited: Limited | None             # the set's declaration (None: none)
    ref: dict | None                    # what a match records of the version (None: the shipped cards)
    set_name: str | None = None
    set_version: int | None = None
    own: set[str] = field(default_factory=set)
    measured: Any = None                # the version's CardValues from its balance run (None: never measured)
    _drafter: Drafter | None = None

    @property
    def cube(self) -> list[str]:
        """The declared cube, else every pool card of the set once."""
        return cube_of(self.limited, self.entries.values(), self.game)

    @property
    def kinds(self) -> dict[str, str]:
        return {cid: e.kind for cid, e in self.entries.items()}

    def name(self, card_id: str, locale: str) -> str:
        entry = self.entries.get(card_id)
        if entry is None:
            return card_id
        names = entry.name or {}
        return str(names.get(locale) or names.get("en") or card_id)

    def deck_rules(self) -> dict:
        """The limited deck of this set: ``{"size", "copies"}`` (the declared numbers, else the
        rulebook's size and the game's own copy limits, ``copies`` None)."""
        rules = GAME_RULES[self.game]
        size = self.limited.deck_size if self.limited is not None and self.limited.deck_size else rules.deck
        copies = self.limited.copies if self.limited is not None else None
        return {"size": int(size), "copies": copies}

    @property
    def drafter(self) -> Drafter:
        """The computer drafter of this set: self-play values where measured — a shipped card's
        from the shipped values, the set's own cards' from the version's balance run
        (``measured``: a card its random decks held) — else each card's own data (the fallback)."""
        if self._drafter is None:
            cards = self.engine.decks.cards()
            values = fallback_values(self.game, cards)
            shipped = shipped_values(self.game)
            values.update({cid: v for cid, v in shipped.items() if cid in cards and cid not in self.own})
            if self.measured is not None:
                values.update({cid: v for cid, v in self.measured.values.items()
                               if cid in cards and cid in self.own and self.measured.games.get(cid)})
            self._drafter = Drafter(values, self.game, cards=cards, copies=self.deck_rules().get("copies"))
        return self._drafter


def kept_kinds(game: str) -> tuple[str, ...]:
    """The kinds of the part a deck keeps (an AVI and the IT deck, a character, a KING, an avatar)."""
    return GAME_RULES[game].kept


def pool_kinds(game: str) -> tuple[str, ...]:
    return GAME_RULES[game].pool


def adapter(game: str) -> Any:
    return games.adapter(game)


__all__ = ["DraftCards", "RunValues", "read_run_values", "shipped_values", "kept_kinds", "pool_kinds", "VALUES_FILE",
           "RUN_VALUES_TTL"]
