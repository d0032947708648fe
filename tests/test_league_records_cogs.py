"""Issue 34, first slice, through discord.py's real objects on the fake HTTP layer
(tests/discord_fakes.py): /league standings (every tiebreak of the league's preset in the text,
the standings picture attached, persistent ◀ ▶ pages beyond 16 players), /league-admin trail
(organisers only, newest first, names and Discord timestamps) and /league-admin export (two CSV
files, read back)."""
from __future__ import annotations

import re

import pytest

from discord_fakes import ALL_PERMISSIONS, custom_ids, make_env
from layout_reading import check_layout, click, find_component, is_v2, pictures_of, reply_text

from data.csv_export import read_csv
from data.store import LeagueRecord
from host import leagues as LG

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    e.dave = e.fake.user("Dave")
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


def attachments(env, ix) -> list[tuple[str, bytes]]:
    stored = env.fake.messages[int(ix.last["id"])]
    return [(a["filename"], a["_bytes"]) for a in stored.get("attachments", [])]


async def card_league(env, *, scoring: str | None = None, play: bool = True) -> int:
    """A Battle Logic Square league of Alice, Bob, Carol and Dave (round robin), round 1
    decided by the organiser (first player wins one, the other is a draw) when ``play``."""
    opts = dict(name="Card Cup", game="logic_square", format="rr")
    if scoring:
        opts["scoring"] = scoring
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS, **opts)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    for user in (env.alice, env.bob, env.carol, env.dave):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    if play:
        p1, p2 = LG.round_pairings((await env.store.get_league(league_id)).data)
        for p, result in ((p1, "first"), (p2, "draw")):
            ix = await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=p["id"], result=result,
                                      permissions=ALL_PERMISSIONS)
            assert "recorded" in ix.text, ix.text
    return league_id


# ---------------------------------------------------------------------------- /league standings
async def test_standings_show_every_tiebreak_of_the_preset_and_attach_the_picture(env):
    """/league standings: the table in text has the place, name, W-L-D, points and each tiebreak
    of the league's preset (card: OMW%, GW%, OGW% with 2 decimals), and the standings picture
    is attached; in Japanese the headers are 勝点 and the preset is named."""
    league_id = await card_league(env)
    assert (await env.store.get_league(league_id)).data["scoring"] == "card"
    ix = await env.fake.slash(env.bot, env.bob, "league standings")
    assert ix.ephemeral and ix.files == ["standings.png"]
    assert attachments(env, ix)[0][1][:8] == PNG
    # one layout: the picture in its gallery, the table in words beneath it
    assert is_v2(ix.last) and not ix.last["content"] and not ix.last["embeds"]
    assert pictures_of(ix.last) == ["standings.png"]
    assert check_layout(ix.last["components"], {"standings.png"}) == []
    text = reply_text(ix)
    lines = text.splitlines()
    assert lines[0].startswith(f"### League #{league_id} Card Cup")
    header = next(ln for ln in lines if ln.lstrip().startswith("# "))
    assert header.split() == ["#", "Player", "W-L-D", "Pts", "OMW%", "GW%", "OGW%"]
    rows = [ln for ln in lines if re.match(r"^\s*\d+ ", ln)]
    assert len(rows) == 4
    winner = next(r for r in rows if r.split()[0] == "1")
    assert winner.split()[-5:] == ["1-0-0", "3", "33.00", "100.00", "33.00"], winner
    assert all(re.fullmatch(r"\d+\.\d\d", x) for r in rows for x in r.split()[-3:]), rows
    assert "Scoring: card games (match points 3/1/0" in text and "OMW% = the opponents' average match-win %" in text
    ix = await env.fake.slash(env.bot, env.bob, "league standings", locale="ja")
    assert "勝点" in reply_text(ix) and "順位決定方式：カードゲーム式（勝点3・1・0" in reply_text(ix)
    assert ix.files == ["standings.png"]


async def test_a_chess_league_keeps_its_columns_and_the_league_button_shows_the_picture_too(env):
    """A SQUARES league scores chess (Bu, SB, HH), and the league message's Standings button
    answers like /league standings, picture included."""
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Chess Cup", game="squares", format="swiss")
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    await env.fake.slash(env.bot, env.bob, "league join")
    post = next(m for m in reversed(env.fake.posts(env.fake.channel["id"]))
                if f"lg:{league_id}:standings" in custom_ids(m))
    ix = await env.fake.click(env.bot, env.carol, post, f"lg:{league_id}:standings")
    assert ix.files == ["standings.png"] and pictures_of(ix.last) == ["standings.png"]
    header = next(ln for ln in reply_text(ix).splitlines() if ln.lstrip().startswith("# "))
    assert header.split()[-3:] == ["Bu", "SB", "HH"] and "Buchholz" in reply_text(ix)


