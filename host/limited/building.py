"""After the picking: each player builds a deck from their pool, plays matches with it, and — once
every person at the draft has a deck, or its creator closes it — the draft is done.

**The deck of a pool** (the ruling restated: a sealed pool or a draft changes what a player may
build from, never how the game is played):

* the **main deck** — the game's pool cards (Battle Logic Square's resource cards, Project Maken's
  attack and support cards, Avalon's Sanctuary's cards; Art of War's basic units are the
  rulebook's and free) — comes from the pool only, each card at most as often as the pool holds
  it, as many as the set's limited deck size says (its declared size, else the rulebook's);
* the **kept part** — a Battle Logic Square AVI and IT deck, a Project Maken character, an Art of
  War KING, an Avalon's Sanctuary avatar — comes from the pool where the pool has them, otherwise
  from the set as in constructed play: a kept card from outside the pool is allowed only for the
  places the pool's own cards of that kind cannot fill;
* then the game's own deck check, with the set's limited numbers (``deck_rules``), says every
  rule the deck breaks.

A deck is stored at the player's seat (``limited_seats.deck``: the card ids, the kept part
first) and is what the draft's matches are played with (:meth:`Building.challenge`).
"""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any, Callable, Iterable

from data.card_sets import games
from data.card_sets.limited import GAME_RULES
from data.sql_limited import DraftRow, LimitedRefused
from host.limited.cards import DraftCards, kept_kinds
from host.types import Result, msg

log = logging.getLogger("host.limited")


def load_cards(card_sets: Any) -> Callable[..., Any]:
    """The draft service's ``cards``: ``(guild_id, game, set_name, version)`` → (DraftCards,
    None) or (None, the reason) — a server's set by name (``version`` None: its newest; ``set_name``
    None: the server's default set for the game, else the shipped cards; ``shipped``: the
    shipped cards).  A server's version carries the card values of its newest balance run that
    measured them (:class:`host.limited.cards.RunValues`; none: the drafter's fallback)."""
    from host.limited.cards import RunValues

    run_values = RunValues(getattr(card_sets, "store", None))

    async def cards(guild_id: int | None, game: str, set_name: str | None, version: int | None
                    ) -> tuple[DraftCards | None, Result | None]:
        if games.adapter(game) is None:
            return None, Result.fail("draft.err.no_cards", game=game)
        if set_name is None and version is None:
            set_name = await card_sets.default_of(guild_id, game)
        if set_name is None or str(set_name).strip().casefold() in ("shipped", "同梱"):
            from rules import registry

            entries = await card_sets.shipped_entries(game)
            return DraftCards(game, registry.get(game), {e.id: e for e in entries if not e.deck}, None, None), None
        row, err = await card_sets.version(guild_id, game, set_name, version)
        if err:
            return None, err
        loaded, err = await card_sets.loaded(row)
        if err:
            return None, err
        entries = await card_sets.entries(loaded)
        from host import engines

        return DraftCards(game, loaded.engine, {e.id: e for e in entries if not e.deck}, loaded.opened.limited,
                          engines.reference(row), set_name=row.name, set_version=int(row.version),
                          own=set(loaded.opened.own), measured=await run_values.of(guild_id, int(row.id), game)), None
    return cards


def deck_problems(cards: DraftCards, pool: Iterable[str], deck: list[str]) -> list[Any]:
    """Every reason ``deck`` (card ids, copies repeated) is not a deck of ``pool``: cards the
    pool does not hold (or not as often), a kept card from the set where the pool has its own,
    and whatever the game's own check with the set's limited numbers says.  [] = a legal deck."""
    problems: list[Any] = []
    kinds = cards.kinds
    kept = set(kept_kinds(cards.game))
    dealt = set(GAME_RULES[cards.game].pool)      # the kinds a pool deals; any other is the rulebook's
    have = Counter(pool)
    want = Counter(deck)
    for cid, n in sorted(want.items()):
        kind = kinds.get(cid)
        if kind is None and cid not in cards.engine.decks.cards():
            problems.append(msg("draft.deck.unknown", card=cid))
            continue
        if kind in kept:
            continue
        if kind is None or kind not in dealt:     # a card the rulebook gives every deck (Art of War's basic units)
            continue
        if n > have.get(cid, 0):
            problems.append(msg("draft.deck.not_in_pool", card=cards.name(cid, "en"), n=n, have=have.get(cid, 0)))
    for kind in kept:
        mine = [c for c in want.elements() if kinds.get(c) == kind]
        outside = [c for c in mine if have.get(c, 0) == 0]
        pool_cards = {c for c in have if kinds.get(c) == kind}
        room = max(0, len(set(mine)) - len(pool_cards))
        if len(set(outside)) > room:
            problems.append(msg("draft.deck.kept_from_pool", kind=kind))
    spec = deck_spec(cards, deck)
    if spec is None:
        problems.append(msg("draft.deck.malformed"))
        return problems
    for p in cards.engine.decks.validate(spec, rules=cards.deck_rules()):
        problems.append(p)
    return problems


