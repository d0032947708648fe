"""End-to-end: when something goes wrong at the table (docs/undo.md) — the real ``bot.py`` against
the twin, driven only through what players, organisers and judges tap and type.

* **Undo** in Battle Logic Square: a character's move (AP left) is undone from the Act menu, the
  board says so in words and the position is back (``/match log``: no moves, the move under
  "Taken back"); a CAA draws, so it is final — no Undo, and a stale Undo button is refused.
* **Takeback** in SQUARES (a casual match): Alice asks once the turn passed, Bob is pinged and
  declines from his Act menu; nothing moved.
* **Judge calls** at a 4-player Swiss event of Battle Logic Square, best of three: a player calls
  a judge from the board (a modal), the call is posted in the event's channel (the organiser
  pinged, the jump link, the last moves in words, the board picture, the judge's buttons); the
  organiser — not seated — takes it, looks at both hands (kept in the trail), puts the match
  back two moves (past a draw: "anyway"), gives a game loss (the series records it), and another
  in game 2 that decides the pairing (the standings change); the penalty lists; and from another
  server all of it is refused.
"""
from __future__ import annotations

import re
import time

import pytest

from .checks import assert_ephemeral, match_states
from .harness import played_or_refused
from .test_league_e2e import ADMIN, create_league
from .test_tournament_e2e import newest_board_in, round_pairings
from .twin import EPHEMERAL, MEMBER_PERMISSIONS, components_of, find_component, message_text, modal_inputs
from .twin_v2 import is_v2, pictures_of, texts

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# an event's games are ruled on and restarted faster than people play: Discord's 5 posts per
# channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

PLAYED = re.compile(r"You played \*\*(.+?)\*\* \(`([^`]+)`\)")
FINAL = ("That move cannot be undone: it drew, revealed or decided something, or passed the turn. "
         "You can ask the other players for a takeback.")


async def press(twin, user: dict, message: dict, custom_id: str, *, values: list[str] | None = None,
                permissions: str = ADMIN, until=None):
    """``twin.click`` by a member with ``permissions`` (Discord sends the member's permissions with
    every interaction; ``twin.click`` always sends an ordinary member's): an organiser's tap."""
    stored = twin.messages[int(message["id"])]
    viewer = stored.get("_viewer")
    assert not (stored["flags"] & EPHEMERAL and viewer is not None and viewer != int(user["id"])), \
        "only its user can see (and click) an ephemeral message"
    comp = next((c for c in components_of(stored) if c.get("custom_id") == custom_id), None)
    assert comp is not None and not comp.get("disabled"), \
        f"{custom_id!r} is not on message {message['id']}: {[c.get('custom_id') for c in components_of(stored)]}"
    data = {"custom_id": custom_id, "component_type": comp["type"]}
    if comp["type"] == 3:
        assert values and all(v in [o["value"] for o in comp["options"]] for v in values), values
        data["values"] = values
    payload = twin.interaction_payload(3, user, data, channel_id=stored["channel_id"], message=stored,
                                       permissions=permissions)
    return await twin.send_interaction(payload, user, until=until)


def thread_lines(twin, thread_id) -> list[str]:
    """Every line the players read in the thread (current versions, in order)."""
    return [line for m in twin.posts(thread_id) for line in message_text(m).splitlines()]


def pinged(message: dict) -> set[str]:
    return {str(u) for u in (message.get("_allowed_mentions") or {}).get("users", [])}


