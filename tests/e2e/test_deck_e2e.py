"""End-to-end decks: the real ``bot.py`` against the twin — build a Project Maken deck with
``/deck`` (copy, edit, validate, export), share it by code (``/deck import``), then play a
match with the two saved decks (``/play deck:`` and the deck picker on Accept) and see, in each
player's DM, a hand drawn from their own deck.  Every answer within Discord's limits."""
from __future__ import annotations

import re

import pytest

from rules import registry

from .checks import assert_ephemeral, assert_every_message_within_limits, assert_no_public_secret
from .twin import find_component, message_text

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

CODE = re.compile(r"`(mk1-[^`]+)`")


def hand_lines_of(dm: dict) -> list[str]:
    """The card lines under "Your hand" in a Project Maken DM ("   Whirlwind Kick — SPD 2 …")."""
    text = message_text(dm)
    part = text.split("Your hand:", 1)[1] if "Your hand:" in text else ""
    part = re.split(r"\n\S", part, maxsplit=1)[0]
    return [line.strip() for line in part.splitlines() if line.startswith("   ")]


def hand_ids(dm: dict) -> set[str]:
    """The cards of a Project Maken DM's hand, by the names it lists (a DM names cards, never
    their ids)."""
    cards = registry.get("maken").decks.cards()
    by_name = {c["name"]["en"]: cid for cid, c in cards.items()}
    return {by_name[line.split(" — ", 1)[0]] for line in hand_lines_of(dm) if line.split(" — ", 1)[0] in by_name}


