"""The private half of delivery: each player's DM (their private view, edited in place, with
the Act button while the match runs; a finished match's DM says how it ended, without Act),
the secret "a decision is waiting" prompts (each retired — edited once, without its button —
when its decision is answered or its window closes), and what happens when a player's DMs are
closed.

:class:`PrivateDelivery` is a mixin of :class:`cogs.delivery.Delivery` (it uses the cog's
plumbing: ``store``, ``host``, ``bot``, ``_edit``, ``_post``, ``_delete``, ``_too_old``,
``_queued``).  Private views are never logged.
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
from typing import Any, Sequence

import discord

from cogs.board_layout import TEXT_MAX, Layout, colour_value, layout_view, send_layout, v2_edit, words_view
from cogs.common import (NO_PINGS, clip, code, game_name, loc, pings, render, render_lines, safe_text,
                         too_old_to_edit, tr)
from cogs.components import act_button, legal_hash
from data.store import ACTIVE, FINISHED, MatchRecord

log = logging.getLogger("cogs.delivery")


def picture_file(png: bytes | None, name: str) -> discord.File | None:
    return discord.File(io.BytesIO(png), filename=name) if png else None


def _digest(view: discord.ui.LayoutView, picture: bytes | None, menu: str = "") -> str:
    """What a DM shows (its layout, picture and the moves its menu offers), as a short fingerprint."""
    h = hashlib.blake2b(json.dumps(view.to_components(), sort_keys=True, default=str).encode("utf-8"),
                        digest_size=16)
    h.update(("menu:" + menu).encode("utf-8") if menu else b"-")
    h.update(picture or b"")
    return h.hexdigest()


class PrivateDelivery:
    """DMs: private views, secret prompts, closed DMs."""

    def _private_text(self, rec: MatchRecord, pu: Any, locale: str, outcome: Any = None
                      ) -> tuple[str, list[str], str, str]:
        """A player's private view in words: (title, its lines, the same information as the
        picture as a code block — "" when there is none —, the last line: where to act, or how
        the match ended)."""
        lines = render_lines(pu.text, locale)
        own = getattr(pu, "own", None)
        summary = ""
        if own and set(own) - {"cards"}:
            from render.text import render_text

            text = render_text(rec.game, own, locale=locale, names=list(rec.names))
            if text.strip():  # the same information as the picture, as text
                # a code block shows names as typed; a backtick in one could close it
                summary = "```\n" + clip(text.replace("`", "'"), 3000) + "\n```"
        where = f"<#{rec.channel_id}>" if rec.channel_id else ""
        if rec.status == ACTIVE:
            last = tr("cogs.dm.footer", locale, where=where)
        else:   # no Act here any more: the match is over, and how it ended
            result = render(outcome if outcome is not None else self._outcome(rec), locale)
            last = tr("delivery.dm.over", locale, result=result) if result else tr("delivery.dm.over_plain", locale)
        title = tr("cogs.dm.title", locale, game=game_name(rec.game, locale), match_id=rec.id)
        return title, lines, summary, last

    def private_embed(self, rec: MatchRecord, pu: Any, locale: str, outcome: Any = None
                      ) -> tuple[discord.Embed, discord.File | None]:
        """A player's private view as ``/match hand`` shows it (an embed, seen by them alone).
        ``outcome``: the result line of a match that ended (the final board's status line)."""
        title, lines, summary, last = self._private_text(rec, pu, locale, outcome)
        text = "\n".join(lines + ([summary] if summary else []) + [last])
        embed = discord.Embed(title=clip(title, 256), description=clip(text, 4000), colour=discord.Colour.dark_teal())
        file = picture_file(pu.picture, "hand.png")
        if file is not None:
            embed.set_image(url="attachment://hand.png")
        return embed, file

    def private_layout(self, rec: MatchRecord, pu: Any, locale: str, outcome: Any = None, *,
                       active: bool = False, head: str = "", title: str | None = None, to_player: bool = True,
                       rows: Sequence[Any] = (), picture: str = "hand.png", limit: int = TEXT_MAX,
                       footer: str = "") -> tuple[discord.ui.LayoutView, discord.File | None]:
        """A player's private view, a Components V2 layout: the title, what happened to them, their
        hand's picture, the same in words, where to act (or how the match ended) and, while the
        match runs (``active``), the Act button.  The same layout answers ``/match hand`` and an
        Act pressed between turns (``head``: what the reply says first; ``rows``: its buttons) and
        shows a judge each hand (``title``: whose; ``to_player`` false: without the line that
        tells the player where to act; ``picture``: the file's name, one per seat; ``limit``: its
        share of the message's text; ``footer``: small print at its end)."""
        name, lines, summary, last = self._private_text(rec, pu, locale, outcome)
        title = title or name
        if not to_player and rec.status == ACTIVE:
            last = ""
        file = picture_file(pu.picture, picture)
        layout = Layout(title=title, head=head, lines="\n".join(lines),
                        pictures=((picture, title),) if file else (),
                        details="\n\n".join(p for p in (summary, last) if p), footer=footer,
                        accent=colour_value(discord.Colour.dark_teal()))
        rows = [*rows, [act_button(rec.id, locale)]] if active else list(rows)
        return layout_view(layout, rows, limit=limit), file

    async def _deliver_privates(self, result: Any, rec: MatchRecord) -> None:
        """Private views last, each on its own: a closed DM never blocks anything else.  A
        player whose newer view is already queued behind this update (it came in while this
        one's board slept out a rate limit) is skipped: the newer one follows at once, so the
        DM is edited once instead of showing an in-between hand at the cost of a rate-limited
        call."""
        queued = self._queued.get(rec.id)
        newer = {pu.user_id for pu in (getattr(queued[0], "private", None) or [])} if queued else set()
        public = getattr(result, "public", None)
        outcome = public.status_line if public is not None and rec.status != ACTIVE else None
        for pu in getattr(result, "private", []) or []:
            if pu.user_id in newer or self._is_me(pu.user_id):
                continue
            try:
                extra = {"outcome": outcome} if outcome is not None else {}
                await self.deliver_private(rec, pu, active=rec.status == ACTIVE, **extra)
            except Exception:
                log.exception("private update for match %s seat %s failed", rec.id, pu.seat)

    def _outcome(self, rec: MatchRecord) -> Any:
        """How a finished match ended (the board's result line), or None."""
        if rec.status != FINISHED or rec.result is None:
            return None
        return self.host._outcome_msg(rec)

    async def secret_prompt(self, rec: MatchRecord, user_id: int, legal: list[str] | None = None) -> None:
        """Tell a player, by DM only, that a hidden decision of theirs is waiting.  If their
        DMs are closed nothing is said anywhere else (that would reveal the decision).  The
        prompt is remembered (ref ``prompt:<user>``: where it is and which decision it asks)
        until :meth:`retire_prompts` retires it; the same decision is not asked twice."""
        refs = await self.store.get_refs(rec.id)
        if refs.get(f"dmclosed:{user_id}"):
            return      # their DMs are closed: nothing is said anywhere else (that would reveal it)
        asked = _prompt_ref(refs.get(f"prompt:{user_id}"))
        decision = legal_hash(list(legal or []))
        if asked is not None and asked[2] == decision:
            return      # this very decision is already asked (and its DM not retired)
        if asked is not None:
            await self._retire_prompt(rec, refs, user_id, answered=False)
        locale = loc(refs.get(f"loc:{user_id}") or (rec.meta or {}).get("locale", "en"))
        try:
            dm = await self.bot.create_dm(discord.Object(int(user_id)))
            text = tr("cogs.secret_prompt", locale, match_id=rec.id, game=game_name(rec.game, locale))
            if legal:
                # in words (the menu's labels), not notation
                try:
                    moves = await self.host.choices(rec.id, user_id, locale)
                except Exception:
                    log.exception("match %s: describing a secret decision failed", rec.id)
                    moves = []
                names = [safe_text(m.label) if m.label != m.command else code(m.command, 200) for m in moves] \
                    or [code(c, 200) for c in legal]
                shown = tr("core.list_sep", locale).join(names[:12]) + (" …" if len(names) > 12 else "")
                text += "\n" + tr("cogs.secret_prompt.legal", locale, commands=shown)
            # the answer is given right here: Act opens the same menu as under the board
            # one layout: the question in words, the Act button beneath (no title: it is no view)
            prompt = layout_view(Layout(lines=text, accent=colour_value(discord.Colour.dark_teal())),
                                 [[act_button(rec.id, locale)]])
            message = await dm.send(**send_layout(prompt, allowed_mentions=NO_PINGS))
        except discord.Forbidden:
            log.info("match %s: could not DM a pending decision to a player (DMs closed)", rec.id)
            await self.store.set_ref(rec.id, f"dmclosed:{user_id}", "1")
            return
        except discord.HTTPException:
            log.info("match %s: could not DM a pending decision to a player", rec.id)
            return
        await self.store.set_ref(rec.id, f"prompt:{user_id}", f"{message.channel.id}:{message.id}:{decision}")

    async def retire_prompts(self, result: Any, rec: MatchRecord, actor: int | None) -> None:
        """Retire (edit once, without its Act button) every prompt DM of this match whose
        decision is no longer awaited: answered, or its window closed (timed out, resolved,
        the match ended).  Only an update that says who is awaited now can tell: one with
        prompts or private views, or the match's end."""
        if rec.status == ACTIVE and not (getattr(result, "prompts", None) or getattr(result, "private", None)):
            return      # e.g. a spectator's board or an abort vote: it says nothing of decisions
        refs = await self.store.get_refs(rec.id)
        asked = [key.partition(":")[2] for key in refs if key.startswith("prompt:") and refs[key]]
        if not asked:
            return
        pending = {str(p.user_id): legal_hash(list(p.legal)) for p in getattr(result, "prompts", []) or []
                   if getattr(p, "secret", False)}
        for user in asked:
            where = _prompt_ref(refs.get(f"prompt:{user}"))
            if user not in pending or where is None or where[2] != pending[user]:
                await self._retire_prompt(rec, refs, user, answered=actor is not None and str(actor) == user)

    async def _retire_prompt(self, rec: MatchRecord, refs: dict[str, str], user_id: Any, *,
                             answered: bool) -> None:
        key = f"prompt:{user_id}"
        where = _prompt_ref(refs.get(key))
        await self.store.set_ref(rec.id, key, None)
        refs.pop(key, None)
        if where is None:
            return
        ref = f"{where[0]}:{where[1]}"
        if too_old_to_edit(where[1], self.host.now()):
            await self._delete(ref)     # Discord rations edits of old messages; a deletion is free
            return
        locale = loc(refs.get(f"loc:{user_id}") or (rec.meta or {}).get("locale", "en"))
        key = "delivery.prompt.answered" if answered else "delivery.prompt.closed"
        words = tr(key, locale, match_id=rec.id, game=game_name(rec.game, locale))
        await self._edit(ref, **v2_edit(words_view(words), allowed_mentions=NO_PINGS))

    # ------------------------------------------------------------------ DMs
    async def deliver_private(self, rec: MatchRecord, pu: Any, *, active: bool = False, outcome: Any = None) -> None:
        """The player's DM: their private view (text and picture) and, while the match runs, the
        Act button, which opens the same move menu as under the board — so a player answers a
        decision of theirs (a chain, a battle support, a discard…) right where they read their
        hand.  The button never changes with the moves on offer, so a DM is edited only when
        the private view itself changed (each edit is a rate-limited REST call)."""
        await pu.ready()   # its picture may still be drawing while the public update went out
        refs = await self.store.get_refs(rec.id)
        if refs.get(f"dmclosed:{pu.user_id}"):
            # Discord refused a DM to this player in this match (403/50007): no more tries —
            # each would be another refused request against the bot's budget — until they
            # use /match hand (which asks for DMs again)
            return
        locale = loc(refs.get(f"loc:{pu.user_id}") or (rec.meta or {}).get("locale", "en"))
        view, file = self.private_layout(rec, pu, locale, outcome, active=active)
        key = f"dm:{pu.user_id}"
        digest = _digest(view, pu.picture, "act" if active else "")
        if refs.get(key) and refs.get(f"dmsum:{pu.user_id}") == digest:
            return
        if refs.get(key):
            edited = await self._edit(refs[key], **v2_edit(view, attachments=[file] if file else [],
                                                           allowed_mentions=NO_PINGS))
            if edited is not None:
                await self.store.set_ref(rec.id, f"dmsum:{pu.user_id}", digest)
                return
            if file is not None:
                file.reset()
        try:
            dm = await self.bot.create_dm(discord.Object(int(pu.user_id)))
            message = await dm.send(**send_layout(view, allowed_mentions=NO_PINGS, files=[file]))
        except discord.Forbidden as exc:
            log.info("match %s: DMs closed for user %s (code %s)", rec.id, pu.user_id, exc.code)
            await self._dm_closed(rec, refs, pu.user_id)
            return
        except discord.HTTPException as exc:
            log.warning("match %s: DM to user %s failed (%s)", rec.id, pu.user_id, exc.status)
            return
        await self.store.set_ref(rec.id, key, f"{message.channel.id}:{message.id}")
        await self.store.set_ref(rec.id, f"dmsum:{pu.user_id}", digest)
        if refs.get(key) and self._too_old(refs[key]):
            await self._delete(refs[key])     # the old view, too old to edit: one DM view, the newest

    async def _dm_closed(self, rec: MatchRecord, refs: dict[str, str], user_id: int) -> None:
        """Stop DMing this player in this match (until /match hand) and tell them once, in the
        thread and without any secret, how to see their hand."""
        await self.store.set_ref(rec.id, f"dmclosed:{user_id}", "1")
        refs[f"dmclosed:{user_id}"] = "1"
        told = f"dmtold:{user_id}"
        if refs.get(told):
            return  # told once per match is enough
        locale = await self.public_locale(rec)
        message = await self._post(rec, refs, content=tr("cogs.dm.closed", locale, mention=f"<@{user_id}>"),
                                   allowed_mentions=pings([user_id]))
        if message is not None:
            await self.store.set_ref(rec.id, told, "1")

    async def dms_again(self, match_id: int, user_id: int) -> None:
        """The player asked for their hand (/match hand): try DMs again at the next update."""
        refs = await self.store.get_refs(match_id)
        if refs.get(f"dmclosed:{user_id}"):
            await self.store.set_ref(match_id, f"dmclosed:{user_id}", None)


def _prompt_ref(value: str | None) -> tuple[int, int, str] | None:
    """A prompt DM's ref ``<channel>:<message>:<decision hash>``: its parts, or None."""
    parts = (value or "").split(":")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1]), parts[2]
