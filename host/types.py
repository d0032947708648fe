"""What the host hands to a front end (Discord cogs, the local console).

Nothing here knows Discord.  Text is carried as :class:`Msg` (a catalog key plus params) so
each front end renders it in the reader's language: a public update in the server's language,
a private update in the player's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Awaitable

from data import i18n
from data.store import MatchRecord


@dataclass(frozen=True)
class Msg:
    """A translatable message: ``i18n.t(key, locale, **params)``.

    A param may itself be a :class:`Msg` (rendered in the same locale first), e.g. a game name.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, locale: Any = "en") -> str:
        params = {k: (v.render(locale) if isinstance(v, Msg) else v) for k, v in self.params.items()}
        return i18n.t(self.key, locale, **params)


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


@dataclass
class PublicUpdate:
    """What everyone in the match's channel may see now."""

    text: list[Msg]                 # lines, newest event first is NOT assumed: in order
    view: dict                      # game.view(state, None)
    picture: bytes | None = None    # PNG of the public view (None if the game has nothing to draw yet)
    status_line: Msg | None = None  # whose turn / result, for the board message
    joinable: bool = False          # somebody may join (or rejoin) the running match now: offer Join
    awaited: list[int] = field(default_factory=list)  # users everyone sees acting now (public
                                    # to_act: never the decider of a hidden response window)


@dataclass
class PrivateUpdate:
    """What one seat alone may see now (hand, IT deck, pending secret choice).

    The host hands a command's Result over as soon as the public picture is drawn; a private
    picture may still be drawing then (``pending``).  ``await update.ready()`` before reading
    ``picture`` (:meth:`Result.ready` does it for every private update).
    """

    seat: int
    user_id: int
    text: list[Msg]
    view: dict                      # game.view(state, seat)
    picture: bytes | None = None
    own: dict = field(default_factory=dict)  # the part of ``view`` the public view lacks (+ "cards")
    pending: Awaitable[bytes | None] | None = field(default=None, repr=False, compare=False)

    async def ready(self) -> "PrivateUpdate":
        """Wait until ``picture`` is drawn (at once if it already is)."""
        if self.pending is not None:
            pending, self.pending = self.pending, None
            self.picture = await pending
        return self


@dataclass
class Prompt:
    """A seat whose decision is awaited, with its legal commands (private to that seat)."""

    seat: int
    user_id: int
    legal: list[str]
    secret: bool = False    # a hidden decision (e.g. a chain-response window): tell only this
                            # player, privately; never ping or name them in public


@dataclass
class Result:
    """The answer to any host call.

    ``ok`` False means nothing changed and ``error`` says why (and what is allowed instead).
    ``notify`` lists user ids that should be pinged (e.g. a challenged opponent, a reminder).
    """

    ok: bool
    match: MatchRecord | None = None
    error: Msg | None = None
    info: list[Msg] = field(default_factory=list)      # short reply to the caller
    public: PublicUpdate | None = None
    private: list[PrivateUpdate] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    notify: list[int] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)  # call-specific extras (e.g. the log)

    @classmethod
    def fail(cls, key: str, match: MatchRecord | None = None, **params: Any) -> "Result":
        return cls(ok=False, match=match, error=Msg(key, params))

    async def ready(self) -> "Result":
        """Wait until every private picture is drawn (see :class:`PrivateUpdate`)."""
        for update in self.private:
            await update.ready()
        return self
