"""Seating players (a mixin of :class:`host.table.Host`): a challenge and its answers (accept,
decline), open seats and joining them (also a running match that takes late joiners, and a
defeated player's rejoin), and starting the match once everyone is in."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from data import i18n
from data.store import ACTIVE, DECLINED, OPEN, PENDING, CorruptRow, MatchRecord
from host.clocks import ClockError
from host.clocks import control as time_controls
from host.clocks import match as bank_clock
from host.clock import waiting_rows
from host.engines import CardSetUnusable, engine_for, engine_of
from host.options import describe_options, option_problem
from host.replay import (
    JOIN, _deck_token, _fill_decks, _hidden, _illegal_join, _initial_state, _with_deck, edition_args,
    start_edition,
)
from host.texts import _names, game_msg, shown_after, told_lines
from host.types import Msg, PublicUpdate, Result, msg
from rules import IllegalCommand, registry

MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 7 * 24 * 3600


class Seating:
    """Needs the host's ``store``, ``now``, ``_new_seed``, ``_lock``, ``_get``, ``_challenged``,
    ``_seat_of``, ``_state``, ``_append``, ``_deadline``, ``_write``, ``_board`` and
    ``_status_line``."""

    async def challenge(self, game: str, creator: int, creator_name: str, *,
                        opponents: list[tuple[int, str]] | tuple = (), open_seats: int = 0,
                        options: dict | None = None, turn_seconds: int | None = None,
                        guild_id: int | None = None, channel_id: int | None = None,
                        seed: int | None = None, locale: str = "en",
                        rematch_of: int | None = None, meta: dict | None = None,
                        deck: Any = None, cards: str | None = None,
                        time_control: dict | None = None, weekend_pause: bool = False,
                        vacation: bool = True, hours: Any = (), hours_zone: str | None = None) -> Result:
        """``cards``: the server's card set to play with (its name; ``shipped``: the shipped
        cards; None: the server's default for the game) — unless ``meta`` already names the
        version (``meta["cards"]``: a rematch, an event's pinned set).

        ``time_control``: a stored time control (``TimeControl.to_json``, docs/clocks.md) instead
        of ``turn_seconds``: a per-move one is today's ``turn_seconds``; a bank is kept in
        ``meta["clock"]`` (host/clocks/match.py), with ``turn_seconds`` its starting time.
        ``weekend_pause``: a bank's clock stops from Saturday 00:00 to Monday 00:00 in each
        player's own time zone; ``vacation``: a player's vacation stops their bank (an event
        may say no); ``hours``: playing hours (windows of local minutes) in ``hours_zone``, an
        event's option — the bank runs only inside them."""
        if game not in registry:
            return Result.fail("host.err.unknown_game", game=str(game)[:40],
                               games=", ".join(registry.names()))
        meta = dict(meta or {})
        meta.pop(bank_clock.KEY, None)
        if time_control is not None:
            try:
                tc = time_controls.TimeControl.from_json(time_control)
            except ClockError as exc:
                return Result.fail(exc.key, **exc.params)
            if turn_seconds is not None:
                return Result.fail("clock.err.control.both")
            if tc.is_bank:
                try:
                    mc = bank_clock.new(tc, weekend_pause, vacation=vacation, hours=hours, hours_zone=hours_zone)
                except ClockError as exc:
                    return Result.fail(exc.key, **exc.params)
                meta[bank_clock.KEY] = mc.to_json()
            turn_seconds = tc.start
        if weekend_pause and bank_clock.KEY not in meta:
            return Result.fail("clock.err.control.weekend")
        if "cards" in meta:
            probe = MatchRecord(game=game, seed=0, seats=[], names=[], creator=creator, meta=meta)
            try:
                eng = await engine_for(self.store, probe)
            except CardSetUnusable:
                return Result.fail("cards.err.unreadable", name=str((meta.get("cards") or {}).get("name", "?"))[:40])
        else:
            chosen = await self.card_sets.resolve(guild_id, game, cards)
            if not chosen.ok:
                return chosen
            eng = chosen.data["engine"] or registry.get(game)
            if chosen.data["ref"] is not None:
                meta["cards"] = chosen.data["ref"]
        opponents = list(opponents)
        ids = [creator] + [uid for uid, _ in opponents]
        if len(set(ids)) != len(ids):
            return Result.fail("host.err.duplicate_player")
        n = len(ids) + max(0, int(open_seats))
        if not eng.min_players <= n <= eng.max_players:
            return Result.fail("host.err.player_count", game=game_msg(game), n=n,
                               min=eng.min_players, max=eng.max_players)
        if turn_seconds is not None and bank_clock.KEY not in meta \
                and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            return Result.fail("host.err.turn_time", min=MIN_TURN_SECONDS // 60,
                               max=MAX_TURN_SECONDS // 3600)
        options = dict(options or {})
        if deck is not None:
            options["decks"] = [deck] + [None] * (n - 1)
        seed = int(seed) if seed is not None else self._new_seed()
        try:
            eng.new_match(players=n, seed=seed, options=_fill_decks(eng, options, n), **edition_args(eng, meta))
        except ValueError as exc:
            return Result.fail("host.err.bad_options", detail=option_problem(eng, options, n, exc),
                               allowed=describe_options(eng))
        rec = MatchRecord(
            game=game, seed=seed, seats=ids + [None] * int(open_seats),
            names=[creator_name] + [name for _, name in opponents] + [""] * int(open_seats),
            creator=creator, options=options, status=OPEN if open_seats else PENDING,
            guild_id=guild_id, channel_id=channel_id, turn_seconds=turn_seconds,
            accepted=[creator], meta={**meta, "locale": i18n.locale_of(locale)}, rematch_of=rematch_of,
            created_at=self.now(), updated_at=self.now())
        rec = await self.store.create_match(rec)
        named = [name for _, name in opponents]
        named = {loc: i18n.t("core.list_sep", loc).join(named) for loc in i18n.LOCALES} if len(named) > 1 else "".join(named)
        free = int(open_seats)
        key = "host.challenge_mixed" if named and free else "host.challenge" if named else "host.challenge_open"
        text = [msg(key, creator=creator_name, game=game_msg(game), opponents=named, open=free)]
        if rec.meta.get("cards"):      # a server's card set: said, so nobody is surprised by its cards
            ref = rec.meta["cards"]
            text.append(msg("cards.match_line", name=f"{ref['name']} v{ref['version']}"))
        return Result(ok=True, match=rec, notify=[uid for uid, _ in opponents],
                      public=PublicUpdate(text=text, view={}, status_line=self._status_line(rec, None)),
                      data={"match_id": rec.id})

    async def accept(self, match_id: int, user_id: int, deck: Any = None) -> Result:
        """``deck``: for card games, a ready-made deck id or a legal spec (see host.decks)."""
        async with self._lock(int(match_id)):
            rec, seat, err = await self._challenged(match_id, user_id)
            if err:
                return err
            if user_id in rec.accepted:
                return Result.fail("host.err.already_accepted", match=rec)
            new = replace(rec, accepted=rec.accepted + [user_id],
                          options=_with_deck(rec.options, seat, len(rec.seats), deck))
            return await self._maybe_start(rec, new, [msg("host.accepted", name=rec.names[seat])])

    async def _maybe_start(self, old: MatchRecord, new: MatchRecord, text: list[Msg],
                           force: bool = False) -> Result:
        eng = engine_of(new)
        full = None not in new.seats
        all_in = all(u in new.accepted for u in new.seats if u is not None)
        if all_in and (full or force):
            kept = [i for i, u in enumerate(new.seats) if u is not None]
            seats = [new.seats[i] for i in kept]
            names = [new.names[i] for i in kept]
            options = dict(new.options)
            if isinstance(options.get("decks"), list):
                options["decks"] = [options["decks"][i] if i < len(options["decks"]) else None for i in kept]
            options = _fill_decks(eng, options, len(seats))
            try:
                eng.new_match(players=len(seats), seed=new.seed, options=options, **edition_args(eng, new.meta))
            except ValueError as exc:
                return Result.fail("host.err.bad_options", match=old,
                                   detail=option_problem(eng, options, len(seats), exc),
                                   allowed=describe_options(eng))
            new = replace(new, options=options)
            if len(seats) < eng.min_players:
                return Result.fail("host.err.player_count", match=old, game=game_msg(new.game),
                                   n=len(seats), min=eng.min_players, max=eng.max_players)
            new = replace(new, seats=seats, names=names, status=ACTIVE, n_commands=0,
                          snapshot=None, snapshot_seq=0,
                          meta={**new.meta, "players0": len(seats), **start_edition(eng, new.meta.get("edition"))})
            mc = bank_clock.read(new)
            first = _initial_state(eng, new)
            if mc is not None:      # a time bank: every seat starts full
                new.meta[bank_clock.KEY] = bank_clock.start(mc, len(seats)).to_json()
                await self._timed(old, new, eng, first)
            else:
                new.deadline = self._deadline(new)
                new.waiting = waiting_rows(new, list(eng.to_act(first)), self.now(), {}, None)
            written = await self._write(new, old.version)
            if written is None:
                return Result.fail("host.err.conflict", match=old)
            self._states.pop(written.id, None)
            return await self._board(written, text + [msg("host.started", game=game_msg(new.game),
                                                          names=_names(written, list(range(len(seats)))))])
        written = await self._write(new, old.version)
        if written is None:
            return Result.fail("host.err.conflict", match=old)
        return await self._board(written, text)

    async def decline(self, match_id: int, user_id: int) -> Result:
        async with self._lock(int(match_id)):
            rec, seat, err = await self._challenged(match_id, user_id)
            if err:
                return err
            new = replace(rec, status=DECLINED)
            written = await self._write(new, rec.version)
            if written is None:
                return Result.fail("host.err.conflict", match=rec)
            key = "host.withdrawn" if user_id == rec.creator else "host.declined"
            return await self._board(written, [msg(key, name=rec.names[seat])])

    async def join(self, match_id: int, user_id: int, name: str, deck: Any = None) -> Result:
        async with self._lock(int(match_id)):
            rec, err = await self._get(match_id)
            if err:
                return err
            if rec.status == ACTIVE:
                return await self._join_running(rec, user_id, name, deck)
            if rec.status != OPEN:
                return Result.fail("host.err.not_open", match=rec)
            if self._seat_of(rec, user_id) is not None:
                return Result.fail("host.err.already_seated", match=rec)
            if None not in rec.seats:
                return Result.fail("host.err.full", match=rec)
            i = rec.seats.index(None)
            seats, names = list(rec.seats), list(rec.names)
            seats[i], names[i] = user_id, name
            new = replace(rec, seats=seats, names=names, accepted=rec.accepted + [user_id],
                          options=_with_deck(rec.options, i, len(rec.seats), deck))
            return await self._maybe_start(rec, new, [msg("host.joined", name=name)])

    async def join_check(self, match_id: int, user_id: int) -> Result:
        """Could ``user_id`` join (or, defeated, rejoin) this match right now?  ``ok`` or the
        refusal ``join`` would give, changing nothing — so a front end can answer before it
        asks the player for a deck."""
        rec, err = await self._get(match_id)
        if err:
            return err
        if rec.status == OPEN:
            if self._seat_of(rec, user_id) is not None:
                return Result.fail("host.err.already_seated", match=rec)
            return Result(ok=True, match=rec) if None in rec.seats else Result.fail("host.err.full", match=rec)
        if rec.status != ACTIVE:
            return Result.fail("host.err.not_open", match=rec)
        _, _, refusal = await self._join_refusal(rec, user_id)
        return refusal or Result(ok=True, match=rec)

    async def _join_refusal(self, rec: MatchRecord, user_id: int
                            ) -> tuple[Any, int | None, Result | None]:
        """(state, the caller's seat or None, None) if they may join the running match now,
        else (…, the refusal)."""
        game = engine_of(rec)
        if not hasattr(game, "can_join"):
            return None, None, Result.fail("host.err.not_open", match=rec)
        if rec.meta.get("league") is not None:
            return None, None, Result.fail("host.err.league_join", match=rec)
        try:
            state = await self._state(rec)
        except CorruptRow:
            return None, None, Result.fail("host.err.quarantined", match=rec, match_id=rec.id)
        seat = self._seat_of(rec, user_id)
        if seat is None and len(rec.seats) >= game.max_players:
            return state, None, Result.fail("host.err.full_running", match=rec, max=game.max_players)
        if not game.can_join(state):
            return state, seat, Result.fail("host.err.join_later", match=rec)
        if seat is not None:
            try:
                game.join(state, seat)
            except IllegalCommand as exc:
                return state, seat, _illegal_join(rec, exc)
        return state, seat, None

    async def _join_running(self, rec: MatchRecord, user_id: int, name: str, deck: Any = None) -> Result:
        """A late join (or a defeated player's rejoin) of a game that allows it (lock held)."""
        game = engine_of(rec)
        state, seat, refusal = await self._join_refusal(rec, user_id)
        if refusal is not None:
            return refusal
        target = len(rec.seats) if seat is None else seat
        entry = JOIN
        try:
            if deck is not None and getattr(game, "decks", None) is not None:
                entry = f"{JOIN} {_deck_token(game, deck)}"
                new_state = game.join(state, target, deck=deck)
            else:
                new_state = game.join(state, target)
        except IllegalCommand as exc:
            return _illegal_join(rec, exc)
        # the join is an entry of /match log: counted in "after N moves" when the log shows it
        # (held with the lines of a secret window still open, as the log holds it)
        meta = {k: v for k, v in rec.meta.items() if k != "held"}
        released = list(rec.meta.get("held", [])) + [[None, None, entry, []]]
        if _hidden(game, new_state):
            meta["held"], released = released, []
        meta["shown"] = shown_after(rec, released)
        new = replace(rec, n_commands=rec.n_commands + 1, meta=meta)
        if seat is None:
            new.seats, new.names = rec.seats + [user_id], rec.names + [name]
            new.accepted = rec.accepted + [user_id]
        await self._timed(rec, new, game, new_state)
        new.updated_at = self.now()
        written, refusal = await self._append(rec, new, target, entry, new_state)
        if refusal is not None:
            return refusal
        key = "host.joined_late" if seat is None else "host.rejoined"
        return await self._board(written, [msg(key, name=written.names[target])] + told_lines(released))

    async def start(self, match_id: int, user_id: int) -> Result:
        async with self._lock(int(match_id)):
            rec, err = await self._get(match_id)
            if err:
                return err
            if rec.status != OPEN:
                return Result.fail("host.err.not_open", match=rec)
            if user_id != rec.creator:
                return Result.fail("host.err.only_creator", match=rec, name=rec.names[0])
            return await self._maybe_start(rec, replace(rec), [], force=True)
