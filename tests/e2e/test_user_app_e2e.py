"""Practice anywhere, end to end: the real bot.py against the twin, with the bot installed on a
player's own account (a user-installed app).  A practice match is played to its end from a group
DM — where the bot is no member and may post nothing — every move a fresh tap, answered through
that tap's interaction alone (no channel post, at most 5 follow-ups an interaction), the result
shown; the match belongs to no server: in the player's own /history, in no server's /stats.  A
/card lookup from a DM in English and in Japanese (autocomplete, the card's picture and text);
/rules and /help from a DM; a server-only command refused in words, in the reader's language.
The twin's own rules for such installs are checked first, without the bot."""
from __future__ import annotations

import re

import pytest

from .checks import assert_every_message_within_limits
from .harness import board_title
from .twin import EPHEMERAL, Twin, components_of, find_component, message_text
from .twin_v2 import is_v2, pictures_of
from .twin_user_app import check_installs

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

ANYWHERE = {"practice", "rules", "help", "card"}
# a move that ends the player's part of a turn, when the menu offers one (the match ends sooner)
ENDING = re.compile(r"^(Done|End the turn|Pass)\b")


# ---------------------------------------------------------------------------- the twin alone
async def test_the_twin_keeps_discords_rules_for_a_users_own_install():
    async with Twin() as twin:
        # integration_types and contexts: lists of known values, on top-level commands only
        assert check_installs([{"name": "x", "integration_types": [0, 1], "contexts": [0, 1, 2]}]) == []
        assert check_installs([{"name": "x", "integration_types": [2]}])
        assert check_installs([{"name": "x", "contexts": []}])
        assert check_installs([{"name": "x", "contexts": [1, 1]}])
        assert check_installs([{"name": "x", "options": [{"name": "o", "contexts": [0]}]}])
        alice, bob = twin.user("Alice"), twin.user("Bob")
        gdm = twin.group_dm(alice, bob)
        elsewhere = twin.foreign_guild()
        twin.commands = [{"name": "anywhere", "integration_types": [0, 1], "contexts": [0, 1, 2]},
                         {"name": "server", "integration_types": [0], "contexts": [0]}]
        # offered only where the user's install reaches, and only once they installed the app
        assert twin.offered(twin.commands[0], gdm, int(alice["id"])) is not None
        twin.install(alice)
        assert twin.offered(twin.commands[0], gdm, int(alice["id"])) is None
        assert twin.offered(twin.commands[0], elsewhere, int(alice["id"])) is None
        assert twin.offered(twin.commands[1], gdm, int(alice["id"])) is not None
        assert twin.offered(twin.commands[1], twin.bot_dm(alice), int(alice["id"])) is not None
        # an interaction there: its context and who authorized it
        payload = twin.interaction_payload(2, alice, {"id": "1", "name": "anywhere", "type": 1},
                                           channel_id=gdm["id"])
        assert payload["context"] == 2 and payload["authorizing_integration_owners"] == {"1": alice["id"]}
        assert "guild_id" not in payload
        payload = twin.interaction_payload(2, alice, {"id": "1", "name": "anywhere", "type": 1},
                                           channel_id=elsewhere["id"])
        assert payload["context"] == 0 and payload["guild_id"] == elsewhere["guild_id"]
        assert payload["authorizing_integration_owners"] == {"1": alice["id"]}
        # the bot may not post, edit or read where it is no member: 403/50001, a violation
        import aiohttp

        from .twin_limits import TOKEN
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{twin.api_base}/channels/{gdm['id']}/messages",
                                 headers={"Authorization": f"Bot {TOKEN}"}, json={"content": "hi"}) as r:
                assert r.status == 403 and (await r.json())["code"] == 50001
            # an interaction of the user's install: 5 follow-ups, then 40094
            ix = await twin.send_interaction(payload, alice, settle=False)
            url = f"{twin.api_base}/interactions/{payload['id']}/{payload['token']}/callback"
            async with http.post(url, json={"type": 4, "data": {"content": "board"}}) as r:
                assert r.status == 204
            hook = f"{twin.api_base}/webhooks/{twin.app_id}/{payload['token']}"
            for n in range(5):
                async with http.post(hook, json={"content": f"follow-up {n}"}) as r:
                    assert r.status == 200
            async with http.post(hook, json={"content": "one too many"}) as r:
                assert r.status == 400 and (await r.json())["code"] == 40094
            assert twin.followups_of(ix) == 5
        assert any("50001" in v for v in twin.violations) and any("40094" in v for v in twin.violations)


