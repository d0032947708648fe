"""Issue 14, "Command tree": organiser commands in /league-admin, /match in a match's own
thread means that match (finished or not), /profile and /leaderboard public:true, exact ties
share a place, option descriptions that say what the option does, and /play options
suggestions from the chosen game's option schema.  Driven through the real cogs on the fake
Discord HTTP layer (tests/discord_fakes.py)."""
from __future__ import annotations

import re

import pytest

from discord_fakes import ALL_PERMISSIONS, make_env
from layout_reading import reply_text

from data import i18n
from data.store import RatingRow
from host.records import PER_PAGE, Records

ORGANISER_SUBCOMMANDS = {"create", "start", "next-round", "forfeit", "remove", "close", "season", "role", "report",
                         "trail", "export",
                         "settings", "checkin", "decklists",    # issue 34: registration (cogs/league_event.py)
                         "extend",                              # issue 34: best-of-N time limits (cogs/league_series.py)
                         "penalties"}                           # judge calls (cogs/league_judge.py)
MEMBER_SUBCOMMANDS = {"join", "leave", "standings", "schedule", "play", "report", "claim", "bracket",
                      "checkin", "decklists",                   # issue 34: registration (cogs/league_event.py)
                      "penalties"}                              # a player's own (cogs/league_judge.py)
MANAGE_GUILD = 1 << 5


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    e.dave = e.fake.user("Dave")
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


@pytest.fixture(scope="module")
def payload() -> list[dict]:
    import asyncio

    from bot import dump_commands

    return asyncio.run(dump_commands())


def _command(payload: list[dict], name: str) -> dict:
    return next(c for c in payload if c["name"] == name)


def _subs(command: dict) -> dict[str, dict]:
    return {o["name"]: o for o in command.get("options") or [] if o["type"] == 1}


# ---------------------------------------------------------------------------- 1. /league-admin
def test_league_holds_only_member_commands_and_league_admin_the_organiser_ones(payload):
    league, admin = _command(payload, "league"), _command(payload, "league-admin")
    assert set(_subs(league)) == MEMBER_SUBCOMMANDS
    assert set(_subs(admin)) == ORGANISER_SUBCOMMANDS
    # members do not see /league-admin: default member permissions Manage Server, servers only
    assert int(admin["default_member_permissions"]) == MANAGE_GUILD
    assert league["default_member_permissions"] is None
    assert admin.get("contexts") == [0] or admin.get("dm_permission") is False
    assert admin["name_localizations"]["ja"] == "リーグ管理"
    assert league["name_localizations"]["ja"] == "リーグ"
    # a member's report offers their own result only; the organiser's says first/second player
    mine = {o["name"]: o for o in _subs(league)["report"]["options"]}["result"]
    theirs = {o["name"]: o for o in _subs(admin)["report"]["options"]}["result"]
    assert [c["value"] for c in mine["choices"]] == ["win", "loss", "draw"]
    assert {"first", "second", "draw"} <= {c["value"] for c in theirs["choices"]}


async def _league(env, *players) -> int:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="squares", format="rr")
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    for user in players:
        await env.fake.slash(env.bot, user, "league join")
    return league_id


async def test_organiser_commands_work_from_league_admin_and_members_are_refused(env):
    ix = await env.fake.slash(env.bot, env.bob, "league-admin create", name="x", game="squares", format="rr")
    assert "Only organisers" in ix.text and "/league-admin role" in ix.text
    league_id = await _league(env, env.bob, env.carol)
    ix = await env.fake.slash(env.bot, env.bob, "league-admin start")
    assert "Only organisers" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    assert "round" in ix.text.lower(), ix.text
    lg = await env.store.get_league(league_id)
    assert lg.status == "running"
    [p] = [p for p in lg.data["pairings"] if p["b"] is not None]
    # /league report is a player's own: an organiser who is not in the pairing is told to use
    # /league-admin report, which decides the pairing at once
    ix = await env.fake.slash(env.bot, env.alice, "league report", pairing=p["id"], result="draw",
                              permissions=ALL_PERMISSIONS)
    assert "is not yours" in ix.text and "/league-admin report" in ix.text
    assert (await env.store.get_league(league_id)).version == lg.version
    ix = await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=p["id"], result="first",
                              permissions=ALL_PERMISSIONS)
    assert "recorded" in ix.text, ix.text
    assert (await env.store.get_league(league_id)).data["pairings"][p["id"] - 1]["result"] == "a"


