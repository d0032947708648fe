"""Several moves of one kind in one select (issue 33): the Act menu's multi-selects.

Where the game lets a player make several choices of the same kind at once (its ``batches``,
docs/engine.md; host/batch.py), the top of the Act menu carries, under the move select, one
multi-select per such group (at most :data:`MAX_BATCH_ROWS`): "Pick the 3 cards to trash".
The moves a shown group offers leave the move select (a pick of one covers them), so the
menu is shorter too.  The picks are played by the host as ONE batch under the match lock —
all or nothing, one board update.

custom_id template (≤ 100 chars)::

    m:<match>:b:<hash>:<group>      values "b:<i>" (the group's i-th option)
"""
from __future__ import annotations

from typing import Any

import discord

from cogs.common import LABEL_MAX, SELECT_MAX, clip, run_in_game, tr
from host.batch import covered
from render.labels import Choice

BATCH_TEMPLATE = r"m:(?P<match>\d{1,20}):b:(?P<h>[0-9a-f]{1,8}):(?P<group>\d{1,2})"
MAX_BATCH_ROWS = 3          # a message has 5 rows: the move select, these, and one to spare


def shown_batches(batches: list[tuple[dict, list[Choice]]] | None) -> list[tuple[dict, list[Choice]]]:
    return list(batches or [])[:MAX_BATCH_ROWS]


def hidden_commands(batches: list[tuple[dict, list[Choice]]] | None, legal: list[str]) -> set[str]:
    """The legal commands the shown multi-selects offer instead of the move select."""
    out: set[str] = set()
    for group, _ in shown_batches(batches):
        out |= covered(group, legal)
    return out


def placeholder(group: dict, locale: str) -> str:
    """What to pick and how many, in words: ``cogs.batch.<kind>.exact`` / ``.range``."""
    lo, hi = group["min"], group["max"]
    form = "exact" if lo == hi else "range"
    kind = group.get("kind") or "any"
    key = f"cogs.batch.{kind}.{form}"
    if tr(key, locale) == key:
        key = f"cogs.batch.any.{form}"
    return clip(tr(key, locale, n=hi, min=lo, max=hi), 150)


def batch_rows(match_id: int, h: str, batches: list[tuple[dict, list[Choice]]] | None,
               locale: str) -> list[discord.ui.Item]:
    """The multi-selects of the shown groups, each labelled in words."""
    items: list[discord.ui.Item] = []
    for k, (group, choices) in enumerate(shown_batches(batches)):
        options = [discord.SelectOption(label=clip(c.label, LABEL_MAX), value=f"b:{i}",
                                        description=clip(c.description, LABEL_MAX) or None,
                                        emoji=c.emoji or None)
                   for i, c in enumerate(choices[:SELECT_MAX])]
        hi = min(group["max"], len(options))
        if len(options) < 2 or group["min"] > hi:
            continue
        items.append(BatchSelect(match_id, h, k, options=options, placeholder=placeholder(group, locale),
                                 min_values=group["min"], max_values=hi))
    return items


def picked(values: list[str]) -> list[int] | None:
    """The option indexes of a multi-select's values (None: a value it never offered)."""
    out = []
    for v in values:
        kind, _, n = str(v).partition(":")
        if kind != "b" or not n.isdigit():
            return None
        out.append(int(n))
    return out


class BatchSelect(discord.ui.DynamicItem[discord.ui.Select], template=BATCH_TEMPLATE):
    def __init__(self, match_id: int, h: str, group: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"m:{int(match_id)}:b:{h}:{int(group)}",
            options=options or [discord.SelectOption(label="…", value="b:0")],
            placeholder=placeholder, min_values=min_values, max_values=max_values))
        self.match_id, self.h, self.group = int(match_id), h, int(group)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any) -> "BatchSelect":
        return cls(int(match["match"]), match["h"], int(match["group"]), options=list(item.options) or None,
                   placeholder=item.placeholder, min_values=item.min_values, max_values=item.max_values)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values") or [])
        await run_in_game(interaction, lambda g: g.on_batch_select(interaction, self.match_id, self.h, self.group,
                                                                   values))