# ---------------------------------------------------------------------------- helpers
def _board_of(twin, channel_id: int, match_id: int) -> dict | None:
    """The newest board of the match in a channel (a public message titled "… #id")."""
    found = [m for m in twin.messages.values() if m["channel_id"] == str(channel_id)
             and int(m["id"]) not in twin.deleted_messages and not m["flags"] & EPHEMERAL
             and board_title(m).endswith(f"#{match_id}")]
    return found[-1] if found else None


def _pick(menu: dict) -> tuple[dict, list[str], bool] | None:
    """(the select, the values to pick, whether it plays a move) in an Act menu: a move that ends
    the player's part of the turn when there is one, else the last move offered; a group or the
    next page when no move is on the menu; a batch's fewest picks.  None: no select."""
    selects = [c for c in components_of(menu) if c.get("type") == 3 and re.search(r":c:", c.get("custom_id", ""))]
    moves = [(s, o) for s in selects for o in s["options"] if o["value"].startswith("c:")]
    if moves:
        ending = [(s, o) for s, o in moves if ENDING.match(o["label"])]
        select, option = (ending or moves)[-1]
        return select, [option["value"]], True
    others = [(s, o) for s in selects for o in s["options"]]
    if others:
        select, option = others[-1]
        return select, [option["value"]], False
    batch = next((c for c in components_of(menu) if c.get("type") == 3 and ":b:" in c.get("custom_id", "")), None)
    if batch is not None:
        return batch, [o["value"] for o in batch["options"][:batch.get("min_values") or 1]], True
    return None


# ---------------------------------------------------------------------------- the match
async def test_a_practice_match_in_a_group_dm_is_played_to_its_end_through_taps_alone(table, twin, bot):
    alice, bob = table.alice, table.bob
    twin.install(alice)
    gdm = twin.group_dm(alice, bob)
    gid = int(gdm["id"])
    ix = await twin.slash(alice, "practice", game="avalon", level="easy", channel_id=gid)
    board = next(m for m in ix.replies if not m["flags"] & EPHEMERAL)
    match_id = int(re.search(r"#(\d+)$", board_title(board)).group(1))
    board = twin.message(board["id"])
    assert find_component(board, rf"^m:{match_id}:act$") and find_component(board, rf"^u:{match_id}:hand$")
    assert "board.png" in [a["filename"] for a in board["attachments"]] and pictures_of(board) == ["board.png"]
    # the hand is shown to Alice alone: in her menu, and on the board's Hand button
    menus = [m for m in ix.replies if m["flags"] & EPHEMERAL]
    assert menus and "hand.png" in [a["filename"] for a in menus[-1]["attachments"]]
    hand = await twin.click(alice, board, f"u:{match_id}:hand")
    assert hand.ephemeral and "hand.png" in hand.files
    assert is_v2(hand.last) and pictures_of(hand.last) == ["hand.png"], "the hand as one layout"
    assert "press Act here" not in hand.text and "press Act under the board" in hand.text, hand.text
    # Bob is in the group chat, not in the match: the board's Act refuses him, to him alone
    refused = await twin.click(bob, board, f"m:{match_id}:act")
    assert refused.ephemeral and "⚠️" in refused.text

    menu_id = int(menus[-1]["id"])
    taps = 0
    for _ in range(120):
        board = _board_of(twin, gid, match_id)
        if not find_component(board, rf"^m:{match_id}:act$"):
            break                                   # the final board: no controls, the result
        menu = twin.message(menu_id)
        pick = _pick(menu)
        if pick is None:       # nothing to pick in this menu: Act under the newest board opens a new one
            ix = await twin.click(alice, board, f"m:{match_id}:act")
            menu_id = int(ix.last["id"])
            assert ix.last["flags"] & EPHEMERAL
            continue
        select, values, plays = pick
        before = bot.shown(match_id)
        ix = await twin.click(alice, menu, select["custom_id"], values=values,
                              until=(lambda i: bot.shown(match_id) > before or "⚠️" in i.text) if plays else None)
        assert "⚠️" not in ix.text, ix.text
        taps += plays
        assert twin.followups_of(ix) <= 5
    else:
        raise AssertionError(f"the match did not end in {taps} moves")
    final = _board_of(twin, gid, match_id)
    said = message_text(final)
    assert re.search(r"\*\*.*(won|wins|draw).*\*\*", said, re.I), said
    assert taps >= 2

    # through interactions only: nothing posted, edited or read through the channel API there,
    # every message there an interaction's answer or follow-up, no interaction over 5 follow-ups
    assert not [r for r in twin.requests if r.path.startswith(f"/channels/{gid}")]
    there = [m for m in twin.messages.values() if m["channel_id"] == str(gid)]
    assert there and all(m["_via"] in ("interaction", "followup") for m in there)
    assert max(twin.followups.values()) <= 5
    # only the newest board keeps a picture and controls; the ones before kept their words
    boards = [m for m in there if not m["flags"] & EPHEMERAL and board_title(m["_versions"][0])]
    assert len(boards) >= 2
    for old in boards[:-1]:
        assert not components_of(old) and not pictures_of(old) and message_text(old).strip(), message_text(old)
    assert pictures_of(boards[-1]) == ["board.png"]
    # the hand never reached anything public
    public = [m for m in there if not m["flags"] & EPHEMERAL]
    assert not [a for m in public for v in m["_versions"] for a in v.get("attachments", [])
                if a["filename"] == "hand.png"]
    assert not twin.dms(int(alice["id"])), "no DM: the hand is shown on a tap"

    # a match of no server: in Alice's own /history (in any server), in no server's /stats
    ix = await twin.slash(alice, "history")
    assert f"#{match_id}" in ix.text and "unrated" in ix.text.lower(), ix.text
    ix = await twin.slash(bob, "history", player=alice)
    assert f"#{match_id}" not in ix.text, "another player's history shows only this server's matches"
    ix = await twin.slash(alice, "stats", game="avalon")
    assert "No finished match" in ix.text, ix.text
    assert_every_message_within_limits(twin)


