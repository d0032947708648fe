"""``python -m bench --discord``: the Discord table as a player meets it, measured.

The real bot (``python bot.py``, a subprocess) runs against the local Discord twin
(``tests/e2e/twin.py``) and plays one match of every registered game (Avalon's Sanctuary with 3
players) the way a player does: on their turn they press **Act** on the board (or in their DM,
where a decision of theirs is asked privately) and pick from the menu until the move is played.
Which player acts is taken from ``/move``'s autocomplete (the only oracle a user has); the pick
in each menu is random but seeded.  Per game, under ``"discord"`` → ``{game: {...}}``:

- ``interactions_per_move_median`` / ``_max``: clicks and select picks from the notification to
  the move being played (Act included);
- ``taps_per_turn_median`` / ``_p95``: the taps of a turn — a run of consecutive moves by one
  player — pooled over the seeds' matches (the menu of a move offers the next move of the same
  turn; a multi-select plays several moves of one kind as one batch, issue 33);
- ``public_messages_per_turn``: new messages in the match's thread (and channel) per turn, a turn
  being a run of moves by the same players;
- ``rest_calls_per_command``: the median over the seeds (``--seeds``, default 5; a batch is one
  command) of REST calls that count against the bot's rate limits per command:
  channel and DM messages posted, edited or deleted, threads, DM channels (not the interactions'
  own callbacks and follow-ups);
- ``board_is_last_message``: at every turn change and at the end, the newest message of the
  thread is the board (with its Act button while the match runs, with the result at the end —
  looked at once the end-of-match animated picture, drawn in another process, has come, or
  :data:`GIF_WAIT` seconds have passed: the end as spectators read it);
- ``raw_id_labels``: labels of buttons and select options shown that are only an id or a
  notation token (:func:`render.labels.is_raw_id`);
- ``phone_text_px``: the smallest text of the game's pictures at 400 px wide, over every
  position of the match played (public and each seat's view, English and Japanese).
"""
from __future__ import annotations

import asyncio
import math
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

TARGETS = {"interactions_per_move_median": 2, "interactions_per_move_max": 3,
           "taps_per_turn_median": 6, "taps_per_turn_p95": 12,
           "public_messages_per_turn": 2, "rest_calls_per_command": 2.5, "raw_id_labels": 0,
           "phone_text_px": 8}
QUICK_OPTIONS = {"squares": "max_turns=16", "logic_square": "max_turns=10", "maken": "max_turns=10",
                 "avalon": "max_rounds=5"}
TEST_ONLY = {"hidden_duel", "secret_duel", "window_test"}
GIF_WAIT = 120        # seconds the end-of-match animated picture is waited for
RATE_LIMITED = re.compile(r"^/channels/\d+/(messages(/\d+)?|threads|messages/\d+/threads)$|^/users/@me/channels$")