async def test_standings_beyond_16_players_page_the_picture_with_persistent_buttons(env):
    """More than 16 players: ◀ ▶ under the answer (custom ids carry the league and the page);
    ▶ edits the answer in place with page 2 of the picture, also after a restart."""
    d = LG.new_league(name="Big", game="maken", fmt="swiss", rounds=3, deadline_hours=0, rated=True,
                      signup_hours=None, organiser=1, channel_id=None, season=1, now=0.0)
    for i in range(20):
        LG.join(d, "signup", 100 + i, f"player{i}", 0.0)
    LG.start(d, "signup", 0.0)
    lg = await env.store.create_league(LeagueRecord(guild_id=env.fake.guild_id, status="running", data=d))
    ix = await env.fake.slash(env.bot, env.bob, "league standings", league=lg.id)
    first = ix.last
    assert find_component(first, rf"^lgs:{lg.id}:0$")["disabled"], "no page before the first"
    assert not find_component(first, rf"^lgs:{lg.id}:1$")["disabled"]
    # the words are the shown page's: players 1-16 of the picture, the rest summed up
    rows = [ln for ln in reply_text(ix).splitlines() if re.match(r"^\s*\d+ ", ln)]
    assert len(rows) == 16 and "… and 4 more" in reply_text(ix) and "Page 1/2" in reply_text(ix)
    await env.restart()
    ix = await click(env.fake, env.bot, env.bob, first, f"lgs:{lg.id}:1")
    page2 = ix.last
    assert page2["id"] == first["id"], "the answer is edited in place"
    assert [a["filename"] for a in page2["attachments"]] == ["standings.png"]
    assert pictures_of(page2) == ["standings.png"]
    assert env.fake.messages[int(page2["id"])]["attachments"][0]["_bytes"][:8] == PNG
    assert find_component(page2, rf"^lgs:{lg.id}:1$")["disabled"], "no page after the last"
    assert not find_component(page2, rf"^lgs:{lg.id}:0$")["disabled"]
    rows = [ln for ln in reply_text(ix).splitlines() if re.match(r"^\s*\d+ ", ln)]
    assert len(rows) == 4 and "Page 2/2" in reply_text(ix), "page 2 in words: the last four players"


async def test_an_answer_given_before_the_standings_were_a_layout_becomes_one_when_its_page_turns(env):
    """A standings answer sent as text and a picture (before the layouts) keeps working: ▶ edits
    it into a layout, clearing its content in the same edit."""
    d = LG.new_league(name="Old", game="maken", fmt="swiss", rounds=3, deadline_hours=0, rated=True,
                      signup_hours=None, organiser=1, channel_id=None, season=1, now=0.0)
    for i in range(20):
        LG.join(d, "signup", 100 + i, f"player{i}", 0.0)
    LG.start(d, "signup", 0.0)
    lg = await env.store.create_league(LeagueRecord(guild_id=env.fake.guild_id, status="running", data=d))
    old = env.fake._message(int(env.fake.channel["id"]), {
        "content": f"League #{lg.id} Old — the table", "flags": 64,
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "◀", "custom_id": f"lgs:{lg.id}:0", "disabled": True},
            {"type": 2, "style": 2, "label": "▶", "custom_id": f"lgs:{lg.id}:1"}]}]},
        [("standings.png", PNG)], via="interaction")
    ix = await click(env.fake, env.bot, env.bob, old, f"lgs:{lg.id}:1")
    now = env.fake.messages[int(old["id"])]
    assert ix.last["id"] == old["id"] and is_v2(now) and now["content"] == "" and now["embeds"] == []
    assert pictures_of(now) == ["standings.png"] and "player" in reply_text(ix)
    edit = next(r for r in reversed(env.fake.requests) if r.method == "POST" and r.path.endswith("/callback"))
    assert edit.json["data"]["content"] is None and edit.json["data"]["embeds"] == []


