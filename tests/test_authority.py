"""Issue 13 ("Trust"): authority is checked against the match's or league's own server.

Match and league ids are small sequential numbers, so anybody can type another server's id.
Every command, button and select that acts on a match, league or record is driven here from
ANOTHER server (``OTHER_GUILD``) and from DMs: moderator and organiser powers count only in the
server the match or league belongs to, a match of another server cannot be watched, read or
joined from elsewhere (its own players still reach it from anywhere), nothing changes, and the
caller gets the localized refusal from data/i18n/*/authority.json.
"""
from __future__ import annotations

import copy
import re

import pytest

from discord_fakes import ALL_PERMISSIONS, custom_ids, make_env
from layout_reading import components_of
from data import i18n
from host import Host
from host.decks import DeckBook

OTHER_GUILD = 6000        # the fake Discord's own guild is 5000: the matches are made there
OTHER_CHANNEL = 6001


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    e.dave = e.fake.user("Dave")
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


def text(key: str, locale: str = "en", **params) -> str:
    return i18n.t(key, locale, **params)


class _Elsewhere:
    """Run interactions as if from another server (``dm=True``: from the caller's DMs)."""

    def __init__(self, env, dm: bool = False) -> None:
        self.env, self.dm = env, dm

    def __enter__(self):
        self.old = self.env.fake.guild_id
        if not self.dm:
            self.env.fake.guild_id = OTHER_GUILD
        return self

    def __exit__(self, *exc):
        self.env.fake.guild_id = self.old


async def slash_from(env, user: dict, path: str, *, dm: bool = False, **options):
    with _Elsewhere(env, dm):
        if dm:
            return await env.fake.slash(env.bot, user, path, dm=True, **options)
        return await env.fake.slash(env.bot, user, path, channel_id=OTHER_CHANNEL, **options)


async def press_from(env, user: dict, message: dict, custom_id: str, *, dm: bool = False,
                     values: list[str] | None = None, locale: str = "en-US"):
    """Press ``custom_id`` (a component of ``message``) from another server or a DM."""
    stored = env.fake.messages.get(int(message["id"]), message)
    shown = [c.get("custom_id") for c in components_of(stored)]     # in rows, or in a layout's container
    assert custom_id in shown, shown
    data: dict = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
    if values is not None:
        data["values"] = values
    with _Elsewhere(env, dm):
        payload = env.fake.interaction_payload(3, user, data, channel_id=None if dm else OTHER_CHANNEL,
                                               message=stored, dm=dm, locale=locale)
        return await env.fake.dispatch(env.bot, payload)


def elsewhere_text(match_id: int, locale: str = "en") -> str:
    return text("authority.match.elsewhere", locale, match_id=match_id)


async def snapshot(env, match_id: int):
    rec = await env.match(match_id)
    return (rec.status, rec.version, list(rec.seats), list(rec.spectators), list(rec.abort_votes))


# ---------------------------------------------------------------------------- the host
async def test_host_abort_refuses_moderator_power_from_another_server(tmp_path):
    from data.store import open_store

    store = await open_store(str(tmp_path / "h.db"))
    try:
        host = Host(store, render=False)
        A, B, MOD = 11, 12, 13
        res = await host.challenge("squares", A, "a", opponents=[(B, "b")], guild_id=5000)
        mid = res.match.id
        await host.accept(mid, B)
        res = await host.abort(mid, MOD, moderator_guild=OTHER_GUILD)
        assert not res.ok and res.error.key == "authority.abort.foreign"
        assert (await store.get_match(mid)).status == "active"
        res = await host.abort(mid, MOD, moderator_guild=None)   # a DM: no moderator power at all
        assert not res.ok and res.error.key == "host.err.not_a_player"
        assert (await store.get_match(mid)).status == "active"
        # a match without a server (the console) has no moderators anywhere
        res = await host.challenge("squares", A, "a", opponents=[(B, "b")])
        await host.accept(res.match.id, B)
        assert (await host.abort(res.match.id, MOD, moderator_guild=5000)).error.key == "authority.abort.foreign"
        assert (await store.get_match(res.match.id)).status == "active"
        # in the match's own server the moderator may
        res = await host.abort(mid, MOD, moderator_guild=5000)
        assert res.ok and res.match.status == "aborted"
    finally:
        await store.close()


