"""Issue 34, registration, through discord.py's real objects on the fake HTTP layer
(tests/discord_fakes.py): /league-admin settings (organisers only, a start typed as a date with
its UTC offset), the waiting list with its move-up ping, the Check-in button while check-in is
open, /league checkin with a deck and /league-admin decklists by card names, the locked deck
used for an event match without asking, /league claim for a no-show, and /history's export of
an event match.  Each test's docstring quotes the rule it checks."""
from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from discord_fakes import ALL_PERMISSIONS, custom_ids, make_env

from host import leagues as LG
from host.events import entry as E


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    e.dave = e.fake.user("Dave")
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


async def create(env, game: str = "logic_square", **settings) -> int:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Open", game=game, format="rr")
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    if settings:
        ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS, **settings)
        assert "Event settings of league" in ix.text, ix.text
    return league_id


def league_message(env, league_id: int) -> dict:
    return [m for m in env.fake.posts(env.fake.channel["id"]) if f"lg:{league_id}:standings" in custom_ids(m)][-1]


def last_post(env) -> dict:
    return env.fake.posts(env.fake.channel["id"])[-1]


async def data(env, league_id: int) -> dict:
    return (await env.store.get_league(league_id)).data


# ---------------------------------------------------------------------------- /league-admin settings
async def test_settings_are_for_organisers_and_say_how_a_typed_start_was_read(env):
    """"/league-admin settings … (organiser only, during sign-up; ``start`` as a Discord-style epoch
    number or ``YYYY-MM-DD HH:MM`` with a UTC offset defaulting to +09:00 for a Japanese-locale server
    and +00:00 otherwise — say which in the reply, showing the start as ``<t:…:F>``)"."""
    league_id = await create(env)
    ix = await env.fake.slash(env.bot, env.bob, "league-admin settings", cap=8)
    assert "Only organisers" in ix.text and "registration" not in await data(env, league_id)
    utc = int(dt.datetime(2030, 1, 2, 9, 0, tzinfo=dt.timezone.utc).timestamp())
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              start="2030-01-02 09:00", cap=8)
    assert ix.ephemeral and f"<t:{utc}:F>" in ix.text and "UTC+00:00" in ix.text, ix.text
    assert "Player cap: 8" in ix.text
    assert E.settings(await data(env, league_id))["start_at"] == utc
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              guild_locale="ja", locale="ja", start="2030-01-02 09:00")
    assert f"<t:{utc - 9 * 3600}:F>" in ix.text and "UTC+09:00" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              start="2030-01-02 09:00", utc_offset="-05:00")
    assert f"<t:{utc + 5 * 3600}:F>" in ix.text and "UTC-05:00" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              start=f"<t:{utc}:F>", checkin_minutes=60, no_show_minutes=15)
    assert "UTC" not in ix.text and f"<t:{utc}:F>" in ix.text and "from 60 minutes before the start" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              start="next friday")
    assert "YYYY-MM-DD HH:MM" in ix.text
    message = league_message(env, league_id)
    assert f"Starts <t:{utc}:F>" in message["embeds"][0]["description"]
    d = await data(env, league_id)
    assert [e["what"] for e in d["trail"]].count("events.reg.trail.set.start") == 4


# ---------------------------------------------------------------------------- the waiting list
async def test_past_the_cap_a_player_is_told_their_place_and_moves_up_with_a_ping(env):
    """"Joining past the cap puts the player on the waiting list (told their place); when someone
    leaves before the start, the first on the list moves up and is told (a ping in the league
    channel).\""""
    league_id = await create(env, cap=2)
    for user in (env.bob, env.carol):
        ix = await env.fake.slash(env.bot, user, "league join")
        assert "You joined" in ix.text
    ix = await env.fake.slash(env.bot, env.dave, "league join")
    assert "waiting list, place 1" in ix.text, ix.text
    assert f"<@{uid(env.dave)}>" in league_message(env, league_id)["embeds"][0]["description"]
    ix = await env.fake.slash(env.bot, env.bob, "league leave")
    assert "You left" in ix.text
    post = last_post(env)
    assert post["content"].startswith(f"<@{uid(env.dave)}>: a place came free") and \
        post["_allowed_mentions"]["users"] == [uid(env.dave)]
    assert LG.active_ids(await data(env, league_id)) == [uid(env.carol), uid(env.dave)]
    ix = await env.fake.slash(env.bot, env.bob, "league join", locale="ja")
    assert "キャンセル待ちの1番目" in ix.text