# ---------------------------------------------------------------------------- undo and takeback
async def test_undo_within_the_turn_and_a_declined_takeback(table, twin, bot):
    alice, bob = table.alice, table.bob
    # --- Battle Logic Square, Alice first (2 AP): a character's move is not final
    match_id = await table.start("logic_square", "first=1")
    thread = table.thread_of(match_id)
    undo = f"m:{match_id}:undo"
    board = table.board_message(match_id)
    assert find_component(board, rf"^m:{match_id}:judge$") is None, "no judge outside events"
    start_picture = twin.picture(table.latest_board(match_id)).tobytes()
    first = await twin.click(alice, board, f"m:{match_id}:act")
    menu = first.last
    select = find_component(menu, r":c:")
    move = next(o for o in select["options"] if o["label"].startswith("Move ") and o["label"].endswith("→ c2"))
    words = move["label"]                                          # "Move Blitz Vector c1 → c2"
    ix = await twin.click(alice, menu, select["custom_id"], values=[move["value"]], until=played_or_refused)
    assert PLAYED.search(ix.text).groups() == (words, "move c2"), ix.text
    button = find_component(ix.last, rf"^{undo}$")
    assert button is not None and button["label"] == "↶ Undo my last move", message_text(ix.last)
    # Act again: a second menu, which offers the same Undo (kept: it goes stale below)
    second = await twin.click(alice, table.board_message(match_id), f"m:{match_id}:act")
    assert find_component(second.last, rf"^{undo}$") is not None
    await twin.wait_for(lambda: f"Alice: {words}" in message_text(table.latest_board(match_id)),
                        what="the move on the board")

    # Undo, in the first menu: the same message offers the turn again, with nothing left to undo
    ix = await twin.click(alice, twin.message(menu["id"]), undo,
                          until=lambda i: "Undone" in i.text or "⚠️" in i.text)
    assert ix.ephemeral and ix.text.startswith("↶ Undone. Your move again:"), ix.text
    assert find_component(ix.last, r":c:") is not None and find_component(ix.last, rf"^{undo}$") is None
    took_back = f"↶ Alice took back their move: {words}."
    await twin.wait_for(lambda: took_back in message_text(table.latest_board(match_id)), what="the undo on the board")
    await twin.settle(quiet=0.3)
    shown = message_text(table.latest_board(match_id))
    assert "**To act: Alice (after 0 moves)**" in shown, shown
    assert twin.picture(table.latest_board(match_id)).tobytes() == start_picture, "the position is not back"
    rec, states = await match_states(bot.db, match_id)
    assert rec.n_commands == 0 and len(states) == 1
    log = await twin.slash(bob, "match log", match=match_id, channel_id=thread)
    assert_ephemeral(log)
    assert "— 0 moves" in log.text and "No commands yet." in log.text, log.text
    assert f"Taken back (no longer on the board):\n↶ 1. Alice: {words} — undone by its player" in log.text, log.text

    # a CAA (trash a card, draw): final — the menu offers no Undo
    menu = twin.message(menu["id"])
    caa = find_component(menu, r":b:")
    ix = await twin.click(alice, menu, caa["custom_id"], values=[caa["options"][0]["value"]], until=played_or_refused)
    caa_words, caa_command = PLAYED.search(ix.text).groups()
    assert caa_command.startswith("caa ") and caa_words.startswith("Trash "), ix.text
    assert find_component(ix.last, rf"^{undo}$") is None, message_text(ix.last)
    # the stale Undo of the second menu is refused in words, and takes nothing back
    ix = await twin.click(alice, twin.message(second.last["id"]), undo, until=lambda i: "⚠️" in i.text)
    assert ix.text == f"⚠️ {FINAL}", ix.text
    await twin.settle(quiet=0.3)
    rec, states = await match_states(bot.db, match_id)
    assert rec.n_commands == 1
    lines = thread_lines(twin, thread)
    for line in (f"Alice: {words}", took_back, f"Alice: {caa_words}", "Alice draws 2"):
        assert line in lines, (line, lines)
    assert lines.index(f"Alice: {words}") < lines.index(took_back) < lines.index(f"Alice: {caa_words}")
    assert not any("took back" in line for line in lines[lines.index(f"Alice: {caa_words}"):])

    # --- SQUARES, casual (takebacks allowed by default): Alice asks, Bob declines
    sq = await table.start("squares", "first=1", rated=False)
    sq_thread = table.thread_of(sq)
    _, ix = await table.act_by_menu(alice, sq)
    sq_words, sq_command = PLAYED.search(ix.text).groups()
    await twin.wait_for(lambda: f"<@{bob['id']}>: your turn." in message_text(table.board_message(sq) or {}),
                        what="Bob's turn")
    ix = await twin.click(alice, table.board_message(sq), f"m:{sq}:act")
    assert_ephemeral(ix)
    assert ix.text.startswith("It is not your turn. To act: Bob (after 1 move)"), ix.text
    ask = find_component(ix.last, rf"^m:{sq}:takeback$")
    assert ask is not None and ask["label"] == "↶ Ask for a takeback"
    ix = await twin.click(alice, ix.last, f"m:{sq}:takeback")
    assert ix.text == "Asked Bob to accept your takeback.", ix.text
    asked = (f"↶ Alice asks to take back their last move ({sq_words}) — 1 move would be undone. "
             "Bob: tap Act to accept or decline.")
    post = await twin.wait_for(lambda: next((m for m in twin.posts(sq_thread) if asked in message_text(m)), None),
                               what="the takeback asked in the thread")
    await twin.settle(quiet=0.3)
    post = twin.message(post["id"])
    assert f"<@{bob['id']}>" in message_text(post) and pinged(post) == {bob["id"]}, post
    # Bob's Act: the request first, then his moves, with Accept / Decline
    ix = await twin.click(bob, table.board_message(sq), f"m:{sq}:act")
    assert ix.text.startswith("↶ **Alice** asks to take back their last move (1 move would be undone). "
                              "Accept or decline:"), ix.text
    assert find_component(ix.last, rf"^m:{sq}:tbyes$")["label"] == "Accept the takeback"
    assert find_component(ix.last, rf"^m:{sq}:tbno$")["label"] == "Decline"
    assert find_component(ix.last, r":c:") is not None            # he may just play on
    ix = await twin.click(bob, ix.last, f"m:{sq}:tbno")
    assert ix.text == "You declined the takeback.", ix.text
    declined = "Bob declined Alice's takeback. The game goes on as it is."
    post = await twin.wait_for(lambda: next((m for m in twin.posts(sq_thread) if declined in message_text(m)), None),
                               what="the decline in the thread")
    await twin.settle(quiet=0.3)
    post = twin.message(post["id"])
    assert pinged(post) == {alice["id"]}, post        # the asker is told
    rec, states = await match_states(bot.db, sq)
    assert rec.n_commands == 1                         # nothing moved
    log = await twin.slash(alice, "match log", match=sq, channel_id=sq_thread)
    assert f"1. Alice: {sq_words} (`{sq_command}`)" in log.text and "Taken back" not in log.text, log.text
    lines = thread_lines(twin, sq_thread)
    assert lines.index(f"Alice: {sq_words}") < lines.index(asked) < lines.index(declined), lines
    assert "**To act: Bob (after 1 move)**" in message_text(table.latest_board(sq))