async def test_league_admin_role_says_how_to_give_the_role_access(env):
    role_id = env.fake.snowflake()
    role = {"id": str(role_id), "name": "TO", "color": 0, "hoist": False, "position": 1,
            "permissions": "0", "managed": False, "mentionable": False, "flags": 0}
    for locale, needle in (("en-US", "Server Settings → Integrations"), ("ja", "連携サービス")):
        data = env.fake._command_data(env.bot, "league-admin role", {}, None)
        data["options"][0]["options"] = [{"name": "role", "type": 8, "value": str(role_id)}]
        data["resolved"] = {"roles": {str(role_id): role}}
        payload = env.fake.interaction_payload(2, env.alice, data, permissions=ALL_PERMISSIONS, locale=locale)
        ix = await env.fake.dispatch(env.bot, payload)
        assert needle in ix.text and f"<@&{role_id}>" in ix.text, ix.text
    # the role's members may organise (the command checks it itself)
    data = env.fake._command_data(env.bot, "league-admin create", {"name": "R", "game": "squares", "format": "rr"}, None)
    payload = env.fake.interaction_payload(2, env.bob, data)
    payload["member"]["roles"] = [str(role_id)]
    ix = await env.fake.dispatch(env.bot, payload)
    assert "League #1" in ix.text and "/league-admin start" in ix.text, ix.text


def test_league_texts_name_the_organiser_commands_where_they_are():
    for locale, old, new in (("en", "/league ", "/league-admin "), ("ja", "/リーグ ", "/リーグ管理 ")):
        cat = i18n.catalog(locale)
        organiser = {"create", "start", "next-round", "forfeit", "remove", "close", "season", "role"}
        names = {cat.get(f"cmd.league.{n.replace('-', '_')}.name", n) if locale == "ja" else n for n in organiser}
        for key, text in cat.items():
            if not key.startswith(("leagues.", "authority.")):
                continue
            for name in names:
                assert f"{old}{name}" not in text, (locale, key, name)
        named = {name for name in names for text in cat.values() if f"{new}{name}" in text}
        assert {"create", "start"} <= {n for n in organiser
                                       if (cat.get(f"cmd.league.{n}.name", n) if locale == "ja" else n) in named}, named


# ---------------------------------------------------------------------------- 2. /match in its thread
async def _finished_in_thread(env) -> tuple[int, int]:
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    legal = await env.host.legal(match_id, uid(env.alice))
    await env.fake.slash(env.bot, env.alice, "move", command=legal[0], channel_id=thread_id)
    await env.fake.slash(env.bot, env.bob, "match resign", channel_id=thread_id)
    assert (await env.match(match_id)).status == "finished"
    return match_id, thread_id


async def test_match_log_in_a_finished_matchs_thread_answers_with_that_matchs_log(env):
    match_id, thread_id = await _finished_in_thread(env)
    for user in (env.alice, env.carol):        # a player, and a spectator of the thread
        ix = await env.fake.slash(env.bot, user, "match log", channel_id=thread_id)
        assert "Which match" not in ix.text and f"#{match_id}" in ix.text, ix.text
        assert "Alice:" in ix.text, ix.text
        ix = await env.fake.slash(env.bot, user, "match status", channel_id=thread_id)
        assert "Which match" not in ix.text and ix.ephemeral
    ix = await env.fake.slash(env.bot, env.alice, "match hand", channel_id=thread_id)
    assert "Which match" not in ix.text
    # a rematch without a number, from the finished match's thread, is of that match
    ix = await env.fake.slash(env.bot, env.bob, "match rematch", channel_id=thread_id)
    assert "Which match" not in ix.text and "⚠️" not in ix.text, ix.text
    # elsewhere, with no running match, there is still nothing to guess
    ix = await env.fake.slash(env.bot, env.carol, "match log")
    assert "⚠️" in ix.text