# ---------------------------------------------------------------------------- check-in
async def test_the_check_in_button_appears_while_check_in_is_open_and_checks_in(env):
    """"A **Check-in** button on the league message (in ``league_view``) while it is open": not
    before the window; when it opens the message shows it and the channel is told (once), pinging
    those signed up; pressing it checks the player in."""
    start = int(env.clock.t) + 7200
    league_id = await create(env, start=str(start), checkin_minutes=60)
    for user in (env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    assert f"lg:{league_id}:checkin" not in custom_ids(league_message(env, league_id))
    ix = await env.fake.slash(env.bot, env.bob, "league checkin")
    assert "Check-in opens at" in ix.text
    env.clock.advance(3600)
    event = env.bot.get_cog("LeagueEvent")
    assert await event.tick_once() == 1 and await event.tick_once() == 0, "told once"
    told = last_post(env)
    assert "Check-in for league" in told["content"] and \
        set(told["_allowed_mentions"]["users"]) == {uid(env.bob), uid(env.carol)}
    message = league_message(env, league_id)
    assert f"lg:{league_id}:checkin" in custom_ids(message)
    ix = await env.fake.click(env.bot, env.bob, message, f"lg:{league_id}:checkin")
    assert ix.ephemeral and "You are checked in" in ix.text, ix.text
    assert E.checked_in(await data(env, league_id), uid(env.bob))
    ix = await env.fake.click(env.bot, env.bob, league_message(env, league_id), f"lg:{league_id}:checkin")
    assert "already checked in" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin checkin", permissions=ALL_PERMISSIONS, player=env.carol)
    assert f"<@{uid(env.carol)}> is checked in" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "league-admin checkin", player=env.bob)
    assert "Only organisers" in ix.text
    assert "checked in" in league_message(env, league_id)["embeds"][0]["description"]


# ---------------------------------------------------------------------------- decklists
async def test_a_deck_registered_with_check_in_is_shown_to_organisers_by_card_names_only(env):
    """"``/league-admin decklists [league] [user]``, ephemeral, card names not ids" — organisers
    only; another member sees no closed list, the player their own."""
    await create(env)
    await env.fake.slash(env.bot, env.bob, "league join")
    choices = await env.fake.autocomplete(env.bot, env.bob, "league checkin", "deck", deck="bl")
    assert "blitz" in [c["value"] for c in choices]
    ix = await env.fake.slash(env.bot, env.bob, "league checkin", deck="blitz")
    assert "Deck registered" in ix.text and "locked" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin decklists", permissions=ALL_PERMISSIONS, player=env.bob)
    assert ix.ephemeral and "Blitz Vector ×1" in ix.text and "Pulse Jab ×3" in ix.text
    assert "av01" not in ix.text and "ac01" not in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin decklists", permissions=ALL_PERMISSIONS)
    assert "(1 registered)" in ix.text and "Bob:" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "league-admin decklists", player=env.bob)
    assert "Only organisers" in ix.text and "Pulse Jab" not in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "league decklists", player=env.bob)
    assert "not public" in ix.text and "Pulse Jab" not in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league decklists")
    assert "Pulse Jab ×3" in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league checkin", deck="fox")
    assert "already registered your deck" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin decklists", locale="ja", permissions=ALL_PERMISSIONS,
                              player=env.bob)
    assert "「パルスジャブ」×3" in ix.text


