"""The words of a league pairing and a player, in the reader's language (every text from the
catalog): a result, how it was decided, a player's status.  Pure: shared by the league
messages, the trail (:mod:`.trail`) and the CSV exports (:mod:`.exports`).

>>> result_text({"a": 1, "b": 2, "result": "a", "how": "match", "held": False}, {1: "Ann"}, "en")
'Ann won'
>>> how_text("forfeit", "ja")
'不戦'
"""
from __future__ import annotations

from typing import Any

from data import i18n
from host.events.bestof import result_words

HOWS = ("match", "report", "organiser", "forfeit", "drop", "bye", "time")
STATUSES = ("active", "dropped", "removed")


def result_text(p: dict[str, Any], names: dict[int, str], locale: str) -> str:
    """A pairing's state: held, to play, bye, double forfeit, draw, "{name} won" or "{name} won
    by forfeit" (``p``: a pairing, or a trail state with the pairing's ``a`` and ``b``); a pairing
    played best of 3 or 5 says its game score, "Alice 2–1 Bob" (:func:`host.events.bestof.result_words`)."""
    if p.get("held"):
        return i18n.t("leagues.pairing.held", locale)
    said = result_words(p, names, locale) if "a" in p else None
    if said is not None:
        return said
    res = p.get("result")
    if res is None:
        return i18n.t("leagues.pairing.open", locale)
    if res in ("bye", "double", "draw"):
        return i18n.t(f"leagues.pairing.{res}", locale)
    winner = names.get(p.get(res), "?")
    key = "leagues.pairing.forfeit_win" if p.get("how") in ("forfeit", "drop") else "leagues.pairing.win"
    return i18n.t(key, locale, name=winner)


def how_text(how: str | None, locale: str) -> str:
    """How a result was decided: a bot match, the players' reports, an organiser, a forfeit
    (claimed or given), a player's drop, a bye, the round's time limit; an empty string for no
    result yet."""
    return i18n.t(f"events.how.{how}", locale) if how in HOWS else ""


def status_text(status: str, locale: str) -> str:
    """A player's status in a league: playing, dropped out or removed."""
    return i18n.t(f"events.status.{status}", locale) if status in STATUSES else str(status)