# ---------------------------------------------------------------------------- /match abort
@pytest.mark.parametrize("locale", ["en", "ja"])
async def test_a_moderator_of_another_server_cannot_abort(env, locale):
    match_id = await env.start()
    before = await snapshot(env, match_id)
    ix = await slash_from(env, env.dave, "match abort", match=match_id, permissions=ALL_PERMISSIONS,
                          locale="ja" if locale == "ja" else "en-US")
    assert ix.ephemeral and text("authority.abort.foreign", locale, match_id=match_id) in ix.text
    assert await snapshot(env, match_id) == before


async def test_nobody_aborts_another_servers_match_from_a_dm(env):
    match_id = await env.start()
    before = await snapshot(env, match_id)
    ix = await slash_from(env, env.dave, "match abort", match=match_id, dm=True)
    assert text("authority.abort.foreign", "en", match_id=match_id) in ix.text
    assert await snapshot(env, match_id) == before


async def test_a_league_match_is_safe_from_a_foreign_moderator(env):
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="squares", format="rr")
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    msg = next(m for m in reversed(env.fake.posts(env.fake.channel["id"]))
               if f"lg:{league_id}:play" in custom_ids(m))
    ix = await env.fake.click(env.bot, env.alice, msg, f"lg:{league_id}:play")
    match_id = int(re.search(r"Match #(\d+)", ix.text).group(1))
    await env.fake.click(env.bot, env.bob, await env.board(match_id), f"m:{match_id}:accept")
    assert (await env.match(match_id)).status == "active"
    lg = await env.store.get_league(league_id)
    ix = await slash_from(env, env.dave, "match abort", match=match_id, permissions=ALL_PERMISSIONS)
    assert text("authority.abort.foreign", "en", match_id=match_id) in ix.text
    assert (await env.match(match_id)).status == "active"
    assert (await env.store.get_league(league_id)).data["pairings"] == lg.data["pairings"]


async def test_players_still_vote_to_abort_from_anywhere_and_home_moderators_still_abort(env):
    match_id = await env.start()
    ix = await slash_from(env, env.alice, "match abort", match=match_id, dm=True)
    assert "asks to abort" in ix.text
    ix = await slash_from(env, env.bob, "match abort", match=match_id, permissions=ALL_PERMISSIONS)
    assert (await env.match(match_id)).status == "aborted", ix.text
    match2 = await env.start()
    await env.fake.slash(env.bot, env.dave, "match abort", match=match2, permissions=ALL_PERMISSIONS)
    assert (await env.match(match2)).status == "aborted"


# ---------------------------------------------------------------------------- read / watch
@pytest.mark.parametrize("dm", [False, True], ids=["other-server", "dm"])
@pytest.mark.parametrize("path", ["match spectate", "match status", "match log"])
async def test_another_servers_match_cannot_be_watched_or_read(env, path, dm):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    first = (await env.host.legal(match_id, uid(env.alice)))[0]
    await env.fake.slash(env.bot, env.alice, "move", command=first, channel_id=thread_id)
    before = await snapshot(env, match_id)
    members = set(env.fake.thread_members.get(thread_id, ()))
    ix = await slash_from(env, env.dave, path, match=match_id, dm=dm, permissions=ALL_PERMISSIONS)
    assert ix.ephemeral and elsewhere_text(match_id) in ix.text
    assert first not in ix.text and "Alice" not in ix.text and ix.files == []
    assert await snapshot(env, match_id) == before
    assert set(env.fake.thread_members.get(thread_id, ())) == members
    ix = await slash_from(env, env.dave, path, match=match_id, dm=dm, locale="ja")
    assert elsewhere_text(match_id, "ja") in ix.text


async def test_players_reach_their_own_match_from_another_server(env):
    match_id = await env.start()
    ix = await slash_from(env, env.alice, "match status", match=match_id)
    assert "To act: Alice" in ix.text
    ix = await slash_from(env, env.bob, "match log", match=match_id, dm=True)
    assert elsewhere_text(match_id) not in ix.text and f"#{match_id}" in ix.text


