"""Issue 34, registration: a league's player cap and waiting list, check-in before the start,
the start that admits only checked-in players, no-show claims, decklists locked for the event
and kept closed, and the export of an event match — host side (host/events/entry.py over
host/events/registration.py, host/leagues.py, host.league_service.Leagues).  Each test's docstring
quotes the rule it checks."""
from __future__ import annotations

import hashlib
import re

import pytest

from data import i18n
from data.csv_export import read_csv
from data.store import open_store
from host import leagues as L
from host.events import entry as E
from host.events import exports, trail
from host.league_service import Leagues
from rules import registry

G, ORG = 5, 999
T0 = 1_000_000.0
A, B, C, D, E5 = 1, 2, 3, 4, 5


class _Clock:
    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class _NoHost:
    now = staticmethod(lambda: T0)


def _doc(game: str = "logic_square", n: int = 0, **settings) -> dict:
    d = L.new_league(name="Cup", game=game, fmt="rr", rounds=None, deadline_hours=0, rated=False,
                     signup_hours=None, organiser=ORG, channel_id=None, season=1, now=0.0)
    if settings:
        E.configure(d, "signup", 0.0, **settings)
    for p in range(1, n + 1):
        L.join(d, "signup", p, f"P{p}", 1.0)
    return d


async def _service(tmp_path, *, game: str = "logic_square", n: int = 0, deadline_hours: int = 0, **settings):
    store = await open_store(str(tmp_path / "reg.db"))
    clock = _Clock()
    svc = Leagues(store, _NoHost(), now=clock)
    res = await svc.create(guild_id=G, channel_id=6, organiser=ORG, name="Cup", game=game, fmt="rr", rounds=None,
                           deadline_hours=deadline_hours, rated=False, signup_hours=None)
    assert res.ok, res.error
    lid = res.data["league"].id
    if settings:
        res = await svc.settings(lid, G, ORG, **settings)
        assert res.ok, res.error
    for p in range(1, n + 1):
        assert (await svc.join(lid, G, p, f"P{p}")).ok
    return store, svc, clock, lid


async def _data(store, lid: int) -> dict:
    return (await store.get_league(lid)).data


def _whats(d: dict) -> list[str]:
    return [e["what"] for e in d["trail"]]


def _line(d: dict, what: str, locale: str = "en") -> str:
    e = next(e for e in reversed(d["trail"]) if e["what"] == what)
    return trail.line(e, {p["id"]: p["name"] for p in d["players"]}, locale)


# ---------------------------------------------------------------------------- cap and waiting list
def test_past_the_cap_players_go_on_the_waiting_list_and_the_first_moves_up_when_someone_leaves():
    """"Joining past the cap puts the player on the waiting list (told their place); when someone
    leaves before the start, the first on the list moves up.\""""
    d = _doc(cap=2)
    assert [L.join(d, "signup", u, f"P{u}", 1.0) for u in (A, B, C, D)] == \
        ["registered", "registered", "waiting", "waiting"]
    assert [p["id"] for p in d["players"]] == [A, B], "waiting players are not in the league's table"
    assert E.place(d, C) == 1 and E.place(d, D) == 2 and E.place(d, A) is None
    with pytest.raises(L.LeagueError) as e:
        L.join(d, "signup", C, "P3", 2.0)
    assert e.value.key == "events.err.already_signed_up"
    L.drop(d, "signup", A, False, 3.0)
    assert [p["id"] for p in d["players"]] == [B, C] and E.place(d, D) == 1
    L.drop(d, "signup", D, False, 4.0)            # leaving the waiting list moves nobody
    assert E.waiting(d) == [] and [p["id"] for p in d["players"]] == [B, C]
    with pytest.raises(L.LeagueError) as e:
        L.drop(d, "signup", D, False, 5.0)
    assert e.value.key == "leagues.err.not_member"


async def test_the_service_says_the_place_in_line_and_who_moved_up_and_the_trail_tells_both(tmp_path):
    """Sign-up with a cap through host.league_service.Leagues: the join answer carries the place on the
    waiting list, the leave answer who moved up; the trail says "signed up on the waiting list
    (place 1)" and "moved up from the waiting list" — not "signed up" twice."""
    store, svc, _, lid = await _service(tmp_path, n=2, cap=2)
    res = await svc.join(lid, G, C, "Cleo")
    assert res.ok and res.data["waiting"] == 1 and res.data["payload"] == 2
    res = await svc.leave(lid, G, A)
    assert res.ok and res.data["payload"]["moved"] == [C]
    d = await _data(store, lid)
    assert [p["id"] for p in d["players"]] == [B, C]
    assert _line(d, "events.reg.trail.waitlisted").endswith("Cleo signed up on the waiting list (place 1)")
    assert _line(d, "events.reg.trail.moved_up").endswith("Cleo moved up from the waiting list")
    assert _whats(d).count("events.trail.join") == 2, "the move up is not a second sign-up"
    assert "キャンセル待ちから繰り上がり" in _line(d, "events.reg.trail.moved_up", "ja")
    await store.close()


