"""The handlers behind the persistent controls of a match: the board's buttons (Act, Status,
Resign, Accept, Decline, Join, Start), the deck picker, the Act menu and its confirmations.

:class:`TableControls` is a mixin of :class:`cogs.game.Game` (it uses the cog's ``host``,
``store``, ``_record``, ``_remember``, ``_publish`` and ``_status_reply``); the components of
:mod:`cogs.components` call these methods.
"""
from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.authority import check_match
from cogs.common import NO_PINGS, clip, render, reply, reply_error, safe_text, tr, user_locale
from cogs.batch_menu import hidden_commands, picked, shown_batches
from cogs.components import ConfirmButton, DeckSelect, build_menu, groups_of, legal_hash
from cogs.board_layout import view_items
from cogs.layouts import rows_of
from cogs.undo_controls import ACTIONS as UNDO_ACTIONS, add_buttons, move_menu, request_part, takeback_buttons
from host.batch import compose
from render.labels import Choice
from data.store import ACTIVE, OPEN, PENDING, MatchRecord
from host.decks import DeckBook
from host.options_text import deck_name

log = logging.getLogger("cogs.game")


class TableControls:
    """Buttons, deck picks and the Act menu."""

    async def on_board_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        locale = user_locale(interaction)
        rec = await self._record(match_id)
        if rec is None:
            await reply_error(interaction, tr("host.err.no_match", locale, match_id=match_id))
            return
        if not await check_match(interaction, rec):   # another server's match, not seated
            return
        user = interaction.user.id
        seated = user in rec.seats
        if action in UNDO_ACTIONS:
            await self.on_undo_button(interaction, rec, action)
            return
        if action == "judge":           # an event match's Call a judge (cogs/league_judge.py)
            await self.bot.get_cog("LeagueJudge").open_form(interaction, rec)
            return
        if seated:
            await self._remember(interaction, rec.id)
        if action == "status":
            await self._defer_ephemeral(interaction)
            await self._status_reply(interaction, rec.id)
            return
        if action == "act":
            await self._open_menu(interaction, rec)
            return
        if action == "resign":
            if not seated:
                await reply_error(interaction, tr("cogs.err.stranger", locale, match_id=rec.id))
                return
            if rec.status != ACTIVE:
                await reply_error(interaction, self._over_text(rec, locale))
                return
            view = discord.ui.View(timeout=None)
            view.add_item(ConfirmButton(rec.id, "resign", label=tr("cogs.resign.confirm_button", locale)))
            await reply(interaction, tr("cogs.resign.confirm", locale, match_id=rec.id), view=view)
            return
        if action == "join" and rec.status == ACTIVE:
            # a late join: the host answers first (a full table, a league match, not now), so
            # nobody is asked for a deck to join a match they cannot join
            check = await self.host.join_check(rec.id, user)
            if not check.ok:
                await reply_error(interaction, render(check.error, locale))
                return
        locked = None
        if action == "accept" and rec.meta.get("league") is not None:
            # an event match: the deck its player registered for the event, without asking
            from cogs.league_event import event_deck

            locked = await event_deck(self.store, rec, user)
        if locked is None and action in ("accept", "join") and getattr(await self.host.engine(rec), "decks", None) is not None:
            if await self._offer_decks(interaction, rec, action):
                return
        # accept / decline / join / start: the host decides who may
        await interaction.response.defer()
        if action == "join":
            result = await self.host.join(rec.id, user, interaction.user.display_name)
        elif locked is not None:
            result = await self.host.accept(rec.id, user, deck=locked)
        else:
            result = await getattr(self.host, action)(rec.id, user)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        await self._remember(interaction, rec.id)
        await self._publish(result, user)

    async def _offer_decks(self, interaction: discord.Interaction, rec: MatchRecord, action: str) -> bool:
        """Card games: let the player pick a deck (their legal saved decks, then the ready-made
        ones) before accepting or joining.  False when the host should just be asked (e.g.
        the player may not accept at all: the host says why)."""
        from data.store import OPEN, PENDING

        user = interaction.user.id
        late = action == "join" and rec.status == ACTIVE
        if rec.status not in (PENDING, OPEN) and not late:
            return False
        if action == "accept" and (user not in rec.seats or user in rec.accepted):
            return False
        if action == "accept" and (rec.meta or {}).get("limited"):
            return False        # a draft's match: each seat plays the deck of its pool, set already
        if action == "join" and (user in rec.seats or (None not in rec.seats and not late)):
            return False
        locale = user_locale(interaction)
        listing = await DeckBook(self.bot.store).list(user, rec.game, engine=await self.host.engine(rec))
        options = []
        for r in listing.data["decks"]:
            if not r["legal"]:
                continue
            label = r["name"]
            if r.get("ready"):
                label = tr("deck.ready_label", locale, name=r["title"].get(locale) or r["title"].get("en") or r["name"])
            # a saved deck may be named like a ready-made one: the value says which it is
            # (Discord refuses a select whose option values repeat)
            value = ("r:" if r.get("ready") else "u:") + r["name"]
            if len(value) <= 100:
                options.append(discord.SelectOption(label=clip(label, 100), value=value))
        view = discord.ui.View(timeout=None)
        view.add_item(DeckSelect(rec.id, action, options=options[:25],
                                 placeholder=tr("cogs.deck.pick", locale)))
        await reply(interaction, tr("cogs.deck.pick", locale), view=view)
        return True

    async def on_deck_pick(self, interaction: discord.Interaction, match_id: int, action: str, choice: str) -> None:
        locale = user_locale(interaction)
        rec = await self._record(match_id)
        if rec is None:
            await reply_error(interaction, tr("host.err.no_match", locale, match_id=match_id))
            return
        if not await check_match(interaction, rec):
            return
        await interaction.response.defer(ephemeral=True)
        kind, _, name = choice.partition(":")
        if kind not in ("r", "u") or not name:      # a picker from an older version: the name alone
            kind, name = "", choice
        deck, err = await DeckBook(self.bot.store).for_play(interaction.user.id, rec.game, name, saved=kind == "u",
                                                            engine=await self.host.engine(rec))
        choice = name
        if err is not None:
            await reply_error(interaction, render(err.error, locale))
            return
        if action == "join":
            result = await self.host.join(rec.id, interaction.user.id, interaction.user.display_name, deck=deck)
        else:
            result = await self.host.accept(rec.id, interaction.user.id, deck=deck)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        await self._remember(interaction, rec.id)
        # the deck by a name the player knows: a ready-made deck's title, their saved deck's
        # name, or "own deck" for a deck code — never an id or a code
        if isinstance(deck, str):
            shown = safe_text(deck_name(await self.host.engine(rec), deck, locale))
        elif await self.bot.store.get_deck(interaction.user.id, rec.game, choice) is not None:  # type: ignore[attr-defined]
            shown = safe_text(choice, 40)
        else:
            shown = tr("options.own_deck", locale)
        # the picker is retired: it says the choice, and its select is gone
        chosen = tr("cogs.deck.chosen", locale, name=shown)
        try:
            await interaction.edit_original_response(content=chosen, view=None)
        except discord.HTTPException:
            await reply(interaction, chosen)
        await self._publish(result, interaction.user.id, via=interaction)

    async def _defer_ephemeral(self, interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    def _over_text(self, rec: MatchRecord, locale: str) -> str:
        if rec.status in (PENDING, OPEN):
            return tr("host.err.not_started", locale)
        return tr("cogs.err.over", locale, match_id=rec.id, status=tr(f"host.state.{rec.status}", locale))

    async def _open_menu(self, interaction: discord.Interaction, rec: MatchRecord,
                         notice: str | None = None) -> None:
        """The Act menu: edits the ephemeral menu in place, or opens a new ephemeral one."""
        locale = user_locale(interaction)
        in_menu = bool(interaction.message is not None and interaction.message.flags.ephemeral)

        async def show(content: str, view: discord.ui.View | None = None) -> None:
            if in_menu:
                await interaction.response.edit_message(content=content, view=view)
            elif view is None:
                await reply(interaction, content)
            else:
                await interaction.followup.send(content, view=view, ephemeral=True, allowed_mentions=NO_PINGS)

        if interaction.user.id not in rec.seats:
            await reply_error(interaction, tr("cogs.err.stranger", locale, match_id=rec.id))
            return
        if rec.status != ACTIVE:
            await show("⚠️ " + self._over_text(rec, locale))
            return
        if not in_menu:
            await self._defer_ephemeral(interaction)   # legal moves / status may take a moment
        moves = await self.host.choices(rec.id, interaction.user.id, locale)
        asked, answers = await request_part(self.host, rec.id, interaction.user.id, locale)
        if not moves:
            await self._not_yours(interaction, rec, locale, in_menu, asked=asked, answers=answers)
            return
        content, view = await move_menu(self.host, rec.id, interaction.user.id, locale, moves, notice=notice,
                                        first=answers)
        await show(content if asked is None else asked + "\n" + content, view)

    async def _menu_moves(self, interaction: discord.Interaction, match_id: int, h: str,
                          locale: str) -> tuple[MatchRecord, list[Any]] | None:
        """(the match, the player's moves now) for a pick in a menu built on moves of hash
        ``h``; None once the pick has been answered instead — the match is gone, or its moves
        changed (the menu is opened afresh, saying so when there still are moves)."""
        rec = await self._record(match_id)
        if rec is None:
            await interaction.response.edit_message(
                content="⚠️ " + tr("host.err.no_match", locale, match_id=match_id), view=None)
            return None
        moves = await self.host.choices(rec.id, interaction.user.id, locale) if rec.status == ACTIVE else []
        if not moves or legal_hash([c.command for c in moves]) != h:
            await self._open_menu(interaction, rec, notice=tr("cogs.act.changed", locale) if moves else None)
            return None
        return rec, moves

    async def on_menu_select(self, interaction: discord.Interaction, match_id: int, h: str, group: int,
                             page: int, value: str) -> None:
        """A pick in the move menu: a move (``c:<i>``) is played at once; a group (``g:<k>``)
        opens its moves; ``p:<n>`` turns the page."""
        locale = user_locale(interaction)
        found = await self._menu_moves(interaction, match_id, h, locale)
        if found is None:
            return
        rec, moves = found
        kind, _, number = value.partition(":")
        n = _int(number)
        if kind == "c" and n is not None and 0 <= n < len(moves):
            await self._play(interaction, rec, moves[n], locale)
            return
        batches = await self.host.batch_choices(rec.id, interaction.user.id, locale)
        hidden = hidden_commands(batches, [c.command for c in moves])
        if kind == "g" and n is not None and 1 <= n <= len(groups_of(moves, hidden)):
            content, view = build_menu(rec.id, moves, n, 0, locale, batches=batches)
        elif kind == "p" and n is not None:
            content, view = build_menu(rec.id, moves, group, n, locale, batches=batches)
        else:
            await self._open_menu(interaction, rec, notice=tr("cogs.act.changed", locale))
            return
        await interaction.response.edit_message(content=content, view=view)

    async def _play(self, interaction: discord.Interaction, rec: MatchRecord, move: Any, locale: str,
                    commands: list[str] | None = None) -> None:
        """Play ``move`` (``commands``: a batch of several, one board update), say so, and —
        in the ephemeral menu, when the turn is still the player's — offer the next move in
        the same message, so a turn of several moves costs one tap per move after the first."""
        await interaction.response.defer()
        message = interaction.message
        in_dm = message is not None and not message.flags.ephemeral
        if in_dm:
            # a move picked in the player's DM: that DM is rewritten below, so the next update
            # must draw it again even if the view it shows did not change
            await self.store.set_ref(rec.id, f"dmsum:{interaction.user.id}", None)
        if commands is not None and len(commands) > 1:
            result = await self.host.batch(rec.id, interaction.user.id, commands)
        else:
            result = await self.host.command(rec.id, interaction.user.id, commands[0] if commands else move.command)
        if not result.ok:
            await interaction.edit_original_response(
                content="⚠️ " + render(result.error, locale), view=None)
            return
        played = tr("cogs.played", locale, move=said_move(move, locale), match_id=rec.id)
        content, view = played, None
        if not in_dm:   # the next move of the same turn, in the same menu
            moves = await self.host.choices(rec.id, interaction.user.id, locale)
            if moves:
                content, view = await move_menu(self.host, rec.id, interaction.user.id, locale, moves, notice=played)
        await interaction.edit_original_response(content=content, view=view)
        await self._publish(result, interaction.user.id, via=interaction)

    async def on_batch_select(self, interaction: discord.Interaction, match_id: int, h: str, k: int,
                              values: list[str]) -> None:
        """Picks in a multi-select of the menu (cogs/batch_menu.py): played as one batch."""
        locale = user_locale(interaction)
        found = await self._menu_moves(interaction, match_id, h, locale)
        if found is None:
            return
        rec, moves = found
        batches = await self.host.batch_choices(rec.id, interaction.user.id, locale)
        ix = picked(values)
        if not 0 <= k < len(shown_batches(batches)) or ix is None:
            await self._open_menu(interaction, rec, notice=tr("cogs.act.changed", locale))
            return
        group, options = batches[k]
        try:
            commands = compose(group, ix)
        except ValueError:
            await self._open_menu(interaction, rec, notice=tr("cogs.act.changed", locale))
            return
        by_command = {c.command: c for c in moves}
        if len(commands) == 1 and commands[0] in by_command:     # one move (a CAA of several cards)
            move = by_command[commands[0]]
        else:                                                    # several: their words, one line
            chosen = [options[i] for i in sorted(ix)]
            move = Choice(command="; ".join(commands), label=tr("core.list_sep", locale).join(c.label for c in chosen))
        await self._play(interaction, rec, move, locale, commands=commands)

    async def on_confirm(self, interaction: discord.Interaction, match_id: int, what: str) -> None:
        locale = user_locale(interaction)
        if what != "resign":
            await reply_error(interaction, tr("cogs.err.generic", locale))
            return
        await interaction.response.defer()
        result = await self.host.resign(match_id, interaction.user.id)
        if not result.ok:
            await interaction.edit_original_response(content="⚠️ " + render(result.error, locale), view=None)
            return
        await interaction.edit_original_response(content=tr("cogs.resigned", locale, match_id=match_id), view=None)
        await self._publish(result, interaction.user.id, via=interaction)

    async def _not_yours(self, interaction: discord.Interaction, rec: MatchRecord, locale: str,
                         in_menu: bool, *, asked: str | None = None, answers: list | None = None) -> None:
        """Act when no decision of the player's is awaited (e.g. from their DM between turns):
        the match's status and their own private view (as /match hand shows it), to them only;
        a takeback they are asked to answer (``asked``, ``answers``), or the button to ask for
        one of their own last move."""
        status = await self.host.status(rec.id)
        line = render(status.public.status_line, locale) if status.ok and status.public else ""
        text = tr("cogs.err.not_your_turn", locale, status=line)
        view = discord.ui.View(timeout=None)
        if answers:
            text = asked + "\n" + text
            add_buttons(view, answers)
        else:
            add_buttons(view, await takeback_buttons(self.host, rec.id, interaction.user.id, locale))
        view = view if view.children else None
        hand = await self.host.hand(rec.id, interaction.user.id)
        mine = [p for p in hand.private if p.user_id == interaction.user.id] if hand.ok else []
        shown = mine[0] if mine and set(mine[0].own) - {"cards", "seat"} else None   # e.g. SQUARES: nothing private
        if in_menu:
            # the menu is a classic message whose words later presses edit: the hand beside it
            # stays an embed (a message that became a layout could never hold words again)
            embed, file = self.delivery.private_embed(hand.match or rec, shown, locale) if shown else (None, None)
            await interaction.response.edit_message(content=text, embed=embed,
                                                    attachments=[file] if file else [], view=view)
        elif shown is not None:   # one layout: what is said, the hand, the buttons
            layout, file = self.delivery.private_layout(hand.match or rec, shown, locale, head=text,
                                                        rows=rows_of(view_items(view)))
            await reply(interaction, view=layout, file=file)
        else:
            await reply(interaction, text, view=view)


def said_move(move: Any, locale: str = "en") -> str:
    """A move as the player's confirmation says it: its words and its notation, in the reader's
    brackets (``**Mulligan** (`mulligan`)`` / ``**マリガン**（`mulligan`）``)."""
    if move.label == move.command:
        return tr("cogs.played.notation", locale, command=clip(move.command.replace("`", "'"), 200))
    return tr("cogs.played.move", locale, label=safe_text(move.label, 100),
              command=clip(move.command.replace("`", "'"), 200))


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
