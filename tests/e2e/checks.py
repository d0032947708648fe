"""Assertions shared by the end-to-end scenarios."""
from __future__ import annotations

import re

from .twin import EPHEMERAL, Twin, check_message, message_text

MESSAGE_ROUTES = re.compile(r"^/(channels/\d+/messages(/\d+)?|webhooks/\d+/[^/]+(/messages/.+)?"
                            r"|interactions/\d+/[^/]+/callback)$")


def assert_every_message_within_limits(twin: Twin) -> int:
    """Re-check every message the bot sent (scenario 7): each payload passes Discord's limits,
    and the twin refused nothing.  Returns how many messages were checked (> 0)."""
    checked = 0
    for req in twin.requests:
        if req.method not in ("POST", "PATCH") or not MESSAGE_ROUTES.match(req.path):
            continue
        payload = req.json or {}
        if "/callback" in req.path:
            if payload.get("type") not in (4, 7):
                continue
            payload = payload.get("data") or {}
        create = req.method == "POST" and "/callback" not in req.path or payload.get("type") == 4
        errors = check_message(payload, req.files, upload_limit=twin.upload_limit,
                               create=req.method == "POST" and "/callback" not in req.path)
        assert errors == [], f"{req.method} {req.path}: {errors}"
        assert req.status in (200, 201, 204, 429) or (req.status == 403 and create), \
            f"{req.method} {req.path} was refused with {req.status}"
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
