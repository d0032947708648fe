"""Which share of the bot's work this process does when several processes run one bot
(issue 18): each holds a range of Discord's gateway shards (``SHARD_IDS`` of ``SHARD_COUNT``)
and they share one database.

Discord sends a guild's events and interactions to shard ``(guild_id >> 22) % shard_count``
and direct messages to shard 0.  The clock follows the same split, so processes never all scan
everything: a process looks only at the matches and leagues of the guilds on its shards, and
the process holding shard 0 also at those played outside a guild (DMs, the local console).
Whatever it finds is still *claimed* in the database before it is announced (a versioned write:
the first process to write the match's new version wins, any other finds the version moved and
says nothing), so an event is announced once even while shards move between processes.
"""
from __future__ import annotations

from dataclasses import dataclass


class ShardSpecError(ValueError):
    """A ``SHARD_IDS`` value that does not name shards of ``SHARD_COUNT``; ``key`` and
    ``params`` name the catalog message that says what is allowed instead."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def parse_shard_ids(text: str, count: int | None) -> tuple[int, ...]:
    """``"0,1"``, ``"0-3"`` or ``"0-1,4"`` → sorted shard ids, each below ``count``."""
    if count is None or count < 1:
        raise ShardSpecError("bot.shard_ids_need_count")
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, sep, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if sep else first
        except ValueError:
            raise ShardSpecError("bot.shard_ids_bad", value=text, count=count) from None
        if first < 0 or last < first or last >= count:
            raise ShardSpecError("bot.shard_ids_bad", value=text, count=count)
        ids.update(range(first, last + 1))
    if not ids:
        raise ShardSpecError("bot.shard_ids_bad", value=text, count=count)
    return tuple(sorted(ids))


def shard_of(guild_id: int | None, count: int) -> int:
    """The gateway shard Discord delivers a guild's events on (DMs and no guild: shard 0)."""
    return 0 if guild_id is None else (int(guild_id) >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards this process holds, of ``count``."""
    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    @property
    def first(self) -> bool:
        """Does this process hold shard 0 (DMs, guild-less matches, the command sync)?"""
        return 0 in self.ids


def owns(shards: Shards | None, guild_id: int | None) -> bool:
    """Is this guild's work this process's?  Without shard ranges every process does all."""
    return shards is None or shards.owns(guild_id)