def run_discord(games: list[str] | None = None, *, max_moves: int = 120, seed: int = 1, seeds: int = 5,
                log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Play and measure (see the module doc) ``seeds`` matches of every game; returns
    ``{"discord": {game: figures}}``."""
    return asyncio.run(_run(games, max_moves=max_moves, seed=seed, seeds=seeds, log=log))


async def _run(games: list[str] | None, *, max_moves: int, seed: int, seeds: int,
               log: Callable[[str], None]) -> dict:
    from rules import registry
    from tests.e2e.harness import BotProcess, Table
    from tests.e2e.twin import Twin

    names = [g for g in (games or registry.names()) if g not in TEST_ONLY]
    out: dict[str, Any] = {}
    for game in names:
        runs = []
        for k in range(max(1, seeds)):
            with tempfile.TemporaryDirectory(prefix="bench-discord-") as tmp:
                twin = await Twin().start()
                bot = BotProcess(twin, Path(tmp), plugins="tests.e2e.loopback_only")
                try:
                    await bot.start()
                    started = time.perf_counter()
                    run = await _play(Table(twin, bot), twin, bot, game, max_moves=max_moves,
                                      rng=random.Random(f"{seed + k}-{game}"), pictures=k == 0)
                    run["seconds"] = round(time.perf_counter() - started, 1)
                    run["refused_by_discord"] = len(twin.violations)
                    runs.append(run)
                    log(f"discord {game} seed {seed + k}: {_figures([run])}")
                finally:
                    await bot.stop()
                    await twin.stop()
        out[game] = _figures(runs)
        log(f"discord {game}: {out[game]}")
    return {"discord": out}


def _figures(runs: list[dict]) -> dict:
    """One game's figures over its runs (one per seed): taps pooled over every move and turn;
    REST calls per command the median of the runs' (a batch counts as one command)."""
    taps = [t for r in runs for t in r["taps"]]
    turns = [t for r in runs for t in r["turn_taps"] if t]
    per_run = [round(r["rest"] / max(1, r["moves"]), 2) for r in runs]
    kinds: dict[str, float] = {}
    for r in runs:
        for k, v in r["kinds"].items():
            kinds[k] = kinds.get(k, 0) + v
    moves = sum(r["moves"] for r in runs)
    return {
        "seeds": len(runs), "moves": moves, "turns": sum(r["turns"] for r in runs),
        "resigned": sum(1 for r in runs if r["resigned"]),
        "refused_batches": sum(r["refused"] for r in runs),
        "interactions_per_move_median": statistics.median(taps) if taps else 0,
        "interactions_per_move_max": max(taps) if taps else 0,
        "taps_per_turn_median": statistics.median(turns) if turns else 0,
        "taps_per_turn_p95": percentile(turns, 95),
        "public_messages_per_turn": round(sum(r["public"] for r in runs) / max(1, sum(r["turns"] for r in runs)), 2),
        "rest_calls_per_command": statistics.median(per_run) if per_run else 0,
        "rest_calls_per_command_by_seed": per_run,
        "rest_calls_by_kind": {k: round(v / max(1, moves), 2) for k, v in sorted(kinds.items()) if v},
        "board_is_last_message": all(r["board_last"] for r in runs),
        "raw_id_labels": sum(r["raw_labels"] for r in runs),
        "phone_text_px": min((r["phone_text_px"] for r in runs if r["phone_text_px"] is not None), default=0.0),
        "seconds": round(sum(r.get("seconds", 0) for r in runs), 1),
        "refused_by_discord": sum(r.get("refused_by_discord", 0) for r in runs),
    }


async def _play(table: Any, twin: Any, bot: Any, game: str, *, max_moves: int, rng: random.Random,
                pictures: bool = True) -> dict:
    from render.labels import is_raw_id
    from rules import registry
    from tests.e2e.twin import components_of, find_component, message_text

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
    turn_taps: list[int] = []      # taps of each turn: a run of consecutive moves by one player
    raw_labels = 0
    turns = 1
    last_actor = None
    board_last: list[bool] = []
    moves = refused = 0
    resigned = False
    menu, menu_user = None, None     # the ephemeral menu last answered, and whose
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
        if actor is not last_actor:
            turn_taps.append(0)
            menu = None             # a new turn starts from its notification
        last_actor = actor
        if moves >= max_moves:
            await twin.slash(users[0], "match resign", match=match_id, channel_id=thread_id)
            resigned = True
            break
        n = 0
        if menu is not None and actor is menu_user and _menu_select(menu, match_id, components_of):
            ix_last = menu          # the menu of the move just played offers the next one
        else:
            # the notification: the board in the thread, or the player's DM that asks them
            board = table.board_message(match_id)
            source = board
            if find_component(board or {}, rf"^m:{match_id}:act$") is None:
                dm = next((m for m in reversed(twin.dms(int(actor["id"])))
                           if find_component(m, rf"^m:{match_id}:act$")), None)
                source = dm or board
            ix = await twin.click(actor, source, f"m:{match_id}:act")
            ix_last, n = ix.last, 1
            raw_labels += _raw(ix_last, legal, is_raw_id)
        text = ""
        for _ in range(6):
            selects = _menu_select(ix_last or {}, match_id, components_of)
            if not selects:
                raise AssertionError(f"{game}: the menu has no select: {message_text(ix_last)}")
            select, values, final = _pick(selects, rng)
            ix = await twin.click(actor, ix_last, select["custom_id"], values=values,
                                  until=(lambda i: "You played" in i.text or "⚠️" in i.text) if final else None)
            ix_last, text = ix.last, ix.text
            n += 1
            if final:
                break
            raw_labels += _raw(ix_last, legal, is_raw_id)
        menu, menu_user = ix_last, actor
        turn_taps[-1] += n
        if "You played" not in text:
            if "⚠️" in text and refused < 20:    # a batch the rules refused (nothing played): try again
                refused += 1
                menu = None
                continue
            raise AssertionError(f"{game}: the move was not played: {text!r}")
        taps.append(n)
        moves += 1
    await twin.settle(quiet=0.5)
    # after a resignation in a free-for-all the others play on: the board still has its Act
    over = not (resigned and players > 2)
    if over:
        await _await_gif(twin, thread_id, match_id)
    board_last.append(_board_is_last(twin, thread_id, match_id, find_component, over=over))
    rest = _rest_calls(twin) - calls_before
    kinds = _rest_kinds(twin)
    return {
        "moves": moves, "turns": turns, "resigned": resigned, "refused": refused,
        "taps": taps, "turn_taps": turn_taps, "rest": rest,
        "kinds": {k: kinds.get(k, 0) - kinds_before.get(k, 0) for k in kinds},
        "public": len(twin.posts(thread_id)) - messages_before,
        "board_last": all(board_last), "raw_labels": raw_labels,
        "phone_text_px": await _phone_text_px(bot, game, match_id, players) if pictures else None,
    }


async def _await_gif(twin: Any, thread_id: int, match_id: int) -> None:
    """Wait for the animated picture of the match just ended (``/settings gif``, on by default),
    drawn in another process seconds after the final board: joined to that board or posted in
    the thread, it is part of the end the thread shows and of its REST calls.  Not waited for
    beyond :data:`GIF_WAIT` seconds."""
    name = f"match-{match_id}.gif"
    try:
        await twin.wait_for(lambda: any(a.get("filename") == name for m in twin.posts(thread_id)
                                        for a in m.get("attachments") or []),
                            timeout=GIF_WAIT, what="the end-of-match animated picture")
    except AssertionError:
        return
    await twin.settle(quiet=0.3)


def _menu_select(message: dict, match_id: int, components_of: Callable) -> list[dict]:
    """The menu's selects on ``message``: the move select and its multi-selects."""
    return [c for c in components_of(message or {}) if c.get("type") == 3
            and re.match(rf"^m:{match_id}:(c|b):", c.get("custom_id") or "")]


def _pick(selects: list[dict], rng: random.Random) -> tuple[dict, list[str], bool]:
    """A random pick, as a player with no plan makes it: every move offered is as likely (a
    multi-select weighs as many as its options; then as many of them as it allows, at
    random).  Returns (the select, the values, whether it plays)."""
    weighted = []
    for select in selects:
        if ":b:" in select["custom_id"]:
            weighted += [(select, None)] * len(select["options"])
        else:
            weighted += [(select, o) for o in select["options"] if not o["value"].startswith("p:")]
    select, option = rng.choice(weighted)
    if option is None:
        k = rng.randint(select.get("min_values", 1), select.get("max_values", 1))
        return select, [o["value"] for o in rng.sample(select["options"], k)], True
    return select, [option["value"]], option["value"].startswith("c:")


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` by the nearest rank (0 for none)."""
    if not values:
        return 0
    ranked = sorted(values)
    return ranked[max(0, min(len(ranked), math.ceil(p / 100 * len(ranked))) - 1)]


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
    if over:    # the final board: its title and picture (a layout's gallery, or an embed's), no Act
        from tests.e2e.harness import board_title
        from tests.e2e.twin_v2 import pictures_of

        return board_title(newest).endswith(f"#{match_id}") and bool(pictures_of(newest)) \
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
    """The figures as a Markdown table (docs/performance.md: "The Discord table, measured")."""
    rows = result.get("discord") or {}
    head = ("| game | taps/move median | max | taps/turn median | p95 | public msgs/turn "
            "| REST calls/command | board last | raw-id labels | phone text px |")
    lines = [head, "|" + "---|" * 10]
    for game, f in rows.items():
        lines.append(f"| {game} | {f['interactions_per_move_median']} | {f['interactions_per_move_max']} "
                     f"| {f.get('taps_per_turn_median', '-')} | {f.get('taps_per_turn_p95', '-')} "
                     f"| {f['public_messages_per_turn']} | {f['rest_calls_per_command']} "
                     f"| {'yes' if f['board_is_last_message'] else 'NO'} | {f['raw_id_labels']} "
                     f"| {f['phone_text_px']} |")
    t = TARGETS
    lines.append(f"| target | ≤ {t['interactions_per_move_median']} | ≤ {t['interactions_per_move_max']} "
                 f"| ≤ {t['taps_per_turn_median']} | ≤ {t['taps_per_turn_p95']} "
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
            (f.get("taps_per_turn_median", 0) <= t["taps_per_turn_median"], "taps/turn median"),
            (f.get("taps_per_turn_p95", 0) <= t["taps_per_turn_p95"], "taps/turn p95"),
            (f["public_messages_per_turn"] <= t["public_messages_per_turn"], "public messages/turn"),
            (f["rest_calls_per_command"] <= t["rest_calls_per_command"], "REST calls/command"),
            (f["board_is_last_message"], "board last"),
            (f["raw_id_labels"] <= t["raw_id_labels"], "raw-id labels"),
            (f["phone_text_px"] >= t["phone_text_px"], "phone text"),
        ]
        out += [f"{game}: {what}" for ok, what in checks if not ok]
    return out
