"""Issue 34, second slice, through discord.py's real objects on the fake HTTP layer
(tests/discord_fakes.py): /league-admin create with the cut, seeding and reset options,
/league bracket (a PNG page, ephemeral unless public, persistent ◀ ▶ pages), the bracket
picture posted in the league's channel when the bracket starts and edited or replaced as
results come, every elimination pairing announced to its two players, draws refused, and an
organiser's correction that voids a later pairing told in the reply."""
from __future__ import annotations

import re

import pytest

from discord_fakes import ALL_PERMISSIONS, make_env
from layout_reading import check_layout, click, find_component, is_v2, message_text, pictures_of, reply_text

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


async def create(env, **options) -> tuple[int, str]:
    opts = dict(name="Cup", game="squares")
    opts.update(options)
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS, **opts)
    m = re.search(r"League #(\d+)", ix.text)
    return (int(m.group(1)) if m else 0), ix.text


async def four_players(env, league_id: int) -> None:
    for user in (env.alice, env.bob, env.carol, env.dave):
        await env.fake.slash(env.bot, user, "league join", league=league_id)


def bracket_posts(env) -> list[dict]:
    return [m for m in env.fake.posts(env.fake.channel["id"])
            if any(a["filename"].startswith("bracket-") for a in m.get("attachments", []))]


async def decide(env, pairing: int, result: str = "first") -> str:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=pairing, result=result,
                              permissions=ALL_PERMISSIONS)
    return ix.text


async def data(env, league_id: int) -> dict:
    return (await env.store.get_league(league_id)).data


# ---------------------------------------------------------------------------- create
async def test_create_takes_the_cut_seeding_and_reset_options(env):
    """"/league-admin create gets options cut (choices none/2/4/8) and seeding (for
    single/double: rating … or random), reset (bool, for double). Localized choice names and
    descriptions"; a cut on an elimination event is refused in words."""
    league_id, _ = await create(env, format="swiss", cut=4, seeding="random")
    d = await data(env, league_id)
    assert (d["format"], d["cut"], d["seeding"], d["events"]) == ("swiss", 4, "random", 1)
    league_id, _ = await create(env, format="double", reset=False)
    d = await data(env, league_id)
    assert (d["format"], d["reset"], d["cut"], d["seeding"]) == ("double", False, None, "rating")
    _, text = await create(env, format="single", cut=8)
    assert "⚠️" in text and "single and double elimination are a bracket from the start" in text
    # the options are localized
    from bot import dump_commands

    admin = next(c for c in await dump_commands() if c["name"] == "league-admin")
    made = next(o for o in admin["options"] if o["name"] == "create")
    opts = {o["name"]: o for o in made["options"]}
    assert [c["value"] for c in opts["cut"]["choices"]] == [0, 2, 4, 8]
    assert [c["name_localizations"]["ja"] for c in opts["cut"]["choices"]] == ["なし", "上位2名", "上位4名", "上位8名"]
    assert opts["cut"]["name_localizations"]["ja"] == "決勝トーナメント"
    assert {c["value"] for c in opts["seeding"]["choices"]} == {"rating", "random"}
    assert opts["reset"]["type"] == 5 and "再戦（リセット）" in opts["reset"]["description_localizations"]["ja"]
    formats = {c["value"]: c["name_localizations"]["ja"] for c in opts["format"]["choices"]}
    assert formats["single"] == "シングルエリミネーション" and formats["double"] == "ダブルエリミネーション"


