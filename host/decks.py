"""Players' saved decks for the card games, Discord-free (``/deck`` and the console use it).

A game with decks exposes ``game.decks`` (see ``docs/engine.md``): this module stores specs per
(user, game, name) and answers with :class:`host.types.Result` like the rest of the host.

>>> # DeckBook(store).new(user_id, "logic_square", "aggro") -> Result
"""
from __future__ import annotations

import re
from typing import Any

from data import i18n
from data.store import Store
from host.types import Msg, Result, msg
from rules import registry

NAME_RE = re.compile(r"^[^\n\r\t]{1,32}$")
MAX_DECKS_PER_GAME = 25


def deck_games() -> list[str]:
    """Registered games that use decks."""
    return [n for n in registry.names() if getattr(registry.get(n), "decks", None) is not None]


def problems_msgs(problems: list[dict], game: str | None = None) -> list[Msg]:
    """A game's deck problems as messages; a card they name (``card``, ``character``,
    ``owner``) is said by its name in the reader's language — 「ランタンの従士」, Lantern Squire —
    never by its id (an id the card set does not know stays as it was typed)."""
    return [Msg(p["key"], _named(game, dict(p.get("params", {})))) if p.get("key")
            else msg("host.raw", text=p["text"]) for p in problems]


def _named(game: str | None, params: dict) -> dict:
    if game is None or game not in registry or getattr(registry.get(game), "decks", None) is None:
        return params
    cards = registry.get(game).decks.cards()
    for key in ("card", "character", "owner"):
        names = (cards.get(params.get(key)) or {}).get("name") if isinstance(params.get(key), str) else None
        if isinstance(names, dict) and names.get("en"):
            params[key] = {"en": names["en"], "ja": "「{}」".format(names.get("ja") or names["en"])}
    return params


def error_detail(exc: Exception) -> Any:
    """A game's deck error as a message parameter: its catalog entry (in the reader's language)
    when the error carries a catalogued ``key`` and ``params``, else its text."""
    key = getattr(exc, "key", None)
    if isinstance(key, str) and i18n.has(key):
        return Msg(key, dict(getattr(exc, "params", None) or {}))
    return str(exc)


def card_name(game: str, card_id: str, locale: str = "en", *, engine: Any = None) -> str:
    """A card by its name in ``locale`` (``engine``: of a server's card set; default the game's)."""
    d = (engine if engine is not None else registry.get(game)).decks
    card = d.cards().get(card_id) or {}
    names = card.get("name") or {}
    return names.get(locale) or names.get("en") or card_id


