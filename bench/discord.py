"""``python -m bench --discord``: the Discord table as a player meets it, measured.

The real bot (``python bot.py``, a subprocess) runs against the local Discord twin
(``tests/e2e/twin.py``) and plays one match of every registered game (Avalon's Sanctuary with 3
players) the way a player does: on their turn they press **Act** on the board (or in their DM,
where a decision of theirs is asked privately) and pick from the menu until the move is played.
Which player acts is taken from ``/move``'s autocomplete (the only oracle a user has); the pick
in each menu is random but seeded.  Per game, under ``"discord"`` → ``{game: {...}}``:

- ``interactions_per_move_median`` / ``_max``: clicks and select picks from the notification to
  the move being played (Act included);
- ``public_messages_per_turn``: new messages in the match's thread (and channel) per turn, a turn
  being a run of moves by the same players;
- ``rest_calls_per_command``: REST calls that count against the bot's rate limits per command:
  channel and DM messages posted, edited or deleted, threads, DM channels (not the interactions'
  own callbacks and follow-ups);
- ``board_is_last_message``: at every turn change and at the end, the newest message of the
  thread is the board (with its Act button while the match runs, with the result at the end);
- ``raw_id_labels``: labels of buttons and select options shown that are only an id or a
  notation token (:func:`render.labels.is_raw_id`);
- ``phone_text_px``: the smallest text of the game's pictures at 400 px wide, over every
  position of the match played (public and each seat's view, English and Japanese).
"""
from __future__ import annotations

import asyncio
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

TARGETS = {"interactions_per_move_median": 2.5, "interactions_per_move_max": 4,
           "public_messages_per_turn": 2, "rest_calls_per_command": 2.5, "raw_id_labels": 0,
           "phone_text_px": 8}
QUICK_OPTIONS = {"squares": "max_turns=16", "logic_square": "max_turns=10", "maken": "max_turns=10",
                 "avalon": "max_rounds=5"}
TEST_ONLY = {"hidden_duel", "secret_duel", "window_test"}
RATE_LIMITED = re.compile(r"^/channels/\d+/(messages(/\d+)?|threads|messages/\d+/threads)$|^/users/@me/channels$")


