"""A server's statistics (issue 37): what ``/stats``, ``/profile`` and the exports call.  Knows
no Discord.

- **Counted when a match ends** (the host's finished-match hook, :meth:`Stats.on_finish`): the
  match's public facts (:func:`host.stats.facts.match_facts`, from its command log replayed into
  the public steps everyone saw) and the counters they add (:mod:`host.stats.aggregate`), written
  once, in one transaction; a league pairing is counted as one match when it is decided.
- **Caught up at start** (:meth:`Stats.catch_up`): finished matches a crash left uncounted, and
  decided league pairings not yet counted.
- **Rebuilt** for a server by an operator (``python bot.py --rebuild-stats GUILD``,
  :meth:`Stats.rebuild`, :mod:`host.stats.rebuild`).
- **Read** (:meth:`Stats.report`): the figures of one game in one split (a rules edition and a
  card set version) and scope (all, a season, a league; practice matches and matches against the
  computer only when asked for), with every deck, card and identity named in the reader's language.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable

from data.store import FINISHED, CorruptRow, MatchRecord, Store, StoreError, TransientStoreError
from host.stats import aggregate as A
from host.stats import rebuild as _rebuild          # imported here: an import inside the loop holds it
from host.stats.facts import own_hash  # noqa: F401  (cogs/records.py names a player's own decks by it)
from host.types import Result, msg

log = logging.getLogger("host.stats")

DECIDED = ("a", "b", "draw")


def scopes(season: int | None = None, league: int | None = None, practice: bool = False) -> list[str]:
    """The counter scopes a question reads: one of all / a season / a league, and with
    ``practice`` the practice matches' own scope beside it."""
    base = f"l{int(league)}" if league is not None else f"s{int(season)}" if season is not None else "all"
    return [base, f"{base}|p"] if practice else [base]