async def test_practice_in_a_server_without_the_bot_and_a_resignation(table, twin, bot):
    """The bot installed on Alice's account only, in a server that never added it: the board is
    the command's answer, Resign (a tap, then its confirmation) ends the match in a new board
    that follows the confirmation — nothing posted in the channel."""
    alice = table.alice
    twin.install(alice)
    lounge = twin.foreign_guild()
    ix = await twin.slash(alice, "practice", game="squares", level="easy", channel_id=lounge["id"])
    board = twin.message(next(m for m in ix.replies if not m["flags"] & EPHEMERAL)["id"])
    match_id = int(re.search(r"#(\d+)$", board_title(board)).group(1))
    assert not find_component(board, rf"^u:{match_id}:hand$"), "SQUARES has no hidden hand"
    ix = await twin.click(alice, board, f"m:{match_id}:resign")
    assert ix.ephemeral
    before = bot.shown(match_id)
    ix = await twin.click(alice, ix.last, f"m:{match_id}:ok:resign", until=lambda i: bot.shown(match_id) > before)
    final = _board_of(twin, int(lounge["id"]), match_id)
    assert final is not None and not find_component(final, rf"^m:{match_id}:act$")
    assert "resign" in message_text(final).lower()
    old = twin.message(board["id"])
    assert not components_of(old) and not old["attachments"] and message_text(old).strip(), \
        "the board before is retired: its words stay"
    assert not [r for r in twin.requests if r.path.startswith(f"/channels/{lounge['id']}")]


async def test_a_board_whose_token_has_lapsed_is_left_alone_and_the_next_tap_carries_on(table, twin, bot):
    """Discord keeps an interaction's token 15 minutes.  Alice comes back to her group-DM match
    after 20: Act under the old board opens her menu (a new tap, a new token), her move's new
    board follows that tap, and the old board — whose token has lapsed — is not touched (a
    request with a lapsed token would be refused: the fixture counts every refusal)."""
    alice = table.alice
    twin.install(alice)
    gdm = twin.group_dm(alice, table.bob)
    ix = await twin.slash(alice, "practice", game="squares", level="easy", channel_id=gdm["id"])
    first = twin.message(next(m for m in ix.replies if not m["flags"] & EPHEMERAL)["id"])
    match_id = int(re.search(r"#(\d+)$", board_title(first)).group(1))
    versions = len(first["_versions"])
    await twin.advance(20 * 60)
    ix = await twin.click(alice, first, f"m:{match_id}:act")
    assert ix.ephemeral and find_component(ix.last, r":c:"), ix.text
    select, values, _ = _pick(ix.last)
    before = bot.shown(match_id)
    ix = await twin.click(alice, ix.last, select["custom_id"], values=values,
                          until=lambda i: bot.shown(match_id) > before)
    newest = _board_of(twin, int(gdm["id"]), match_id)
    assert newest is not None and int(newest["id"]) != int(first["id"]) and newest["_via"] == "followup"
    assert find_component(newest, rf"^m:{match_id}:act$") and "board.png" in [a["filename"] for a in newest["attachments"]]
    assert len(twin.message(first["id"])["_versions"]) == versions, "the lapsed token was not used"
    assert not [r for r in twin.requests if r.status in (401, 403)]