def test_raising_the_cap_moves_waiting_players_up_and_a_cap_below_the_registered_is_refused():
    """/league-admin settings: "a cap is at least 2 and not below the players already registered";
    raising (or clearing) it moves waiting players up, first in line first."""
    d = _doc(cap=2, n=4)
    with pytest.raises(L.LeagueError) as e:
        E.configure(d, "signup", 2.0, cap=1)
    assert e.value.key == "events.err.bad_cap"
    assert E.configure(d, "signup", 2.0, cap=3) == {"changed": ["cap"], "moved": [C]}
    with pytest.raises(L.LeagueError) as e:
        E.configure(d, "signup", 2.0, cap=2)
    assert e.value.key == "events.reg.err.cap_below" and e.value.params == {"cap": 2, "n": 3}
    assert E.configure(d, "signup", 2.0, cap=None)["moved"] == [D]
    assert [p["id"] for p in d["players"]] == [A, B, C, D]


def test_settings_are_for_sign_up_with_a_start_to_come_and_check_in_needs_a_start():
    """"Organiser only, during sign-up": the settings are refused once the league runs; the start
    must be in the future; check-in needs a start; the start becomes the end of sign-up."""
    d = _doc()
    for kw, key in (({"start_at": 50.0}, "events.reg.err.start_past"),
                    ({"checkin_minutes": 30}, "events.err.checkin_needs_start"),
                    ({"no_show_minutes": 0}, "events.err.bad_minutes")):
        with pytest.raises(L.LeagueError) as e:
            E.configure(d, "signup", 100.0, **kw)
        assert e.value.key == key, kw
    with pytest.raises(L.LeagueError) as e:
        E.configure(d, "running", 100.0, cap=8)
    assert e.value.key == "events.reg.err.settings_started"
    out = E.configure(d, "signup", 100.0, start_at=7200.0, checkin_minutes=30, no_show_minutes=10,
                      open_decklists=True)
    assert out["changed"] == ["start_at", "checkin_minutes", "no_show_minutes", "open_decklists"]
    assert d["signup_until"] == 7200.0, "sign-up stays open until the start: the clock starts the event then"
    assert E.settings(d) == {"cap": None, "start_at": 7200.0, "checkin_minutes": 30, "no_show_minutes": 10,
                             "open_decklists": True}
    E.configure(d, "signup", 100.0, checkin_minutes=None, start_at=None)
    assert d["signup_until"] is None


async def test_every_settings_change_is_in_the_trail_in_words(tmp_path):
    """"Every change is in the trail": the cap, the start (a Discord timestamp), check-in,
    the no-show time and open decklists, each by the organiser who set it."""
    store, svc, _, lid = await _service(tmp_path, cap=8, start_at=T0 + 7200, checkin_minutes=30,
                                        no_show_minutes=10, open_decklists=True)
    d = await _data(store, lid)
    lines = [trail.line(e, {}, "en") for e in d["trail"] if e["what"].startswith("events.reg.trail.set.")]
    assert [ln.split("> ", 1)[1] for ln in lines] == [
        f"<@{ORG}> set the player cap to 8", f"<@{ORG}> set the start to <t:{int(T0 + 7200)}:f>",
        f"<@{ORG}> set check-in to open 30 minutes before the start", f"<@{ORG}> set the no-show time to 10 minutes",
        f"<@{ORG}> opened the decklists (public at the top cut)"]
    assert (await svc.settings(lid, G, ORG, cap=None, open_decklists=False)).ok
    d = await _data(store, lid)
    assert _line(d, "events.reg.trail.set.cap_off").endswith("removed the player cap")
    assert "非公開" in _line(d, "events.reg.trail.set.open_off", "ja")
    await store.close()


