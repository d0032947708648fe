"""Practice against the computer (issue 17): a match in which one seat is played by ``ai.choose``.

The computer's seat belongs to the bot's own user; the match records it in ``meta["ai"]``
(``{seat: level}``), is unrated (``meta["rated"] = False``) and marked ``meta["practice"]``.
The computer moves through :meth:`Host._apply` like a person — logged, replayable, its secrets
kept — handed only its seat's view.  When to move (after a short, natural delay) is the front
end's business: it calls :meth:`Practice.ai_move` whenever :meth:`Practice.ai_to_act` says so.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from data.store import ACTIVE, CorruptRow, MatchRecord
from host.texts import _names
from host.types import Result, msg
from rules import registry

log = logging.getLogger("host.practice")

HARD_BUDGET_S = 1.0


class Practice:
    async def practice(self, game: str, user: int, name: str, *, ai_user: int, level: str = "normal",
                       ai_name: str = "", options: dict | None = None, deck: Any = None,
                       guild_id: int | None = None, channel_id: int | None = None,
                       locale: str = "en", cards: str | None = None, anywhere: bool = False) -> Result:
        """Start a match of ``user`` against the computer at ``level`` (no acceptance needed);
        ``cards``: the server's card set to play with (see :meth:`challenge`).  ``anywhere``: a
        match that belongs to no server (the bot installed on the player's own account, used in
        a DM or a group chat): no server and no channel are kept, ``meta["app"]`` marks it, and
        the front end shows it only through the player's own interactions."""
        from ai import LEVELS

        if level not in LEVELS:
            return Result.fail("host.err.ai_level", levels=", ".join(LEVELS))
        if game in registry and not hasattr(registry.get(game), "determinize"):
            return Result.fail("host.err.no_practice", game=game)
        meta = {"rated": False, "practice": True, "ai": {"1": level}, **({"app": True} if anywhere else {})}
        if anywhere:
            guild_id = channel_id = None
        res = await self.challenge(game, user, name, opponents=[(int(ai_user), ai_name or "AI")], options=options,
                                   guild_id=guild_id, channel_id=channel_id, locale=locale, deck=deck,
                                   meta=meta, cards=cards)
        if not res.ok:
            return res
        return await self.accept(res.match.id, int(ai_user))

    def ai_seats(self, rec: MatchRecord) -> dict[int, str]:
        """The computer's seats of a match and their levels (checked: garbage is ignored)."""
        from ai import LEVELS

        raw = (rec.meta or {}).get("ai")
        if not isinstance(raw, dict):
            return {}
        out = {}
        for key, level in raw.items():
            if str(key).isdigit() and int(key) < len(rec.seats) and level in LEVELS:
                out[int(key)] = level
        return out

    async def ai_to_act(self, match_id: int) -> bool:
        """True when it is the computer's turn in this match."""
        rec = await self.store.get_match(int(match_id))
        if rec is None or rec.status != ACTIVE or not self.ai_seats(rec):
            return False
        try:
            game = await self._engine(rec)
            state = await self._state(rec)
        except CorruptRow:
            return False
        return any(s in self.ai_seats(rec) for s in game.to_act(state))

    async def ai_move(self, match_id: int) -> Result | None:
        """The computer's move, if it is its turn: chosen from its seat's view alone (in a worker
        thread, so the bot stays responsive), applied like any player's command."""
        from ai import choose

        async with self._lock(int(match_id)):
            rec = await self.store.get_match(int(match_id))
            if rec is None or rec.status != ACTIVE:
                return None
            seats = self.ai_seats(rec)
            try:
                game = await self._engine(rec)
                state = await self._state(rec)
            except CorruptRow:
                return None
            mine = [s for s in game.to_act(state) if s in seats]
            if not mine:
                return None
            seat = mine[0]
            level = seats[seat]
            legal = game.legal_commands(state, seat)
            if not legal:
                return None
            view = game.view(state, seat)
            budget = HARD_BUDGET_S if level == "hard" else None
            command = await asyncio.to_thread(choose, rec.game, view, legal, seat, level=level,
                                              seed=rec.id * 100_003 + rec.n_commands, budget_s=budget,
                                              game=game)
            log.info("match %s: the computer (seat %d, %s) plays %r", rec.id, seat, level, command)
            return await self._apply(rec, game, state, seat, command)


    # ------------------------------------------------------------------ the seat-filler
    def fills(self, rec: MatchRecord) -> bool:
        """A free-for-all started with ``fill:ai``: a player who leaves, resigns or times out
        is replaced by the computer so the others can finish (never in leagues)."""
        meta = rec.meta or {}
        return bool(meta.get("fill_ai")) and rec.status == ACTIVE and not meta.get("league") and len(rec.seats) >= 3

    async def _fill_seats(self, rec: MatchRecord, seats: list[int], key: str) -> Result | None:
        """The computer takes over ``seats`` (lock held); the match is no longer rated (the
        computer's play is nobody's result).  None when there is nothing to take over."""
        seats = [s for s in seats if s not in self.ai_seats(rec)]
        if not seats or not self.fills(rec):
            return None
        ai = {**{str(k): v for k, v in self.ai_seats(rec).items()}, **{str(s): "normal" for s in seats}}
        written = await self._write(replace(rec, meta={**rec.meta, "ai": ai, "rated": False}), rec.version)
        if written is None:
            return Result.fail("host.err.conflict", match=rec)
        names = _names(rec, seats)
        log.info("match %s: the computer takes over seat(s) %s", rec.id, seats)
        res = await self._board(written, [msg(key, names=names)])
        res.data["filled"] = seats
        return res


def ai_name_msg(level: str):
    """The computer's name as a message: "Computer (hard)"."""
    return msg("host.ai_name", level=msg(f"host.ai_level.{level}"))
