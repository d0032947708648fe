"""Reading Components V2 layouts in the unit tests that run the bot on the fake HTTP layer
(tests/discord_fakes.py): the same walkers the twin's scenarios read messages with
(tests/e2e/twin_limits.py, tests/e2e/twin_v2.py) — a message's words in its text displays, its
buttons inside containers, its pictures in a gallery — and a press of a button wherever it sits
in the layout (the fake's own ``click`` looks in top-level rows only)."""
from __future__ import annotations

import re
from typing import Any

import discord

from e2e.twin_limits import components_of, find_component, message_text
from e2e.twin_v2 import check_layout, is_v2, pictures_of, texts

__all__ = ["check_layout", "click", "components_of", "find_component", "is_v2", "message_text", "pictures_of",
           "reply_text", "view_text", "view_pictures"]


def reply_text(ix: Any) -> str:
    """Every reply of an interaction (discord_fakes.IxRecord) as a user reads it, layouts too."""
    return "\n".join(message_text(m) for m in ix.replies)


def view_text(view: discord.ui.LayoutView) -> str:
    """The words of a layout the bot built (before it is sent)."""
    return "\n".join(texts(view.to_components()))


def view_pictures(view: discord.ui.LayoutView) -> list[str]:
    """The attachment urls of a layout's media galleries, in order."""
    out = []
    for c in view.walk_children():
        if isinstance(c, discord.ui.MediaGallery):
            out += [item.media.url for item in c.items]
    return out


async def click(fake: Any, bot: Any, user: dict, message: dict, custom_id: str, **kw: Any) -> Any:
    """Press the button ``custom_id`` of ``message`` as ``user``, wherever it sits in the layout."""
    stored = fake.messages.get(int(message["id"]), message)
    comp = find_component(stored, "^" + re.escape(custom_id) + "$")
    if comp is None:
        raise AssertionError(f"{custom_id!r} is not on message {message['id']}: "
                             f"{[c.get('custom_id') for c in components_of(stored)]}")
    data = {"custom_id": custom_id, "component_type": comp["type"]}
    ch_id = stored["channel_id"]
    dm = fake.channels.get(int(ch_id), {}).get("type") == 1
    payload = fake.interaction_payload(3, user, data, channel_id=ch_id, message=stored, dm=dm, **kw)
    return await fake.dispatch(bot, payload)
