"""Limited play end to end: the real ``bot.py`` against the twin.

* A four-seat booster draft of a server's own Battle Logic Square set with two people and two
  computer drafters: ``/draft new`` posts the table, Bob joins, Alice starts; each person picks in
  their DMs (the pack as a picture, one select); Bob lets a pick time out and the bot's clock
  takes it for him; the decks are built from the pools (one by the builder's selects after a
  refused try, one "for me"); a match is played with them; the survey comes by DM and is
  answered with single taps; ``/cards report`` shows the picks as a picture and a CSV.
* A Winston draft of a server's Project Maken set, Alice against the computer: the pile in
  front of her with Take and Pass, to the end of the stack.
"""
from __future__ import annotations

import re

import pytest

from tests.limited_sets import clone_ids, cloned_set

from .checks import assert_every_message_within_limits
from .twin import MEMBER_PERMISSIONS, find_component, message_text
from .twin_v2 import is_v2, pictures_of

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

CLOCK_LOOP = 1
MANAGER = str((1 << 5) | int(MEMBER_PERMISSIONS))
SET = "Owl Kings"
# the boosters deal only white and green resource cards, which a deck may hold as many of as it
# likes (blue and red have deck-wide totals): every pool of 18 makes a legal deck of 15
PLAIN = clone_ids("logic_square", 2, where=lambda c: c.get("colour") in ("white", "green"))
BLS_LIMITED = {"deck": {"size": 15, "copies": 2}, "rarities": {"common": PLAIN},
               "boosters": {"packs": 3, "size": 6, "slots": [{"rarity": "common", "count": 6}]}}


@pytest.fixture
def bot_env() -> dict:
    return {"BOT_TEST_CLOCK_LOOP": str(CLOCK_LOOP)}


async def _upload(twin, user, game: str, limited: dict) -> None:
    ix = await twin.slash(user, "cards upload", file=twin.upload("owl.json", cloned_set(game, 2, limited=limited)),
                          game=game, name=SET, permissions=MANAGER)
    assert "Stored" in ix.text, ix.text


def _table(twin, draft_id: int) -> dict:
    """The draft's table in its channel, as it is now (never a DM)."""
    for m in reversed(twin.posts()):
        if twin.channels.get(int(m["channel_id"]), {}).get("type") != 1 and find_component(m, rf"^dr:{draft_id}:"):
            return twin.message(m["id"])
    raise AssertionError(f"no table of draft #{draft_id}")


def _draft_dm(twin, user, draft_id: int) -> dict | None:
    """The user's DM of the draft (one message, edited in place), as it is now."""
    for m in reversed(twin.dms(int(user["id"]))):
        if re.search(rf"(draft|Draft|Sealed) #{draft_id}\b", message_text(m)) and find_component(m, rf"^(dp|dw|dr):{draft_id}:"):
            return twin.message(m["id"])
    return None


def _pick_select(m: dict | None, draft_id: int) -> dict | None:
    return find_component(m, rf"^dp:{draft_id}:\d+:\d+$") if m else None


async def _new(twin, user, **options) -> int:
    ix = await twin.slash(user, "draft new", **options)
    m = re.search(r"Draft #(\d+)", ix.text)
    assert m, ix.text
    return int(m.group(1))