class Stats:
    def __init__(self, store: Store, host: Any, *, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.host = host
        self.now = now

    # ------------------------------------------------------------------ counting
    async def on_finish(self, rec: MatchRecord) -> None:
        """The host's finished-match hook: count the match (a failure is logged; the match is
        counted at the next start)."""
        try:
            await self.count(rec)
        except Exception:
            log.exception("statistics of match %s could not be counted now; they are at the next start", rec.id)

    async def _season(self, guild_id: int | None) -> int | None:
        from host.records import Records

        return await Records(self.store).season(guild_id) if guild_id is not None else None

    async def facts_of(self, rec: MatchRecord, commands: list | None = None) -> dict | None:
        """The public facts of a finished match as they are counted (None when its engine cannot
        serve it), from its stored log (or ``commands``, the same log already read):
        :func:`host.stats.facts.counted`, in a worker thread."""
        from host.stats.facts import counted

        try:
            engine = await self.host.engine(rec)
        except CorruptRow:
            return None
        if commands is None:
            commands = await self.store.commands(rec.id)
        return await asyncio.to_thread(counted, engine, rec, commands)

    async def count(self, rec: MatchRecord, *, season: int | None = None) -> bool:
        """Count one finished match (True if it was not counted before)."""
        return (await self.count_many([rec], season=season))[0]

    async def count_many(self, recs: list[MatchRecord], *, season: int | None = None) -> list[bool]:
        """Count finished matches, written in one transaction (True for each not counted before);
        then the league pairings they decided."""
        items, done = [], []
        for rec in recs:
            facts = await self.facts_of(rec) if rec.status == FINISHED and rec.id is not None else None
            if facts is None:
                done.append(None)
                continue
            facts["season"] = season if season is not None else await self._season(rec.guild_id)
            done.append(len(items))
            items.append((rec.id, rec.guild_id, rec.game, float(facts.get("finished_at") or rec.updated_at),
                          facts.get("league"), facts, A.increments(facts)))
        written = await self.store.record_stats_many(items) if items else []
        out = []
        for rec, k in zip(recs, done):
            counted = k is not None and written[k]
            out.append(counted)
            facts = items[k][5] if k is not None else {}
            if counted and facts.get("league") is not None and facts.get("pairing") is not None and rec.guild_id:
                await self.count_pairing(rec.guild_id, rec.game, int(facts["league"]), int(facts["pairing"]))
        return out

    async def count_pairing(self, guild_id: int, game: str, league_id: int, pairing_id: int) -> bool:
        """Count a league pairing as one match, once it is decided (with the decks of its first
        game played on the bot; a pairing played off the bot has no public decks: not counted)."""
        lg = await self.store.get_league(int(league_id))
        if lg is None:
            return False
        p = next((q for q in lg.data.get("pairings", []) if q.get("id") == int(pairing_id)), None)
        if p is None or p.get("result") not in DECIDED or p.get("held"):
            return False
        games = [f for f in await self.store.stats_facts(guild_id, game, league_id=league_id)
                 if f.get("pairing") == int(pairing_id)]
        if not games:
            return False
        winner = {"a": p.get("a"), "b": p.get("b")}.get(p["result"])
        increments = A.pairing_increments(games, {"winner": winner})
        return await self.store.record_pairing_stats(int(guild_id), game, int(league_id), int(pairing_id), increments)

    async def catch_up(self, limit: int = 10_000) -> int:
        """Count what the hook missed: finished matches without a count, then the decided
        pairings of every league whose games are counted but not the pairing."""
        done = 0
        while done < limit:
            batch = await self.store.unprocessed_stats(200)
            if not batch:
                break
            for rec in batch:
                try:
                    counted = await self.count(rec)
                except TransientStoreError:    # the store failing for a moment: never marked; the next start goes on
                    log.warning("statistics: the store failed while catching up; the next start goes on", exc_info=True)
                    return done
                except Exception:       # this match's own fault (its log does not replay): marked, never again
                    log.exception("statistics of match %s could not be counted; it is left out", rec.id)
                    counted = False
                if not counted:         # an engine that cannot serve it: marked, never tried in a loop
                    try:
                        await self.store.record_stats(rec.id, rec.guild_id, rec.game, float(rec.updated_at), None,
                                                      {"v": 1, "skipped": True, "seats": []}, {})
                    except StoreError:
                        log.warning("statistics: match %s could not be marked; the next start goes on", rec.id,
                                    exc_info=True)
                        return done
                done += 1
        for lg in await self.store.leagues(None, ("running", "finished", "closed")):
            for p in lg.data.get("pairings", []):
                if p.get("result") in DECIDED and not p.get("held") and p.get("match"):
                    try:
                        await self.count_pairing(lg.guild_id, lg.data.get("game"), lg.id, p["id"])
                    except Exception:
                        log.exception("league %s pairing %s could not be counted", lg.id, p.get("id"))
        return done

    async def rebuild(self, guild_id: int, *, replay: bool = False) -> int:
        """A server's statistics again from its finished matches (:mod:`host.stats.rebuild`: each
        match keeps the rating season it was counted in; one never counted takes the current).
        ``replay``: every match replayed from its log, none of its stored facts reused."""
        return await _rebuild.rebuild(self, guild_id, replay=replay)

    # ------------------------------------------------------------------ reading
    async def splits(self, guild_id: int, game: str, scope: list[str]) -> list[tuple[str, int]]:
        found = await self.store.stats_splits(int(guild_id), game, scope)
        return sorted(found, key=lambda s: _split_order(s[0]), reverse=True)

    async def report(self, guild_id: int | None, game: str, *, split: str | None = None,
                     season: int | None = None, league: int | None = None, practice: bool = False) -> Result:
        """The figures of ``game`` in this server: ``data["figures"]`` (see
        :func:`host.stats.aggregate.report`), ``data["split"]``, ``data["splits"]`` (every split
        with figures, newest first, and its games)."""
        if guild_id is None:
            return Result.fail("stats.err.dm")
        scope = scopes(season, league, practice)
        splits = await self.splits(guild_id, game, scope)
        if not splits:
            return Result(ok=True, data={"figures": None, "split": None, "splits": [], "scope": scope})
        if split is None or split not in [s for s, _n in splits]:
            split = splits[0][0]
        rows = await self.store.stats_counts(int(guild_id), game, split, scope)
        figures = A.report([(key, n, score) for _s, key, n, score in rows])
        return Result(ok=True, data={"figures": figures, "split": split, "splits": splits, "scope": scope})

    async def names(self, game: str, split: str, locale: Any) -> tuple[dict[str, str], dict[str, str], str | None]:
        """The words of a split's figures in ``locale``: deck id → name (``own`` → "own decks"),
        card id → name, and the card set version's name (None: the shipped cards)."""
        from data import i18n
        from host import engines
        from rules import registry

        loc = i18n.locale_of(locale)
        engine, set_name = registry.get(game), None
        _edition, _, cards = split.partition("|")
        if cards.isdigit():
            try:
                loaded = await engines.load(self.store, int(cards), game=game)
                engine, set_name = loaded.engine, f"{loaded.row.name} v{loaded.row.version}"
            except engines.CardSetUnusable:
                set_name = f"#{cards}"
        decks, names = {A.OWN: i18n.t("stats.own_decks", loc)}, {}
        book = getattr(engine, "decks", None)
        if book is not None:
            for did, ready in book.ready().items():
                decks[did] = (ready.get("name") or {}).get(loc) or (ready.get("name") or {}).get("en") or did
            for cid, card in book.cards().items():
                names[cid] = (card.get("name") or {}).get(loc) or (card.get("name") or {}).get("en") or cid
        return decks, names, set_name

    async def user_decks(self, user_id: int, guild_id: int | None) -> dict[str, dict[str, dict]]:
        """A player's decks by game (``/profile``): game → deck → share, most played first."""
        rows = await self.store.stats_user(int(user_id), guild_id)
        by_game: dict[str, list] = {}
        for game, key, n, score in rows:
            by_game.setdefault(game, []).append((key, n, score))
        return {g: A.user_decks(r, user_id) for g, r in by_game.items()}


def opening_words(key: str, locale: Any) -> str:
    """SQUARES: an opening counter (``1:S3 c1``) in words — "First player: Support 3 on c1" (the
    piece by its up side and number, as the Act menu names it)."""
    from data import i18n
    from render.labels_squares import _piece

    order, _, placement = key.partition(":")
    token, _, square = placement.partition(" ")
    if order not in ("1", "2") or len(token) < 2 or not square:
        return key
    loc = i18n.locale_of(locale)
    return i18n.t(f"stats.opening.{order}", loc, piece=_piece(token[0], token[1:], loc), square=square)


def _split_order(split: str) -> tuple:
    edition, _, cards = split.partition("|")
    return (int(edition) if edition.isdigit() else 0, int(cards) if cards.isdigit() else 0)


def split_words(split: str, names: dict[int, str] | None = None) -> Any:
    """A split in words: "Rules edition 4 · shipped cards" / "… · Playtest One v2"."""
    edition, _, cards = split.partition("|")
    card_words = msg("stats.split.shipped") if cards in ("", "-") else \
        msg("stats.split.set", name=(names or {}).get(int(cards), f"#{cards}") if cards.isdigit() else cards)
    if edition in ("", "-"):
        return msg("stats.split.no_edition", cards=card_words)
    return msg("stats.split.edition", n=edition, cards=card_words)


__all__ = ["Stats", "scopes", "split_words", "opening_words", "DECIDED"]