async def test_an_event_match_uses_the_locked_decks_without_asking_and_refuses_another(env):
    """"Used for every event match without asking (``_play``: when the player has a locked deck, use
    it; refuse another)" — the challenger's and, on accepting, the opponent's."""
    league_id = await create(env)
    for user, deck in ((env.bob, "blitz"), (env.carol, "aegis")):
        await env.fake.slash(env.bot, user, "league join")
        await env.fake.slash(env.bot, user, "league checkin", deck=deck)
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    ix = await env.fake.slash(env.bot, env.bob, "league play", deck="fox")
    assert "locked" in ix.text and "Blitz" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league play", deck="blitz")
    assert "#" in ix.text and "locked" not in ix.text, ix.text
    [p] = LG.round_pairings(await data(env, league_id))
    match_id = p["match"]
    assert (await env.match(match_id)).options["decks"][0] == "blitz"
    board = await env.board(match_id)
    await env.fake.click(env.bot, env.carol, board, f"m:{match_id}:accept")
    rec = await env.match(match_id)
    assert rec.status == "active" and rec.options["decks"] == ["blitz", "aegis"], "no deck picker: the locked deck"


# ---------------------------------------------------------------------------- no-shows
async def test_a_no_show_is_claimed_with_league_claim_and_the_opponent_is_told(env):
    """"The player who showed up may claim (``/league claim``) a game win (in a best-of-one, that
    decides the match) … the opponent is told.\""""
    league_id = await create(env, game="squares", no_show_minutes=10)
    for user in (env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    [p] = LG.round_pairings(await data(env, league_id))
    claimant, other = (env.bob, env.carol) if p["a"] == uid(env.bob) else (env.carol, env.bob)
    ix = await env.fake.slash(env.bot, claimant, "league claim", pairing=p["id"])
    assert "can be claimed from" in ix.text, ix.text
    env.clock.advance(600)
    ix = await env.fake.slash(env.bot, claimant, "league claim", pairing=p["id"])
    assert "you win a game, which decides this best-of-one match" in ix.text, ix.text
    told = next(m for m in reversed(env.fake.posts(env.fake.channel["id"])) if "claimed a no-show" in m["content"])
    assert told["content"].startswith(f"<@{uid(other)}>") and told["_allowed_mentions"]["users"] == [uid(other)]
    d = await data(env, league_id)
    assert LG.pairing(d, p["id"])["no_show"]["kind"] == "game"


# ---------------------------------------------------------------------------- /history export
async def test_an_event_matchs_export_is_the_public_record_for_members_while_it_runs(env, monkeypatch):
    """"An event match's full export only to organisers and, after the event ends, to its players;
    everyone else gets the public record" — no seed, no decks, only the commands everyone saw."""
    league_id = await create(env, game="squares")
    for user in (env.bob, env.carol, env.dave):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    users = {uid(u): u for u in (env.bob, env.carol, env.dave)}
    p = next(q for q in LG.round_pairings(await data(env, league_id)) if q["b"] is not None)
    first, second = users[p["a"]], users[p["b"]]
    await env.fake.slash(env.bot, first, "league play")
    match_id = LG.pairing(await data(env, league_id), p["id"])["match"]
    await env.fake.click(env.bot, second, await env.board(match_id), f"m:{match_id}:accept")
    assert (await env.host.resign(match_id, uid(first))).ok
    assert (await env.match(match_id)).status == "finished"
    outsider = next(u for u in users.values() if u not in (first, second))

    async def export(user: dict) -> dict:
        ix = await env.fake.slash(env.bot, user, "history", player=first)
        ix = await env.fake.click(env.bot, user, ix.last, "rec:x", values=[str(match_id)])
        stored = env.fake.messages[int(ix.last["id"])]
        return json.loads(stored["attachments"][0]["_bytes"].decode("utf-8"))

    for user in (outsider, first):
        shown = await export(user)
        assert "seed" not in shown and shown["public"] is True and "decks" not in shown["options"], user["username"]
        assert shown["result"] is not None and shown["league"] == league_id
    leagues = env.bot.get_cog("Leagues")

    async def organiser(interaction):
        return True
    monkeypatch.setattr(leagues, "is_organiser", organiser)
    assert "seed" in await export(outsider)
    monkeypatch.undo()
    await env.fake.slash(env.bot, env.alice, "league-admin close", permissions=ALL_PERMISSIONS)
    assert "seed" in await export(first), "the event has ended: its players get the full record"
    assert "seed" not in await export(outsider)
