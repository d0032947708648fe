"""The persistent controls of limited play (cogs/draft.py): the draft table's buttons, the pick
select, the Winston draft's Take and Pass, the deck builder's selects and buttons, the survey's
buttons and selects.  Each is a :class:`discord.ui.DynamicItem`, so a draft goes on after a
restart; each callback runs on the ``Draft`` cog (:func:`cogs.common.run_in_cog`).
"""
from __future__ import annotations

import functools
from typing import Any

import discord

from cogs.common import run_in_cog

_run = functools.partial(run_in_cog, "Draft")


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dr:(?P<d>\d{1,19}):(?P<a>[a-z]{2,8})"):
    def __init__(self, draft_id: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80] or action, style=style,
                                           custom_id=f"dr:{int(draft_id)}:{action}"))
        self.draft_id, self.action = int(draft_id), action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["d"]), match["a"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_table(interaction, self.draft_id, self.action))


class PickSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"dp:(?P<d>\d{1,19}):(?P<r>\d{1,2}):(?P<p>\d{1,3})"):
    def __init__(self, draft_id: int, rnd: int, pick: int, *, options: list | None = None,
                 placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(custom_id=f"dp:{int(draft_id)}:{int(rnd)}:{int(pick)}",
                                           options=options or [discord.SelectOption(label="-", value="-")],
                                           placeholder=placeholder[:150] or None))
        self.draft_id, self.rnd, self.pick = int(draft_id), int(rnd), int(pick)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(int(match["d"]), int(match["r"]), int(match["p"]), options=item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_pick(interaction, self.draft_id, self.rnd, self.pick))


class WinstonButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"dw:(?P<d>\d{1,19}):(?P<t>\d{1,4}):(?P<a>take|pass)"):
    def __init__(self, draft_id: int, turn: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80] or action, style=style,
                                           custom_id=f"dw:{int(draft_id)}:{int(turn)}:{action}"))
        self.draft_id, self.turn, self.action = int(draft_id), int(turn), action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["d"]), int(match["t"]), match["a"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_winston(interaction, self.draft_id, self.turn, self.action))


class BuildSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=r"db:(?P<d>\d{1,19}):(?P<s>[km]\.[a-z0-9_]{1,16})"):
    def __init__(self, draft_id: int, slot: str, *, options: list | None = None, min_values: int = 0,
                 max_values: int = 1, placeholder: str = "") -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"db:{int(draft_id)}:{slot}", options=options,
                                           min_values=min(min_values, len(options)),
                                           max_values=max(1, min(max_values, len(options))),
                                           placeholder=placeholder[:150] or None))
        self.draft_id, self.slot = int(draft_id), slot

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(int(match["d"]), match["s"], options=item.options, min_values=item.min_values,
                   max_values=item.max_values)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_build_select(interaction, self.draft_id, self.slot))


class BuildButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dB:(?P<d>\d{1,19}):(?P<a>save|auto)"):
    def __init__(self, draft_id: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80] or action, style=style,
                                           custom_id=f"dB:{int(draft_id)}:{action}"))
        self.draft_id, self.action = int(draft_id), action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["d"]), match["a"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_build_button(interaction, self.draft_id, self.action))


class SurveyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sv:(?P<m>\d{1,19}):f:(?P<n>[1-5])"):
    def __init__(self, match_id: int, n: int, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or str(n), style=style, custom_id=f"sv:{int(match_id)}:f:{int(n)}"))
        self.match_id, self.n = int(match_id), int(n)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["m"]), int(match["n"]), label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_survey(interaction, self.match_id, "fun", self.n))


class SurveySelect(discord.ui.DynamicItem[discord.ui.Select], template=r"sv:(?P<m>\d{1,19}):(?P<p>strong|weak)"):
    def __init__(self, match_id: int, part: str, *, options: list | None = None, placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(custom_id=f"sv:{int(match_id)}:{part}",
                                           options=options or [discord.SelectOption(label="-", value="-")],
                                           placeholder=placeholder[:150] or None))
        self.match_id, self.part = int(match_id), part

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(int(match["m"]), match["p"], options=item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_survey(interaction, self.match_id, self.part, None))


DYNAMIC_ITEMS = (TableButton, PickSelect, WinstonButton, BuildSelect, BuildButton, SurveyButton, SurveySelect)

__all__ = ["DYNAMIC_ITEMS", "TableButton", "PickSelect", "WinstonButton", "BuildSelect", "BuildButton",
           "SurveyButton", "SurveySelect"]
