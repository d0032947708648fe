"""The engine contract's shared types (``docs/engine.md``): the :class:`Game` protocol, the
:class:`Registry`, :class:`IllegalCommand` and its message helpers.

Every engine imports these from here; ``rules`` (the package) re-exports them and fills its
``registry`` with the games from above, so no engine imports the package that registers it.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


class IllegalCommand(Exception):
    """A command that is not legal right now.

    ``reason`` is an English sentence a player can act on (which rule, what is allowed
    instead).  ``key`` and ``params`` let a front end show the same message in the player's
    language: ``key`` is a translation-catalog key (``data/i18n/<lang>/*.json``) and
    ``params`` its placeholders: plain strings and numbers, or a :class:`Ref` to another
    catalog entry (a step, a reason, a colour) shown in the reader's language.
    """

    def __init__(self, reason: str, key: str | None = None, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key
        self.params = params

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.reason


class Ref(str):
    """A message parameter that is itself a catalog key (``Ref("maken.step.bet")``): a front
    end shows that entry in the reader's language (``data.i18n.t`` resolves it), so no English
    word ends up inside a Japanese sentence.  The engine's English ``reason`` uses its English
    text (:func:`english`)."""

    catalog_ref = True


def english(text: str, en: dict[str, str], params: dict[str, Any]) -> str:
    """``text`` formatted with ``params``, each :class:`Ref` by its English entry in ``en``."""
    return text.format(**{k: (en.get(v, v) if isinstance(v, Ref) else v) for k, v in params.items()})


def en_text(en: dict[str, str], key: str, params: dict[str, Any]) -> str:
    """The English text of catalog ``key`` with ``params``: its singular ``key.one`` when the
    ``count`` (else ``n``) is 1 and the catalog has one — as ``data.i18n.t`` picks it, so an
    engine's English reason and a front end's words agree.

    >>> en_text({"x": "{n} cards", "x.one": "{n} card"}, "x", {"n": 1})
    '1 card'
    """
    number = params.get("count", params.get("n"))
    if number == 1 and not isinstance(number, bool) and f"{key}.one" in en:
        key = f"{key}.one"
    return english(en[key], en, params)


@runtime_checkable
class Game(Protocol):
    """The engine contract.  Names are fixed by docs/engine.md."""

    name: str
    min_players: int
    max_players: int

    def new_match(self, players: int, seed: int, options: dict | None = None) -> Any: ...
    def to_act(self, state: Any) -> list[int]: ...
    def legal_commands(self, state: Any, seat: int) -> list[str]: ...
    def apply(self, state: Any, seat: int, command: str) -> Any: ...
    def view(self, state: Any, seat: int | None) -> dict: ...
    def outcome(self, state: Any) -> dict | None: ...
    def dump(self, state: Any) -> str: ...
    def load(self, text: str) -> Any: ...

    # Additions to the contract (optional; the host falls back when a game lacks them):
    #   option_schema() -> dict[name, {"default": v, "choices": [...]} | {"default": v, "min": a, "max": b}]
    #   rematch_options(options: dict, outcome: dict) -> dict
    #       options for the next match between the same seats (e.g. who moves first).
    #   public_command(state_before, seat, command) -> str | None
    #       the command as everyone may see it in the log (None: hidden entirely).
    #   public_to_act(state) -> list[int]
    #       whose decision everyone may know is awaited.  Differs from to_act() while a
    #       secret decision is pending (e.g. a chain-response window that must not reveal
    #       that the responder holds a legal response).  Default: to_act(state).


class Registry:
    """Name -> Game; ``rules`` (the package) registers every engine when it is imported."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}

    def register(self, game: Game) -> Game:
        if game.name in self._games:
            raise ValueError(f"game {game.name!r} is registered twice")
        self._games[game.name] = game
        return game

    def names(self) -> list[str]:
        return list(self._games)

    def get(self, name: str) -> Game:
        try:
            return self._games[name]
        except KeyError:
            known = ", ".join(self._games) or "(none)"
            raise KeyError(f"unknown game {name!r}; known games: {known}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._games
