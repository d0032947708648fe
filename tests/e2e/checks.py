"""Assertions shared by the end-to-end scenarios."""
from __future__ import annotations

import re
from typing import Any

from .twin import EPHEMERAL, Twin, check_message, message_text

MESSAGE_ROUTES = re.compile(r"^/(channels/\d+/messages(/\d+)?|webhooks/\d+/[^/]+(/messages/.+)?"
                            r"|interactions/\d+/[^/]+/callback)$")


def assert_every_message_within_limits(twin: Twin) -> int:
    """Scenario 7: re-check every message the bot sent — each payload passes Discord's limits —
    and that the twin refused nothing except what the test asked for (429s, closed DMs).
    Returns how many messages were checked (always > 0)."""
    checked = 0
    for req in twin.requests:
        if req.method not in ("POST", "PATCH") or not MESSAGE_ROUTES.match(req.path):
            continue
        payload = req.json or {}
        callback = "/callback" in req.path
        if callback:
            if payload.get("type") not in (4, 7):
                continue          # defers and autocomplete results carry no message
            payload = payload.get("data") or {}
        create = req.method == "POST" and (not callback or (req.json or {}).get("type") == 4)
        errors = check_message(payload, req.files, upload_limit=twin.upload_limit, create=create)
        assert errors == [], f"{req.method} {req.path}: {errors}"
        expected_refusal = req.status == 429 or (req.status == 403 and req.path.startswith("/channels/"))
        assert 200 <= req.status < 300 or expected_refusal, f"{req.method} {req.path} was refused ({req.status})"
        checked += 1
    assert checked > 0, "no message was sent at all"
    assert twin.violations == [], twin.violations
    return checked


def assert_no_public_secret(twin: Twin, secrets: list[str]) -> None:
    """No version of any message in the guild (not DMs, not ephemeral) shows a secret."""
    public = twin.public_messages()
    assert public, "no public message to check"
    for m in public:
        text = message_text(m)
        for s in secrets:
            assert s not in text, f"secret {s!r} in a public message: {text!r}"
        for a in m.get("attachments", []):
            for s in secrets:
                assert s not in a["filename"]


def assert_ephemeral(ix) -> None:
    assert ix.replies, f"no reply to interaction {ix.payload['id']}"
    for m in ix.replies:
        assert m["flags"] & EPHEMERAL, f"expected an ephemeral reply, got: {message_text(m)!r}"


# ---------------------------------------------------------------------------- what the bot stored
async def match_states(db_path: Any, match_id: int) -> tuple[Any, list[Any]]:
    """The match record in the bot's database and the engine state after each logged command
    (replayed here, exactly as the host replays it after a restart): ``(record, states)``."""
    from data.store import open_store
    from host.table import _initial_state, _step
    from rules import registry

    store = await open_store(f"sqlite:///{db_path}")
    try:
        rec = await store.get_match(match_id)
        commands = await store.commands(match_id)
    finally:
        await store.close()
    game = registry.get(rec.game)
    states = [_initial_state(game, rec)]
    for c in commands:
        states.append(_step(game, states[-1], c.seat, c.command))
    return rec, states


def private_lines(game_name: str, state: Any, names: list[str]) -> list[set[str]]:
    """For each seat, the lines of its own view (as text) that neither the public view nor any
    other seat's view shows: what only that seat may ever read."""
    from render.text import render_text
    from rules import registry

    game = registry.get(game_name)

    def lines(seat: int | None) -> set[str]:
        text = render_text(game_name, game.view(state, seat), locale="en", names=names)
        return {line.strip() for line in text.splitlines() if len(line.strip()) >= 6}

    public = lines(None)
    seats = [lines(s) for s in range(len(names))]
    return [own - public - set().union(*(o for j, o in enumerate(seats) if j != s))
            for s, own in enumerate(seats)]


def dm_text_block(message: dict) -> str:
    """The private view a DM carries as text (its code block), or ''."""
    m = re.search(r"```\n(.*?)\n```", message_text(message), flags=re.S)
    return m.group(1) if m else ""
