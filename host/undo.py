"""Taking moves back (docs/undo.md): an undo within the player's own turn, a takeback the other
players accept, and a judge's rewind (host/events/judge.py calls :meth:`Undo.rewind`).

All three take the last entries off the match's log (``Store.rewind_log``: kept, as undone, in
the same transaction) and so go back to the position before them exactly: the log without them
replays to it, and every picture, replay and record is of the position as it stands.  What the
undone moves showed in the thread stays there (it was public); ``/match log`` and the match's
text record still list them, marked undone (:meth:`Undo.undone_entries`).

Which move may be taken back is the engine's knowledge (docs/engine.md, ``final`` and
``reveals``); the rules of the table are :mod:`host.undo_rules` (pure).  :class:`Undo` is a
mixin of :class:`host.table.Host` (it uses its lock, store, ``_get``, ``_seated``, ``_timed``,
``_board``, ``_remember`` and ``ai_seats``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from data.store import ACTIVE, CorruptRow, MatchRecord, VersionConflict
from host import undo_rules
from host.engines import engine_of
from host.replay import _public_command, _step, replay_start
from host.replay_steps import history, steps_of
from host.texts import _names, played_text
from host.types import Msg, PublicUpdate, Result, msg

TAKEBACK_KEY = "takeback"     # meta: the open takeback request


class Undo:
    """Undo, takeback and rewind (a mixin of :class:`host.table.Host`)."""

    # ------------------------------------------------------------------ reading the log
    async def _played(self, rec: MatchRecord, first: int = 0) -> list[tuple[Any, int, str, Any]]:
        """The log replayed from entry ``first`` on (0-based): ``(state before, seat, entry, state
        after)`` per entry — the entries before it from the newest snapshot at or before it, so
        offering a button costs a few steps, not the whole match."""
        game = engine_of(rec)
        commands = await self.store.commands(rec.id) if rec.n_commands else []
        first = max(0, min(first, len(commands)))
        state, done = replay_start(game, rec, first)
        for c in commands[done:first]:
            state = _step(game, state, c.seat, c.command)
        return list(history(game, rec, commands[first:], start=state))

    async def _player(self, match_id: int, user_id: int) -> tuple[Any, Any, Result | None]:
        """(the match, the caller's seat, None) for a player of an active match who is not the
        computer's seat; else the refusal."""
        rec, seat, err = await self._seated(match_id, user_id)
        if not err and seat in self.ai_seats(rec):
            err = Result.fail("host.err.computer_seat", match=rec, match_id=rec.id)
        return rec, seat, err

    async def _replayed(self, rec: MatchRecord) -> tuple[list, Result | None]:
        """:meth:`_played`, or the refusal of a match whose log does not replay (quarantined)."""
        try:
            return await self._played(rec), None
        except CorruptRow:
            return [], Result.fail("host.err.quarantined", match=rec, match_id=rec.id)

    async def undo_offer(self, match_id: int, user_id: int) -> bool:
        """May ``user_id`` undo their last move of this turn now (the Act menu's Undo button)?"""
        rec, seat, err = await self._seated(match_id, user_id)
        if err or seat in self.ai_seats(rec) or not rec.n_commands or not hasattr(engine_of(rec), "final"):
            return False
        try:
            played = await self._played(rec, rec.n_commands - 1)
        except Exception:     # an unreadable log offers nothing (a move is refused with the reason)
            return False
        return undo_rules.undo_refusal(engine_of(rec), played, seat) is None

    async def takeback_offer(self, match_id: int, user_id: int) -> bool:
        """May ``user_id`` ask for a takeback now (the button when it is not their turn)?"""
        rec, seat, err = await self._seated(match_id, user_id)
        if err or seat in self.ai_seats(rec) or _open_request(rec) is not None:
            return False
        if await self._takebacks_allowed(rec) is not None:
            return False
        first = max(0, rec.n_commands - undo_rules.TAKEBACK_MAX)
        try:
            played = await self._played(rec, first)
        except Exception:
            return False
        return undo_rules.takeback_span(engine_of(rec), played, seat)[1] is None

    # ------------------------------------------------------------------ undo (own turn)
    async def undo(self, match_id: int, user_id: int) -> Result:
        """Take back the caller's last move, if it was of this turn and final to nothing
        (``game.final`` False): no draw, shuffle, reveal, random result, secret window or
        decision of another player came of it.  No one else is asked."""
        async with self._lock(int(match_id)):
            rec, seat, err = await self._player(match_id, user_id)
            if err:
                return err
            game = engine_of(rec)
            played, err = await self._replayed(rec)
            if err:
                return err
            refusal = undo_rules.undo_refusal(game, played, seat)
            if refusal is not None:
                return Result.fail(refusal, match=rec)
            before, _, entry, _ = played[-1]
            line = msg("undo.undone", name=rec.names[seat],
                       move=self._move_words(rec, game, before, seat, entry))
            return await self._rewind(rec, game, played, rec.n_commands - 1, kind="undo",
                                      by_user=int(user_id), lines=[line], actor=seat)

    # ------------------------------------------------------------------ takeback (asked)
    async def takeback(self, match_id: int, user_id: int) -> Result:
        """Ask the other players to take back the caller's last move (and what was played
        after it).  Refused when anything hidden was revealed since, in an event or rated match
        that does not allow takebacks, or while another request is open.  Against the computer
        alone it is accepted at once."""
        async with self._lock(int(match_id)):
            rec, seat, err = await self._player(match_id, user_id)
            if err:
                return err
            allowed = await self._takebacks_allowed(rec)
            if allowed is not None:
                return Result.fail(allowed, match=rec)
            if _open_request(rec) is not None:
                return Result.fail("undo.err.takeback_open", match=rec)
            game = engine_of(rec)
            played, err = await self._replayed(rec)
            if err:
                return err
            keep, refusal = undo_rules.takeback_span(game, played, seat)
            if refusal is not None:
                return Result.fail(refusal, match=rec)
            before, _, entry, _ = played[keep]
            move = self._move_words(rec, game, before, seat, entry)
            humans = [s for s in range(len(rec.seats)) if s != seat and rec.seats[s] is not None
                      and s not in self.ai_seats(rec) and rec.seats[s] != rec.seats[seat]]
            if not humans:          # only the computer to ask: it agrees
                line = msg("undo.taken_back", name=rec.names[seat], move=move)
                return await self._rewind(rec, game, played, keep, kind="takeback",
                                          by_user=int(user_id), lines=[line])
            meta = dict(rec.meta)
            meta[TAKEBACK_KEY] = {"seat": seat, "keep": keep, "n": rec.n_commands, "yes": [],
                                  "ask": humans, "at": self.now()}
            written = await self._write(replace(rec, meta=meta), rec.version)
            if written is None:
                return Result.fail("host.err.conflict", match=rec)
            line = msg("undo.takeback_asked", name=rec.names[seat], move=move,
                       waiting=_names(rec, humans), n=rec.n_commands - keep)
            return Result(ok=True, match=written, notify=[rec.seats[s] for s in humans],
                          info=[msg("undo.takeback_sent", waiting=_names(rec, humans))],
                          data={"takeback": {"seat": seat, "ask": humans}},
                          public=PublicUpdate(text=[line], view={}))

    async def takeback_request(self, match_id: int, user_id: int) -> dict | None:
        """The open takeback request ``user_id`` is asked to answer (for the Act menu), with the
        asker's name and the move in words; None when there is none for them."""
        rec, err = await self._get(match_id)
        if err or rec.status != ACTIVE:
            return None
        req = _open_request(rec)
        seat = self._seat_of(rec, user_id)
        if req is None or seat is None or seat not in req["ask"] or seat in req["yes"]:
            return None
        return {"name": rec.names[req["seat"]], "n": rec.n_commands - req["keep"]}

    async def takeback_answer(self, match_id: int, user_id: int, accept: bool) -> Result:
        """Accept or decline the open takeback request.  When every player asked has accepted,
        the moves are taken back; a decline ends the request."""
        async with self._lock(int(match_id)):
            rec, seat, err = await self._seated(match_id, user_id)
            if err:
                return err
            req = _open_request(rec)
            if req is None:
                return Result.fail("undo.err.no_request", match=rec)
            if seat not in req["ask"]:
                return Result.fail("undo.err.not_asked", match=rec)
            meta = dict(rec.meta)
            asker = req["seat"]
            if not accept:
                meta.pop(TAKEBACK_KEY, None)
                written = await self._write(replace(rec, meta=meta), rec.version)
                if written is None:
                    return Result.fail("host.err.conflict", match=rec)
                line = msg("undo.takeback_declined", name=rec.names[seat], asker=rec.names[asker])
                return Result(ok=True, match=written, notify=[rec.seats[asker]], info=[line],
                              public=PublicUpdate(text=[line], view={}))
            yes = sorted(set(req["yes"]) | {seat})
            waiting = [s for s in req["ask"] if s not in yes]
            if waiting:
                meta[TAKEBACK_KEY] = {**req, "yes": yes}
                written = await self._write(replace(rec, meta=meta), rec.version)
                if written is None:
                    return Result.fail("host.err.conflict", match=rec)
                line = msg("undo.takeback_agreed", name=rec.names[seat], waiting=_names(rec, waiting))
                return Result(ok=True, match=written, info=[line], public=PublicUpdate(text=[line], view={}))
            game = engine_of(rec)
            played, err = await self._replayed(rec)
            if err:
                return err
            keep = int(req["keep"])
            # checked again on the log as it is now (the request is void once anything moved)
            again, refusal = undo_rules.takeback_span(game, played, asker)
            if refusal is not None or again != keep:
                return Result.fail(refusal or "undo.err.request_lapsed", match=rec)
            before, _, entry, _ = played[keep]
            line = msg("undo.takeback_accepted", name=rec.names[seat], asker=rec.names[asker],
                       move=self._move_words(rec, game, before, asker, entry))
            return await self._rewind(rec, game, played, keep, kind="takeback", by_user=int(user_id),
                                      lines=[line])

    async def _takebacks_allowed(self, rec: MatchRecord) -> str | None:
        """None when the match allows takebacks, else the refusal's key: an event match only if
        its event allows them; a rated match only if its server allows them."""
        if rec.status != ACTIVE:
            return "undo.err.not_active"
        if not hasattr(engine_of(rec), "reveals"):
            return "undo.err.no_undo_game"
        if rec.meta.get("league") is not None:
            return None if rec.meta.get("takebacks") is True else "undo.err.takeback_event"
        if rec.guild_id is None:
            return None
        mode = (await self.store.get_guild_settings(rec.guild_id)).get("takebacks")   # /settings takebacks
        if rec.meta.get("rated"):
            return None if mode == "rated" else "undo.err.takeback_rated"
        return "undo.err.takeback_off" if mode == "off" else None

    # ------------------------------------------------------------------ the judge's rewind
    async def rewind(self, match_id: int, back: int, *, by_user: int, reason: str,
                     force: bool = False, lead: list[Msg] | None = None) -> Result:
        """Put the match back ``back`` entries of its log (a judge's ruling; the caller has
        checked the judge's authority).  Refused past a late join or a resignation, and into a
        secret decision; when anything hidden was revealed since, refused with
        ``data["revealed"]`` unless ``force`` (the judge decides)."""
        async with self._lock(int(match_id)):
            rec, err = await self._get(match_id)
            if err:
                return err
            if rec.status != ACTIVE:
                return Result.fail("undo.err.not_active", match=rec)
            game = engine_of(rec)
            played, err = await self._replayed(rec)
            if err:
                return err
            keep = rec.n_commands - int(back)
            refusal = undo_rules.rewind_refusal(game, played, keep)
            if refusal is not None:
                return Result.fail(refusal, match=rec, max=undo_rules.REWIND_MAX)
            revealed = undo_rules.revealed_since(game, played, keep)
            if revealed and not force:
                res = Result.fail("undo.err.revealed_since", match=rec)
                res.data["revealed"] = True
                return res
            line = msg("undo.rewound", n=int(back), reason=reason)
            return await self._rewind(rec, game, played, keep, kind="judge", by_user=int(by_user),
                                      lines=list(lead or []) + [line], reason=reason)

    # ------------------------------------------------------------------ the log
    async def undone_entries(self, rec: MatchRecord) -> list[dict]:
        """The moves taken back in ``rec`` as the match log lists them: per rewind, who undid
        what and why, each move in the words the thread told it.  Only what was public: never
        the stored notation (a face-down card), and a hidden decision is not listed at all."""
        out = []
        for u in await self.store.undone(rec.id):
            if not 0 <= u.seat < len(rec.names) or u.words is None:
                continue
            out.append({"undo": u.undo, "seq": u.seq, "seat": u.seat, "name": rec.names[u.seat],
                        "words": u.words, "kind": u.kind, "by": u.by_user, "reason": u.reason,
                        "at": u.undone_at})
        return out

    # ------------------------------------------------------------------ internals
    @staticmethod
    def _told(rec: MatchRecord, game: Any, before: Any, seat: int, entry: str) -> tuple[str | None, Any]:
        """``(the entry as everyone saw it, its words as the thread told them)`` —
        :func:`host.texts.played_text`, as a move's own line says it; ``(None, None)`` for a
        secret decision or a host entry (a join, a resignation), which no line names."""
        public = None if undo_rules.host_entry(entry) else _public_command(game, before, seat, entry)
        if public is None:
            return None, None
        return public, played_text(rec.game, game, before, seat, public, list(rec.names), game.view(before, None))

    def _move_words(self, rec: MatchRecord, game: Any, before: Any, seat: int, entry: str) -> Any:
        """An entry in words for a line of the thread ("a hidden decision" for a secret one)."""
        return self._told(rec, game, before, seat, entry)[1] or msg("undo.hidden_move")

    async def _rewind(self, rec: MatchRecord, game: Any, played: list, keep: int, *, kind: str,
                      by_user: int, lines: list[Msg], actor: int | None = None,
                      reason: str = "") -> Result:
        """Take the entries after ``keep`` off the log (lock held) and show the position."""
        state = played[keep - 1][3] if keep else (played[0][0] if played else None)
        if state is None:
            return Result.fail("undo.err.nothing", match=rec)
        kept = played[:keep]
        meta = {k: v for k, v in rec.meta.items() if k not in ("expired", "held", "said", TAKEBACK_KEY)}
        meta["undos"] = int(rec.meta.get("undos", 0)) + 1
        meta["shown"] = len(steps_of(game, replace(rec, status=ACTIVE), iter(kept), views=False, words=False))
        for before, seat, entry, _ in reversed(kept):     # the last public move, for the pictures
            public, shown = self._told(rec, game, before, seat, entry)
            if public is not None:
                meta["said"] = [rec.names[seat], shown, public]
                break
        new = replace(rec, n_commands=keep, reminded=False, meta=meta, abort_votes=[])
        if rec.snapshot_seq > keep:
            new.snapshot, new.snapshot_seq = (game.dump(state), keep) if keep else (None, 0)
        await self._timed(rec, new, game, state, actor=actor, state_before=played[-1][3] if actor is not None else None)
        new.updated_at = self.now()
        words = {}      # each undone entry in the words the thread told it (None: a secret one)
        for i in range(keep, len(played)):
            before, seat, entry, _ = played[i]
            shown = self._told(rec, game, before, seat, entry)[1]
            words[i + 1] = {"en": shown, "ja": shown} if isinstance(shown, str) else shown
        try:
            written = await self.store.rewind_log(new, rec.version, undo=meta["undos"], kind=kind,
                                                  by_user=by_user, reason=reason, words=words)
        except VersionConflict:
            self._states.pop(rec.id, None)
            return Result.fail("host.err.conflict", match=rec)
        self._remember(rec.id, written.n_commands, state, undos=meta["undos"])
        return await self._board(written, lines, data={"rewound": kind, "kept": keep})


def _open_request(rec: MatchRecord) -> dict | None:
    """The match's open takeback request, checked (a row's garbage is no request); void once
    the log moved on since it was asked."""
    req = (rec.meta or {}).get(TAKEBACK_KEY)
    if not isinstance(req, dict):
        return None
    try:
        seat, keep, n = int(req["seat"]), int(req["keep"]), int(req["n"])
        ask = [int(s) for s in req["ask"]]
        yes = [int(s) for s in req.get("yes", [])]
    except (KeyError, TypeError, ValueError):
        return None
    if n != rec.n_commands or not 0 <= keep < n or not 0 <= seat < len(rec.seats):
        return None
    return {"seat": seat, "keep": keep, "n": n, "ask": ask, "yes": yes}


__all__ = ["Undo", "TAKEBACK_KEY"]