# ---------------------------------------------------------------------------- /league bracket
async def test_league_bracket_answers_with_a_png_only_to_the_caller_unless_public(env):
    """"/league bracket [league] [page] (anyone; ephemeral unless public:true, like other record
    commands) answers with the picture page(s)"; before a bracket exists it says why."""
    league_id, _ = await create(env, format="single")
    await four_players(env, league_id)
    ix = await env.fake.slash(env.bot, env.bob, "league bracket")
    assert "has no bracket yet" in ix.text and ix.ephemeral
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    ix = await env.fake.slash(env.bot, env.bob, "league bracket")
    assert ix.ephemeral and ix.files == ["bracket.png"] and pictures_of(ix.last) == ["bracket.png"]
    stored = env.fake.messages[int(ix.last["id"])]
    assert stored["attachments"][0]["_bytes"][:8] == PNG
    assert is_v2(stored) and check_layout(stored["components"], {"bracket.png"}) == []
    text = reply_text(ix)
    assert f"League #{league_id} Cup, single elimination: the bracket after round 1" in text
    assert "still in:" in text
    # who plays whom, in words under the picture: both semifinals, each by its two players
    semis = [p for p in (await data(env, league_id))["pairings"] if p.get("bracket")]
    names = {p["id"]: p["name"] for p in (await data(env, league_id))["players"]}
    line = next(ln for ln in text.splitlines() if ln.startswith("**Semifinals**: "))
    for p in semis:
        assert f"{names[p['a']]} vs {names[p['b']]}" in line or f"{names[p['b']]} vs {names[p['a']]}" in line, line
    ix = await env.fake.slash(env.bot, env.carol, "league bracket", public=True, locale="ja")
    assert not ix.ephemeral and ix.files == ["bracket.png"] and "トーナメント表" in reply_text(ix)
    assert "**準決勝**：" in reply_text(ix)


async def test_a_bracket_of_several_pages_turns_them_with_persistent_buttons(env):
    """"◀ ▶ persistent buttons when more than one page": a 16-player double elimination is
    drawn on two pages; ▶ edits the answer in place with page 2, also after a restart."""
    d = LG.new_league(name="Big", game="maken", fmt="double", rounds=None, deadline_hours=0, rated=True,
                      signup_hours=None, organiser=1, channel_id=None, season=1, now=0.0)
    for i in range(16):
        LG.join(d, "signup", 100 + i, f"player{i}", 0.0)
    LG.start(d, "signup", 0.0, key=1)
    lg = await env.store.create_league(LeagueRecord(guild_id=env.fake.guild_id, status="running", data=d))
    ix = await env.fake.slash(env.bot, env.bob, "league bracket", league=lg.id)
    first = ix.last
    assert find_component(first, rf"^lgb:{lg.id}:0$")["disabled"]
    assert not find_component(first, rf"^lgb:{lg.id}:1$")["disabled"]
    assert "Page 1/" in reply_text(ix)
    await env.restart()
    ix = await click(env.fake, env.bot, env.bob, first, f"lgb:{lg.id}:1")
    page2 = ix.last
    assert page2["id"] == first["id"] and "Page 2/" in message_text(page2)
    assert env.fake.messages[int(page2["id"])]["attachments"][0]["_bytes"][:8] == PNG
    assert not find_component(page2, rf"^lgb:{lg.id}:0$")["disabled"]
    # 16 players: the first round's eight matches in words, each a pair of players
    first_round = next(ln for ln in message_text(page2).splitlines() if ln.startswith("**Winners' round 1**: "))
    assert first_round.count(" vs ") == 8, first_round