async def test_a_booster_draft_with_computers_a_timed_out_pick_decks_a_match_the_survey_and_the_report(table, twin, bot):
    alice, bob = table.alice, table.bob
    await _upload(twin, alice, "logic_square", BLS_LIMITED)
    draft_id = await _new(twin, alice, game="logic_square", format="booster", set=SET, seats=4, source="boosters",
                          timer=5)
    board = _table(twin, draft_id)
    assert is_v2(board) and "Booster draft #" in message_text(board) and "Owl Kings v1" in message_text(board)
    ix = await twin.click(bob, board, f"dr:{draft_id}:join")
    assert ix.ephemeral and "seat 2" in ix.text, ix.text
    ix = await twin.click(alice, _table(twin, draft_id), f"dr:{draft_id}:start")
    assert ix.ephemeral
    # each person's DM: the pack's picture, its cards numbered in one select, the time to pick
    dm = await twin.wait_for(lambda: _pick_select(_draft_dm(twin, alice, draft_id), draft_id) and
                             _draft_dm(twin, alice, draft_id), what="Alice's first pack")
    assert pictures_of(dm) == ["pack.png"] and "Round 1 of 3 · pick 1 · 6 cards" in message_text(dm)
    assert "<t:" in message_text(dm), "the time left, in each reader's own clock"
    select = _pick_select(dm, draft_id)
    assert [o["label"][:3] for o in select["options"]][:2] == ["1. ", "2. "]
    await twin.wait_for(lambda: _pick_select(_draft_dm(twin, bob, draft_id), draft_id), what="Bob's first pack")
    table_text = await twin.wait_for(lambda: "Still picking" in message_text(_table(twin, draft_id))
                                     and message_text(_table(twin, draft_id)), what="the table says who picks")
    assert "🤖" in table_text and f"<@{bob['id']}>" in table_text
    # Alice picks her first card; Bob lets his time run out (40 s for a pack of 6): the clock picks for him
    await twin.click(alice, dm, select["custom_id"], values=[select["options"][0]["value"]])
    await twin.advance(41)
    await twin.wait_for(lambda: re.search(r"pick 2", message_text(_draft_dm(twin, bob, draft_id) or {})) or None,
                        timeout=CLOCK_LOOP + 20, what="Bob's pick taken for him")
    # the table says so, in public: who and which pick, never the card
    await twin.wait_for(lambda: "the computer picked for:" in message_text(_table(twin, draft_id))
                        and "Bob (round 1, pick 1)" in message_text(_table(twin, draft_id)),
                        what="the table to say Bob's pick was taken for him")
    # both pick the first card of each pack until the picking is over
    for _ in range(120):
        moved = False
        for user in (alice, bob):
            dm = _draft_dm(twin, user, draft_id)
            sel = _pick_select(dm, draft_id)
            if sel is not None:
                await twin.click(user, dm, sel["custom_id"], values=[sel["options"][0]["value"]])
                moved = True
        if not moved:
            if "build your deck" in message_text(_draft_dm(twin, alice, draft_id) or {}).lower():
                break
            await twin.settle(quiet=0.5)
    dm = await twin.wait_for(lambda: find_component(_draft_dm(twin, alice, draft_id) or {}, rf"^dr:{draft_id}:build$")
                             and _draft_dm(twin, alice, draft_id), what="the end of the picking")
    # Bob: the deck builder; three cards are refused with the reasons, then "Build it for me"
    bob_dm = _draft_dm(twin, bob, draft_id)
    builder = await twin.click(bob, bob_dm, f"dr:{draft_id}:build")
    assert builder.ephemeral and pictures_of(builder.last) == ["pool.png"]
    main = find_component(builder.last, rf"^db:{draft_id}:m\.0$")
    assert main is not None and main["max_values"] >= 3
    await twin.click(bob, builder.last, main["custom_id"], values=[o["value"] for o in main["options"][:3]])
    await twin.click(bob, builder.last, f"dB:{draft_id}:save")
    assert "⚠️" in message_text(twin.message(builder.last["id"])), "the deck's problems are said"
    await twin.click(bob, twin.message(builder.last["id"]), f"dB:{draft_id}:auto")
    assert "Deck saved" in message_text(twin.message(builder.last["id"])), message_text(twin.message(builder.last["id"]))
    # Alice: "Build it for me" at once — the last deck makes the draft done and shows its seed
    builder = await twin.click(alice, dm, f"dr:{draft_id}:build")
    await twin.click(alice, builder.last, f"dB:{draft_id}:auto")
    await twin.wait_for(lambda: "The seed that dealt the cards" in message_text(twin.message(_table(twin, draft_id)["id"])),
                        what="the draft done")
    # a match with the decks: Bob accepts, then resigns
    ix = await twin.slash(alice, "draft play", opponent=bob, draft=draft_id)
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    accept = find_component(challenge, rf"^m:{match_id}:accept")
    await twin.click(bob, challenge, accept["custom_id"])
    await twin.slash(bob, "match resign", match=match_id, channel_id=table.thread_of(match_id))
    survey = await twin.wait_for(lambda: next((m for m in reversed(twin.dms(int(alice["id"])))
                                               if find_component(m, rf"^sv:{match_id}:f:4$")), None), what="the survey")
    assert "how was it" in message_text(survey)
    ix = await twin.click(alice, survey, f"sv:{match_id}:f:4")
    strong = find_component(twin.message(survey["id"]), rf"^sv:{match_id}:strong$")
    await twin.click(alice, twin.message(survey["id"]), strong["custom_id"], values=[strong["options"][0]["value"]])
    answered = message_text(twin.message(survey["id"]))
    assert "fun 4/5" in answered and "too strong:" in answered, answered
    # the report: the picks of the draft, the match and the survey
    ix = await twin.slash(alice, "cards report", game="logic_square", set=SET)
    assert ix.ephemeral and is_v2(ix.last) and pictures_of(ix.last) == ["report.png"]
    assert sorted(ix.files) == ["report.csv", "report.png"]
    words = message_text(ix.last)
    assert "1 draft, 1 limited match, 1 survey answer" in words, words
    assert_every_message_within_limits(twin)