# ---------------------------------------------------------------------------- judge calls
async def play_into_a_judge_call(table, twin, bot, users: dict, match_id: int, thread: int) -> list[tuple[str, str]]:
    """The first player moves their character while AP lasts, discards down to 5 (the turn
    passes: the opponent draws), the opponent moves once.  Returns [(name, words)] played."""
    from rules import registry

    game = registry.get("logic_square")
    by_id = {int(u["id"]): u for u in users.values()}
    played: list[tuple[str, str]] = []
    first = None
    for _ in range(8):
        rec, states = await match_states(bot.db, match_id)
        seat = game.to_act(states[-1])[0]
        first = seat if first is None else first
        legal = game.legal_commands(states[-1], seat)
        command = next((c for c in legal if c.startswith("move ")), None) or \
            next((c for c in legal if c.startswith("discard ")), None) or "end"
        user = by_id[rec.seats[seat]]
        ix = await twin.slash(user, "move", command=command, match=match_id, channel_id=thread)
        said, done = PLAYED.search(ix.text).groups()
        assert done == command, ix.text
        played.append((rec.names[seat], said))
        if seat != first:
            return played
    raise AssertionError(f"the turn never passed: {played}")


async def test_a_judge_call_at_a_best_of_three_swiss_event(table, twin, bot):
    organiser = table.alice
    names = ["Bob", "Carol", "Dave", "Erin"]
    users = {"Bob": table.bob, "Carol": table.carol, "Dave": twin.user("Dave"), "Erin": twin.user("Erin")}
    league_id, message = await create_league(table, name="Judge Cup", game="logic_square", format="swiss", rounds=2)
    ix = await twin.slash(organiser, "league-admin settings", league=league_id, best_of=3,
                          start=f"<t:{int(time.time()) + 3600}:F>", checkin_minutes=120, permissions=ADMIN)
    assert "Rounds: best of 3" in ix.text, ix.text
    for n in names:
        await twin.click(users[n], twin.message(message["id"]), f"lg:{league_id}:join")
        decks = await twin.autocomplete(users[n], "league checkin", "deck", deck="", league=league_id)
        ix = await twin.slash(users[n], "league checkin", deck=decks[0]["value"], league=league_id)
        assert "checked in" in ix.text.lower(), ix.text
    ix = await twin.slash(organiser, "league-admin start", league=league_id, permissions=ADMIN)
    assert f"League #{league_id} started: 2 rounds" in ix.text, ix.text
    [(pairing, a, b), (_, c, _)] = await round_pairings(twin, organiser, league_id, 1)
    ix = await twin.slash(users[a], "league play", league=league_id)
    match_id = int(re.search(rf"Match #(\d+) for pairing #{pairing}", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    await twin.click(users[b], challenge, f"m:{match_id}:accept")
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="game 1's board")
    thread = int(board["channel_id"])
    assert find_component(board, rf"^m:{match_id}:judge$")["label"] == "⚖️ Call a judge"
    before = (await twin.slash(users[c], "league standings", league=league_id)).text
    assert all(re.search(rf"^\d+ {n} +0-0-0 +0 ", before, flags=re.M) for n in names), before

    # a few moves: the first player (P1) moves, discards (the turn passes: P2 draws), P2 moves
    played = await play_into_a_judge_call(table, twin, bot, users, match_id, thread)
    p1, p2 = played[0][0], played[-1][0]
    assert len(played) >= 3 and {p1, p2} == {a, b}, played
    general = twin.channel["id"]
    posts_before = len(twin.posts(general))

    # P1 calls a judge: the board's button opens the form, P1 fills it in
    ix = await twin.click(users[p1], table.board_message(match_id), f"m:{match_id}:judge")
    assert ix.response_type == 9 and ix.modal["custom_id"] == f"jform:{match_id}", ix.modal
    assert ix.modal["title"] == "Call a judge"
    [field] = modal_inputs(ix.modal)
    assert field["style"] == 2 and field["required"] is False and field["max_length"] == 300, field
    said = "I discarded the wrong card"
    sent = await twin.submit_modal(users[p1], ix, {field["custom_id"]: said})
    assert_ephemeral(sent)
    assert sent.text.startswith("⚖️ A judge has been called (call #1)."), sent.text
    called = f"⚖️ {p1} called a judge (call #1). Please wait: the game is not paused, but the judge may put it back."
    await twin.wait_for(lambda: called in thread_lines(twin, thread), what="the call in the thread")
    # the staff post (no staff channel set: the event's own channel), pinging the organiser
    post = await twin.wait_for(lambda: next((m for m in twin.posts(general)[posts_before:]
                                             if find_component(m, r"^jc:")), None), what="the staff post")
    await twin.settle(quiet=0.3)
    text = post["content"]
    lines = text.splitlines()
    assert lines[0] == f"<@{organiser['id']}> ⚖️ **Judge call #1** — Judge Cup, match #{match_id}", text
    assert pinged(post) == {organiser["id"]}, post.get("_allowed_mentions")
    seats = [x for x in (a, b)]
    assert f"Players: {' — '.join(sorted(seats, key=lambda n: text.index(n)))}" in lines, text
    assert f"Called by {p1}: {said}" in lines, text
    assert f"https://discord.com/channels/{twin.guild_id}/{thread}" in lines, text
    at = lines.index("Last moves:")
    assert [re.sub(r"^\d+\. (.+?) \(`[^`]+`\)$", r"\1", line) for line in lines[at + 1:at + 1 + len(played)]] == \
        [f"{name}: {words}" for name, words in played], text
    assert lines[-1] == "▸ Open — waiting for a judge.", text
    assert [att["filename"] for att in post["attachments"]] == [f"match-{match_id}.png"]
    assert twin.picture(post).format == "PNG"
    call = f"jc:{league_id}:1"
    assert [(x["custom_id"], x["label"]) for x in components_of(post)] == [
        (f"{call}:take", "Take"), (f"{call}:look", "Hands"), (f"{call}:act", "Act"), (f"{call}:close", "Close")]
    # one call per match at a time
    ix = await twin.slash(users[p2], "match judge", match=match_id, what="me too", channel_id=thread)
    assert "A judge is already called to this match (call #1)" in ix.text, ix.text

    # who judges: not an ordinary member; not a player of the match, even with Manage Server
    ix = await press(twin, users[c], post, f"{call}:take", permissions=MEMBER_PERMISSIONS)
    assert ix.text == "⚠️ Only a judge of this server (its judge role) or an event organiser can do that.", ix.text
    ix = await press(twin, users[p2], post, f"{call}:look")
    assert_ephemeral(ix)
    assert "You play in this match, so you cannot look at the other hands" in ix.text, ix.text

    # the organiser takes the call: the post says so, the players are pinged in the thread
    n_thread = len(twin.posts(thread))
    ix = await press(twin, organiser, post, f"{call}:take")
    assert ix.response_type == 7, ix.response_type            # the post itself is updated
    post = twin.message(post["id"])
    assert post["content"].splitlines()[-1] == f"▸ Taken by <@{organiser['id']}>.", post["content"]
    taken = await twin.wait_for(lambda: next((m for m in twin.posts(thread)[n_thread:]
                                              if "has taken judge call #1" in message_text(m)), None), what="the take")
    # told above a new board (the board stays the thread's newest message), pinging both players
    assert f"⚖️ {organiser['global_name']} has taken judge call #1 and is answering here." in \
        message_text(taken).splitlines(), message_text(taken)
    assert {users[a]["id"], users[b]["id"]} <= pinged(taken)
    assert find_component(taken, rf"^m:{match_id}:act$") is not None, "the notice is on the board"

    # Hands: every seat's hand, to the judge only, one container each in one layout; the look is in the trail
    ix = await press(twin, organiser, post, f"{call}:look")
    assert_ephemeral(ix)
    assert ix.text.startswith(f"Every hand in match #{match_id} (only you see this"), ix.text
    look = ix.last
    assert is_v2(look) and not look.get("embeds"), look
    boxes = [c for c in look["components"] if c["type"] == 17]
    assert [texts(b["components"])[0] for b in boxes] == [f"## {a}'s hand", f"## {b}'s hand"], boxes
    assert sorted(ix.files) == ["seat1.png", "seat2.png"]
    assert pictures_of(look) == ["seat1.png", "seat2.png"]
    words = ["\n".join(texts(b["components"])) for b in boxes]
    assert all("Hand (" in w for w in words) and words[0] != words[1], words
    assert not any("press Act" in w for w in words), "the player's own footer, shown to the judge"
    trail = await twin.slash(organiser, "league-admin trail", league=league_id, permissions=ADMIN)
    assert (f"<@{organiser['id']}> looked at the players' hands in match #{match_id} (judge call #1)"
            in trail.text), trail.text
    assert f"{p1} called a judge to match #{match_id} (call #1): {said}" in trail.text, trail.text

    # Act: put the match back 2 moves — P2's move and P1's discard, which drew a card for P2
    ix = await press(twin, organiser, post, f"{call}:act")
    assert_ephemeral(ix)
    assert ix.text == f"Judge call #1, match #{match_id}: pick what to do; you will be asked for the reason.", ix.text
    select = find_component(ix.last, rf"^ja:{league_id}:1$")
    values = {o["value"] for o in select["options"]}
    assert values == {f"rw:{n}" for n in range(1, 6)} | {f"{k}:{s}" for k in ("wa", "gl", "ml") for s in (0, 1)} \
        | {f"tm:{s}:{m}" for s in (0, 1) for m in (5, 15, 60)}, values
    ix = await press(twin, organiser, ix.last, select["custom_id"], values=["rw:2"])
    assert ix.response_type == 9 and ix.modal["custom_id"] == f"jr:{league_id}:1", ix.modal
    [field] = modal_inputs(ix.modal)
    assert field["required"] is True
    reason = f"{p1} discarded by mistake"
    sent = await twin.submit_modal(organiser, ix, {field["custom_id"]: reason})
    assert_ephemeral(sent)
    assert sent.text.startswith("⚠️ Something hidden was revealed since then"), sent.text
    anyway = find_component(sent.last, rf"^jf:{league_id}:1:2$")
    assert anyway is not None and anyway["label"] == "Put back 2 moves anyway"
    rec, states = await match_states(bot.db, match_id)
    assert rec.n_commands == len(played)                 # warned: nothing put back yet
    n_thread = len(twin.posts(thread))
    ix = await press(twin, organiser, sent.last, anyway["custom_id"])
    assert ix.text == "Done. The players have been told.", ix.text
    rewound = f"⚖️ A judge put the match back 2 moves. Reason: {reason}"
    await twin.wait_for(lambda: rewound in message_text(table.board_message(match_id) or {}), what="the rewind")
    await twin.settle(quiet=0.3)
    shown = table.board_message(match_id)
    assert f"<@{users[p1]['id']}>: your turn." in message_text(shown) and pinged(shown) == {users[p1]["id"]}, shown
    assert f"**To act: {p1} (after {len(played) - 2} moves)**" in message_text(shown), message_text(shown)
    rec, states = await match_states(bot.db, match_id)
    assert rec.n_commands == len(played) - 2
    log = await twin.slash(users[p2], "match log", match=match_id, channel_id=thread)
    taken_back = [f"↶ {len(played) - 1 + i}. {name}: {words} — put back by a judge ({reason})"
                  for i, (name, words) in enumerate(played[-2:])]
    assert "Taken back (no longer on the board):\n" + "\n".join(taken_back) in log.text, log.text

    # a game loss for P2: game 1 ends as their loss, the series records it, game 2 is asked for
    ix = await press(twin, organiser, post, f"{call}:act")
    select = find_component(ix.last, rf"^ja:{league_id}:1$")
    [loss] = [o["value"] for o in select["options"] if o["label"] == f"{p2}: game loss"]
    ix = await press(twin, organiser, ix.last, select["custom_id"], values=[loss])
    [field] = modal_inputs(ix.modal)
    sent = await twin.submit_modal(organiser, ix, {field["custom_id"]: "Marked sleeves"})
    assert sent.text == "Done. The players have been told.", sent.text
    choice = f"lgc:{league_id}:{pairing}:2:f"
    prompt = await twin.wait_for(lambda: next((m for m in twin.posts(thread) if find_component(m, rf"^{choice}$")),
                                              None), what="the choice for game 2")
    assert prompt["content"] == (f"Game 2 of 3 ({p1} leads 1–0): <@{users[p2]['id']}>, choose who moves first "
                                 f"(pairing #{pairing})."), prompt["content"]
    final = message_text(table.latest_board(match_id))
    assert f"**{p1} won: a judge's game loss.**" in final, final
    assert final.count("game loss") == 2, f"the game loss is told more than once: {final!r}"   # the line, the result
    assert f"⚖️ A judge gave {p2} a game loss. Reason: Marked sleeves" in final, final
    assert table.board_message(match_id) is None                  # game 1 is over: no buttons
    # the call's game is over: another game loss on it is refused (it would end no game)
    ix = await press(twin, organiser, post, f"{call}:act")
    ix = await press(twin, organiser, ix.last, select["custom_id"], values=[loss])
    sent = await twin.submit_modal(organiser, ix, {modal_inputs(ix.modal)[0]["custom_id"]: "again"})
    assert sent.text.startswith(f"⚠️ Match #{match_id} is over, so a game loss would end no game."), sent.text
    # the judge closes call #1
    ix = await press(twin, organiser, post, f"{call}:close")
    post = twin.message(post["id"])
    assert post["content"].splitlines()[-1] == f"▸ Closed by <@{organiser['id']}>.", post["content"]
    assert not post.get("components"), "a closed call keeps its buttons"
    same = (await twin.slash(users[c], "league standings", league=league_id)).text
    assert same == before, "the pairing is not decided by one game"

    # game 2: P2 chooses to move first; the bot starts it in the same thread
    await twin.click(users[p2], prompt, choice)
    game2 = await twin.wait_for(lambda: newest_board_in(twin, thread, {match_id}), what="game 2")
    await twin.wait_for(lambda: find_component(table.board_message(game2) or {}, rf"^m:{game2}:judge$"),
                        what="game 2's board")

    # from another server: a player, a member and an organiser are all refused, nothing is posted
    other = await twin.join_guild(0, "Other Server")
    elsewhere = other["channel_id"]
    # game 1's animated picture joins its final board when the bot has drawn it (or is posted on
    # its own when the board cannot be edited), which may take a while on a busy machine: waited
    # for first, so that the posts counted below are only what the refusals made
    await twin.wait_for(lambda: any(f"🎞️ Match #{match_id} " in message_text(m) for m in twin.posts()),
                        what="game 1's animated picture")
    posts = len(twin.posts())
    for user in (users[p1], users[c]):
        ix = await twin.slash(user, "match judge", match=game2, channel_id=elsewhere)
        assert ix.response_type != 9 and ix.text.startswith("⚠️"), (ix.response_type, ix.text)
        ix = await twin.slash(user, "match judge", match=game2, what="help", channel_id=elsewhere)
        assert ix.text.startswith("⚠️") and f"#{game2}" in ix.text, ix.text
    ix = await twin.slash(organiser, "league-admin penalties", league=league_id, permissions=ADMIN,
                          channel_id=elsewhere)
    assert_ephemeral(ix)
    assert ix.text.startswith(f"⚠️ League #{league_id} is not a league of this server"), ix.text
    await twin.settle(quiet=0.3)
    assert len(twin.posts()) == posts, [message_text(m) for m in twin.posts()[posts:]]

    # game 2: P1 calls by /match judge; a game loss for P2 decides the pairing 2–0
    posts_before = len(twin.posts(general))
    ix = await twin.slash(users[p1], "match judge", match=game2, what="Opponent looked at my hand", channel_id=thread)
    assert "call #2" in ix.text, ix.text
    post2 = await twin.wait_for(lambda: next((m for m in twin.posts(general)[posts_before:]
                                              if find_component(m, rf"^jc:{league_id}:2:act$")), None),
                                what="call #2's staff post")
    ix = await press(twin, organiser, post2, f"jc:{league_id}:2:act")
    select = find_component(ix.last, rf"^ja:{league_id}:2$")
    [loss] = [o["value"] for o in select["options"] if o["label"] == f"{p2}: game loss"]
    ix = await press(twin, organiser, ix.last, select["custom_id"], values=[loss])
    sent = await twin.submit_modal(organiser, ix, {modal_inputs(ix.modal)[0]["custom_id"]: "Looked at the hand"})
    assert sent.text == "Done. The players have been told.", sent.text
    await twin.wait_for(lambda: any(f"Pairing #{pairing} is decided" in line for line in thread_lines(twin, thread)),
                        what="the pairing decided")
    after = (await twin.slash(users[c], "league standings", league=league_id)).text
    assert after != before
    assert re.search(rf"^1 {p1} +1-0-0 +3 ", after, flags=re.M), after
    assert re.search(rf"^\d+ {p2} +0-1-0 +0 ", after, flags=re.M), after

    # the penalties: every one for the organiser (with the open call), a player's own to them
    ix = await twin.slash(organiser, "league-admin penalties", league=league_id, permissions=ADMIN)
    assert_ephemeral(ix)
    assert "⚖️ Open judge calls in Judge Cup: 1" in ix.text, ix.text
    assert f"Call #2, match #{game2}: waiting for a judge — Opponent looked at my hand" in ix.text, ix.text
    assert "Penalties in Judge Cup: 2" in ix.text, ix.text
    assert f"#1 game loss: {p2} (pairing #{pairing}) — Marked sleeves, by <@{organiser['id']}>" in ix.text, ix.text
    assert f"#2 game loss: {p2} (pairing #{pairing}) — Looked at the hand, by <@{organiser['id']}>" in ix.text
    ix = await twin.slash(users[p2], "league penalties", league=league_id)
    assert_ephemeral(ix)
    assert ix.text.startswith("Your penalties in Judge Cup: 2"), ix.text
    assert "Marked sleeves" in ix.text and "Looked at the hand" in ix.text
    ix = await twin.slash(users[p1], "league penalties", league=league_id)
    assert ix.text.strip() == "Your penalties in Judge Cup: 0", ix.text
    ix = await twin.slash(users[c], "league-admin penalties", league=league_id)
    assert "Only a judge of this server" in ix.text, ix.text

    # the thread, as the players read it, in order
    lines = thread_lines(twin, thread)
    story = [called, rewound, f"⚖️ A judge gave {p2} a game loss. Reason: Marked sleeves",
             f"⚖️ A judge gave {p2} a game loss. Reason: Looked at the hand"]
    assert [lines.index(x) for x in story] == sorted(lines.index(x) for x in story), lines
    assert any(line.startswith(f"⚖️ {organiser['global_name']} has taken judge call #1") for line in lines)