# ---------------------------------------------------------------------------- the picture in the channel
async def test_the_bracket_is_posted_when_the_cut_starts_and_edited_or_replaced_as_results_come(env):
    """"posted in the league's channel when the bracket starts and brought up to date as results
    arrive: edit the bracket message(s) in place while the round is the same, a new message when
    the round changes …, the old one kept with its words"; "every new elimination pairing is
    announced in the league channel pinging its two players with how to start the match
    (/league play)"; the event finishes with its champion."""
    league_id, _ = await create(env, format="swiss", rounds=1, cut=4)
    await four_players(env, league_id)
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    for p in LG.round_pairings(await data(env, league_id)):
        await decide(env, p["id"])
    d = await data(env, league_id)
    assert d["bracket"]["stage"] == "cut" and d["round"] == 2
    [post] = bracket_posts(env)
    assert [a["filename"] for a in post["attachments"]] == ["bracket-1.png"]
    assert is_v2(post) and not post["content"] and pictures_of(post) == ["bracket-1.png"]
    assert "top 4: the bracket after round 2" in message_text(post)
    assert "**Semifinals**: " in message_text(post) and message_text(post).count(" vs ") == 2
    semis = [p for p in d["pairings"] if p.get("stage") == "cut"]
    [told] = [m for m in env.fake.posts(env.fake.channel["id"]) if "new matches are paired" in m["content"]]
    assert "/league play" in told["content"] and "Semifinals" in told["content"]
    pinged = sorted(str(u) for u in told["_allowed_mentions"]["users"])
    assert pinged == sorted(str(u) for p in semis for u in (p["a"], p["b"]))
    # the first semifinal: same round, the message is edited in place
    old_png = post["attachments"][0]["_bytes"]
    await decide(env, semis[0]["id"])
    [same] = bracket_posts(env)
    assert same["id"] == post["id"] and same["attachments"][0]["_bytes"] != old_png
    names = {p["id"]: p["name"] for p in (await data(env, league_id))["players"]}
    assert f"{names[semis[0]['a']]} beat {names[semis[0]['b']]}" in message_text(same), message_text(same)
    # the second: the final is paired in round 3, a new message; the old one keeps its words
    await decide(env, semis[1]["id"])
    old, new = bracket_posts(env)
    assert old["id"] == post["id"] and "after round 2" in message_text(old)
    assert "after round 3" in message_text(new)
    assert any("Final" in m["content"] and "/league play" in m["content"] for m in env.fake.posts(env.fake.channel["id"]))
    final = next(p for p in (await data(env, league_id))["pairings"] if p.get("bracket") == "W2-1")
    await decide(env, final["id"], "second")
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished"
    names = {p["id"]: p["name"] for p in lg.data["players"]}
    champion = names[final["b"]]
    old, new = bracket_posts(env)
    assert f"the final bracket. Champion: {champion}" in message_text(new)
    # the end of the event: one layout, the champion, the final standings' picture and its table
    done = [m for m in env.fake.posts(env.fake.channel["id"]) if "is finished" in message_text(m)]
    assert done and f"Champion: {champion}" in message_text(done[-1])
    assert is_v2(done[-1]) and pictures_of(done[-1]) == ["standings.png"]
    assert check_layout(done[-1]["components"], {"standings.png"}) == []
    assert re.search(rf"^\s*1 {champion}\b", message_text(done[-1]), re.M), message_text(done[-1])
    ix = await env.fake.slash(env.bot, env.bob, "league standings")
    rows = [ln for ln in reply_text(ix).splitlines() if re.match(r"^\s*1 ", ln)]
    assert champion in rows[0] and "#1:" in reply_text(ix)


async def test_draws_are_refused_in_elimination_and_a_correction_tells_the_voided_pairings(env):
    """"Players' reports of "draw" are refused with a localized error in elimination; an
    organiser's draw too"; "an organiser's override of an elimination result recomputes the
    bracket … tell the organiser in the reply and drop those pairings' results"."""
    league_id, _ = await create(env, format="single")
    await four_players(env, league_id)
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    d = await data(env, league_id)
    s1, s2 = LG.round_pairings(d)
    users = {uid(u): u for u in (env.alice, env.bob, env.carol, env.dave)}
    ix = await env.fake.slash(env.bot, users[s1["a"]], "league report", pairing=s1["id"], result="draw")
    assert "cannot end in a draw" in ix.text
    ix = await env.fake.slash(env.bot, users[s1["a"]], "league report", pairing=s1["id"], result="draw", locale="ja")
    assert "引き分けにはできません" in ix.text
    assert "cannot end in a draw" in await decide(env, s1["id"], "draw")
    await decide(env, s1["id"])
    await decide(env, s2["id"])
    final = next(p for p in (await data(env, league_id))["pairings"] if p.get("bracket") == "W2-1")
    text = await decide(env, s1["id"], "second")
    assert f"pairings #{final['id']} no longer fit" in text
    d = await data(env, league_id)
    again = next(p for p in d["pairings"] if p.get("bracket") == "W2-1")
    assert again["id"] != final["id"] and again["a"] == s1["b"]
    assert [p["id"] for p in d["bracket"]["void"]] == [final["id"]]