# ---------------------------------------------------------------------------- 3. public:true
async def _finish(env, winner: dict, loser: dict) -> int:
    ix = await env.play(winner, game="squares", opponent=loser, options="first=1")
    assert "#" in ix.text, ix.text
    match_id = max(m.id for m in await env.store.matches_for_user(uid(winner)))
    await env.fake.click(env.bot, loser, await env.board(match_id), f"m:{match_id}:accept")
    await env.fake.slash(env.bot, loser, "match resign", match=match_id)
    assert (await env.match(match_id)).status == "finished"
    return match_id


async def test_profile_and_leaderboard_can_be_posted_publicly(env):
    await _finish(env, env.alice, env.bob)
    ix = await env.fake.slash(env.bot, env.carol, "profile", player=env.alice)
    assert ix.ephemeral and "Records of Alice" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "profile", player=env.alice, public=True)
    assert not ix.ephemeral and "Records of Alice" in ix.text
    ix = await env.fake.slash(env.bot, env.dave, "profile", public=True)       # nothing played yet
    assert not ix.ephemeral and "No finished matches yet" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares")
    assert ix.ephemeral
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares", public=True)
    assert not ix.ephemeral and f"<@{env.alice['id']}>" in ix.text


def test_profile_and_leaderboard_have_a_localized_public_option(payload):
    for name in ("profile", "leaderboard"):
        opts = {o["name"]: o for o in _command(payload, name)["options"]}
        assert opts["public"]["type"] == 5 and not opts["public"].get("required")
        assert opts["public"]["name_localizations"]["ja"] == "公開"


# ---------------------------------------------------------------------------- 4. shared places
async def test_exactly_tied_league_players_share_a_place_in_the_standings(env):
    league_id = await _league(env, env.alice, env.bob, env.carol, env.dave)
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    for _ in range(6):
        lg = await env.store.get_league(league_id)
        if lg.status != "running":
            break
        for p in lg.data["pairings"]:
            if p["round"] == lg.data["round"] and p["result"] is None:
                await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=p["id"], result="draw",
                                     permissions=ALL_PERMISSIONS)
    assert (await env.store.get_league(league_id)).status == "finished"
    ix = await env.fake.slash(env.bot, env.bob, "league standings")
    rows = [ln for ln in reply_text(ix).splitlines() if re.match(r"^\s*\d+ ", ln)]
    assert len(rows) == 4 and all(r.split()[0] == "1" for r in rows), reply_text(ix)


async def test_exactly_tied_leaderboard_rows_share_a_place(env):
    await _finish(env, env.alice, env.bob)
    await _finish(env, env.carol, env.dave)          # the same history: the same rating exactly
    ix = await env.fake.slash(env.bot, env.bob, "leaderboard", game="squares")
    places = {m[1]: int(m[0]) for m in re.findall(r"(\d+)\. <@(\d+)>", ix.text)}
    assert places[env.alice["id"]] == places[env.carol["id"]] == 1, ix.text
    assert places[env.bob["id"]] == places[env.dave["id"]] == 3, ix.text


class _Board:
    """A store that only serves a sorted leaderboard (for ties across a page's start)."""

    def __init__(self, rows: list[RatingRow]) -> None:
        self.rows = rows

    async def leaderboard(self, scope: str, game: str, offset: int = 0, limit: int = 10):
        return self.rows[offset:offset + limit], len(self.rows)