def test_a_league_without_settings_signs_up_leaves_and_starts_as_before():
    """"Without check-in settings everything stays as today": no registration, join and leave
    only touch the players, and everyone signed up plays."""
    d = _doc(n=3)
    assert "registration" not in d and L.join(d, "signup", D, "P4", 1.0) is None
    L.drop(d, "signup", D, False, 2.0)
    L.start(d, "signup", 3.0)
    assert L.active_ids(d) == [A, B, C]


# ---------------------------------------------------------------------------- check-in
def test_check_in_opens_checkin_minutes_before_the_start_and_closes_at_it():
    """"Check-in opens ``checkin_minutes`` before ``start``" — the opening instant included,
    the start excluded; before it a player is told when it opens."""
    start = 10_000.0
    d = _doc(n=2, start_at=start, checkin_minutes=30)
    opens = start - 1800
    assert not E.checkin_open(d, opens - 1) and E.checkin_open(d, opens) and not E.checkin_open(d, start)
    with pytest.raises(L.LeagueError) as e:
        E.check_in(d, "signup", A, opens - 1)
    assert e.value.key == "events.err.checkin_not_open" and e.value.params == {"opens": int(opens)}
    assert E.check_in(d, "signup", A, opens) == "registered"
    with pytest.raises(L.LeagueError) as e:
        E.check_in(d, "signup", B, start)
    assert e.value.key == "events.err.checkin_closed"
    with pytest.raises(L.LeagueError) as e:
        E.check_in(d, "signup", A, opens + 5)
    assert e.value.key == "events.err.already_checked_in"


def test_an_organiser_checks_a_player_in_by_hand_even_before_the_window():
    """"The organiser may check someone in by hand": also before check-in opens; the trail
    says who did it."""
    d = _doc(n=2, start_at=10_000.0, checkin_minutes=30)
    before = {**d, "registration": {**d["registration"], "entries": [dict(e) for e in d["registration"]["entries"]]}}
    assert E.check_in(d, "signup", B, 100.0, by_organiser=True) == "registered"
    entries, _, _ = E.trail_changes(before, d, at=100.0, by=ORG, act="checkin")
    assert [e["what"] for e in entries] == ["events.reg.trail.checkin_organiser"]
    assert trail.line(entries[0], {B: "Bea"}, "en").endswith(f"<@{ORG}> checked Bea in")
    with pytest.raises(L.LeagueError) as e:
        E.check_in(_doc(n=2), "signup", A, 100.0)
    assert e.value.key == "events.err.no_checkin"


async def test_the_start_admits_checked_in_players_leaves_out_no_shows_and_fills_from_the_waiting_list(tmp_path):
    """"At the start only checked-in players play; registered players who did not check in are left
    out (listed as 'no check-in'), waiting-list players who checked in fill free places\" — in
    sign-up order, and the trail says "did not check in" and "took a free place", not "left"."""
    start = T0 + 3600
    store, svc, clock, lid = await _service(tmp_path, n=5, cap=3, start_at=start, checkin_minutes=60)
    assert E.waiting(await _data(store, lid)) == [D, E5]
    clock.t = start - 600
    for u in (A, B, E5):
        assert (await svc.checkin(lid, G, u)).ok
    res = await svc.checkin(lid, G, E5)
    assert not res.ok and res.error.key == "events.err.already_checked_in"
    clock.t = start
    res = await svc.start(lid, G, by=ORG)
    assert res.ok, res.error
    d = res.data["league"].data
    assert L.active_ids(d) == [A, B, E5]
    assert {e["id"]: e["status"] for e in d["registration"]["entries"]} == \
        {A: "active", B: "active", C: "no_checkin", D: "waiting", E5: "active"}
    whats = _whats(d)
    assert "events.reg.trail.no_checkin" in whats and "events.reg.trail.filled" in whats
    assert "events.trail.left" not in whats
    assert _line(d, "events.reg.trail.no_checkin").endswith("P3 did not check in: left out")
    assert E.summary_lines(d, "running", "en", start)[1] == f"No check-in (left out): <@{C}>"
    await store.close()


def test_too_few_checked_in_players_do_not_start_and_nothing_changes():
    """"An event needs at least two players: with fewer it does not start and nothing changes"."""
    d = _doc(n=3, start_at=10_000.0, checkin_minutes=30)
    E.check_in(d, "signup", A, 9_000.0)
    with pytest.raises(L.LeagueError) as e:
        L.start(d, "signup", 10_000.0)
    assert e.value.key == "leagues.err.too_few" and e.value.params == {"n": 1}