def run_discord(games: list[str] | None = None, *, max_moves: int = 120, seed: int = 1,
                log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Play and measure (see the module doc); returns ``{"discord": {game: figures}}``."""
    return asyncio.run(_run(games, max_moves=max_moves, seed=seed, log=log))


async def _run(games: list[str] | None, *, max_moves: int, seed: int, log: Callable[[str], None]) -> dict:
    from rules import registry
    from tests.e2e.harness import BotProcess, Table
    from tests.e2e.twin import Twin

    names = [g for g in (games or registry.names()) if g not in TEST_ONLY]
    out: dict[str, Any] = {}
    for game in names:
        with tempfile.TemporaryDirectory(prefix="bench-discord-") as tmp:
            twin = await Twin().start()
            bot = BotProcess(twin, Path(tmp), plugins="tests.e2e.loopback_only")
            try:
                await bot.start()
                started = time.perf_counter()
                figures = await _play(Table(twin, bot), twin, bot, game, max_moves=max_moves,
                                      rng=random.Random(f"{seed}-{game}"))
                figures["seconds"] = round(time.perf_counter() - started, 1)
                figures["refused_by_discord"] = len(twin.violations)
                out[game] = figures
                log(f"discord {game}: {figures}")
            finally:
                await bot.stop()
                await twin.stop()
    return {"discord": out}


async def _play(table: Any, twin: Any, bot: Any, game: str, *, max_moves: int, rng: random.Random) -> dict:
    from render.labels import is_raw_id
    from rules import registry
    from tests.e2e.twin import find_component, message_text

    engine = registry.get(game)
    players = 3 if game == "avalon" else max(2, engine.min_players)
    users = [table.alice, table.bob, table.carol][:players]
    extra = {f"opponent{i}": u for i, u in enumerate(users[2:], start=2)}
    if len(users) == 2:
        match_id = await table.start(game, QUICK_OPTIONS.get(game))
    else:   # every challenged player accepts (a deck each in a card game)
        match_id, challenge = await table.challenge(game, QUICK_OPTIONS.get(game), **extra)
        for user in users[1:]:
            ix = await twin.click(user, twin.message(challenge["id"]), f"m:{match_id}:accept")
            await table.pick_deck(user, ix)
        await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, rf"^m:{match_id}:act$"),
                            what="the board with an Act button")
    thread_id = table.thread_of(match_id)
    calls_before = _rest_calls(twin)
    kinds_before = _rest_kinds(twin)
    messages_before = len(twin.posts(thread_id))
    taps: list[int] = []
    raw_labels = 0
    turns = 1
    last_actor = None
    board_last: list[bool] = []
    moves = 0
    resigned = False
    while True:
        actor, legal = None, []
        for user in users:
            legal = [c["value"] for c in await twin.autocomplete(user, "move", "command", command="",
                                                                   match=match_id, channel_id=thread_id)]
            if legal:
                actor = user
                break
        if actor is None:
            break
        if actor is not last_actor and last_actor is not None:
            turns += 1
            board_last.append(_board_is_last(twin, thread_id, match_id, find_component, over=False))
        last_actor = actor
        if moves >= max_moves:
            await twin.slash(users[0], "match resign", match=match_id, channel_id=thread_id)
            resigned = True
            break
        # the notification: the board in the thread, or the player's DM that asks them
        board = table.board_message(match_id)
        source = board
        if find_component(board or {}, rf"^m:{match_id}:act$") is None:
            dm = next((m for m in reversed(twin.dms(int(actor["id"])))
                       if find_component(m, rf"^m:{match_id}:act$")), None)
            source = dm or board
        ix = await twin.click(actor, source, f"m:{match_id}:act")
        n = 1
        raw_labels += _raw(ix.last, legal, is_raw_id)
        for _ in range(6):
            select = find_component(ix.last or {}, r":c:")
            if select is None:
                raise AssertionError(f"{game}: the menu has no select: {message_text(ix.last)}")
            options = [o for o in select["options"] if not o["value"].startswith("p:")]
            option = rng.choice(options)
            final = option["value"].startswith("c:")
            ix = await twin.click(actor, ix.last, select["custom_id"], values=[option["value"]],
                                  until=(lambda i: "You played" in i.text or "⚠️" in i.text) if final else None)
            n += 1
            if final:
                break
            raw_labels += _raw(ix.last, legal, is_raw_id)
        if "You played" not in ix.text:
            raise AssertionError(f"{game}: the move was not played: {ix.text!r}")
        taps.append(n)
        moves += 1
    await twin.settle(quiet=0.5)
    # after a resignation in a free-for-all the others play on: the board still has its Act
    over = not (resigned and players > 2)
    board_last.append(_board_is_last(twin, thread_id, match_id, find_component, over=over))
    rest = _rest_calls(twin) - calls_before
    kinds = _rest_kinds(twin)
    public = len(twin.posts(thread_id)) - messages_before
    return {
        "moves": moves, "turns": turns, "resigned": resigned,
        "interactions_per_move_median": statistics.median(taps) if taps else 0,
        "interactions_per_move_max": max(taps) if taps else 0,
        "public_messages_per_turn": round(public / max(1, turns), 2),
        "rest_calls_per_command": round(rest / max(1, moves), 2),
        "rest_calls_by_kind": {k: round((kinds.get(k, 0) - kinds_before.get(k, 0)) / max(1, moves), 2)
                               for k in sorted(kinds) if kinds.get(k, 0) != kinds_before.get(k, 0)},
        "board_is_last_message": all(board_last),
        "raw_id_labels": raw_labels,
        "phone_text_px": await _phone_text_px(bot, game, match_id, players),
    }


def _rest_calls(twin: Any) -> int:
    return sum(1 for r in twin.requests if RATE_LIMITED.match(r.path) and r.method in ("POST", "PATCH", "DELETE"))


def _rest_kinds(twin: Any) -> dict[str, int]:
    """The rate-limited calls by kind (``post:dm``, ``edit:channel``…), to see where they go."""
    out: dict[str, int] = {}
    for r in twin.requests:
        if not (RATE_LIMITED.match(r.path) and r.method in ("POST", "PATCH", "DELETE")):
            continue
        m = re.match(r"^/channels/(\d+)/", r.path)
        where = "dm" if m and (twin.channels.get(int(m.group(1))) or {}).get("type") == 1 else "channel"
        verb = {"POST": "post", "PATCH": "edit", "DELETE": "delete"}[r.method]
        key = f"{verb}:{where}" if m else "open:dm"
        out[key] = out.get(key, 0) + 1
    return out


def _raw(message: dict | None, legal: list[str], is_raw_id: Callable) -> int:
    from tests.e2e.twin import components_of

    count = 0
    for c in components_of(message or {}):
        if c.get("type") == 2 and c.get("label"):
            count += is_raw_id(c["label"], legal)
        for o in c.get("options") or []:
            if not o["value"].startswith("p:"):
                count += is_raw_id(o["label"], legal)
    return count


def _board_is_last(twin: Any, thread_id: int, match_id: int, find_component: Callable, *, over: bool) -> bool:
    posts = twin.posts(thread_id)
    if not posts:
        return False
    newest = posts[-1]
    if over:
        return bool(newest.get("embeds")) and bool(newest.get("attachments")) \
            and find_component(newest, rf"^m:{match_id}:act$") is None
    return find_component(newest, rf"^m:{match_id}:act$") is not None


async def _phone_text_px(bot: Any, game: str, match_id: int, players: int) -> float:
    """The smallest text, in px at 400 px wide, of every picture of the match just played."""
    from render import render_image
    from render.fonts import drawn_text
    from rules import registry
    from tests.e2e.checks import match_states

    engine = registry.get(game)
    rec, states = await match_states(bot.db, match_id)
    names = list(rec.names)
    smallest = float("inf")
    step = max(1, len(states) // 12)
    for state in states[::step] + states[-1:]:
        for seat in [None] + list(range(players)):
            view = engine.view(state, seat)
            for locale in ("en", "ja"):
                with drawn_text() as drawn:
                    image = render_image(game, view, locale=locale, names=names)
                if drawn:
                    smallest = min(smallest, min(size for size, _ in drawn) * 400 / image.width)
    return round(smallest, 1) if smallest != float("inf") else 0.0


def format_discord(result: dict) -> str:
    """The figures as a Markdown table (README: "The Discord table, measured")."""
    rows = result.get("discord") or {}
    head = ("| game | taps/move median | max | public msgs/turn | REST calls/command | board last "
            "| raw-id labels | phone text px |")
    lines = [head, "|" + "---|" * 8]
    for game, f in rows.items():
        lines.append(f"| {game} | {f['interactions_per_move_median']} | {f['interactions_per_move_max']} "
                     f"| {f['public_messages_per_turn']} | {f['rest_calls_per_command']} "
                     f"| {'yes' if f['board_is_last_message'] else 'NO'} | {f['raw_id_labels']} "
                     f"| {f['phone_text_px']} |")
    t = TARGETS
    lines.append(f"| target | ≤ {t['interactions_per_move_median']} | ≤ {t['interactions_per_move_max']} "
                 f"| ≤ {t['public_messages_per_turn']} | ≤ {t['rest_calls_per_command']} | yes "
                 f"| {t['raw_id_labels']} | ≥ {t['phone_text_px']} |")
    return "\n".join(lines)


def misses(result: dict) -> list[str]:
    """The targets a game misses, in words (empty: every target holds)."""
    out = []
    for game, f in (result.get("discord") or {}).items():
        t = TARGETS
        checks = [
            (f["interactions_per_move_median"] <= t["interactions_per_move_median"], "taps/move median"),
            (f["interactions_per_move_max"] <= t["interactions_per_move_max"], "taps/move max"),
            (f["public_messages_per_turn"] <= t["public_messages_per_turn"], "public messages/turn"),
            (f["rest_calls_per_command"] <= t["rest_calls_per_command"], "REST calls/command"),
            (f["board_is_last_message"], "board last"),
            (f["raw_id_labels"] <= t["raw_id_labels"], "raw-id labels"),
            (f["phone_text_px"] >= t["phone_text_px"], "phone text"),
        ]
        out += [f"{game}: {what}" for ok, what in checks if not ok]
    return out