# ---------------------------------------------------------------------------- /card, /rules, /help
async def test_card_lookup_from_a_dm_in_english_and_in_japanese(table, twin, bot):
    alice = table.alice
    twin.install(alice)
    dm = twin.bot_dm(alice)
    choices = await twin.autocomplete(alice, "card", "name", name="blitz", channel_id=dm["id"])
    assert choices and choices[0]["name"].startswith("Blitz Vector"), choices
    assert "ブリッツ・ベクター" in choices[0]["name"] and "Battle Logic Square" in choices[0]["name"]
    ix = await twin.slash(alice, "card", name=choices[0]["value"], channel_id=dm["id"])
    assert ix.ephemeral and "card.png" in ix.files
    assert "Blitz Vector" in ix.text and "Hit damage 60" in ix.text, ix.text
    assert twin.picture(ix.last, "card.png").width >= 400
    # Japanese: typed in hiragana, the katakana name found; the answer in Japanese
    choices = await twin.autocomplete(alice, "card", "name", name="ぶりっつ", channel_id=dm["id"], locale="ja")
    assert choices and choices[0]["name"].startswith("ブリッツ・ベクター"), choices
    assert "バトルロジックスクエア" in choices[0]["name"]
    ix = await twin.slash(alice, "card", name=choices[0]["value"], channel_id=dm["id"], locale="ja")
    assert "card.png" in ix.files and "ブリッツ・ベクター" in ix.text and "ゲーム" in ix.text, ix.text
    # a card of another game by its English name typed in full, without picking a suggestion
    ix = await twin.slash(alice, "card", name="Dawnbell Acolyte", channel_id=dm["id"])
    assert "Dawnbell Acolyte" in ix.text and "Avalon" in ix.text and "card.png" in ix.files
    # no such card: said in words, in the reader's language
    ix = await twin.slash(alice, "card", name="No Such Card", channel_id=dm["id"], locale="ja")
    assert "⚠️" in ix.text and "カード" in ix.text and not ix.files
    # in a group DM too (the user's own install)
    gdm = twin.group_dm(alice, table.bob)
    ix = await twin.slash(alice, "card", name="Dawnbell", channel_id=gdm["id"], public=True)
    assert not ix.ephemeral and "card.png" in ix.files
    assert not [r for r in twin.requests if r.path.startswith(f"/channels/{gdm['id']}")]


async def test_rules_and_help_from_a_dm_and_a_server_only_command_refused_in_words(table, twin, bot):
    alice = table.alice
    twin.install(alice)
    dm = twin.bot_dm(alice)
    ix = await twin.slash(alice, "rules", game="squares", channel_id=dm["id"])
    assert ix.ephemeral and "start.png" in ix.files and "SQUARES" in ix.text
    ix = await twin.slash(alice, "help", channel_id=dm["id"])
    assert ix.ephemeral and "/card" in ix.text and "/practice" in ix.text
    gdm = twin.group_dm(alice, table.bob)
    ix = await twin.slash(alice, "help", channel_id=gdm["id"], locale="ja")
    assert "/カード検索" in ix.text, ix.text
    # what the bot synced: the four everywhere, every other command in servers only
    for cmd in twin.commands:
        if cmd["name"] in ANYWHERE:
            assert cmd["integration_types"] == [0, 1] and cmd["contexts"] == [0, 1, 2], cmd["name"]
        else:
            assert cmd["integration_types"] == [0], cmd["name"]
    # a server-only command is not offered in a DM; a client with an old list sends it anyway
    with pytest.raises(AssertionError, match="not offered"):
        await twin.slash(alice, "cards list", channel_id=dm["id"])
    # (in the bot's own DM each command answers for itself, a server's one in its own words)
    ix = await twin.slash(alice, "cards list", channel_id=dm["id"], stale=True)
    assert ix.ephemeral and "Card sets belong to a server" in ix.text, ix.text
    ix = await twin.slash(alice, "cards list", channel_id=dm["id"], stale=True, locale="ja")
    assert "サーバーの中で" in ix.text, ix.text
    ix = await twin.slash(alice, "leaderboard", game="squares", channel_id=gdm["id"], stale=True)
    assert "works in a server channel" in ix.text, ix.text
    lounge = twin.foreign_guild()
    ix = await twin.slash(alice, "leaderboard", game="squares", channel_id=lounge["id"], stale=True)
    assert "server that has added the bot" in ix.text and "/practice" in ix.text, ix.text
    # nothing was ever posted where the bot is no member
    assert not [r for r in twin.requests if r.path.startswith((f"/channels/{gdm['id']}", f"/channels/{lounge['id']}"))]