# ---------------------------------------------------------------------------- drops
async def test_a_drop_between_rounds_is_never_paired_again_and_stays_in_the_standings(tmp_path):
    """"A player may drop between rounds — never paired again, stays in the standings" (the
    registration says dropped too)."""
    store, svc, _, lid = await _service(tmp_path, n=4, cap=8)
    assert (await svc.start(lid, G, by=ORG)).ok
    assert (await svc.leave(lid, G, A)).ok
    d = await _data(store, lid)
    assert next(e for e in d["registration"]["entries"] if e["id"] == A)["status"] == "dropped"
    assert A in [r.user_id for r in L.table(d)] and A not in L.active_ids(d)
    await store.close()


# ---------------------------------------------------------------------------- no-shows
async def _running(tmp_path, minutes: int = 10, deadline_hours: int = 0):
    store, svc, clock, lid = await _service(tmp_path, n=4, deadline_hours=deadline_hours, no_show_minutes=minutes)
    assert (await svc.start(lid, G, by=ORG)).ok
    d = await _data(store, lid)
    return store, svc, clock, lid, L.round_pairings(d)


async def test_a_no_show_is_a_game_win_after_the_time_and_the_match_after_twice_that(tmp_path):
    """"A pairing whose match has not started within ``no_show_minutes`` after the round began: the
    player who showed up may claim a game win (in a best-of-one, that decides the match), after
    twice that time the match" — the game counts as one game won, the match as none."""
    store, svc, clock, lid, (p1, p2) = await _running(tmp_path)
    clock.t = T0 + 9 * 60
    res = await svc.claim(lid, G, p1["id"], p1["a"])
    assert not res.ok and res.error.key == "events.reg.err.no_show_early"
    assert res.error.params == {"at": int(T0 + 600)}
    clock.t = T0 + 10 * 60
    res = await svc.claim(lid, G, p1["id"], p1["a"])
    assert res.ok and res.data["payload"]["state"] == "final"
    assert res.data["payload"]["no_show"]["kind"] == "game" and res.data["payload"]["no_show"]["minutes"] == 10
    clock.t = T0 + 20 * 60
    res = await svc.claim(lid, G, p2["id"], p2["b"])
    assert res.ok and res.data["payload"]["no_show"]["kind"] == "match"
    d = await _data(store, lid)
    q1, q2 = (L.pairing(d, p["id"]) for p in (p1, p2))
    assert (q1["result"], q1["how"], q1["games"]) == ("a", "forfeit", ["a"])
    assert (q2["result"], q2["games"]) == ("b", [])
    assert q1["no_show"] == {"by": p1["a"], "kind": "game", "at": T0 + 600}
    scored = {(p["a"], p["b"]): p["games"] for p in L.score_pairings(d)}
    assert scored[p1["a"], p1["b"]] == ["a"] and scored[p2["a"], p2["b"]] == [], "the game claim counts one game won"
    assert "claimed a no-show game win in pairing" in _line(d, "events.reg.trail.no_show_game")
    assert "対戦全体の不戦勝を申請" in _line(d, "events.reg.trail.no_show_match", "ja")
    assert "events.trail.claim" not in _whats(d), "told once, as a no-show"
    await store.close()


def test_no_show_claims_are_refused_once_a_game_has_begun_or_while_the_opponents_challenge_waits():
    """The player who showed up claims: not the one whose opponent's challenge waits for them
    (they should accept it), and never once a game of the pairing has begun (then only the
    deadline claim is left); a game claim in a longer match is stored, not decisive."""
    d = _doc(n=2, no_show_minutes=5)
    L.start(d, "signup", 0.0)
    [p] = L.round_pairings(d)
    d["trail"].append({"at": 0.0, "what": "events.trail.paired", "params": {"round": 1},
                       "after": {"pairings": [{"pairing": p["id"]}]}})
    assert E.started_at(d, p) == 0.0
    with pytest.raises(L.LeagueError) as e:
        L.claim(d, "running", p["id"], p["a"], 600.0, False, challenger=p["b"])
    assert e.value.key == "events.reg.err.challenged"
    with pytest.raises(L.LeagueError) as e:
        L.claim(d, "running", p["id"], p["a"], 600.0, False, begun=True)
    assert e.value.key == "leagues.err.before_deadline"
    p["best_of"] = 3
    assert L.claim(d, "running", p["id"], p["a"], 300.0, False, challenger=p["a"]) == "noted"
    assert p["result"] is None and p["no_show"]["kind"] == "game"
    assert L.claim(d, "running", p["id"], p["a"], 600.0, False) == "final" and p["result"] == "a"


