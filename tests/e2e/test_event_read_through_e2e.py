"""The read-through audit of what an event's organiser and players read (issues 34, 36 and 37),
in a server whose language is Japanese and in one whose language is English: the real
``bot.py`` against the twin.

An event of each game (five players, two Swiss rounds of best of three, a top 2) from sign-up
to its end — check-in (with a deck in the card games), an off-bot result reported and confirmed, one
disputed and decided by the organiser, a game played on the bot and resigned, a drop, the
bracket and standings pictures, the trail, the export, the organiser's guide — then in the
card games the server's own card set (uploaded with a mistake, fixed, listed, paged, compared)
and the server's statistics. Every
version of every message the bot sent and every answer only one reader saw is read the way
``test_read_through_e2e`` reads a match: in Japanese no English words outside backticks and
names (and no command named in English inside them), in English no Japanese, and no bare card or piece id.
"""
from __future__ import annotations

import json
import os
import re
import time

import pytest

from data.i18n import t as tr

from data.csv_export import read_csv

from .checks import assert_every_message_within_limits
from .test_card_sets_e2e import DATA, _edit, _files, _zip
from .test_league_e2e import ADMIN
from .test_tournament_e2e import newest_board_in
from .test_read_through_e2e import ID, MARKUP, language_problems, pieces
from .twin import find_component, message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# an event's games resigned and reported one after another, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

DISCORD_LOCALE = {"en": "en-US", "ja": "ja"}
PAIRING = re.compile(r"^#(\d+)\D")
NAMES = ["Bob", "Carol", "Dave", "Erin", "Fay"]


async def pairings_now(twin, organiser: dict, league_id: int, dl: str) -> list[tuple[int, str, str]]:
    """The pairings to play now: the organiser's /league-admin report autocomplete (its names)."""
    for _ in range(3):
        choices = await twin.autocomplete(organiser, "league-admin report", "pairing", pairing="",
                                          league=league_id, locale=dl)
        out = []
        for c in choices:
            m = PAIRING.match(c["name"])
            who = [n for n in NAMES if n in c["name"]]
            # "#12 round 1: A vs B — to play" / 「#12第1回戦：A対B（未対戦）」
            stated = "—" in c["name"] or c["name"].rstrip().endswith("）")
            if m and len(who) == 2 and stated and not c["name"].rstrip().endswith(("✅", "✔")):
                out.append((int(m.group(1)), *sorted(who, key=c["name"].index)))
        if out:
            return out
        await twin.settle(quiet=0.3)
    return []


def read_everything(twin, locale: str, more: list[str] = ()) -> tuple[list[str], list[str]]:
    """Every line of every version of every message (and ``more``: the exports' rows) read for
    the other language and bare ids: (problems, the lines read)."""
    names = set(NAMES) | {"Alice", "tablebot", "TableBot", "Autumn Open", "Playtest",
                          "standings.csv", "pairings.csv", "decklists.csv"}
    problems, read = [], []
    texts = [text for m in twin.messages.values() for v in m["_versions"] for text in pieces(v)] + list(more)
    for text in texts:
        for line in text.splitlines():
            read.append(line)
            bare = MARKUP.sub(" ", line)
            if ID.findall(bare):
                problems.append(f"id outside backticks: {line[:160]!r}")
            problems += language_problems(line, locale, names)
    return list(dict.fromkeys(problems)), read


CARD_GAMES = ("logic_square", "maken", "art_of_war", "avalon")
# every game in Japanese (where English slips in), Battle Logic Square and SQUARES in English too
CASES = [(g, "ja") for g in ("logic_square", "squares", "maken", "art_of_war", "avalon")] + \
        [("logic_square", "en"), ("squares", "en")]


