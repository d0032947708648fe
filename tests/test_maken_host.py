"""Project Maken through the host and the local console: full matches to the end, face-down
cards shown as ``?`` in everything public, each seat's hand in its private update only."""
from __future__ import annotations

import io
import random

import pytest

from data.store import FINISHED, open_store
from host import Host
from host.console import main as console_main
from rules import registry

ALICE, BOB = 11, 12
game = registry.get("maken")
LIVELY = ("gc", "bonus", "use", "fb", "keep", "guard", "attack")


def scripted_match(seed: int, options: dict) -> tuple[list[str], dict, set]:
    """A whole match's commands, preferring the attack-phase actions (guards, keeps, GCs)."""
    rng = random.Random(seed)
    state = game.new_match(2, seed, options)
    commands, judged = [], set()
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        lively = [c for c in legal if c.split()[0] in LIVELY]
        cmd = rng.choice(lively if lively and rng.random() < 0.8 else legal)
        commands.append(cmd)
        state = game.apply(state, seat, cmd)
        if state.d["judge"]:
            judged.add(state.d["judge"]["kind"])
    return commands, game.outcome(state), judged


def test_local_console_plays_a_full_match_driven_through_stdin():
    # the first seed whose match sees every judge but a trade (matches are shorter from rules
    # edition 2 on, so not every seed's does)
    for seed in range(1, 40):
        commands, outcome, judged = scripted_match(seed, {"first": 0})
        if {"clean_hit", "guard_break", "guard_cancel", "guard_holds"} <= judged:
            break
    assert {"clean_hit", "guard_break", "guard_cancel", "guard_holds"} <= judged
    script = "\n".join(["help", "attack zz99", *commands]) + "\n"
    out = io.StringIO()
    code = console_main(["--hot-seat", "--game", "maken", "--seed", str(seed), "--options", "first=1", "--no-pictures"],
                        stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert ": ready\n" in text and ": mulligan\n" in text  # help listed the legal commands, one a line
    assert '! "attack" is not possible at this point (mulligan)' in text
    assert f"Player {outcome['winners'][0] + 1} won" in text and "Match #1 is over." in text
    assert "guard stand ?" in text or "guard crouch ?" in text
    assert "Your hand:" in text                            # the private sections


def test_local_console_draws_pictures_and_speaks_japanese(tmp_path):
    out = io.StringIO()
    console_main(["--hot-seat", "--game", "maken", "--lang", "ja", "--seed", "2", "--options", "first=1",
                  "--out", str(tmp_path)], stdin=io.StringIO("help\nready\nquit\n"), stdout=out)
    assert "できる行動" in out.getvalue() and "手札" in out.getvalue()
    pngs = sorted(tmp_path.glob("*.png"))
    assert any("public" in p.name for p in pngs) and any("seat1" in p.name for p in pngs)
    assert pngs[-1].read_bytes()[:4] == b"\x89PNG"


@pytest.fixture
async def host(tmp_path):
    store = await open_store(str(tmp_path / "maken.db"))
    h = Host(store, render=False)
    yield h
    await store.close()


async def test_full_matches_through_the_host_keep_face_down_cards_out_of_public_text(host):
    for n in range(2):
        res = await host.challenge("maken", ALICE, "Alice", opponents=[(BOB, "Bob")], seed=40 + n,
                                   deck="mizuha_basic")
        assert res.ok, res.error
        mid = res.match.id
        res = await host.accept(mid, BOB, deck="kotetsu_basic")
        assert res.ok, res.error
        rng = random.Random(n)
        hidden_seen = 0
        for _ in range(3000):
            rec = await host.store.get_match(mid)
            if rec.status == FINISHED:
                break
            state = await host._state(rec)
            seat = game.to_act(state)[0]
            legal = game.legal_commands(state, seat)
            lively = [c for c in legal if c.split()[0] in LIVELY + ("set",)]
            cmd = rng.choice(lively if lively and rng.random() < 0.8 else legal)
            res = await host.command(mid, rec.seats[seat], cmd)
            assert res.ok, res.error
            public = [m.render(loc) for m in res.public.text for loc in ("en", "ja")]
            verb, *args = cmd.split()
            if verb in ("guard", "keep", "set"):
                hidden = [a for a in args if a not in ("stand", "crouch", "air")]
                hidden_seen += bool(hidden)
                for line in public:
                    assert all(c not in line for c in hidden), (cmd, line)
                    names = [game.decks.cards()[c]["name"][loc] for c in hidden for loc in ("en", "ja")]
                    assert all(name not in line for name in names), (cmd, line)
                # … the thread says how many cards went face down, in words
                assert not hidden or any("face-down card" in line or "伏せたカード" in line for line in public), public
            after = await host._state(await host.store.get_match(mid))
            assert {u.seat for u in res.private} == {0, 1}
            for update in res.private:                     # each seat gets its own hand only
                assert update.own["hand"] == game.view(after, update.seat)["hand"]
                assert update.own["guard_cards"] == list(after.d["guard"][update.seat])
            assert "hand" not in res.public.view and "guard_cards" not in res.public.view
        rec = await host.store.get_match(mid)
        assert rec.status == FINISHED and rec.result["reason"] in ("lp", "turn_limit")
        assert hidden_seen > 3
