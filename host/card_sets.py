"""Servers' own card sets (issue 36): what ``/cards`` and ``/play set:`` call.  Knows no Discord.

A set belongs to one server (guild) and one game, under a name; every valid upload is a new
version of it (:mod:`data.card_sets`), named by its content hash, and stays stored for good — a
match records the version it was started with, and a deleted set only disappears from the lists
and from new matches.  A server chooses a default set per game (else the shipped cards); a set
of one server is never visible or usable from another: every call takes the caller's server and
looks only among its sets.  Uploads, deletions, defaults and balance runs are logged with who
and when (``store.card_set_log``).

Every call answers with a :class:`host.types.Result`; ``ok`` False means nothing changed and
``error`` says why and what is allowed instead.  The CPU work (reading and checking an upload,
building a version's engine) runs in a worker thread.
"""
from __future__ import annotations

import asyncio
import re
import time
from typing import Any, Callable

from data.card_sets import games, names
from data.card_sets.model import SET_NAME_LIMIT
from data.store import CardSetLog, CardSetRefused, CardSetRow, Store
from host import engines
from host.types import Msg, Result, msg

SHIPPED = "shipped"                # the name that means the shipped cards (also 標準, see SHIPPED_NAMES)
SHIPPED_NAMES = ("shipped", "標準", "standard")
SHIPPED_KEYS = frozenset(names.same_key(n) for n in SHIPPED_NAMES)
ROLE_KEY = "cards_role"            # guild setting: a role whose members may manage sets too
MAX_SETS = 25                      # sets per server and game
_NAME_RE = re.compile(r"^[^\x00-\x1f@#`*_~|<>:\\/]{1,%d}$" % SET_NAME_LIMIT)


def default_key(game: str) -> str:
    """The guild setting holding a game's default set (its name)."""
    return f"cards.{game}"


def game_msg(game: str) -> Msg:
    return Msg(f"game.{game}")


def set_label(row: Any) -> str:
    """How a version is named to people: ``Owl Kings v3``."""
    return f"{row.name} v{row.version}"