async def test_a_deck_built_with_deck_commands_shared_by_code_and_played_in_a_match(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    # what a user is offered while typing
    games = await twin.autocomplete(alice, "deck new", "game", game="mak", name="Storm")
    assert [c["value"] for c in games] == ["maken"]
    ready = await twin.autocomplete(alice, "deck new", "copy", game="maken", name="Storm", copy="misty")
    assert [c["value"] for c in ready] == ["mizuha_basic"]
    # a copy of a ready-made deck: legal, shown as an embed with its code
    ix = await twin.slash(alice, "deck new", game="maken", name="Storm", copy="mizuha_basic")
    assert_ephemeral(ix)
    embed = ix.last["embeds"][0]
    assert embed["title"] == "Project Maken · Storm"
    assert "✅ Storm is legal and ready to play." in embed["description"]
    assert CODE.search(embed["description"])
    # take three cards out: the deck breaks a rule, says which, and cannot be played
    cards = await twin.autocomplete(alice, "deck edit", "card", game="maken", name="Storm", action="remove",
                                    card="ms01")
    assert [c["value"] for c in cards] == ["ms01"] and "(ms01)" in cards[0]["name"]
    ix = await twin.slash(alice, "deck edit", game="maken", name="Storm", action="remove", card="ms01", count=3)
    assert "⚠️ Storm breaks 1 deck-building rule:" in ix.text and "27" in ix.text
    ix = await twin.slash(alice, "deck validate", game="maken", name="Storm")
    assert "⚠️" in ix.text
    ix = await twin.slash(alice, "play", game="maken", opponent=bob, deck="Storm")
    assert_ephemeral(ix)
    assert 'The deck "Storm" cannot be played' in ix.text
    assert table.board_message(1) is None and not twin.posts()
    # put them back: legal again
    ix = await twin.slash(alice, "deck edit", game="maken", name="Storm", action="add", card="ms01", count=3)
    assert "✅ Storm is legal" in ix.text
    # share it: export → import under another name, by another user
    ix = await twin.slash(alice, "deck export", game="maken", name="Storm")
    code = CODE.search(ix.text).group(1)
    assert code.startswith("mk1-mizuha-")
    ix = await twin.slash(bob, "deck import", game="maken", name="Borrowed", code=code)
    assert "✅ Borrowed is legal" in ix.text and code in ix.text
    ix = await twin.slash(bob, "deck import", game="maken", name="Broken", code="mk1-nobody-3zz99")
    assert "⚠️ That deck code cannot be read" in ix.text
    ix = await twin.slash(bob, "deck list", game="maken")
    assert "✅ Project Maken · Borrowed" in ix.text and "📦" in ix.text
    own = await twin.autocomplete(bob, "deck show", "name", game="maken", name="")
    assert own[0]["value"] == "Borrowed"
    # decks are private to their owner
    ix = await twin.slash(carol, "deck show", game="maken", name="Storm")
    assert_ephemeral(ix)
    assert 'You have no deck called "Storm"' in ix.text

    # a match with the two saved decks: Alice names hers in /play, Bob picks his on Accept
    match_id, challenge = await table.challenge("maken", "first=1 max_turns=10", deck="Storm")
    ix = await twin.click(bob, challenge, f"m:{match_id}:accept")
    picker = find_component(ix.last, r":deck:accept$")
    assert ix.ephemeral and picker is not None
    labels = [o["label"] for o in picker["options"]]
    assert labels[0] == "Borrowed" and "Mizuha: Misty Spear (ready-made)" in labels
    ix = await table.pick_deck(bob, ix, pick=lambda options: options[0])
    assert "Borrowed" in ix.text
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$"), what="the board")
    dms = await twin.wait_for(lambda: (twin.dms(int(alice["id"])), twin.dms(int(bob["id"])))
                              if twin.dms(int(alice["id"])) and twin.dms(int(bob["id"])) else None, what="both DMs")
    # each hand comes from the deck its player chose (Mizuha's cards; the default decks are
    # Tsubaki's and Gou's), and no card of a hand is in a public message
    deck_cards = {f"ms{n:02d}" for n in range(1, 15)}
    hands = [hand_ids(dm[0]) for dm in dms]
    assert all(hand and hand <= deck_cards for hand in hands), hands
    hand_lines = [line for dm in dms for line in hand_lines_of(dm[0])]
    assert hand_lines
    assert_no_public_secret(twin, ["Your hand", "private view"] + hand_lines)
    # a deleted deck is gone
    ix = await twin.slash(alice, "deck delete", game="maken", name="Storm")
    assert "Deleted the deck Storm." in ix.text
    ix = await twin.slash(alice, "deck list", game="maken")
    assert "Storm" not in ix.text
    assert_every_message_within_limits(twin)


async def test_a_saved_deck_named_like_a_ready_made_one_can_still_be_picked(table, twin):
    """Issue 15, finding 1: after ``/deck new name:mizuha_basic copy:mizuha_basic`` the deck
    picker on Accept listed two options with the same value, which Discord refuses (50035: "This
    interaction failed"). Each option now says which deck it is; both can be picked, and the
    twin refused nothing."""
    alice, bob = table.alice, table.bob
    ix = await twin.slash(bob, "deck new", game="maken", name="mizuha_basic", copy="mizuha_basic")
    assert "✅ mizuha_basic is legal" in ix.text
    for pick_saved in (True, False):
        match_id, challenge = await table.challenge("maken", "first=1 max_turns=10")
        refused = len(twin.refusals)
        ix = await twin.click(bob, challenge, f"m:{match_id}:accept")
        picker = find_component(ix.last, r":deck:accept$")
        assert ix.ephemeral and picker is not None, ix.text
        values = [o["value"] for o in picker["options"]]
        assert len(values) == len(set(values))
        labels = [o["label"] for o in picker["options"]]
        assert "mizuha_basic" in labels and "Mizuha: Misty Spear (ready-made)" in labels
        want = "mizuha_basic" if pick_saved else "Mizuha: Misty Spear (ready-made)"
        ix = await table.pick_deck(bob, ix, pick=lambda options: next(o for o in options if o["label"] == want))
        assert ("mizuha_basic" in ix.text) if pick_saved else ("Misty Spear" in ix.text), ix.text
        await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$"), what="the board")
        assert len(twin.refusals) == refused, twin.refusals[refused:]
        await twin.slash(alice, "match resign", match=match_id)
    assert not twin.violations, twin.violations
    assert_every_message_within_limits(twin)
