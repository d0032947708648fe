"""Issue 34, results played off the bot through discord.py's real objects on the fake HTTP layer
(tests/discord_fakes.py): the question to the opponent with Confirm / Dispute, a press by anyone
else refused, a dispute pinging the organiser, the bot's confirmation after the organiser's
``confirm_minutes`` announced by the leagues' clock.  Each test's docstring quotes the rule it
checks."""
from __future__ import annotations

import re

import pytest

from discord_fakes import ALL_PERMISSIONS, custom_ids, make_env, message_text

from host import leagues as LG


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


async def start(env, **settings) -> tuple[int, dict]:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Meetup", game="logic_square", format="swiss", rounds=1)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    if settings:
        await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS, **settings)
    for user in (env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    [p] = (await env.store.get_league(league_id)).data["pairings"]
    return league_id, p


def question(env, league_id: int, pairing: int) -> dict | None:
    found = [m for m in env.fake.posts() if f"lgr:{league_id}:{pairing}:c" in custom_ids(m)]
    return found[-1] if found else None


async def test_the_opponent_disputes_and_the_organiser_is_pinged(env):
    """"The first report is posted in the league's channel, pinging the opponent … Only the
    opponent may press them" — "Dispute … holds the pairing for an organiser, who is pinged"."""
    league_id, p = await start(env)
    users = {uid(env.bob): env.bob, uid(env.carol): env.carol}
    reporter, opponent = users[p["a"]], users[p["b"]]
    ix = await env.fake.slash(env.bot, reporter, "league report", pairing=p["id"], result="win")
    assert "is asked to confirm" in ix.text, ix.text
    ask = question(env, league_id, p["id"])
    assert ask is not None and f"<@{uid(opponent)}>" in ask["content"]
    ix = await env.fake.click(env.bot, env.alice, ask, f"lgr:{league_id}:{p['id']}:d")
    assert "Only" in ix.text, ix.text                # the organiser is not the opponent either
    ix = await env.fake.click(env.bot, opponent, ask, f"lgr:{league_id}:{p['id']}:d")
    d = (await env.store.get_league(league_id)).data
    assert LG.pairing(d, p["id"])["held"] is True
    pinged = [m for m in env.fake.posts() if "disputed the reported result" in m["content"]]
    assert pinged and f"<@{uid(env.alice)}>" in pinged[-1]["content"]


async def test_the_bot_confirms_a_report_nobody_answered_and_says_so(env):
    """"a report nobody answered for N minutes is confirmed by the bot, which says so in the
    league channel; the question posted with the report says when"."""
    league_id, p = await start(env, confirm_minutes=30)
    users = {uid(env.bob): env.bob, uid(env.carol): env.carol}
    await env.fake.slash(env.bot, users[p["b"]], "league report", pairing=p["id"], result="loss")
    ask = question(env, league_id, p["id"])
    assert "the bot confirms it <t:" in message_text(ask), message_text(ask)
    leagues = env.bot.get_cog("Leagues")
    env.clock.advance(29 * 60)
    await leagues.deadlines.coro(leagues)
    assert (await env.store.get_league(league_id)).status == "running"
    env.clock.advance(2 * 60)
    await leagues.deadlines.coro(leagues)
    await env.fake.settle()
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished" and LG.pairing(lg.data, p["id"])["result"] == "a"
    said = [m for m in env.fake.posts() if "so the bot confirmed it" in m["content"]]
    assert len(said) == 1 and "30 minutes" in said[0]["content"]


async def test_an_organiser_who_pairs_by_hand_is_told_when_the_round_is_complete(env):
    """"the next round is paired as soon as the current one is complete (or when the organiser
    says, if they chose that)": with ``pair_by_hand`` the complete round waits, the organiser is
    pinged once, and ``/league-admin next-round`` pairs it."""
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Club night", game="squares", format="swiss", rounds=2)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              pair_by_hand=True)
    assert "paired when an organiser runs /league-admin next-round" in ix.text, ix.text
    for user in (env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    [p] = (await env.store.get_league(league_id)).data["pairings"]
    await env.fake.slash(env.bot, env.alice, "league-admin report", permissions=ALL_PERMISSIONS,
                         pairing=p["id"], result="first")
    lg = await env.store.get_league(league_id)
    assert lg.data["round"] == 1 and lg.data["round_ready"] == 1, "the complete round waits"
    told = [m for m in env.fake.posts() if "round 1 is complete" in m["content"]]
    assert len(told) == 1 and f"<@{uid(env.alice)}>" in told[0]["content"]
    await env.fake.slash(env.bot, env.alice, "league-admin next-round", permissions=ALL_PERMISSIONS)
    lg = await env.store.get_league(league_id)
    assert lg.data["round"] == 2
    assert len([m for m in env.fake.posts() if "round 1 is complete" in m["content"]]) == 1
