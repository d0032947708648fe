"""What the host answers without changing anything: a player's moves in words, whose decision
it is, a match's status, a player's hand, the public log, and which match a command without a
number means.  A mixin of :class:`host.table.Host` (it uses the host's store, cache and
pictures)."""
from __future__ import annotations

from typing import Any

from data.store import ABORTED, ACTIVE, FINISHED, UNFINISHED, CorruptRow, MatchRecord
from host.engines import engine_of
from host.replay import _final_view, own_part
from host.types import Msg, PrivateUpdate, Result
from host.replay_steps import public_steps
from render.labels import Choice, choices as describe

# a match's ref naming the thread it had to leave (the thread refused its posts: it went on in the
# thread's channel, cogs/delivery.py); a command without a number in that thread still means it
MOVED_FROM = "moved_from"


class Queries:
    async def legal(self, match_id: int, user_id: int) -> list[str]:
        return [c.command for c in await self.choices(match_id, user_id, None)]

    async def _deciding(self, match_id: int, user_id: int) -> tuple[Any, int, Any, Any] | None:
        """(record, seat, game, state) of a player seated in a match in play whose seat a
        person plays (not the computer), or None — also for an unreadable match."""
        rec, err = await self._get(match_id)
        seat = None if err or rec.status != ACTIVE else self._seat_of(rec, user_id)
        if seat is None or seat in self.ai_seats(rec):      # (the computer plays that seat)
            return None
        try:
            return rec, seat, engine_of(rec), await self._state(rec)
        except CorruptRow:
            return None

    async def choices(self, match_id: int, user_id: int, locale: Any = "en", *,
                      only: str | None = None) -> list[Choice]:
        """The player's legal commands now, each described in words in ``locale``
        (:mod:`render.labels`: the menu, DM controls and autocomplete); [] when no decision of
        theirs is awaited.  ``locale=None``: the commands alone (labels are the notation).
        ``only``: just that command, described if it is legal now (else [])."""
        found = await self._deciding(match_id, user_id)
        if found is None:
            return []
        rec, seat, game, state = found
        if seat not in game.to_act(state):
            return []
        legal = game.legal_commands(state, seat)
        if only is not None:
            legal = [only] if only in legal else []
        if locale is None:
            return [Choice(command=c, label=c) for c in legal]
        return describe(rec.game, game.view(state, seat), seat, legal, locale, list(rec.names))

    async def batch_choices(self, match_id: int, user_id: int, locale: Any = "en") -> list[tuple[dict, list[Choice]]]:
        """The player's moves that may be picked together now (host/batch.py: the game's
        ``batches``), each group with its options described in words in ``locale``."""
        from host import batch

        found = await self._deciding(match_id, user_id)
        if found is None:
            return []
        rec, seat, game, state = found
        groups = batch.groups(game, state, seat)
        if not groups:
            return []
        view = game.view(state, seat)
        return [(g, describe(rec.game, view, seat, g["commands"], locale, list(rec.names))) for g in groups]

    async def to_act(self, match_id: int) -> list[int]:
        """Seats whose decision is awaited now ([] unless the match is in play)."""
        rec, err = await self._get(match_id)
        if err or rec.status != ACTIVE:
            return []
        try:
            return engine_of(rec).to_act(await self._state(rec))
        except CorruptRow:
            return []

    # ------------------------------------------------------------------ reading
    async def status(self, match_id: int, viewer: int | None = None) -> Result:
        rec, err = await self._get(match_id)
        if err:
            return err
        try:
            res = await self._board(rec, [], prompts=True, private=False)
        except CorruptRow:
            return Result.fail("host.err.quarantined", match_id=rec.id)
        if viewer is not None and rec.status in (ACTIVE, FINISHED):
            seat = self._seat_of(rec, viewer)
            if seat is not None:
                res.private.append(await self._private(rec, seat))
        # prompts carry legal commands: only the viewer's own may be shown to them
        res.prompts = [p for p in res.prompts if p.user_id == viewer]
        return res

    async def _private(self, rec: MatchRecord, seat: int) -> PrivateUpdate:
        game = engine_of(rec)
        state = await self._state(rec)
        view = _final_view(rec, game.view(state, seat))
        return PrivateUpdate(seat=seat, user_id=rec.seats[seat], text=[], view=view,
                             picture=await self._picture(rec, view, hand=True),
                             own=own_part(view, _final_view(rec, game.view(state, None))))

    async def hand(self, match_id: int, user_id: int) -> Result:
        rec, err = await self._get(match_id)
        if err:
            return err
        seat = self._seat_of(rec, user_id)
        if seat is None:
            return Result.fail("host.err.not_a_player", match=rec)
        if rec.status == ABORTED:       # no hand is dealt any more ("not started" would be wrong)
            return Result.fail("host.err.not_active", match=rec, status=Msg(f"host.state.{rec.status}"))
        if rec.status not in (ACTIVE, FINISHED):
            return Result.fail("host.err.not_started", match=rec)
        try:
            return Result(ok=True, match=rec, private=[await self._private(rec, seat)])
        except CorruptRow:
            return Result.fail("host.err.quarantined", match_id=rec.id)

    async def log(self, match_id: int) -> Result:
        rec, err = await self._get(match_id)
        if err:
            return err
        game = engine_of(rec)
        entries: list[dict] = []
        if rec.status in (ACTIVE, FINISHED, ABORTED) and rec.n_commands:
            entries = public_steps(game, rec, await self.store.commands(rec.id), views=False)
        undone = await self.undone_entries(rec) if rec.meta.get("undos") else []
        return Result(ok=True, match=rec, data={"log": entries, "undone": undone})

    async def log_match_for(self, user_id: int, channel_id: int | None,
                            parent_id: int | None = None) -> MatchRecord | None:
        """The match ``/match log`` (or ``/match hand``) without a number means: :meth:`match_for`,
        except that a challenge not yet started (a rematch offered in a finished match's thread)
        has nothing to show — then the newest match here that was played (the caller's own first)."""
        guess = await self.match_for(user_id, channel_id, parent_id)
        if (guess is not None and guess.status in (ACTIVE, FINISHED, ABORTED)) or channel_id is None:
            return guess
        over = await self.store.matches_in_channel(int(channel_id), (ACTIVE, FINISHED, ABORTED))
        played = [m for m in over if m.n_commands] or over
        mine = [m for m in played if self._seat_of(m, user_id) is not None]
        return max(mine or played, key=lambda m: m.id) if (mine or played) else guess

    async def match_for(self, user_id: int, channel_id: int | None,
                        parent_id: int | None = None) -> MatchRecord | None:
        """The match a command without a match number means: in a channel or a match's thread,
        the caller's newest unfinished match there, else their newest finished one there, else
        the channel's only match (a spectator in a match's own thread), or in a match's own
        thread holding its rematches too, the newest unfinished match there, else the newest;
        in a thread a match had to leave (``parent_id``: the thread's channel, where the match
        went on once the thread refused its posts) that match; anywhere else the caller's one
        running match."""
        if channel_id is not None:
            running = await self.store.matches_in_channel(int(channel_id))
            here = [m for m in running if self._seat_of(m, user_id) is not None]
            if here:
                return max(here, key=lambda m: m.id)
            over = await self.store.matches_in_channel(int(channel_id), (FINISHED, ABORTED))
            mine_over = [m for m in over if self._seat_of(m, user_id) is not None]
            if mine_over:
                return max(mine_over, key=lambda m: m.id)
            if len(running) + len(over) == 1:
                return (running + over)[0]
            # a match's own thread, its rematches played there too: the newest unfinished match,
            # else the newest one (a plain channel with several matches still needs a number)
            for m in running + over:
                if (await self.store.get_refs(m.id)).get("thread") == str(channel_id):
                    return max(running or over, key=lambda m: m.id)
            if parent_id is not None:
                left = [m for m in await self.store.matches_in_channel(int(parent_id), (*UNFINISHED, FINISHED, ABORTED))
                        if (await self.store.get_refs(m.id)).get(MOVED_FROM) == str(channel_id)]
                mine = [m for m in left if self._seat_of(m, user_id) is not None]
                if mine or left:
                    return max(mine or left, key=lambda m: m.id)
        mine = await self.store.matches_for_user(int(user_id), (ACTIVE,))
        return mine[0] if len(mine) == 1 else None

    @staticmethod
    def _moderates(rec: MatchRecord, moderator_guild: int | None) -> bool:
        """Moderator power over ``rec``: held in the match's own server, never in a DM or
        another server (match ids are small and sequential, so they are easy to guess)."""
        return rec.guild_id is not None and moderator_guild is not None and int(moderator_guild) == int(rec.guild_id)

    async def _voters(self, rec: MatchRecord) -> list[int]:
        """Seats whose vote an abort needs: every seated player, or in a running match of a game
        with ``seats_in_play`` only those still in it (a defeated player cannot hold it up)."""
        computer = self.ai_seats(rec)          # the computer of a practice match never votes
        seated = [s for s, u in enumerate(rec.seats) if u is not None and s not in computer]
        fn = getattr(engine_of(rec), "seats_in_play", None)
        if fn is None or rec.status != ACTIVE:
            return seated
        try:
            in_play = set(fn(await self._state(rec)))
        except CorruptRow:
            return seated
        return [s for s in seated if s in in_play] or seated