async def test_a_winston_draft_of_project_maken_against_the_computer(table, twin, bot):
    alice = table.alice
    await _upload(twin, alice, "maken", {"deck": {"size": 15}})
    draft_id = await _new(twin, alice, game="maken", format="winston", set=SET, cards=24, timer=0)
    ix = await twin.click(alice, _table(twin, draft_id), f"dr:{draft_id}:start")
    assert ix.ephemeral
    taken = 0
    for _ in range(60):
        dm = await twin.wait_for(lambda: _draft_dm(twin, alice, draft_id), what="Alice's Winston DM")
        take = find_component(dm, rf"^dw:{draft_id}:\d+:take$")
        if take is None:
            if find_component(dm, rf"^dr:{draft_id}:build$"):
                break
            await twin.settle(quiet=0.5)
            continue
        text = message_text(dm)
        assert "You look at pile" in text and pictures_of(dm) == ["pack.png"], text
        passing = find_component(dm, rf"^dw:{draft_id}:\d+:pass$")
        # pass the first pile once, then take
        await twin.click(alice, dm, (passing if passing and taken == 0 else take)["custom_id"])
        taken += 1
    assert find_component(_draft_dm(twin, alice, draft_id), rf"^dr:{draft_id}:build$"), "the stack ran out"
    pool = await twin.slash(alice, "draft pool", draft=draft_id)
    assert pictures_of(pool.last) == ["pool.png"]

    def _table_says_picking_is_over():
        # the table is edited at most every 1.5 s, so it may trail the last take
        text = message_text(twin.message(_table(twin, draft_id)["id"]))
        return ("Winston draft #" in text and "Build my deck" in text or "picking is over" in text) and text

    assert await twin.wait_for(_table_says_picking_is_over, what="the table to say picking is over")
    assert_every_message_within_limits(twin)


AOW_KINGS = clone_ids("art_of_war", 2)        # 6 KINGs of the server's own, beside the 3 shipped ones
AOW_SEALED = {"deck": {"size": 10}, "rarities": {"common": AOW_KINGS},
              "boosters": {"packs": 1, "size": 5, "slots": [{"rarity": "common", "count": 5}]}}