@pytest.mark.parametrize("path,extra", [
    ("match resign", {}), ("match hand", {}), ("match claim", {}), ("match rematch", {}),
    ("move", {"command": "place L1 a1"}),
])
async def test_player_commands_on_another_servers_match_say_no_such_match_here(env, path, extra):
    match_id = await env.start()
    before = await snapshot(env, match_id)
    ix = await slash_from(env, env.dave, path, match=match_id, permissions=ALL_PERMISSIONS, **extra)
    assert elsewhere_text(match_id) in ix.text
    assert await snapshot(env, match_id) == before


# ---------------------------------------------------------------------------- buttons and selects
async def test_board_status_button_from_another_server(env):
    match_id = await env.start()
    board = await env.board(match_id)
    ix = await press_from(env, env.dave, board, f"m:{match_id}:status")
    assert elsewhere_text(match_id) in ix.text and ix.files == []


async def test_join_button_of_an_open_match_from_another_server(env):
    await env.play(env.alice, game="squares", open_seats=1)
    match_id = max(m.id for m in await env.store.matches_for_user(uid(env.alice)))
    board = await env.board(match_id)
    before = await snapshot(env, match_id)
    ix = await press_from(env, env.dave, board, f"m:{match_id}:join")
    assert elsewhere_text(match_id) in ix.text
    assert await snapshot(env, match_id) == before and (await env.match(match_id)).status == "open"
    ix = await press_from(env, env.dave, board, f"m:{match_id}:join", dm=True)
    assert elsewhere_text(match_id) in ix.text
    assert await snapshot(env, match_id) == before


async def test_deck_pick_join_from_another_server(env):
    game = "logic_square"
    await env.play(env.alice, game=game, open_seats=1)
    match_id = max(m.id for m in await env.store.matches_for_user(uid(env.alice)))
    # the deck menu is offered at home; it is then used from another server
    ix = await env.fake.click(env.bot, env.dave, await env.board(match_id), f"m:{match_id}:join")
    menu = ix.last
    assert f"m:{match_id}:deck:join" in custom_ids(menu), ix.text
    listing = await DeckBook(env.store).list(uid(env.dave), game)
    ready = next(r["name"] for r in listing.data["decks"] if r["legal"])
    before = await snapshot(env, match_id)
    ix = await press_from(env, env.dave, menu, f"m:{match_id}:deck:join", values=[ready])
    assert elsewhere_text(match_id) in ix.text
    assert await snapshot(env, match_id) == before


async def test_record_download_of_another_servers_match(env):
    match_id = await env.start()
    await env.fake.slash(env.bot, env.bob, "match resign", match=match_id)
    assert (await env.match(match_id)).status == "finished"
    ix = await env.fake.slash(env.bot, env.alice, "history")
    history = ix.last
    assert "rec:x" in custom_ids(history)
    ix = await press_from(env, env.dave, history, "rec:x", values=[str(match_id)])
    assert elsewhere_text(match_id) in ix.text and ix.files == []
    ix = await press_from(env, env.alice, history, "rec:x", values=[str(match_id)])   # a player: anywhere
    assert ix.files == [f"match-{match_id}.json"], ix.text