@pytest.mark.parametrize("game,locale", CASES)
async def test_everything_an_organiser_and_the_players_read_in_an_event(game, locale, table, twin):
    dl = DISCORD_LOCALE[locale]
    organiser = table.alice
    users = {n: twin.user(n) for n in NAMES}
    await twin.slash(organiser, "settings language", value=locale, permissions=ADMIN, locale=dl)

    ix = await twin.slash(organiser, "league-admin create", name="Autumn Open", game=game,
                          format="swiss", rounds=2, cut=2, permissions=ADMIN, locale=dl, guild_locale=dl)
    league_id = int(re.search(r"#(\d+)", ix.text).group(1))
    message = await twin.wait_for(lambda: next((m for m in twin.posts(twin.channel["id"])
                                                if find_component(m, rf"^lg:{league_id}:join$")), None),
                                  what="the league message")
    start = int(time.time()) + 3600
    await twin.slash(organiser, "league-admin settings", league=league_id, best_of=3, start=f"<t:{start}:F>",
                     checkin_minutes=120, permissions=ADMIN, locale=dl)
    for n in NAMES:
        await twin.click(users[n], twin.message(message["id"]), f"lg:{league_id}:join", locale=dl)
    for n in NAMES:
        if game in CARD_GAMES:
            decks = await twin.autocomplete(users[n], "league checkin", "deck", deck="", league=league_id, locale=dl)
            assert decks
            await twin.slash(users[n], "league checkin", deck=decks[0]["value"], league=league_id, locale=dl)
        else:
            await twin.slash(users[n], "league checkin", league=league_id, locale=dl)
    await twin.slash(organiser, "league-admin start", league=league_id, permissions=ADMIN, locale=dl)

    # round 1: one pairing played on the bot (one game resigned, then the rest reported), one
    # reported off the bot and confirmed
    r1 = await pairings_now(twin, organiser, league_id, dl)
    assert len(r1) == 2, r1
    (p1, a1, b1), (p2, a2, b2) = r1
    ix = await twin.slash(users[a1], "league play", league=league_id, locale=dl)
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    await twin.click(users[b1], challenge, f"m:{match_id}:accept", locale=dl)
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="game 1's board")
    await twin.slash(users[b1], "match resign", match=match_id, channel_id=board["channel_id"], locale=dl)
    thread = int(board["channel_id"])
    if game != "squares":     # SQUARES: the previous winner moves second, nobody is asked
        choice = f"lgc:{league_id}:{p1}:2:f"
        prompt = await twin.wait_for(lambda: next((m for m in twin.posts(thread) if find_component(m, rf"^{choice}$")),
                                                  None), what="the choice for game 2")
        await twin.click(users[b1], prompt, choice, locale=dl)
    game2 = await twin.wait_for(lambda: newest_board_in(twin, thread, {match_id}), what="game 2")
    # the organiser decides the pairing while game 2 is on the board: that game is stopped there
    await twin.slash(organiser, "league-admin report", pairing=p1, result="first", league=league_id,
                     permissions=ADMIN, locale=dl)
    await twin.wait_for(lambda: table.board_message(game2) is None, what="game 2's board retired")
    stop = tr("events.report.match_stopped", locale)
    assert any(stop in message_text(m) for m in twin.posts(thread)), [message_text(m) for m in twin.posts(thread)]
    ix = await twin.slash(users[a2], "league report", pairing=p2, result="win", score="2-1", league=league_id,
                          locale=dl)
    ask = await twin.wait_for(lambda: next((m for m in twin.posts() if find_component(m, rf"^lgr:{league_id}:{p2}:c$")),
                                           None), what="the question to the opponent")
    await twin.click(users[b2], ask, f"lgr:{league_id}:{p2}:c", locale=dl)

    # round 2: a dispute decided by the organiser; a drop
    r2 = await pairings_now(twin, organiser, league_id, dl)
    assert len(r2) == 2, r2
    (p3, a3, b3), (p4, a4, b4) = r2
    await twin.slash(users[a3], "league report", pairing=p3, result="win", score="2-0", league=league_id, locale=dl)
    ask = await twin.wait_for(lambda: next((m for m in twin.posts() if find_component(m, rf"^lgr:{league_id}:{p3}:d$")),
                                           None), what="the question to the opponent")
    await twin.click(users[b3], ask, f"lgr:{league_id}:{p3}:d", locale=dl)
    await twin.slash(organiser, "league-admin report", pairing=p3, result="second", league=league_id,
                     permissions=ADMIN, locale=dl)
    await twin.slash(users[a4], "league leave", league=league_id, locale=dl)   # p4 is lost by the drop
    # the final of the top 2
    [(p5, a5, b5)] = [p for p in await pairings_now(twin, organiser, league_id, dl) if p[0] > p4]
    ix = await twin.slash(users[b5], "league report", pairing=p5, result="loss", league=league_id, locale=dl)
    assert str(p5) in ix.text, ix.text
    ask = await twin.wait_for(lambda: next((m for m in twin.posts() if find_component(m, rf"^lgr:{league_id}:{p5}:c$")),
                                           None), what="the final's question")
    await twin.click(users[a5], ask, f"lgr:{league_id}:{p5}:c", locale=dl)
    await twin.settle(quiet=0.5)
    # the end of the event points to its statistics, the command named as the reader's client shows it
    stats_line = tr("leagues.finished_stats", locale, command="")
    [done] = [m for m in twin.posts(twin.channel["id"]) if stats_line in message_text(m)]
    assert f":{league_id}`" in message_text(done), message_text(done)
    for path in ("league standings", "league bracket", "league schedule", "league decklists"):
        ix = await twin.slash(users["Carol"], path, league=league_id, locale=dl)
        if path == "league decklists" and game not in CARD_GAMES:
            assert "⚠️" in ix.text and tr("game.squares", locale) in ix.text, ix.text     # no decks, no lists
    for path in ("league-admin trail", "league-admin decklists", "league-admin export"):
        ix = await twin.slash(organiser, path, league=league_id, permissions=ADMIN, locale=dl)
    # the organiser's spreadsheets read in their language too: every header and cell
    csv_lines = []
    for a in ix.last.get("attachments") or []:
        rows = read_csv(twin.attachment(ix.last, a["filename"]))
        assert len(rows) > 1, a["filename"]
        csv_lines += [f"{a['filename']}: " + " | ".join(str(c) for c in row) for row in rows]

    if game in CARD_GAMES:   # the server's own card set: a mistake, the fix, the list, a page, the comparison
        plan = json.loads((DATA / game / "mistakes.json").read_text(encoding="utf-8"))
        files = _files(game)
        broken = dict(files)
        broken[plan["file"]] = _edit(files[plan["file"]], plan["edits"])
        for body in (broken, files):
            await twin.slash(organiser, "cards upload", game=game, name="Playtest",
                             file=twin.upload("cards.zip", _zip(body)), permissions=ADMIN, locale=dl)
        await twin.slash(users["Bob"], "cards list", game=game, locale=dl)
        await twin.slash(users["Bob"], "cards show", game=game, set="Playtest", locale=dl)
        await twin.slash(users["Bob"], "cards diff", game=game, set="Playtest", locale=dl)
    # the organiser's guide, every page
    ix = await twin.slash(organiser, "help", topic="events", locale=dl)
    for page in range(1, 12):
        nxt = find_component(ix.last or {}, rf"^guide:events:{page}$")
        if nxt is None or nxt.get("disabled"):
            break
        ix = await twin.click(organiser, ix.last, nxt["custom_id"], locale=dl)
    assert page > 3, "the organiser's guide has several pages"
    # the server's statistics and a player's profile
    await twin.slash(users["Bob"], "stats", game=game, locale=dl)
    await twin.slash(users["Bob"], "stats", game=game, league=league_id, locale=dl)
    await twin.slash(users["Bob"], "profile", locale=dl)
    await twin.settle(quiet=1.0)

    problems, read = read_everything(twin, locale, csv_lines)
    if os.environ.get("READ_THROUGH_DUMP"):
        with open(os.environ["READ_THROUGH_DUMP"], "a", encoding="utf-8") as out:
            out.write(f"===== event {game} ({locale})\n" + "\n".join(dict.fromkeys(read)) + "\n")
    assert len(read) > 100
    assert not problems, f"{len(problems)} problems in what they read:\n" + "\n".join(problems[:80])
    assert_every_message_within_limits(twin)
