"""Late join in the local console (``python bot.py --local``), driven through stdin: ``join``
seats a new hot-seat player in a running match through ``host.join`` (as the Join button does),
``N: join`` lets a defeated seat's player rejoin, and ``help`` lists both."""
from __future__ import annotations

import asyncio
import io
import random

from data.store import open_store
from host.console import main as console_main
from rules import registry

game = registry.get("avalon")
SEED = 4


def script_with_a_late_joiner(seed: int) -> tuple[list[str], int]:
    """A 3-player match where a fourth player joins, then seat 2 resigns and rejoins, played by
    the engine alone: the stdin lines (every command prefixed with its seat) and how many
    commands the joiner made."""
    rng = random.Random(seed)
    state = game.new_match(players=3, seed=seed, options={})
    lines = ["help"]

    def play(n: int) -> None:
        nonlocal state
        for _ in range(n):
            if game.outcome(state) is not None:
                return
            seat = rng.choice(game.to_act(state))
            cmd = rng.choice(game.legal_commands(state, seat))
            lines.append(f"{seat + 1}: {cmd}")
            state = game.apply(state, seat, cmd)

    play(5)
    lines.append("join")                       # a new player: seat 4
    state = game.join(state, 3)
    joiner = 0
    while game.outcome(state) is None and joiner < 4:
        before = len(lines)
        play(1)
        joiner += lines[before].startswith("4: ")
    lines.append("2: resign")                  # seat 2 is out, the others play on
    state = game.resign(state, 1)
    assert game.outcome(state) is None and state.players[1].status == "out"
    lines.append("2: join")                    # ... and rejoins their seat
    state = game.join(state, 1)
    play(3)
    lines.append("quit")
    return lines, joiner


def test_a_fourth_player_joins_a_three_player_console_match_and_plays(tmp_path):
    """「最大4人同時対戦」;「途中参加する場合は、チェイサーとして**リーダーターンが終了し次第プレイ**
    してください (敗北しても、すぐに途中参加可能です)」 — in the terminal too."""
    lines, joiner_moves = script_with_a_late_joiner(SEED)
    assert joiner_moves == 4
    db = str(tmp_path / "local.db")
    out = io.StringIO()
    code = console_main(["--hot-seat", "--game", "avalon", "--players", "3", "--seed", str(SEED), "--no-pictures",
                         "--db", db], stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "'join' seats a new player" in text                        # help lists it
    assert "Player 4 joins the match in progress." in text
    assert "Player 2 resigned and is out of the match; the others play on." in text
    assert "Player 2 rejoins the match." in text
    assert not [l for l in text.splitlines() if l.startswith("! ")], "every line was accepted"

    async def log() -> tuple[list, list]:
        store = await open_store(db)
        try:
            rec = (await store.matches_for_user(1))[0]
            return rec.seats, [(c.seat, c.command) for c in await store.commands(rec.id)]
        finally:
            await store.close()
    seats, commands = asyncio.run(log())
    assert seats == [1, 2, 3, 4]                                        # a new local user
    assert (3, "__join__") in commands and (1, "__resign__") in commands
    assert commands.index((1, "__join__")) > commands.index((1, "__resign__"))
    played = sum(1 for seat, c in commands if seat == 3 and not c.startswith("__"))
    assert played == sum(1 for line in lines if line.startswith("4: ")) >= joiner_moves


def test_console_join_refusals_are_clear():
    """A game without late join says so; a deck is only for card games; a full table refuses."""
    out = io.StringIO()
    console_main(["--hot-seat", "--game", "squares", "--seed", "1", "--no-pictures"],
                 stdin=io.StringIO("join\nquit\n"), stdout=out)
    assert "! This match has no open seats to join." in out.getvalue()
    out = io.StringIO()
    script = "join\njoin\njoin nope\nquit\n"
    console_main(["--hot-seat", "--game", "avalon", "--players", "3", "--seed", "1", "--no-pictures"],
                 stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    assert "Player 4 joins the match in progress." in text
    assert "! All 4 seats of this match are taken" in text
    ready = list(game.decks.ready())
    out = io.StringIO()
    console_main(["--hot-seat", "--game", "avalon", "--seed", "1", "--no-pictures", "--lang", "ja"],
                 stdin=io.StringIO(f"join {ready[-1]}\n1: join\njoin zzz\nquit\n"), stdout=out)
    text = out.getvalue().replace(" ", "")     # the Japanese catalog's spacing is not the point here
    assert "プレイヤー3が途中参加した。" in text                         # with a ready-made deck
    assert "!p1はまだプレイ中です" in text or "!プレイヤー1はまだプレイ中です" in text   # seat 1 is not out
    assert "!「zzz」という名前のデッキはありません" in text
