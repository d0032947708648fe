"""What a server's playtesters learn of their cards: the rows a finished limited match leaves for
the per-card figures, the one-tap survey after a match played with a server's own set, and the
report (``/cards report``) that rolls both up beside the picks.

* **A limited match ends** (``meta["limited"]``): each seat's deck, the cards it drew and the cards
  it played publicly, and its score (win 1, draw ½, loss 0) are kept (``limited_games``), read
  from the stored log by host/stats/drawn.py — once, in a worker thread.
* **The survey**: after a match played with a server's own set, each player may say, by DM and one
  tap each, how much fun it was (1–5), a card that felt too strong and a card that felt too weak —
  from the cards they saw in that match (their own drawn cards and every card played publicly,
  remembered with the match until they answer).  One answer per player per match: a later tap
  replaces the earlier one.  The report counts answers, never who gave them.
* **The report**: every figure of host/stats/card_figures.py for one version of a set, with the
  cards' names, as a picture and a CSV — built from the per-card counters the store keeps as the
  rows above are written (data/sql_card_counters.py), not from the rows themselves.
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from data.sql_limited import LimitedGameRecord, SurveyRecord
from data.store import StoreError
from host.stats import card_figures as F
from host.types import Result, msg

log = logging.getLogger("host.limited")

SEEN_REF = "survey:"            # a match's ref "survey:<user>": the cards that player saw (JSON list)
SEEN_MAX = 1000


def _score(value: Any) -> float:
    return float(value) if value in (0, 0.5, 1, 0.0, 1.0) else 0.0


class Feedback:
    """Mixed into :class:`host.limited.service.Drafts`; needs its ``store``, ``cards`` and ``now``."""

    async def on_match_finished(self, rec: Any) -> Result:
        """A match ended: keep a limited match's rows, and say who may answer the survey
        (``data["survey"]``: ``{user_id: [card ids seen]}`` — a match of a server's own set)."""
        meta = rec.meta or {}
        limited = meta.get("limited") if isinstance(meta.get("limited"), dict) else None
        own_set = isinstance(meta.get("cards"), dict)
        if rec.guild_id is None or (limited is None and not own_set):
            return Result(ok=False)
        from host.engines import engine_for
        from host.stats.drawn import limited_rows

        try:
            engine = await engine_for(self.store, rec)
            commands = await self.store.commands(rec.id)
            rows = await asyncio.to_thread(limited_rows, engine, rec, commands)
        except Exception:
            log.warning("match %s: its cards could not be read for the figures", rec.id, exc_info=True)
            return Result(ok=False)
        ref = meta.get("cards") if own_set else None
        set_name, set_version = (ref["name"], int(ref["version"])) if ref else (None, None)
        if limited is not None and type(limited.get("draft")) is int:
            # an event's match: each seat's pool may come from another pod's draft
            per_seat = limited.get("drafts") if isinstance(limited.get("drafts"), list) else []

            def draft_of(seat: int) -> int:
                value = per_seat[seat] if 0 <= seat < len(per_seat) else None
                return value if type(value) is int else int(limited["draft"])
            records = [LimitedGameRecord(int(rec.id), int(r["seat"]), draft_of(int(r["seat"])), int(rec.guild_id),
                                         rec.game, set_name, set_version, tuple(r["deck"])[:200],
                                         tuple(sorted(r["drawn"]))[:200], tuple(sorted(r["played"]))[:200],
                                         _score(r["score"]))
                       for r in rows]
            try:
                await self.store.add_limited_games(records)
            except (StoreError, ValueError):
                log.warning("match %s: its limited rows were not kept", rec.id, exc_info=True)
        survey: dict[int, list[str]] = {}
        if own_set:
            public = set().union(*(set(r["played"]) for r in rows)) if rows else set()
            for r in rows:
                seat = int(r["seat"])
                uid = rec.seats[seat] if seat < len(rec.seats) else None
                if not uid:
                    continue
                seen = sorted(set(r["drawn"]) | public)[:SEEN_MAX]
                survey[int(uid)] = seen
                try:
                    await self.store.set_ref(rec.id, f"{SEEN_REF}{uid}", json.dumps(seen))
                except StoreError:
                    log.info("match %s: the survey's cards were not kept", rec.id)
        return Result(ok=True, match=rec, data={"survey": survey, "set": ref})

    async def survey_cards(self, match_id: int, user_id: int) -> tuple[Any, list[str] | None]:
        """The match and the cards ``user_id`` saw in it (None: they have no survey there)."""
        rec = await self.store.get_match(int(match_id))
        if rec is None or int(user_id) not in [int(u) for u in rec.seats if u]:
            return rec, None
        refs = await self.store.get_refs(rec.id)
        try:
            seen = json.loads(refs.get(f"{SEEN_REF}{user_id}") or "null")
        except ValueError:
            seen = None
        if not isinstance(seen, list) or not all(isinstance(c, str) for c in seen):
            return rec, None
        return rec, seen[:SEEN_MAX]

    async def answer_survey(self, match_id: Any, user_id: int, *, fun: int | None = None,
                            strong: str | None = None, weak: str | None = None) -> Result:
        """One tap of the survey: the answer so far with this part changed (one answer per player
        per match).  Refused: not a player of that match, a card they did not see, fun outside 1–5,
        one card both too strong and too weak."""
        try:
            mid = int(match_id)
        except (TypeError, ValueError):
            return Result.fail("survey.err.none")
        rec, seen = await self.survey_cards(mid, user_id)
        if rec is None or seen is None:
            return Result.fail("survey.err.none")
        if fun is not None and (type(fun) is not int or not 1 <= fun <= 5):
            return Result.fail("survey.err.fun")
        for card in (strong, weak):
            if card is not None and card not in seen:
                return Result.fail("survey.err.card")
        old = await self._answer(rec, user_id)
        new_fun = fun if fun is not None else (old.fun if old else None)
        new_strong = strong if strong is not None else (old.strong if old else None)
        new_weak = weak if weak is not None else (old.weak if old else None)
        if new_strong is not None and new_strong == new_weak:
            return Result.fail("survey.err.both")
        ref = (rec.meta or {}).get("cards") or {}
        record = SurveyRecord(rec.id, int(user_id), int(rec.guild_id), rec.game, ref.get("name"),
                              int(ref["version"]) if ref.get("version") is not None else None,
                              new_fun, new_strong, new_weak, tuple(seen), self.now())
        try:
            await self.store.put_survey(record)
        except (StoreError, ValueError):
            return Result.fail("draft.err.try_again")
        return Result(ok=True, data={"answer": record}, info=[msg("survey.thanks")])

    async def _answer(self, rec: Any, user_id: int) -> SurveyRecord | None:
        return await self.store.survey_of(rec.id, int(user_id))

    async def report(self, guild_id: int | None, game: str, set_name: str | None, version: int | None = None
                     ) -> Result:
        """The per-card figures of one version of a server's set (``set_name`` None: the shipped
        cards; ``version`` None: the newest): ``data["report"]`` (host/stats/card_figures.py's
        CardReport), ``["names"]`` ({card id: {"en", "ja"}}), ``["set"]`` (name, version).
        Built from the version's counters (one row per card, kept up to date as the picks, games
        and answers are written: data/sql_card_counters.py), not from every row — the same
        figures :func:`host.stats.card_figures.report` gives from the rows, in a few
        milliseconds for 10,000 matches; a version last counted before the counters existed is
        counted from its rows once, by its first report."""
        if guild_id is None:
            return Result.fail("draft.err.dm")
        cards, err = await self.cards(guild_id, game, set_name or "shipped", version)
        if err:
            return err
        counts, totals = await self.store.card_counts(guild_id, game, cards.set_name, cards.set_version)
        try:
            report = F.report_from_counts(counts, totals, cards=sorted(cards.cube))
        except ValueError:
            log.warning("report of %s %s v%s: a counter does not fit", game, cards.set_name, cards.set_version,
                        exc_info=True)
            return Result.fail("draft.err.unreadable_report")
        names = {cid: dict(e.name or {}) for cid, e in cards.entries.items()}
        return Result(ok=True, data={"report": report, "names": names, "cards": cards,
                                     "set": (cards.set_name, cards.set_version)})


__all__ = ["Feedback", "SEEN_REF"]