# ---------------------------------------------------------------------------- leagues
async def _league(env, start: bool) -> int:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="squares", format="rr")
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    for user in (env.alice, env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    if start:
        await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    return league_id


async def _league_state(env, league_id: int):
    lg = await env.store.get_league(league_id)
    return lg.status, lg.version, copy.deepcopy(lg.data)


ORGANISER_CALLS = [("league-admin start", {}), ("league-admin close", {}), ("league-admin next-round", {}),
                   ("league-admin forfeit", {"pairing": 1}), ("league-admin report", {"pairing": 1, "result": "first"})]


@pytest.mark.parametrize("start", [False, True], ids=["signup", "running"])
@pytest.mark.parametrize("path,extra", ORGANISER_CALLS + [("league-admin remove", {})])
async def test_an_organiser_of_another_server_cannot_manage_this_league(env, path, extra, start):
    league_id = await _league(env, start)
    before = await _league_state(env, league_id)
    if path == "league-admin remove":
        extra = {"player": env.bob}
    ix = await slash_from(env, env.dave, path, league=league_id, permissions=ALL_PERMISSIONS, **extra)
    assert text("authority.league.foreign", "en", league=league_id) in ix.text, ix.text
    assert await _league_state(env, league_id) == before
    ix = await slash_from(env, env.dave, path, league=league_id, permissions=ALL_PERMISSIONS,
                          locale="ja", **extra)
    assert text("authority.league.foreign", "ja", league=league_id) in ix.text


@pytest.mark.parametrize("path,extra", ORGANISER_CALLS + [("league join", {}), ("league leave", {}),
                                                           ("league standings", {}), ("league claim", {"pairing": 1})])
async def test_league_commands_from_a_dm_are_refused(env, path, extra):
    league_id = await _league(env, start=path not in ("league-admin start", "league join"))
    before = await _league_state(env, league_id)
    user = env.dave if path == "league join" else env.alice
    for options in ({}, {"league": league_id}):   # the only league anywhere, or named
        ix = await slash_from(env, user, path, dm=True, **options, **extra)
        assert text("authority.league.dm", "en") in ix.text, (options, ix.text)
        assert await _league_state(env, league_id) == before


@pytest.mark.parametrize("path", ["league-admin season", "league-admin role"])
async def test_server_wide_league_settings_from_a_dm_are_refused(env, path):
    before = await env.store.get_guild_settings(env.fake.guild_id)
    ix = await slash_from(env, env.alice, path, dm=True)
    assert text("authority.league.dm", "en") in ix.text, ix.text
    assert await env.store.get_guild_settings(env.fake.guild_id) == before


@pytest.mark.parametrize("action", ["join", "play", "standings"])
async def test_league_buttons_from_another_server(env, action):
    """(Already guarded before issue 13: kept as a regression test.)"""
    league_id = await _league(env, start=action == "play")
    msg = next(m for m in reversed(env.fake.posts(env.fake.channel["id"]))
               if f"lg:{league_id}:{action}" in custom_ids(m))
    before = await _league_state(env, league_id)
    ix = await press_from(env, env.dave if action == "join" else env.alice, msg, f"lg:{league_id}:{action}")
    assert text("leagues.err.no_league", "en", league=league_id) in ix.text
    assert await _league_state(env, league_id) == before


# ---------------------------------------------------------------------------- /settings
@pytest.mark.parametrize("path,extra", [("settings thread", {"value": "off"}), ("settings language", {"value": "ja"}),
                                        ("settings show", {})])
async def test_settings_from_a_dm_are_refused(env, path, extra):
    before = await env.store.get_guild_settings(env.fake.guild_id)
    ix = await slash_from(env, env.alice, path, dm=True, permissions=ALL_PERMISSIONS, **extra)
    assert text("authority.settings.dm", "en") in ix.text, ix.text
    ix = await slash_from(env, env.alice, path, dm=True, locale="ja", **extra)
    assert text("authority.settings.dm", "ja") in ix.text
    assert await env.store.get_guild_settings(env.fake.guild_id) == before


# ---------------------------------------------------------------------------- the catalog
def test_authority_strings_exist_in_both_languages_with_the_same_placeholders():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "data" / "i18n"
    en, ja = (json.loads((root / loc / "authority.json").read_text(encoding="utf-8")) for loc in ("en", "ja"))
    assert set(en) == set(ja) and en
    for key, value in en.items():
        assert i18n.placeholders(value) == i18n.placeholders(ja[key]), key
        assert not re.search(r"[A-Za-z]", re.sub(r"\{[a-z_]+\}", "", ja[key])), f"English inside Japanese: {key}"


async def test_the_league_service_acts_only_on_its_own_servers_leagues(tmp_path):
    """At the root (host/league_service.Leagues): a call names the server it comes from; another
    server's league, or a call with no server (a DM), reaches nothing and writes nothing."""
    from data.store import open_store
    from host.league_service import Leagues

    class _NoHost:
        now = staticmethod(lambda: 1000.0)

    store = await open_store(str(tmp_path / "l.db"))
    try:
        svc = Leagues(store, _NoHost(), now=lambda: 1000.0)
        res = await svc.create(guild_id=5, channel_id=6, organiser=1, name="Spring", game="squares",
                               fmt="swiss", rounds=3, deadline_hours=24, rated=True, signup_hours=None)
        lid = res.data["league"].id
        before = (await store.get_league(lid)).version
        for guild in (None, 6):
            for call in (svc.join(lid, guild, 2, "B"), svc.start(lid, guild), svc.close(lid, guild)):
                refused = await call
                assert not refused.ok and refused.error.key == "leagues.err.no_league"
        assert (await store.get_league(lid)).version == before
        assert (await svc.join(lid, 5, 2, "B")).ok
    finally:
        await store.close()


# ---------------------------------------------------------------------------- replays (issue 35)
@pytest.mark.parametrize("path", ["match replay", "match gif", "match record"])
async def test_another_servers_match_cannot_be_replayed_except_by_its_players(env, path):
    """Issue 35: "A match of another server cannot be replayed except by its players" — not its
    steps, not its animated picture, not its record; its players reach it from anywhere."""
    match_id = await _played_and_resigned(env)
    ix = await slash_from(env, env.dave, path, match=match_id, permissions=ALL_PERMISSIONS)
    assert elsewhere_text(match_id) in ix.text and ix.files == [] and "Alice" not in ix.text
    if path == "match replay":
        ix = await slash_from(env, env.alice, path, match=match_id, dm=True)
        assert "Step 0 of" in ix.text and elsewhere_text(match_id) not in ix.text, ix.text
        assert "Your own cards" not in ix.text        # SQUARES: a player sees nothing others do not


async def test_a_replay_button_pressed_from_another_server_shows_nothing(env):
    """Issue 35: a replay's buttons carry the match and the step, so they are checked like a
    command: pressed from another server by someone not seated, they show nothing of it."""
    match_id = await _played_and_resigned(env)
    ix = await env.fake.slash(env.bot, env.carol, "match replay", match=match_id, public=True)
    replay = ix.last
    ids = custom_ids(replay)
    step = next(c for c in ids if c.startswith(f"rp:{match_id}:") and c.endswith(f":l:{uid(env.carol)}"))
    ix = await press_from(env, env.dave, replay, step)
    assert elsewhere_text(match_id) in ix.text and ix.files == []


async def _played_and_resigned(env) -> int:
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    first = (await env.host.legal(match_id, uid(env.alice)))[0]
    await env.fake.slash(env.bot, env.alice, "move", command=first, channel_id=thread_id)
    await env.fake.slash(env.bot, env.bob, "match resign", match=match_id)
    assert (await env.match(match_id)).status == "finished"
    return match_id


async def test_a_card_sets_page_button_pressed_from_another_server_shows_nothing(env):
    """Issue 36: "a set of one server is never visible or usable from another" — a set's page
    buttons carry its version's id, so they are checked like a command: pressed from another
    server they show no card of it; the set is not listed, shown or playable there either."""
    from pathlib import Path

    data = Path(__file__).resolve().parent / "data" / "card_sets" / "art_of_war"
    res = await env.host.card_sets.upload(env.fake.guild_id, uid(env.alice), "art_of_war", "Owls", "kings.csv",
                                          (data / "kings.csv").read_bytes())
    assert res.ok
    ix = await env.fake.slash(env.bot, env.carol, "cards show", game="art_of_war", **{"set": "Owls"})
    page = ix.last
    buttons = [c["custom_id"] for c in components_of(page) if c["custom_id"].startswith("cs:art_of_war:")]
    assert buttons and ix.files == ["cards.png"], ix.text
    ix = await press_from(env, env.dave, page, buttons[-1])
    assert text("cards.err.gone", "en") in ix.text and ix.files == []
    for path in ("cards show", "cards export", "cards diff"):
        ix = await slash_from(env, env.dave, path, game="art_of_war", **{"set": "Owls"})
        assert ix.text.startswith("⚠️ This server has no set “Owls”") and ix.files == [], (path, ix.text)
    ix = await slash_from(env, env.dave, "cards list", game="art_of_war")
    assert "Owls" not in ix.text