class DeckBook:
    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _decks(game: str, engine: Any = None) -> tuple[Any, Result | None]:
        """The ``decks`` of ``game`` — of ``engine`` when given (a match of a server's card set:
        its ready-made decks, and its cards to check a saved deck against)."""
        if game not in registry:
            return None, Result.fail("host.err.unknown_game", game=str(game)[:40],
                                     games=", ".join(deck_games()) or "-")
        d = getattr(engine if engine is not None else registry.get(game), "decks", None)
        if d is None:
            return None, Result.fail("deck.err.no_decks", game=Msg(f"game.{game}"),
                                     games=", ".join(deck_games()) or "-")
        return d, None

    async def _load(self, user_id: int, game: str, name: str) -> tuple[dict | None, Result | None]:
        spec = await self.store.get_deck(user_id, game, name)
        if spec is None:
            names = [n for n, _ in await self.store.list_decks(user_id, game)]
            return None, Result.fail("deck.err.no_such_deck", name=name, names=", ".join(names) or "-")
        return spec, None

    def _summary(self, game: str, name: str, spec: dict) -> Result:
        d = registry.get(game).decks
        problems = d.validate(spec)
        data = {"game": game, "name": name, "spec": spec, "describe": d.describe(spec),
                "problems": problems_msgs(problems, game), "legal": not problems, "code": d.encode(spec)}
        head = msg("deck.legal" if not problems else "deck.illegal", name=name, n=len(problems))
        return Result(ok=True, info=[head] + data["problems"], data=data)

    # ------------------------------------------------------------------ commands
    async def new(self, user_id: int, game: str, name: str, *, copy_of: str | None = None) -> Result:
        d, err = self._decks(game)
        if err:
            return err
        name = (name or "").strip()
        if not NAME_RE.match(name):
            return Result.fail("deck.err.bad_name")
        if await self.store.get_deck(user_id, game, name) is not None:
            return Result.fail("deck.err.exists", name=name)
        if len(await self.store.list_decks(user_id, game)) >= MAX_DECKS_PER_GAME:
            return Result.fail("deck.err.too_many", max=MAX_DECKS_PER_GAME)
        spec = d.empty()
        if copy_of:
            ready = d.ready()
            if copy_of not in ready:
                return Result.fail("deck.err.no_ready", name=copy_of, names=", ".join(ready))
            spec = ready[copy_of]["spec"]
        await self.store.save_deck(user_id, game, name, spec)
        return self._summary(game, name, spec)

    async def edit(self, user_id: int, game: str, name: str, op: str, card_id: str, n: int = 1) -> Result:
        d, err = self._decks(game)
        if err:
            return err
        spec, err = await self._load(user_id, game, name)
        if err:
            return err
        if op not in ("add", "remove"):
            return Result.fail("deck.err.bad_op")
        if not 1 <= int(n) <= 40:
            return Result.fail("deck.err.bad_count")
        if card_id not in d.cards():
            return Result.fail("deck.err.unknown_card", card=str(card_id)[:40])
        try:
            spec = d.add(spec, card_id, int(n)) if op == "add" else d.remove(spec, card_id, int(n))
        except ValueError as exc:
            return Result.fail("deck.err.edit", detail=error_detail(exc))
        await self.store.save_deck(user_id, game, name, spec)
        return self._summary(game, name, spec)

    async def show(self, user_id: int, game: str, name: str) -> Result:
        d, err = self._decks(game)
        if err:
            return err
        if name in d.ready() and await self.store.get_deck(user_id, game, name) is None:
            return self._summary(game, name, d.ready()[name]["spec"])
        spec, err = await self._load(user_id, game, name)
        if err:
            return err
        return self._summary(game, name, spec)

    validate = show

    async def list(self, user_id: int, game: str | None = None, *, engine: Any = None) -> Result:
        """The user's decks and the ready-made ones; ``engine``: of that engine's cards (a match
        of a server's card set), each saved deck checked against them."""
        games = [game] if game else deck_games()
        rows = []
        for g in games:
            d, err = self._decks(g, engine if game else None)
            if err:
                return err
            for name, spec in await self.store.list_decks(user_id, g):
                rows.append({"game": g, "name": name, "legal": not d.validate(spec)})
            for rid, ready in d.ready().items():
                rows.append({"game": g, "name": rid, "legal": True, "ready": True,
                             "title": ready["name"]})
        return Result(ok=True, data={"decks": rows})

    async def delete(self, user_id: int, game: str, name: str) -> Result:
        d, err = self._decks(game)
        if err:
            return err
        if not await self.store.delete_deck(user_id, game, name):
            _, err = await self._load(user_id, game, name)
            return err
        return Result(ok=True, info=[msg("deck.deleted", name=name)])

    async def import_code(self, user_id: int, game: str, name: str, code: str) -> Result:
        d, err = self._decks(game)
        if err:
            return err
        name = (name or "").strip()
        if not NAME_RE.match(name):
            return Result.fail("deck.err.bad_name")
        try:
            spec = d.decode((code or "").strip())
        except ValueError as exc:
            return Result.fail("deck.err.bad_code", detail=error_detail(exc))
        existing = await self.store.get_deck(user_id, game, name)
        if existing is None and len(await self.store.list_decks(user_id, game)) >= MAX_DECKS_PER_GAME:
            return Result.fail("deck.err.too_many", max=MAX_DECKS_PER_GAME)
        await self.store.save_deck(user_id, game, name, spec)
        return self._summary(game, name, spec)

    async def export(self, user_id: int, game: str, name: str) -> Result:
        return await self.show(user_id, game, name)

    async def for_play(self, user_id: int, game: str, choice: str | None, *,
                       saved: bool = False, engine: Any = None) -> tuple[Any, Result | None]:
        """What to put in ``options["decks"]`` for this player: a ready deck id or a legal spec.

        ``choice`` may be one of the user's deck names, a ready-made deck id or a deck code;
        None means "the game's default for that seat".  A ready-made id wins over a saved deck
        of the same name unless ``saved`` (the deck picker says which one was picked)."""
        if not choice:
            return None, None
        d, err = self._decks(game, engine)
        if err:
            return None, err
        if choice in d.ready() and not saved:
            return choice, None
        spec = await self.store.get_deck(user_id, game, choice)
        if spec is None:
            try:
                spec = d.decode(choice.strip())
            except ValueError:
                names = [n for n, _ in await self.store.list_decks(user_id, game)] + list(d.ready())
                return None, Result.fail("deck.err.no_such_deck", name=choice[:40],
                                         names=", ".join(names) or "-")
        problems = d.validate(spec)
        if problems:
            res = Result.fail("deck.err.illegal_for_play", name=choice[:40], n=len(problems))
            res.info = problems_msgs(problems, game)
            return None, res
        return spec, None