async def test_a_sealed_event_of_art_of_war_with_pools_locked_and_shown_at_the_end(table, twin, bot):
    """The organiser makes a sealed event of the server's Art of War set; at the start each player
    is DMed their pool and the pod's table is posted; nobody can play before both decks are built;
    each deck is built from the pool and locked (a second is refused); the pairing is played with
    both locked decks; another player's pool and deck are closed while the event runs and shown
    when it has ended."""
    from .test_league_e2e import ADMIN, create_league

    alice, bob = table.alice, table.bob
    await _upload(twin, alice, "art_of_war", AOW_SEALED)
    ix = await twin.slash(alice, "cards default", game="art_of_war", set=SET, permissions=MANAGER)
    assert SET in ix.text, ix.text
    league_id, message = await create_league(table, name="Sealed Cup", game="art_of_war", format="swiss", rounds=1)
    ix = await twin.slash(alice, "league-admin settings", league=league_id, limited="sealed", permissions=ADMIN)
    assert "Format: sealed" in ix.text and "public at the top cut" in ix.text, ix.text
    for user in (alice, bob):
        await twin.click(user, twin.message(message["id"]), f"lg:{league_id}:join")
    ix = await twin.slash(alice, "league-admin start", league=league_id, permissions=ADMIN)
    assert f"League #{league_id} started" in ix.text, ix.text

    # the pod's table in the league channel, and each player's DM with the way to their deck
    def pod_table():
        for m in reversed(twin.posts(twin.channel["id"])):
            found = re.search(r"Sealed #(\d+)", message_text(m))
            if found and find_component(m, rf"^dr:{found.group(1)}:build$"):
                return int(found.group(1)), m
        return None
    draft_id, board = await twin.wait_for(pod_table, what="the pod's table")
    assert f"These are the pools of event #{league_id}" in message_text(board), message_text(board)
    dms = {}
    for user in (alice, bob):
        dms[user["id"]] = await twin.wait_for(
            lambda user=user: find_component(_draft_dm(twin, user, draft_id) or {}, rf"^dr:{draft_id}:build$")
            and _draft_dm(twin, user, draft_id), what="the pool's DM")
        words = message_text(dms[user["id"]])
        assert "Your sealed pool is open: 5 cards" in words and f"event #{league_id}" in words, words

    # the round's announcement says where the pools are and that decks come first
    await twin.wait_for(lambda: [m for m in twin.posts(twin.channel["id"]) if "round 1 is paired" in message_text(m)
                                 and "Your sealed pool is in your DMs" in message_text(m)], what="round 1's announcement")
    # no match before both have built their deck
    ix = await twin.slash(alice, "league play", league=league_id)
    assert "Still building: Alice, Bob" in ix.text, ix.text

    # Alice builds by the builder: a KING of her pool, ten basic units, "Build it for me"
    builder = await twin.click(alice, dms[alice["id"]], f"dr:{draft_id}:build")
    assert builder.ephemeral and pictures_of(builder.last) == ["pool.png"]
    await twin.click(alice, builder.last, f"dB:{draft_id}:auto")
    saved = twin.message(builder.last["id"])
    assert "Deck saved" in message_text(saved), message_text(saved)
    await twin.click(alice, saved, f"dB:{draft_id}:auto")
    assert "locked" in message_text(twin.message(builder.last["id"])).lower(), "a second deck is refused"
    builder = await twin.click(bob, dms[bob["id"]], f"dr:{draft_id}:build")
    await twin.click(bob, builder.last, f"dB:{draft_id}:auto")

    # the decks are the event's decklists: Bob's own at any time, Alice's closed to him for now
    ix = await twin.slash(bob, "league decklists", league=league_id)
    assert "Pool (5 cards)" in ix.text and "deck of pool #" in ix.text, ix.text
    ix = await twin.slash(bob, "league decklists", player=alice, league=league_id)
    assert "Pool (5 cards)" not in ix.text, ix.text
    done = await twin.wait_for(lambda: find_component(_table(twin, draft_id), rf"^dr:{draft_id}:show$")
                               and _table(twin, draft_id), what="the pod's table once every deck is built")
    assert "The seed that dealt" not in message_text(done) and "locked for event" in message_text(done), \
        message_text(done)
    show = await twin.click(bob, done, f"dr:{draft_id}:show")
    assert "The seed that dealt the cards" not in message_text(show.last or {}) and "Pool" not in (show.text or ""), \
        "a pod's pools and seed are closed while the event runs"

    # the pairing is played with both locked decks (no deck picker), and Bob resigns
    ix = await twin.slash(alice, "league play", league=league_id)
    match_id = int(re.search(r"Match #(\d+)", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    assert "Limited deck" in message_text(challenge) or "basic units" in message_text(challenge), \
        message_text(challenge)
    ix = await twin.click(bob, challenge, f"m:{match_id}:accept")
    assert ix.response_type == 6, ix.text
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="the board")
    await twin.slash(bob, "match resign", match=match_id, channel_id=int(board["channel_id"]))
    await twin.wait_for(lambda: [m for m in twin.posts(twin.channel["id"])
                                 if f"League #{league_id}" in message_text(m) and "final standings" in message_text(m).lower()],
                        what="the final standings")

    # at the end the pools, the decks and the seed are shown to everyone
    ix = await twin.slash(bob, "league decklists", player=alice, league=league_id)
    assert "Pool (5 cards)" in ix.text, ix.text
    show = await twin.click(bob, _table(twin, draft_id), f"dr:{draft_id}:show")
    assert "The seed that dealt the cards" in message_text(show.last), message_text(show.last)
    assert "Dealt again from this seed, the cards are the same" in message_text(show.last)
    assert_every_message_within_limits(twin)