async def test_a_tie_over_a_page_boundary_keeps_its_shared_place():
    rows = [RatingRow("global", "squares", i, 40.0 - i, 1.0, 5) for i in range(PER_PAGE - 2)]
    rows += [RatingRow("global", "squares", 100 + i, 20.0, 1.0, 5) for i in range(PER_PAGE + 3)]
    rows += [RatingRow("global", "squares", 200, 20.0, 1.0, 4), RatingRow("global", "squares", 201, 10.0, 1.0, 9)]
    records = Records(_Board(rows))
    first = await records.board_places("squares", "global", 0, rows[:PER_PAGE])
    assert first == list(range(1, PER_PAGE - 1)) + [PER_PAGE - 1, PER_PAGE - 1]
    second = await records.board_places("squares", "global", PER_PAGE, rows[PER_PAGE:2 * PER_PAGE])
    assert second == [PER_PAGE - 1] * PER_PAGE, "the tie began on page 1"
    third = await records.board_places("squares", "global", 2 * PER_PAGE, rows[2 * PER_PAGE:])
    assert third == [PER_PAGE - 1, 2 * PER_PAGE + 2, 2 * PER_PAGE + 3], "fewer games: the next place"


# ---------------------------------------------------------------------------- 5. descriptions
def test_option_descriptions_say_what_the_options_do():
    for locale in ("en", "ja"):
        cat = i18n.catalog(locale)
        # every game two can play has leagues, late-join games too (Avalon's Sanctuary)
        game = cat["cmd.league.opt.game.description"]
        assert "late" not in game and "途中参加" not in game, game
        # the league option's default is the only league not closed (sign-up counts too)
        league = cat["cmd.league.opt.league.description"]
        assert "running here" not in league, league
        assert "not closed" in league or "まだ終了していない" in league, league
        # /match without a number: this thread's match, finished or not
        match = cat["cmd.opt.match.description"]
        assert ("thread" in match and "finished" in match) or ("スレッド" in match and "終了後も" in match), match


# ---------------------------------------------------------------------------- 6. /play options
async def test_play_options_autocomplete_lists_the_games_options(env):
    choices = await env.fake.autocomplete(env.bot, env.alice, "play", "options", game="squares", options="")
    values = [c["value"] for c in choices]
    assert {"first=1", "first=2", "max_turns=200", "repetition=3"} <= set(values), values
    assert any("First player" in c["name"] for c in choices)
    # what is already typed is kept; an option already set is not offered again
    choices = await env.fake.autocomplete(env.bot, env.alice, "play", "options", game="squares",
                                          options="first=1 max")
    assert choices and all(c["value"].startswith("first=1 max_turns=") for c in choices), choices
    choices = await env.fake.autocomplete(env.bot, env.alice, "play", "options", game="squares",
                                          options="max_turns=15")
    assert [c["value"] for c in choices][0] == "max_turns=15"
    # Japanese labels, another game's own options, no decks
    choices = await env.fake.autocomplete(env.bot, env.alice, "play", "options", game="avalon", options="",
                                          locale="ja")
    assert any(c["value"] == "mode=expert" for c in choices)
    assert all(not c["value"].startswith("decks") for c in choices)
    assert any("対戦モード" in c["name"] for c in choices), choices
    # no game chosen yet: nothing to suggest; typing freely still plays
    assert await env.fake.autocomplete(env.bot, env.alice, "play", "options", options="") == []
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="max_turns=50")
    assert "#" in ix.text and "⚠️" not in ix.text, ix.text


async def test_a_spectator_in_a_thread_with_a_rematch_means_the_running_one(env):
    match_id, thread_id = await _finished_in_thread(env)
    await env.fake.slash(env.bot, env.bob, "match rematch", channel_id=thread_id)
    rematch = max(m.id for m in await env.store.matches_for_user(uid(env.bob)))
    assert rematch != match_id and (await env.match(rematch)).channel_id == thread_id
    assert (await env.host.match_for(uid(env.carol), thread_id)).id == rematch
    await env.fake.click(env.bot, env.alice, await env.board(rematch), f"m:{rematch}:accept")
    ix = await env.fake.slash(env.bot, env.carol, "match log", channel_id=thread_id)
    assert f"#{rematch}" in ix.text and "Which match" not in ix.text, ix.text