# ---------------------------------------------------------------------------- decklists
def _spec(game: str, ready: str):
    return registry.get(game).decks.ready()[ready]["spec"]


async def test_a_deck_registered_at_check_in_is_locked_with_the_hash_of_its_contents(tmp_path):
    """"A player registers a deck at check-in; it is locked for the event (stored with a hash of
    its contents)": a second deck is refused; the same contents (a saved copy) are the same deck;
    the hash is SHA-256 of the game's deck code."""
    store, svc, clock, lid = await _service(tmp_path, n=2, start_at=T0 + 3600, checkin_minutes=60)
    spec = _spec("logic_square", "blitz")
    res = await svc.checkin(lid, G, A, deck="blitz", kind="ready")
    assert res.ok and res.data["payload"]["status"] == "registered"
    locked = E.locked_deck(res.data["league"].data, A)
    code = registry.get("logic_square").decks.encode(spec)
    assert locked["hash"] == hashlib.sha256(f"logic_square:{code}".encode()).hexdigest()
    assert locked["ready"] == "blitz" and E.play_deck(locked) == "blitz" and locked["spec"] == spec
    res = await svc.checkin(lid, G, A, deck=_spec("logic_square", "aegis"), kind="code")
    assert not res.ok and res.error.key == "events.reg.err.deck_locked"
    d = await _data(store, lid)
    assert E.same_deck(d, A, dict(spec)) and not E.same_deck(d, A, "aegis")
    # checked in without a deck: the deck can still be registered once, before the start
    assert (await svc.checkin(lid, G, B)).ok
    res = await svc.checkin(lid, G, B, deck=_spec("logic_square", "aegis"), kind="saved", label="My Aegis")
    assert res.ok and res.data["payload"]["status"] is None
    res = await svc.checkin(lid, G, B, deck="fox", kind="ready")
    assert not res.ok and res.error.key == "events.reg.err.deck_locked"
    d = await _data(store, lid)
    first = next(e for e in d["trail"] if e["what"] == "events.reg.trail.deck")
    assert trail.line(first, {}, "en").endswith(f"P1 registered a deck (#{locked['hash'][:12]})")
    assert first["after"] == {"hash": locked["hash"]}, "the trail keeps the hash, never the cards"
    assert E.deck_label(d, E.locked_deck(d, B), "en") == "My Aegis"
    assert (await svc.start(lid, G, by=ORG)).ok
    res = await svc.checkin(lid, G, A, deck="fox", kind="ready")
    assert not res.ok and res.error.key == "events.err.started"
    await store.close()


def test_decklists_stay_closed_until_the_top_cut_or_the_end_and_only_with_open_decklists():
    """"Lists become public at the top cut if ``open_decklists`` (and when the event ends); never
    before: a closed list never reaches anyone but its player and the organisers.\""""
    d = _doc(n=2)
    E.register_deck(d, "signup", A, "blitz", 1.0, kind="ready", label=None)
    for status in ("signup", "running", "finished"):
        assert not E.decklists_public(d, status)
        assert not E.may_see_decklist(d, status, B, A, organiser=False)
        assert E.may_see_decklist(d, status, A, A, organiser=False) and E.may_see_decklist(d, status, ORG, A, True)
    d["open_decklists"] = True
    assert not E.decklists_public(d, "running")
    d["bracket"] = {"stage": "elimination"}
    assert not E.decklists_public(d, "running"), "an elimination of everyone is no top cut"
    d["bracket"] = {"stage": "cut"}
    assert E.decklists_public(d, "running") and E.may_see_decklist(d, "running", B, A, organiser=False)
    d["bracket"] = None
    assert E.decklists_public(d, "finished") and E.decklists_public(d, "closed")


def test_a_decklist_reads_by_card_names_and_the_export_has_a_decklists_csv():
    """"Organisers see every list, card names not ids"; /league-admin export adds decklists.csv:
    one row per card (player, deck, hash, section, card, count), in the reader's language."""
    d = _doc(n=2)
    E.register_deck(d, "signup", A, "blitz", 1.0, kind="ready", label=None)
    text = E.decklist_text(d, A, "en")
    assert "Blitz Vector ×1" in text and "Pulse Jab ×3" in text and "av01" not in text
    assert "「ブリッツ・ベクター」×1" in E.decklist_text(d, A, "ja")
    assert E.decklist_text(d, B, "en") == "P2: no deck registered."
    rows = read_csv(dict(exports.files(d, "en"))["decklists.csv"])
    assert rows[0] == ["Player", "Deck", "Hash", "Section", "Card", "Count"]
    assert ["P1", rows[1][1], E.locked_deck(d, A)["hash"], "AVI", "Blitz Vector", "1"] == rows[1]
    assert ["P2", "", "", "", "", ""] in rows
    assert sum(int(r[5]) for r in rows[1:] if r[0] == "P1") == sum(
        n for _, cards in E.deck_sections({"game": "logic_square"}, _spec("logic_square", "blitz"), "en") for _, n in cards)
    assert read_csv(dict(exports.files(d, "ja"))["decklists.csv"])[0][:2] == ["選手", "デッキ"]