async def test_a_drawn_bot_match_in_elimination_is_announced_to_be_played_again(env):
    """"A drawn bot match is played again (a new match for the same pairing: the players start
    it again with /league play)": the pairing stays open, both players are pinged once, and the
    same match reported again (the clock's catch-up) changes nothing."""
    from dataclasses import replace

    from data.store import FINISHED, MatchRecord

    league_id, _ = await create(env, format="single")
    await four_players(env, league_id)
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    lg = await env.store.get_league(league_id)
    d = lg.data
    p = LG.round_pairings(d)[0]
    p["match"] = 777
    await env.store.update_league(replace(lg, data=d), lg.version)
    rec = MatchRecord(game="squares", seed=1, seats=[p["a"], p["b"]], names=["A", "B"], creator=p["a"],
                      status=FINISHED, id=777, result={"winners": []},
                      meta={"league": league_id, "pairing": p["id"]})
    cog = env.bot.get_cog("Leagues")
    for _ in range(2):
        await cog._on_match_finished(rec)
    told = [m for m in env.fake.posts(env.fake.channel["id"]) if "was drawn" in m["content"]]
    assert len(told) == 1 and "Play it again with /league play" in told[0]["content"]
    assert sorted(str(u) for u in told[0]["_allowed_mentions"]["users"]) == sorted([str(p["a"]), str(p["b"])])
    q = LG.pairing(await data(env, league_id), p["id"])
    assert q["result"] is None and q["drawn"] == [777]


# ---------------------------------------------------------------------------- the bracket in words
def _elimination(n: int, name: str) -> dict:
    d = LG.new_league(name="Open", game="squares", fmt="single", rounds=None, deadline_hours=0, rated=True,
                      signup_hours=None, organiser=1, channel_id=None, season=1, now=0.0)
    for i in range(n):
        LG.join(d, "signup", 100 + i, name.format(i=i), 0.0)
    LG.start(d, "signup", 0.0, key=1)
    return d


def test_the_bracket_in_words_stays_brief_on_any_bracket():
    """"its words as text (no text only in the picture …), briefly — within 4,000 characters":
    the decided rounds of a 32-player bracket give way to the newest, one line saying how many
    are left to the picture; a first round of 128 long names shows its first matches; the
    answer built of them is a layout Discord takes."""
    from cogs.league_bracket import WORDS_MAX, answer_layout, bracket_lines

    d = _elimination(32, "player {i}")
    for _ in range(3):                  # rounds 1-3 decided: the first player wins each
        for p in [p for p in d["pairings"] if p["result"] is None]:
            LG.report(d, "running", p["id"], 1, "a", True)
        LG.advance(d, 0.0)
    lg = LeagueRecord(guild_id=1, status="running", data=d, id=9)
    full = bracket_lines(lg, "en", budget=10_000)
    assert [ln.split("**")[1] for ln in full] == ["Round 1", "Round 2", "Quarterfinals", "Semifinals"]
    short = bracket_lines(lg, "en", budget=600)
    assert sum(len(x) + 1 for x in short) <= 600
    assert short[0].startswith("… and ") and "earlier round" in short[0] and short[-1] == full[-1]
    assert " beat " in "\n".join(full) and " vs " in full[-1]

    big = LeagueRecord(guild_id=1, status="running", data=_elimination(128, "a rather long player name {i}"), id=10)
    [first] = bracket_lines(big, "en")
    assert len(first) <= WORDS_MAX and first.startswith("**Round 1**: a rather long player name") and first.endswith("…")
    view = answer_layout(big, "ja", 0, 1)
    assert check_layout(view.to_components(), {"bracket.png"}) == [] and view.content_length() <= 4000
