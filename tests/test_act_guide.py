"""Issue 33 ("DMs"): the guide says what Act in a DM does when no decision is the player's —
it shows the match's status and their own hand — instead of claiming the button is there only
while a decision of theirs is awaited."""
from __future__ import annotations

import pytest

from data import i18n

CARD_GAMES = ("art_of_war", "avalon", "maken", "logic_square")


def guide_text(game: str, locale: str) -> str:
    return "\n".join(v for k, v in i18n.catalog(locale).items() if k.startswith(f"guide.{game}."))


@pytest.mark.parametrize("game", CARD_GAMES)
def test_the_guide_says_act_between_turns_shows_status_and_hand(game):
    en, ja = guide_text(game, "en"), guide_text(game, "ja")
    assert "status and your hand" in en
    assert "状況とあなたの手札" in ja
    assert "while a decision of yours is awaited" not in en.lower()
    assert "選択を待っている間は" not in ja