# ---------------------------------------------------------------------------- exports of event matches
def test_an_event_matchs_full_export_goes_to_organisers_and_after_the_end_to_its_players():
    """"An event match's full export only to organisers and, after the event ends, to its
    players; everyone else gets the public record" — no seed, no decks, only what everyone saw."""
    d = _doc(n=2)
    seats = [A, B]
    assert E.export_access(d, "running", ORG, True, seats) == "full"
    assert E.export_access(d, "running", A, False, seats) == "public"
    assert E.export_access(d, "running", C, False, seats) == "public"
    assert E.export_access(d, "finished", A, False, seats) == "full"
    assert E.export_access(d, "closed", B, False, seats) == "full"
    assert E.export_access(d, "finished", C, False, seats) == "public"
    full = {"format": "doujin-table/match-1", "id": 9, "game": "logic_square", "seed": 123, "prng": 2,
            "options": {"first": "1", "decks": [_spec("logic_square", "blitz"), "aegis"]}, "status": "finished",
            "seats": [{"seat": 0, "user_id": "1", "name": "P1"}], "rated": False, "league": 1,
            "commands": [{"seq": 1, "seat": 0, "command": "secret", "at": 1.0}], "result": {"winners": [0]},
            "created_at": 1.0, "updated_at": 2.0}
    public = E.public_export(full, [{"seq": 1, "seat": 0, "name": "P1", "command": "play", "story": []}])
    assert "seed" not in public and "prng" not in public and public["options"] == {"first": "1"}
    assert public["commands"] == [{"seq": 1, "seat": 0, "command": "play"}] and public["public"] is True
    assert public["result"] == {"winners": [0]} and public["league"] == 1


# ---------------------------------------------------------------------------- words
def test_every_registration_text_is_in_both_languages_without_a_stray_placeholder():
    """En and ja for every new message: the league message's lines and the settings' lines leave
    no ``{placeholder}`` unfilled."""
    d = _doc(n=3, cap=2, start_at=10_000.0, checkin_minutes=30, no_show_minutes=10, open_decklists=True)
    E.register_deck(d, "signup", A, "blitz", 1.0, kind="ready", label=None)
    for locale in ("en", "ja"):
        lines = E.summary_lines(d, "signup", locale, 9_000.0) + E.settings_lines(d, locale)
        assert len(lines) == 12 and not any(re.search(r"\{\w+\}", x) for x in lines), lines
    assert E.summary_lines(_doc(n=2), "signup", "en", 0.0) == [], "a league without settings shows nothing new"
    assert i18n.t("events.reg.embed.cap", "ja", n=2, cap=2, waiting=1) == "定員：2／2人、キャンセル待ち：1人"


def test_an_event_of_a_game_without_decks_has_no_decklists_to_show():
    """Decklists are the card games' ("a player registers a deck at check-in"): SQUARES has no
    decks, so its event's settings say nothing of decklists (and /league decklists says there
    are none: cogs/league_event.py)."""
    cards, squares = _doc(), _doc(game="squares")
    assert E.has_decklists(cards) and not E.has_decklists(squares)
    assert any("Decklists" in x for x in E.settings_lines(cards, "en"))
    assert not any("Decklists" in x or "デッキ" in y
                   for x, y in zip(E.settings_lines(squares, "en"), E.settings_lines(squares, "ja")))


def test_a_long_waiting_list_stays_within_the_league_messages_limits():
    """The league message names at most 30 players per list (an embed's description holds 4,096
    characters) and says how many more there are."""
    d = _doc(n=42, cap=2)
    [line] = [x for x in E.summary_lines(d, "signup", "en", 2.0) if x.startswith("Waiting list:")]
    assert line.count("<@") == 30 and line.endswith("and 10 more")
    assert E.summary_lines(d, "signup", "ja", 2.0)[-1].endswith("ほか10人")