def chosen_deck(chosen: dict) -> list[str]:
    """The deck the deck builder's selects make: the kept parts first, then the pool's cards
    (a copy's value ``id~k`` is the card ``id``)."""
    kept = [v for slot in sorted(chosen) if slot.startswith("k.") for v in chosen[slot]]
    main = [v.rsplit("~", 1)[0] for slot in sorted(chosen) if slot.startswith("m.") for v in chosen[slot]]
    return kept + main


def deck_spec(cards: DraftCards, deck: Iterable[str]) -> dict | None:
    """The game's deck spec of ``deck`` (card ids, the kept part among them); None when a card
    cannot be added."""
    d = cards.engine.decks
    spec = d.empty()
    try:
        for cid in deck:
            spec = d.add(spec, cid)
    except ValueError:
        return None
    return spec


class Building:
    """Deck building, the draft's matches and the end of a draft (mixed into
    :class:`host.limited.service.Drafts`; needs its ``store``, ``get``, ``_change``, ``pools``,
    ``cards_of``, ``machine``, ``seat_of``, ``_write``, ``_keep_picks`` and ``now``).  ``host``:
    the table (its ``challenge``), set by the service's owner."""

    host: Any = None

    async def pool_of(self, draft_id: Any, user_id: int, guild_id: int | None = None) -> Result:
        """A player's own pool and what they may build: ``data["pool"]`` (ids), ``["kept"]`` (the
        kept cards they may choose: the pool's, else the set's), ``["rules"]``, ``["deck"]`` (their
        deck so far, or None), ``["cards"]`` (the version's DraftCards)."""
        row, err = await self.get(draft_id, guild_id)
        if err:
            return err
        seat = self.seat_of(row, user_id)
        if seat is None:
            return Result.fail("draft.err.not_in", draft=row.id)
        cards, err = await self.cards_of(row)
        if err:
            return err
        pool = self.pools(row)[seat] if row.status in ("drafting", "building", "done") else []
        kinds = cards.kinds
        kept: dict[str, list[str]] = {}
        for kind in kept_kinds(cards.game):
            mine = sorted({c for c in pool if kinds.get(c) == kind})
            kept[kind] = mine or sorted(c for c, k in kinds.items() if k == kind)
        deck = next((list(s.deck) for s in row.seats if s.seat == seat and s.deck), None)
        return Result(ok=True, data={"draft": row, "seat": seat, "pool": pool, "kept": kept,
                                     "rules": cards.deck_rules(), "deck": deck, "cards": cards})

    async def build_part(self, draft_id: Any, user_id: int, slot: str, values: list[str],
                         guild_id: int | None = None) -> Result:
        """One select of the deck builder chosen (``slot``: ``k.<kind>`` a kept part, ``m.<n>``
        a part of the pool's cards; ``values``: card ids, a pool copy as ``id~k``): kept with the
        draft until the deck is saved, so a restart loses nothing.  ``data["chosen"]``: every
        slot so far, ``data["deck"]``: the deck they make."""
        async def change(row: DraftRow) -> Result:
            if row.status not in ("building", "done"):
                return Result.fail("draft.err.not_building", draft=row.id)
            seat = self.seat_of(row, user_id)
            if seat is None:
                return Result.fail("draft.err.not_in", draft=row.id)
            if not isinstance(slot, str) or len(slot) > 24 or len(values) > 100 or \
                    not all(isinstance(v, str) and len(v) <= 100 for v in values):
                return Result.fail("draft.err.bad_choice")
            builds = dict(row.state.get("build") or {})
            mine = dict(builds.get(str(user_id)) or {})
            mine[slot] = list(values)
            builds[str(user_id)] = mine
            await self._write(row, {**row.state, "build": builds}, row.status)
            return Result(ok=True, data={"chosen": mine, "deck": chosen_deck(mine)})
        return await self._change(draft_id, guild_id, change)

    async def chosen(self, row: DraftRow, user_id: int) -> dict:
        return dict((row.state.get("build") or {}).get(str(user_id)) or {})

    async def save_deck(self, draft_id: Any, user_id: int, deck: list[str], guild_id: int | None = None, *,
                        auto: bool = False) -> Result:
        """Check and keep the player's deck of their pool (``auto``: the computer drafter builds
        it from the pool).  Once every person at the draft has a deck, the draft is done."""
        async def change(row: DraftRow) -> Result:
            if row.status not in ("building", "done"):
                return Result.fail("draft.err.not_building", draft=row.id)
            seat = self.seat_of(row, user_id)
            if seat is None:
                return Result.fail("draft.err.not_in", draft=row.id)
            if any(s.seat == seat and s.locked for s in row.seats):
                return Result.fail("draft.err.locked", draft=row.id)
            cards, err = await self.cards_of(row)
            if err:
                return err
            pool = self.pools(row)[seat]
            chosen = cards.drafter.build_deck(pool, cards.deck_rules()) if auto else [str(c) for c in deck]
            problems = deck_problems(cards, pool, chosen)
            if problems:
                return Result(ok=False, error=msg("draft.deck.illegal", n=len(problems)),
                              info=problems[:10], data={"deck": chosen})
            try:
                await self.store.save_limited_deck(row.id, seat, chosen, locked=row.league_id is not None,
                                                   at=self.now())
            except LimitedRefused as exc:
                return Result.fail(f"draft.err.{getattr(exc, 'reason', 'refused')}", draft=row.id)
            fresh = await self.store.get_draft(row.id)
            done = fresh is not None and fresh.status == "building" and all(
                s.deck for s in fresh.seats if s.user_id is not None)
            if done:
                fresh = await self._finish(fresh)
            return Result(ok=True, data={"draft": fresh or row, "deck": chosen, "done": done},
                          info=[msg("draft.deck.saved", draft=row.id, n=len(chosen))])
        return await self._change(draft_id, guild_id, change)

    async def close(self, draft_id: Any, guild_id: int | None, user_id: int, *, moderator: bool = False) -> Result:
        """The creator ends deck building: the draft is done (decks not built stay unbuilt)."""
        async def change(row: DraftRow) -> Result:
            if row.created_by != user_id and not moderator:
                return Result.fail("draft.err.not_creator", draft=row.id)
            if row.status != "building":
                return Result.fail("draft.err.not_building", draft=row.id)
            new = await self._finish(row)
            return Result(ok=True, data={"draft": new}, info=[msg("draft.done", draft=row.id)])
        return await self._change(draft_id, guild_id, change)

    async def _finish(self, row: DraftRow) -> DraftRow:
        """The draft is done: computer seats get the decks they build, the picks are kept for
        the per-card figures, and the seed may be shown."""
        cards, err = await self.cards_of(row)
        if cards is not None:
            pools = self.pools(row)
            for s in row.seats:
                if s.user_id is None and not s.deck and s.seat < len(pools) and pools[s.seat]:
                    try:
                        await self.store.save_limited_deck(row.id, s.seat,
                                                           cards.drafter.build_deck(pools[s.seat], cards.deck_rules()),
                                                           at=self.now())
                    except (LimitedRefused, ValueError):
                        log.info("draft %s: the computer at seat %s kept no deck", row.id, s.seat + 1)
        fresh = await self.store.get_draft(row.id) or row
        machine = self.machine(fresh)
        new = await self._write(fresh, dict(fresh.state), "done", machine)
        if machine is not None:
            await self._keep_picks(new, machine)
        return new

    async def challenge(self, draft_id: Any, guild_id: int | None, user_id: int, name: str, opponent: int,
                        opponent_name: str, channel_id: int | None, *, locale: str = "en",
                        turn_seconds: int | None = None) -> Result:
        """A match between two players of the draft, each with the deck of their pool, the set's
        version and its limited numbers: a challenge the opponent accepts as any other."""
        row, err = await self.get(draft_id, guild_id)
        if err:
            return err
        if row.league_id is not None:     # an event's decks play the event's pairings only
            return Result.fail("draft.err.event_play", draft=row.id, league=row.league_id)
        if row.status not in ("building", "done"):
            return Result.fail("draft.err.not_building", draft=row.id)
        mine, theirs = self.seat_of(row, user_id), self.seat_of(row, opponent)
        if mine is None:
            return Result.fail("draft.err.not_in", draft=row.id)
        if theirs is None or theirs == mine:
            return Result.fail("draft.err.opponent_not_in", draft=row.id)
        decks = {s.seat: s.deck for s in row.seats}
        if not decks.get(mine) or not decks.get(theirs):
            return Result.fail("draft.err.no_deck", draft=row.id)
        cards, err = await self.cards_of(row)
        if err:
            return err
        specs = [deck_spec(cards, decks[mine]), deck_spec(cards, decks[theirs])]
        meta: dict = {"limited": {"draft": row.id}}
        if cards.ref is not None:
            meta["cards"] = cards.ref
        res = await self.host.challenge(
            row.game, user_id, name, opponents=[(opponent, opponent_name)],
            options={"decks": specs, "deck_rules": cards.deck_rules()}, guild_id=guild_id, channel_id=channel_id,
            locale=locale, meta=meta, cards=None if cards.ref is not None else "shipped", turn_seconds=turn_seconds)
        if res.ok and res.match is not None:
            async def note(r: DraftRow) -> Result:
                matches = list(r.state.get("matches") or [])[-99:] + [int(res.match.id)]
                await self._write(r, {**r.state, "matches": matches}, r.status)
                return Result(ok=True)
            await self._change(row.id, None, note)
        return res


__all__ = ["Building", "load_cards", "deck_problems", "deck_spec", "chosen_deck"]