# ---------------------------------------------------------------------------- /league-admin trail
async def test_the_trail_is_for_organisers_newest_first_in_words_with_timestamps_and_pages(env):
    """/league-admin trail: an organiser reads every change newest first, ten to a page, in
    words with players' names (never ids) and Discord timestamps; page 2 holds the oldest;
    a member is refused in their language."""
    league_id = await card_league(env)
    lg = await env.store.get_league(league_id)
    mine = next(p for p in LG.round_pairings(lg.data) if uid(env.bob) in (p["a"], p["b"]))
    ix = await env.fake.slash(env.bot, env.bob, "league report", pairing=mine["id"], result="win")
    assert "it counts once they do" in ix.text
    first = LG.round_pairings(lg.data, 1)[0]
    await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=first["id"], result="second",
                         permissions=ALL_PERMISSIONS)
    assert len((await env.store.get_league(league_id)).data["trail"]) == 11
    ix = await env.fake.slash(env.bot, env.alice, "league-admin trail", permissions=ALL_PERMISSIONS)
    text = ix.text
    assert ix.ephemeral and f"Trail of league #{league_id} Card Cup, newest first (page 1/2)" in text
    lines = [ln for ln in text.splitlines() if ln.startswith("<t:")]
    assert len(lines) == 10 and all(re.match(r"<t:\d+:f> ", ln) for ln in lines)
    assert lines[0].endswith(" won") and f"Alice changed the result of pairing #{first['id']}" in lines[0], lines[0]
    assert f"Bob reported pairing #{mine['id']}" in lines[1] and lines[1].endswith("Bob won"), lines[1]
    assert "Alice started the league (4 players, rounds: 3)" in text
    for user in (env.alice, env.bob, env.carol, env.dave):
        assert str(uid(user)) not in text, "names, not ids"
    assert "`/league-admin trail page:2`" in text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin trail", page=2, permissions=ALL_PERMISSIONS)
    assert "(page 2/2)" in ix.text and ix.text.rstrip().endswith("Alice signed up")
    ix = await env.fake.slash(env.bot, env.bob, "league-admin trail")
    assert "Only organisers" in ix.text and "Trail" not in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league-admin trail", locale="ja")
    assert "主催者" in ix.text and "だけです" in ix.text and "変更履歴" not in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin trail", locale="ja", permissions=ALL_PERMISSIONS)
    assert "の変更履歴（新しい順、1/2ページ）" in ix.text and "Aliceが大会を開始（参加者4人、全3回戦）" in ix.text


# ---------------------------------------------------------------------------- /league-admin export
async def test_export_attaches_standings_and_pairings_as_csv_files_for_organisers_only(env):
    """/league-admin export: two CSV attachments, standings.csv and pairings.csv, with headers
    in the organiser's language; read back they hold the table and every pairing; a member is
    refused."""
    league_id = await card_league(env)
    ix = await env.fake.slash(env.bot, env.alice, "league-admin export", permissions=ALL_PERMISSIONS)
    assert ix.ephemeral and ix.files == ["standings.csv", "pairings.csv", "decklists.csv"]   # decklists: issue 34
    files = dict(attachments(env, ix))
    standings = read_csv(files["standings.csv"])
    assert standings[0] == ["Place", "Player", "Status", "Wins", "Losses", "Draws", "Byes", "Points",
                            "OMW%", "GW%", "OGW%"]
    assert sorted(r[1] for r in standings[1:]) == ["Alice", "Bob", "Carol", "Dave"]
    assert standings[1][0] == "1" and standings[1][3] == "1" and standings[1][7] == "3"
    pairings = read_csv(files["pairings.csv"])
    lg = await env.store.get_league(league_id)
    assert len(pairings) == 1 + len(lg.data["pairings"])
    decided = [r for r in pairings[1:] if r[0] == "1"]
    assert {r[5] for r in decided} == {"organiser"} and "draw" in {r[4] for r in decided}
    assert any(r[4].endswith(" won") for r in decided)
    assert [r[4] for r in pairings[1:] if r[0] == "2"] == ["to play", "to play"]
    ix = await env.fake.slash(env.bot, env.alice, "league-admin export", locale="ja", permissions=ALL_PERMISSIONS)
    assert read_csv(dict(attachments(env, ix))["pairings.csv"])[0][:3] == ["回戦", "組番号", "一人目"]
    ix = await env.fake.slash(env.bot, env.bob, "league-admin export")
    assert "Only organisers" in ix.text and ix.files == []