class CardSets:
    def __init__(self, store: Store, *, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self._shipped_entries: dict[str, list] = {}

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _game(game: str) -> Result | None:
        if games.adapter(game) is None:
            return Result.fail("cards.err.game", games=[game_msg(g) for g in games.GAMES])
        return None

    @staticmethod
    def _name(name: str) -> tuple[str | None, Result | None]:
        """A set name as typed, cleaned (:func:`data.card_sets.names.clean`), or why it cannot be
        one: invisible and direction characters, controls, signs, too long."""
        cleaned = names.clean(str(name or ""))
        if cleaned is None or not _NAME_RE.match(cleaned):
            return None, Result.fail("cards.err.name", max=SET_NAME_LIMIT)
        if names.same_key(cleaned) in SHIPPED_KEYS:
            return None, Result.fail("cards.err.name_shipped", name=cleaned)
        return cleaned, None

    async def _versions(self, guild_id: int, game: str, name: str) -> list[CardSetRow]:
        """The visible versions of the server's set ``name`` (matched without regard to case or
        full-width letters: :func:`data.card_sets.names.same_key`)."""
        rows = await self.store.card_sets(int(guild_id), game)
        want = names.same_key(name)
        return [r for r in rows if names.same_key(r.name) == want]

    async def _set_names(self, guild_id: int, game: str) -> list[str]:
        found: dict[str, str] = {}
        for r in await self.store.card_sets(int(guild_id), game):
            found.setdefault(names.same_key(r.name), r.name)
        return list(found.values())

    @staticmethod
    def _refused(err: CardSetRefused, game: str) -> Result:
        if err.reason == "looks_like":
            return Result.fail("cards.err.name_looks_like", name=err.name or "")
        return Result.fail("cards.err.too_many_sets", max=err.limit or MAX_SETS, game=game_msg(game))

    async def version(self, guild_id: int | None, game: str, name: str, version: int | None = None
                      ) -> tuple[CardSetRow | None, Result | None]:
        """The row (with content) of a version of the server's set (``version`` None: the newest)."""
        if guild_id is None:
            return None, Result.fail("cards.err.dm")
        bad = self._game(game)
        if bad:
            return None, bad
        rows = await self._versions(guild_id, game, name)
        if not rows:
            names = await self._set_names(guild_id, game)
            return None, Result.fail("cards.err.no_set", name=str(name)[:40], game=game_msg(game),
                                     names=", ".join(names) or "-")
        if version is None:
            row = rows[-1]
        else:
            row = next((r for r in rows if r.version == version), None)
            if row is None:
                return None, Result.fail("cards.err.no_version", name=rows[-1].name, version=version,
                                         versions=", ".join(f"v{r.version}" for r in rows[-10:]))
        full = await self.store.get_card_set(row.id)
        if full is None or full.content is None:
            return None, Result.fail("cards.err.unreadable", name=set_label(row))
        return full, None

    async def loaded(self, row: CardSetRow) -> tuple[engines.Loaded | None, Result | None]:
        try:
            return await engines.load(self.store, int(row.id), game=row.game), None
        except engines.CardSetUnusable:
            return None, Result.fail("cards.err.unreadable", name=set_label(row))

    async def _log(self, guild_id: int, user_id: int, action: str, game: str, name: str | None = None,
                   version: int | None = None, **detail: Any) -> None:
        await self.store.log_card_set(CardSetLog(int(guild_id), int(user_id), action, game, name, version,
                                                 detail, at=self.now()))

    # ------------------------------------------------------------------ upload
    async def upload(self, guild_id: int | None, user_id: int, game: str, name: str, filename: str,
                     data: bytes, mode: str = "extend") -> Result:
        """Check an uploaded attachment and, when the whole set is valid, store it as the next
        version of the server's set ``name``.  ``data["problems"]``: every problem found
        (:class:`data.card_sets.problems.Problem`); nothing is stored unless there are none."""
        if guild_id is None:
            return Result.fail("cards.err.dm")
        bad = self._game(game)
        if bad:
            return bad
        name, bad = self._name(name)
        if bad:
            return bad
        existing = await self._versions(guild_id, game, name)
        if not existing:        # told before the work of checking the upload; decided again when storing
            others = await self._set_names(guild_id, game)
            alike = next((n for n in others if names.looks_like(n, name)
                          and names.same_key(n) != names.same_key(name)), None)      # not stored meanwhile
            if alike is not None:
                return self._refused(CardSetRefused("looks_like", name=alike), game)
            if len(others) >= MAX_SETS:
                return self._refused(CardSetRefused("too_many", limit=MAX_SETS), game)
        if existing:
            name = existing[-1].name             # the set's own spelling
        from data.card_sets.build import build_set
        from data.card_sets.upload import read_upload

        def check() -> Any:
            files, read_problems = read_upload(filename, data)
            return build_set(game, files, mode, read_problems=read_problems)

        built = await asyncio.to_thread(check)
        if not built.ok:
            return Result(ok=False, error=msg("cards.err.problems", count=len(built.problems), file=filename[:60]),
                          data={"problems": built.problems})
        content = built.content
        digest = content.digest()
        if existing and existing[-1].digest == digest:
            return Result(ok=True, info=[msg("cards.unchanged", name=set_label(existing[-1]))],
                          data={"set": existing[-1], "unchanged": True, "counts": built.counts})
        summary = {**built.counts, "decks_own": games.adapter(game).deck_ids(built.cardset, built.own),
                   "base_edition": content.base_edition, "untranslated": len(content.untranslated)}
        try:        # the limits and "the same content is one version" hold inside the store's transaction
            row, added = await self.store.add_card_set(CardSetRow(
                int(guild_id), game, name, digest, content.mode, int(user_id), content=content.canonical(),
                summary=summary, created_at=self.now()), max_sets=MAX_SETS)
        except CardSetRefused as err:
            return self._refused(err, game)
        if not added:           # an identical upload stored a moment ago (two at once)
            return Result(ok=True, info=[msg("cards.unchanged", name=set_label(row))],
                          data={"set": row, "unchanged": True, "counts": built.counts})
        await self._log(guild_id, user_id, "upload", game, row.name, row.version, file=filename[:100],
                        cards=built.counts.get("cards", 0), decks=built.counts.get("decks", 0),
                        digest=digest[:12], mode=content.mode)
        # the engine of the new version is ready for the first match
        engines.remember(row.id, await asyncio.to_thread(engines.build, row))
        return Result(ok=True, info=[msg("cards.uploaded", name=set_label(row), game=game_msg(game),
                                         cards=built.counts.get("cards", 0), decks=built.counts.get("decks", 0),
                                         replaced=built.counts.get("replaced", 0))],
                      data={"set": row, "counts": built.counts})

    # ------------------------------------------------------------------ listing and choosing
    async def listing(self, guild_id: int | None, game: str | None = None) -> Result:
        """The server's sets: ``data["sets"]`` = ``[{"game", "name", "versions": [rows], "default"}]``."""
        if guild_id is None:
            return Result.fail("cards.err.dm")
        settings = await self.store.get_guild_settings(int(guild_id))
        out: dict[tuple[str, str], dict] = {}
        for row in await self.store.card_sets(int(guild_id), game):
            if games.adapter(row.game) is None:
                continue
            key = (row.game, names.same_key(row.name))
            entry = out.setdefault(key, {"game": row.game, "name": row.name, "versions": [],
                                         "default": names.same_key(str(settings.get(default_key(row.game)) or ""))
                                         == key[1]})
            entry["versions"].append(row)
        return Result(ok=True, data={"sets": list(out.values())})

    async def default_of(self, guild_id: int | None, game: str) -> str | None:
        """The name of the server's default set for ``game`` (None: the shipped cards)."""
        if guild_id is None or games.adapter(game) is None:
            return None
        value = (await self.store.get_guild_settings(int(guild_id))).get(default_key(game))
        return value if isinstance(value, str) and value else None

    async def set_default(self, guild_id: int | None, user_id: int, game: str, name: str | None) -> Result:
        """``name`` None (or ``shipped``): the shipped cards again."""
        if guild_id is None:
            return Result.fail("cards.err.dm")
        bad = self._game(game)
        if bad:
            return bad
        if name is None or names.same_key(name) in SHIPPED_KEYS:
            await self.store.set_guild_setting(int(guild_id), default_key(game), None)
            await self._log(guild_id, user_id, "default", game, None)
            return Result(ok=True, info=[msg("cards.default_shipped", game=game_msg(game))])
        row, err = await self.version(guild_id, game, name)
        if err:
            return err
        await self.store.set_guild_setting(int(guild_id), default_key(game), row.name)
        await self._log(guild_id, user_id, "default", game, row.name)
        return Result(ok=True, info=[msg("cards.default_set", game=game_msg(game), name=row.name)])

    async def resolve(self, guild_id: int | None, game: str, name: str | None) -> Result:
        """The cards a new match of ``game`` in this server is played with: the set ``name``
        (None: the server's default; ``shipped``: the shipped cards).  ``data["ref"]``: the
        reference a match records (None: shipped), ``data["engine"]``, ``data["row"]``."""
        shipped = Result(ok=True, data={"ref": None, "engine": None, "row": None})
        if name is not None and names.same_key(name) in SHIPPED_KEYS:
            return shipped
        if games.adapter(game) is None:
            return Result.fail("cards.err.no_sets_for", game=game_msg(game)) if name is not None else shipped
        if name is None:
            name = await self.default_of(guild_id, game)
            if name is None:
                return shipped
            row, err = await self.version(guild_id, game, name)
            if err:             # the default was deleted meanwhile: the shipped cards
                return shipped
        else:
            row, err = await self.version(guild_id, game, name)
            if err:
                return err
        loaded, err = await self.loaded(row)
        if err:
            return err
        return Result(ok=True, data={"ref": engines.reference(row), "engine": loaded.engine, "row": row})

    # ------------------------------------------------------------------ reading
    async def entries(self, loaded: engines.Loaded) -> list:
        """Every card and deck of a loaded version as :class:`data.card_sets.model.Entry`, with the
        set's own wording and its untranslated texts."""
        if getattr(loaded, "entries", None) is None:
            def make() -> list:
                content = loaded.content
                out = games.adapter(content.game).entries(loaded.opened.cardset, loaded.opened.own)
                for e in out:
                    if e.id in content.wording:
                        e.wording = dict(content.wording[e.id])
                    e.untranslated = list(content.untranslated.get(e.id, []))
                # the set's own cards and decks first (what a designer pages through for), then
                # the shipped ones an extend set keeps
                return sorted(out, key=lambda e: not e.own)
            loaded.entries = await asyncio.to_thread(make)
        return loaded.entries

    async def shipped_entries(self, game: str) -> list:
        if game not in self._shipped_entries:
            def make() -> list:
                adapter = games.adapter(game)
                cs, errors = adapter.validate(adapter.base_files("extend", adapter.newest_edition()))
                return adapter.entries(cs, set()) if cs is not None else []
            self._shipped_entries[game] = await asyncio.to_thread(make)
        return self._shipped_entries[game]

    async def show(self, guild_id: int | None, game: str, name: str | None, version: int | None = None,
                   query: str = "") -> Result:
        """The entries of a version (``name`` None or ``shipped``: the shipped cards), filtered by
        ``query`` (in a card's id or either name): ``data["entries"]``, ``data["row"]``."""
        if guild_id is None and name is not None:
            return Result.fail("cards.err.dm")
        bad = self._game(game)
        if bad:
            return bad
        row = None
        if name is None or names.same_key(name) in SHIPPED_KEYS:
            entries = await self.shipped_entries(game)
        else:
            row, err = await self.version(guild_id, game, name, version)
            if err:
                return err
            loaded, err = await self.loaded(row)
            if err:
                return err
            entries = await self.entries(loaded)
        q = " ".join(str(query or "").split()).casefold()[:40]
        shown = [e for e in entries if not q or q in e.search_text()]
        return Result(ok=True, data={"entries": shown, "row": row, "query": q, "total": len(entries)})

    async def diff(self, guild_id: int | None, game: str, name: str, new: int | None = None,
                   old: int | None = None, shipped: bool = False) -> Result:
        """What changed from version ``old`` (default: the one before ``new``; ``shipped``: the
        shipped cards) to ``new`` (default: the newest): ``data["lines"]`` in words."""
        from data.card_sets import diff as D

        row, err = await self.version(guild_id, game, name, new)
        if err:
            return err
        loaded, err = await self.loaded(row)
        if err:
            return err
        after = await self.entries(loaded)
        if shipped or (old is None and row.version == 1):
            before, against = await self.shipped_entries(game), None
        else:
            before_row, err = await self.version(guild_id, game, name, old if old is not None else row.version - 1)
            if err:
                return err
            before_loaded, err = await self.loaded(before_row)
            if err:
                return err
            before, against = await self.entries(before_loaded), before_row
        if against is None and loaded.content.mode == "extend":
            # against the shipped cards an extend set lists only what it adds or changes
            shipped_ids = {e.id for e in before}
            after_ids = {e.id for e in after}
            before = [e for e in before if e.id in after_ids or e.id not in shipped_ids]
        changes = D.changes(before, after)
        return Result(ok=True, data={"changes": changes, "row": row, "against": against})

    async def export(self, guild_id: int | None, game: str, name: str, version: int | None = None) -> Result:
        """``data["files"]``: the version as JSON and CSV (:mod:`data.card_sets.export`)."""
        from data.card_sets.export import export_files
        from data.card_sets.model import SetContent

        row, err = await self.version(guild_id, game, name, version)
        if err:
            return err
        try:
            content = SetContent.from_json(row.content)
        except ValueError:
            return Result.fail("cards.err.unreadable", name=set_label(row))
        files = await asyncio.to_thread(export_files, content, f"{row.name} v{row.version}")
        return Result(ok=True, data={"files": files, "row": row})

    async def delete(self, guild_id: int | None, user_id: int, game: str, name: str) -> Result:
        row, err = await self.version(guild_id, game, name)
        if err:
            return err
        n = await self.store.delete_card_set(int(guild_id), game, row.name, self.now())
        if names.same_key(await self.default_of(guild_id, game) or "") == names.same_key(row.name):
            await self.store.set_guild_setting(int(guild_id), default_key(game), None)
        await self._log(guild_id, user_id, "delete", game, row.name, row.version, versions=n)
        return Result(ok=True, info=[msg("cards.deleted", name=row.name, game=game_msg(game), versions=n)])

    async def log(self, guild_id: int | None, limit: int = 25) -> Result:
        if guild_id is None:
            return Result.fail("cards.err.dm")
        return Result(ok=True, data={"log": await self.store.card_set_log(int(guild_id), limit)})


__all__ = ["CardSets", "SHIPPED", "SHIPPED_NAMES", "ROLE_KEY", "default_key", "set_label"]
