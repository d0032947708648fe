"""Issue 15: at start-up the bot checks its permissions in every channel with an unfinished match
and says, once per channel, which an admin must grant (a board there would be refused on every
update otherwise)."""
from __future__ import annotations

from types import SimpleNamespace

import discord

from cogs.delivery import Delivery


class _Channel:
    def __init__(self, perms: discord.Permissions) -> None:
        self.perms = perms

    def permissions_for(self, member) -> discord.Permissions:
        return self.perms


async def test_missing_permissions_in_a_match_channel_are_named_once(caplog):
    ok = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True,
                             read_message_history=True)
    no_files = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                   read_message_history=True)
    channels = {10: _Channel(ok), 20: _Channel(no_files)}
    guild = SimpleNamespace(me=object(), get_channel_or_thread=lambda cid: channels.get(cid))
    matches = [SimpleNamespace(id=1, guild_id=5, channel_id=10), SimpleNamespace(id=2, guild_id=5, channel_id=20),
               SimpleNamespace(id=3, guild_id=5, channel_id=20), SimpleNamespace(id=4, guild_id=None, channel_id=None)]

    async def unfinished():
        return matches

    delivery = Delivery.__new__(Delivery)
    delivery.bot = SimpleNamespace(get_guild=lambda gid: guild if gid == 5 else None,
                                   store=SimpleNamespace(unfinished_matches=unfinished))
    warnings = await Delivery.check_permissions(delivery)
    assert len(warnings) == 1 and "channel 20" in warnings[0] and "Attach Files" in warnings[0]
