"""Where a caller's power counts (issue 13, "Trust").

A match or a league belongs to one server (``guild_id``).  Match and league ids are small
sequential numbers, so anybody can type another server's id; therefore:

* a **seated player** reaches their own match from anywhere (another server, a DM);
* anybody else reaches a match only from the match's own server — watching it (``/match
  spectate``), reading it (``/match status``, ``/match log``, the Status button), joining an
  open seat, downloading its record — and from elsewhere is told there is no such match here;
* **moderator** power (Manage Server / Threads / Messages) and **organiser** power count only
  inside the server the match or league belongs to, never in a DM (the host enforces the
  moderator part itself: ``Host.abort(moderator_guild=…)``).
"""
from __future__ import annotations

from typing import Any

import discord

from cogs.common import reply_error, tr, user_locale

ELSEWHERE = "authority.match.elsewhere"


def seated(rec: Any, user_id: int) -> bool:
    return int(user_id) in [int(u) for u in rec.seats if u is not None]


def at_home(rec: Any, interaction: discord.Interaction) -> bool:
    """The interaction comes from the server the match (or league) belongs to."""
    return (rec.guild_id is not None and interaction.guild_id is not None
            and int(rec.guild_id) == int(interaction.guild_id))


def reachable(rec: Any, interaction: discord.Interaction) -> bool:
    """May the caller see or act on this match from where they are?"""
    return seated(rec, interaction.user.id) or at_home(rec, interaction)


def moderator_guild(interaction: discord.Interaction) -> int | None:
    """The server in which the caller holds moderator permissions here (None in a DM)."""
    if interaction.guild_id is None:
        return None
    perms = interaction.permissions
    if perms.manage_guild or perms.manage_threads or perms.manage_messages:
        return int(interaction.guild_id)
    return None


async def check_match(interaction: discord.Interaction, rec: Any, key: str = ELSEWHERE) -> bool:
    """True if the caller may reach ``rec`` from here; otherwise answer with ``key`` (a
    refusal that names only the number the caller typed) and return False."""
    if reachable(rec, interaction):
        return True
    await reply_error(interaction, tr(key, user_locale(interaction), match_id=rec.id))
    return False
