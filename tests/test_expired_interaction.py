"""Issue 15: an interaction answered too late (Discord's 10062 "Unknown interaction", e.g. after a
slow reconnect) is logged once at INFO and never as an error; nothing else is tried for it."""
from __future__ import annotations

import logging
from types import SimpleNamespace

import discord

from cogs.common import GameTree, expired, reply


class _Response:
    status, reason = 404, "Not Found"


def _unknown_interaction() -> discord.NotFound:
    return discord.NotFound(_Response(), {"code": 10062, "message": "Unknown interaction"})


class _Late:
    """An interaction whose every answer Discord refuses with 10062."""
    id = 42
    command = SimpleNamespace(qualified_name="move")
    locale = guild_locale = discord.Locale.american_english

    def __init__(self) -> None:
        self.calls = 0
        self.response = SimpleNamespace(is_done=lambda: False, send_message=self._refuse)
        self.followup = SimpleNamespace(send=self._refuse)

    async def _refuse(self, **_: object) -> None:
        self.calls += 1
        raise _unknown_interaction()


def test_expired_recognises_10062_also_when_wrapped():
    err = _unknown_interaction()
    assert expired(err)
    wrapped = discord.app_commands.CommandInvokeError(SimpleNamespace(name="x", qualified_name="x"), err)
    assert expired(wrapped)
    other = discord.NotFound(_Response(), {"code": 10008, "message": "Unknown message"})
    assert not expired(other) and not expired(ValueError("x"))


async def test_a_late_answer_is_logged_once_at_info(caplog):
    ix = _Late()
    with caplog.at_level(logging.INFO):
        await reply(ix, "hello")
    records = [r for r in caplog.records if "expired" in r.getMessage()]
    assert len(records) == 1 and records[0].levelno == logging.INFO
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_command_that_failed_because_it_expired_sends_nothing_and_logs_no_error(caplog):
    ix = _Late()
    tree = GameTree.__new__(GameTree)
    wrapped = discord.app_commands.CommandInvokeError(SimpleNamespace(name="move", qualified_name="move"), _unknown_interaction())
    with caplog.at_level(logging.INFO):
        await GameTree.on_error(tree, ix, wrapped)
    assert ix.calls == 0                       # no second try to answer a dead interaction
    assert [r.levelno for r in caplog.records if "expired" in r.getMessage()] == [logging.INFO]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
