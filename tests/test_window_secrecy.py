"""A secret response window leaves no trace in anything public.

The issue: the public status line "To act: Alice (after N moves)" counted hidden decisions (a pass
in a secret response window, made public by the chain it let resolve), so N minus the number of
``/match log`` entries told everyone that a window had been opened — that the opponent held a
card that could answer.  "The secrecy test compares two matches with the same public history, in
one of which the opponent could have responded in secret and passed while in the other they
could not: every public text is identical."

The games with secret windows are the ones whose engine has hidden decisions
(:func:`host.replay._hidden`): Battle Logic Square (the chain-answer window) and Art of War (the
GUARDIAN / WIZARD windows).  Project Maken, Avalon's Sanctuary and SQUARES never open one (their
``public_to_act`` is ``to_act`` and every command is shown; checked below over random play), so
for them there is no pair of matches to compare — the counter test covers them.

**The twin matches.**  Match A is random play (a seed, both decks given as specs, seat 0
first) in which a seat offered a secret window always passes it.  Match B has the same seed and
the same options except that ONE card of the responder's deck is replaced by another (Art of
War: one of its 20 units by a unit of another kind; Battle Logic Square: a card the responder
holds at the window by a card near it in card-id order, within the deck rules).  A deck is
shuffled from its list in a fixed order (by card id; Art of War: by kind) by the seed's random
stream alone, so B's shuffled deck is A's with that card changed and the few cards ordered
between the two in other places; nothing else in the match differs.  Among such variants a twin is kept only if, checked on the engine:

* at the target window of A (the responder had a legal answer and passed), B's responder has no
  legal answer, so B's engine offers no window there (it offers one only when a legal answer
  exists) and B's command resolves at once;
* every command of A is legal in B at the same point, and B shows exactly the same public
  commands and the same public view after each of them: whatever differs stays hidden (in a
  deck or a hand) throughout the compared stretch — from the start to 12 commands after the
  target window.  A window B offers where A had none is passed in B too; a pass A made in a
  window B never offered is not in B.

So both matches have the same public history, by construction, and differ only in what a
responder could secretly have done.  Both are then played through the real :class:`host.Host`
(pictures on), and everything a spectator reads is compared:

* every update the channel gets (``Result.public``): its text lines rendered in every locale,
  the status line in every locale, the public view, the picture (drawn from a few log entries
  before the target window on; see :func:`readings_of`), who is awaited, whether Join is
  offered, and the board message around them — its Components V2 layout with its controls
  (:meth:`cogs.delivery.Delivery.board_layout`: status, players, clock, options, the accent of
  the player to act — the lines are compared as text; the match number in its title is the one
  thing that differs by design and is set to 0);
* ``Host.status`` for a spectator, and ``Host.log``, asked after every command.

A window opening shows nothing at all — its update carries no line and the same board as the
update before, which is how nothing changes in the channel — so each stream is compared as a
spectator reads it: an update without a line that repeats the board is not a new reading, and a
status or log that is asked again and answers the same is the same reading.  Each of the three
streams of readings must be the same in A and B, reading for reading.

And over random matches of every game (answers and passes, windows within windows, a default
applied when a window's clock runs out, late joins, resignations): at every step the N of "after
N moves" is the number of entries ``/match log`` shows at that moment.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

import pytest

from cogs.board_layout import layout_view
from cogs.delivery import Delivery
from data import i18n
from data.store import ACTIVE
from host.replay import _hidden, _public_command
from rules import registry

GAMES = ("squares", "logic_square", "maken", "art_of_war", "avalon")
WINDOW_GAMES = ("logic_square", "art_of_war")
ALICE, BOB, CY, DI, SPECTATOR = 1, 2, 3, 4, 99
USERS = (ALICE, BOB, CY, DI)
NAMES = ("Alice", "Bob", "Cy", "Di")
TWINS = 3          # twin pairs per game
AFTER = 12         # commands of A compared after the target window's pass


# ----------------------------------------------------------------------------- engine side

def deck_pair(game: Any, seed: int) -> list[dict]:
    """Two ready-made decks as specs (so the options line reads "own deck" in A and B alike)."""
    ids = list(game.decks.ready())
    return [game.deck_spec(ids[seed % len(ids)]), game.deck_spec(ids[(seed + 1) % len(ids)])]


def options(decks: list[dict]) -> dict:
    return {"first": 0, "decks": decks}


def play_a(game: Any, seed: int, decks: list[dict], limit: int = 150) -> tuple[list, set, list]:
    """Match A on the engine: random play, now and then preferring a command that opens a secret
    window; a seat offered a window always passes.  Returns the commands ``[(seat, cmd)]``, the
    indices of those passes, and whether a window was pending after each command."""
    rng = random.Random(seed)
    state = game.new_match(2, seed, options(decks))
    line: list[tuple[int, str]] = []
    passes: set[int] = set()
    pending: list[bool] = []
    while game.outcome(state) is None and len(line) < limit:
        seat = game.to_act(state)[0]
        if _hidden(game, state):
            cmd = "pass"
            assert _public_command(game, state, seat, cmd) is None   # a pass is never shown
            passes.add(len(line))
        else:
            legal = game.legal_commands(state, seat)
            opening = [c for c in legal if _hidden(game, game.apply(state, seat, c))] \
                if rng.random() < 0.4 else []
            cmd = rng.choice(opening or legal)
        line.append((seat, cmd))
        state = game.apply(state, seat, cmd)
        pending.append(_hidden(game, state))
    return line, passes, pending


def replay(game: Any, seed: int, decks: list[dict], line: list, passes: set, *, views: bool = True
           ) -> tuple[list, list, list] | None:
    """A's commands replayed on ``decks``: a window offered here where A had none is passed too,
    a pass of A in a window not offered here is left out.  Returns the public history (each
    shown command, and — ``views`` — the public view whenever no window is pending), the
    commands played here, and the indices of A's passes left out; None when a command of A is
    not legal here."""
    state = game.new_match(2, seed, options(decks))
    history: list = []
    played: list[tuple[int, str]] = []
    left_out: list[int] = []
    i = 0
    while i < len(line):
        seat, cmd = line[i]
        if _hidden(game, state) and i not in passes:        # a window A did not have: pass
            seat, cmd = game.to_act(state)[0], "pass"
        elif i in passes and not _hidden(game, state):      # A's window is not offered here
            left_out.append(i)
            i += 1
            continue
        else:
            i += 1
        if seat not in game.to_act(state) or cmd not in game.legal_commands(state, seat):
            return None
        shown = _public_command(game, state, seat, cmd)
        state = game.apply(state, seat, cmd)
        played.append((seat, cmd))
        if shown is not None:
            history.append(("said", seat, shown))
        if views and not _hidden(game, state):
            history.append(("view", json.dumps(game.view(state, None), sort_keys=True)))
    return history, played, left_out


def variants(game_name: str, game: Any, deck: dict, hand: list[str]):
    """Legal decks with one card of ``deck`` replaced by another (Battle Logic Square: a card of
    ``hand`` by one of the 15 nearest in id order, so few cards change places in the shuffle)."""
    if game_name == "art_of_war":
        from rules.art_of_war.cards import BASIC_IDS

        for x in BASIC_IDS:
            for y in BASIC_IDS:
                if y != x and deck["units"].get(x):
                    units = dict(deck["units"])
                    units[x] -= 1
                    units[y] = units.get(y, 0) + 1
                    yield {"king": deck["king"], "units": units}
        return
    pool = sorted(c for c, card in game.cardset.cards.items() if card.category in ("Ac", "Sc", "Br"))
    for x in sorted(set(hand)):
        if x not in pool:
            continue
        near = sorted(pool, key=lambda c: (abs(pool.index(c) - pool.index(x)), c))
        for y in near[1:16]:
            resources = list(deck["resources"])
            resources.remove(x)
            try:
                yield game.deck_spec({**deck, "resources": resources + [y]})
            except ValueError:          # a copy limit broken
                continue


def hand_at(game: Any, seed: int, decks: list[dict], line: list, seat: int) -> list[str]:
    state = game.new_match(2, seed, options(decks))
    for s, cmd in line:
        state = game.apply(state, s, cmd)
    hands = getattr(state, "hand", None) or state.hands       # (Art of War: hands)
    return list(hands[seat])


@dataclass
class Twin:
    game: str
    seed: int
    a_decks: list
    b_decks: list
    a_line: list        # A's commands, secret passes included
    b_line: list        # B's commands
    target: int         # the index in a_line of the pass of the window B did not have
    draw_from: int      # pictures are drawn once the log has this many entries (see readings_of)


def find_twins(game_name: str, want: int = TWINS, seeds: range = range(200)) -> list[Twin]:
    game = registry.get(game_name)
    found: list[Twin] = []
    for seed in seeds:
        decks = deck_pair(game, seed)
        line, passes, pending = play_a(game, seed, decks)
        for target in sorted(passes):
            end = min(len(line), target + 1 + AFTER)
            while end < len(line) and pending[end - 1]:     # never stop inside a window
                end += 1
            a_line = line[:end]
            a_passes = {p for p in passes if p < end}
            said = replay(game, seed, decks, a_line, a_passes, views=False)[0]
            responder = line[target][0]
            hand = hand_at(game, seed, decks, line[:target], responder)
            twin = None
            for deck in variants(game_name, game, decks[responder], hand):
                b_decks = list(decks)
                b_decks[responder] = deck
                got = replay(game, seed, b_decks, a_line, a_passes, views=False)   # cheap first
                if got is None or got[0] != said or target not in got[2]:
                    continue
                if replay(game, seed, b_decks, a_line, a_passes)[0] == \
                        replay(game, seed, decks, a_line, a_passes)[0]:
                    shown = replay(game, seed, decks, line[:target], a_passes, views=False)[0]
                    twin = Twin(game_name, seed, decks, b_decks, a_line, got[1], target,
                                max(0, len(shown) - 4))
                    break
            if twin is not None:
                found.append(twin)
                break                                       # one pair per seed
        if len(found) >= want:
            break
    return found


# ----------------------------------------------------------------------------- host side

DELIVERY = Delivery(None)       # only its board layout is used (it needs no bot)


def board_message(rec: Any, public: Any, loc: str) -> list:
    """The board message of ``public`` as the channel gets it: its layout and controls."""
    rec = replace(rec, id=0)
    layout, _ = DELIVERY.board_layout(rec, public, loc, lines=[])
    return layout_view(layout, DELIVERY._controls(rec, public, loc)).to_components()


def reading(rec: Any, public: Any) -> dict:
    """Everything a spectator reads of one public update."""
    board = {}
    for loc in i18n.LOCALES:
        board[loc] = board_message(rec, public, loc)
    return {
        "text": [[m.render(loc) for loc in i18n.LOCALES] for m in public.text],
        "status": [public.status_line.render(loc) for loc in i18n.LOCALES] if public.status_line else None,
        "view": json.dumps(public.view, sort_keys=True, default=str),
        "picture": public.picture,
        "awaited": list(public.awaited),
        "joinable": public.joinable,
        "board": board,
    }


def add_update(readings: list, r: dict) -> None:
    """An update with no line that shows the board as it was is no new reading."""
    if readings and not r["text"] and {k: v for k, v in r.items() if k != "text"} == \
            {k: v for k, v in readings[-1].items() if k != "text"}:
        return
    readings.append(r)


def add_same(readings: list, r: Any) -> None:
    if not readings or readings[-1] != r:
        readings.append(r)


def moves_in(status_line: Any) -> int | None:
    """The N of "To act: … (after N moves)", None for another status line."""
    return status_line.params["n"] if status_line is not None and status_line.key == "host.status.to_act" else None


async def counter_matches_log(host: Any, mid: int, res: Any) -> None:
    """N in the update's and a spectator's status line == the entries ``/match log`` shows."""
    entries = len((await host.log(mid)).data["log"])
    for line in (res.public.status_line, (await host.status(mid, SPECTATOR)).public.status_line):
        n = moves_in(line)
        assert n is None or n == entries, (line.render("en"), entries)


async def readings_of(host: Any, game_name: str, seed: int, decks: list, line: list,
                      draw_from: int = 0) -> dict:
    """Play ``line`` through the host; every reading of the three streams.  Pictures are drawn
    once the log shows ``draw_from`` entries (a point of the public history, the same in both
    twins: a few entries before the window one of them did not have) — drawing every step of
    both matches would take most of a minute, and before that point the pictures are drawn from
    views compared here anyway."""
    res = await host.challenge(game_name, ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options=options(decks), seed=seed)
    mid = res.match.id
    streams: dict[str, list] = {"updates": [], "status": [], "log": []}
    host.render_enabled = draw_from <= 0

    async def look(res: Any) -> None:
        assert res.ok, res.error
        add_update(streams["updates"], reading(res.match, res.public))
        st = await host.status(mid, SPECTATOR)
        add_same(streams["status"], reading(st.match, st.public))
        log = (await host.log(mid)).data["log"]
        add_same(streams["log"], log)
        host.render_enabled = len(log) >= draw_from

    await look(await host.accept(mid, BOB))
    for seat, cmd in line:
        await look(await host.command(mid, USERS[seat], cmd))
    assert host.render_enabled, "no picture was drawn"
    return streams


def first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            if isinstance(x, dict) and isinstance(y, dict):
                keys = [k for k in x if x.get(k) != y.get(k)]
                return f"reading {i}: {keys}: {[x.get(k) for k in keys]} != {[y.get(k) for k in keys]}"[:2000]
            return f"reading {i}: {x!r} != {y!r}"[:2000]
    return f"{len(a)} readings != {len(b)} readings"


@pytest.mark.parametrize("game_name", WINDOW_GAMES)
async def test_a_passed_window_and_no_window_read_the_same(clocked_host, game_name):
    twins = find_twins(game_name)
    assert len(twins) >= TWINS, f"{game_name}: only {len(twins)} twin matches found"
    host = await clocked_host(render=True)
    for twin in twins:
        assert twin.a_line[twin.target][1] == "pass"
        a = await readings_of(host, game_name, twin.seed, twin.a_decks, twin.a_line, twin.draw_from)
        b = await readings_of(host, game_name, twin.seed, twin.b_decks, twin.b_line, twin.draw_from)
        assert any(r["picture"] for r in a["updates"])
        for stream in ("updates", "status", "log"):
            assert a[stream] == b[stream], (f"{game_name} seed {twin.seed}, window passed at "
                                            f"command {twin.target + 1}: {stream}: "
                                            + first_difference(a[stream], b[stream]))


async def test_a_window_opened_by_the_first_command_keeps_the_options_on_the_board(clocked_host):
    """The board shows the options until the first move; a window opened by the very first
    command is no move anyone may see, so the options stay until the declaration is shown."""
    game = registry.get("logic_square")
    for seed in range(300):
        decks = deck_pair(game, seed)
        state = game.new_match(2, seed, options(decks))
        opening = [c for c in game.legal_commands(state, 0) if _hidden(game, game.apply(state, 0, c))]
        if opening:
            break
    else:
        raise AssertionError("no first command opens a window")
    host = await clocked_host(render=False)
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options=options(decks), seed=seed)
    before = await host.accept(res.match.id, BOB)
    res = await host.command(res.match.id, ALICE, opening[0])
    assert res.ok and res.public.text == []
    for loc in i18n.LOCALES:
        assert board_message(res.match, res.public, loc) == board_message(before.match, before.public, loc)


@pytest.mark.parametrize("game_name", [g for g in GAMES if g not in WINDOW_GAMES])
def test_the_other_games_never_open_a_secret_window(game_name):
    """No pair of matches to compare for them: no decision is ever hidden, no command unshown."""
    game = registry.get(game_name)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_match(3 if game_name == "avalon" else 2, seed, {})
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            cmd = rng.choice(game.legal_commands(state, seat))
            assert _public_command(game, state, seat, cmd) is not None
            state = game.apply(state, seat, cmd)
            assert not _hidden(game, state)


# ----------------------------------------------------------------------------- the counter

@pytest.mark.parametrize("game_name", GAMES)
async def test_the_move_count_is_always_the_number_of_log_entries(clocked_host, game_name):
    """Random matches through the host: answers and passes in windows (and windows within
    windows), a window's clock running out (the default pass), late joins and rejoins,
    resignations.  After every step: N == the entries of ``/match log``."""
    game = registry.get(game_name)
    host = await clocked_host(render=False)
    seen = {"steps": 0, "windows": 0, "nested": 0, "expired": 0, "joins": 0, "resigns": 0}
    # (windows: secret decisions met; nested: the turn player answering an answer)
    for seed in range(1, 6 if game_name in WINDOW_GAMES else 4):
        rng = random.Random(seed)
        n = 3 if game_name == "avalon" else 2
        res = await host.challenge(game_name, ALICE, "Alice", seed=seed, turn_seconds=60,
                                   opponents=[(USERS[i], NAMES[i]) for i in range(1, n)])
        mid = res.match.id
        for uid in USERS[1:n]:
            res = await host.accept(mid, uid)
        assert res.ok
        await counter_matches_log(host, mid, res)
        for step in range({"maken": 90, "avalon": 80}.get(game_name, 120)):
            rec = res.match
            if rec.status != ACTIVE:
                break
            state = await host._state(rec)
            if game_name == "avalon" and res.public.joinable and (step == 0 if seed == 1 else rng.random() < 0.1):
                # a fourth player joins (before any move in the first match), or a defeated one rejoins
                out = [s for s in range(len(rec.seats)) if s < len(state.players)
                       and state.players[s].status == "out"]
                uid, name = (rec.seats[out[0]], rec.names[out[0]]) if out else (DI, "Di")
                res = await host.join(mid, uid, name)
                assert res.ok, res.error
                seen["joins"] += 1
            elif game_name == "avalon" and step in (25, 60):
                res = await host.resign(mid, rec.seats[rng.choice(game.seats_in_play(state))])
                assert res.ok, res.error
                seen["resigns"] += 1
            elif _hidden(game, state) and seen["windows"] % 4 == 3:
                host.clock.t += 61                           # a window's clock runs out
                events = [e for e in await host.tick() if e.match and e.match.id == mid]
                assert [e.data.get("clock") for e in events] == ["auto"]
                res = events[0]
                seen["windows"] += 1
                seen["expired"] += 1
            else:
                seat = rng.choice(game.to_act(state))
                legal = game.legal_commands(state, seat)
                if _hidden(game, state):        # in turn: answer, answer, pass, let the clock run out
                    seen["nested"] += seat in game.public_to_act(state)
                    legal = ["pass"] if seen["windows"] % 4 == 2 else [c for c in legal if c != "pass"] or legal
                    seen["windows"] += 1
                res = await host.command(mid, rec.seats[seat], rng.choice(legal))
                assert res.ok, res.error
            await counter_matches_log(host, mid, res)
            seen["steps"] += 1
    assert seen["steps"] > 100
    if game_name in WINDOW_GAMES:
        assert seen["windows"] >= 8 and seen["nested"] and seen["expired"], seen
    if game_name == "avalon":
        assert seen["joins"] >= 2 and seen["resigns"] >= 2, seen
