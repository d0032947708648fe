"""``python -m balance [--quick] [--game G] [--json FILE] [--png FILE]`` (issue 17): how fair the
shipped content is, measured by AI-vs-AI self-play.

For every game with content to pair — Battle Logic Square and Avalon's Sanctuary decks, Project
Maken characters (their ready-made decks), Art of War KINGs (their decks) — every pairing plays
in both seat orders at level ``normal``; it reports the win rate of ``a`` with a 95 % Wilson
interval, the first player's win rate, the share of matches that ended on a turn or round cap,
and strength checks: ``hard`` (in the full plan with its fixed number of iterations, so the figure
does not depend on how busy the machine is; its time per decision is ``python -m bench --ai``)
against a uniformly random player and
against a one-ply greedy player, and the best of a few one-rule bots (always the first or last
legal command, always the game's favourite action) against ``normal``, each holding every
ready-made deck against every deck of ``normal``'s, in both seats (``rule_bot_deals``).  SQUARES has no pairings, only the rest.  Draws count half.

Targets (GAMES.md, "Content balance"): every pairing 40–60 %, first player 42–58 %, turn caps
≤ 5 %; ``hard`` wins ≥ 95 % against random and ≥ 70 % against greedy; no one-rule bot above
30 % against ``normal``.
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable

from ai import choose
from rules import registry

CAP_REASONS = {"turn_limit", "round_limit"}
# per_order: matches per pairing and seat order (20 gives n = 40 a pairing, a 95 % interval of
# about ±15 points); strength: rounds of the strength checks (each seat once a round); rule_bots:
# at least this many matches for each one-rule bot, over every deck it may hold against every
# deck of normal, in both seats (Avalon's Sanctuary's one-rule figure moved between 0.15 and 0.35
# with the seeds at 20 matches with the default decks alone)
# (strength 20 gives n = 40: at 10 rounds, n = 20, Avalon's Sanctuary's hard, about 0.72 against
# greedy over 120 matches, measured 0.60 on the tool's old seeds and 0.80 on others — too few to
# judge a 70 % line)
PLANS = {"full": {"per_order": 20, "strength": 20, "budget": None, "rule_bots": 72},
         "quick": {"per_order": 2, "strength": 2, "budget": 0.05, "rule_bots": 4},
         "tiny": {"per_order": 1, "strength": 1, "budget": 0.01, "rule_bots": 2}}
# The full plan's matches per pairing and seat order where 20 cannot tell: Project Maken has six
# pairings close to one another, and at n = 40 six pairings that are each truly 0.50 all land
# inside 40–60 % only about one run in three (a 95 % interval of ±15 points each); at n = 100
# four runs in five.  Its matches take about a second, so the 600 take minutes.
FULL_PER_ORDER = {"maken": 50}
# Each stage of a game's run draws its matches' seeds from its own range, so a stage plays the
# same matches whatever the plan does before it: a larger --per-order, --no-hard or a game with
# more content leaves the strength checks and the one-rule bots as they were.  The pairings (and
# SQUARES' self-play) take seeds 1, 2, … (below the first base); each one-rule bot its own range.
# --seed-set K plays other matches (every seed K × SEED_SET_STRIDE higher): to check that a figure
# tuned on the default seeds holds on others.
SEED_BASE = {"vs_random": 1_000_000, "vs_greedy": 2_000_000, "rule_bots": 3_000_000}
RULE_BOT_STRIDE = 100_000
SEED_SET_STRIDE = 10_000_000
MAX_COMMANDS = 3000          # a guard: every game ends by its own caps long before


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (draws counted as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


Player = Callable[[str, dict, list, int, random.Random], str]


def ai_player(level: str, budget: float | None = None) -> Player:
    def play(name: str, view: dict, legal: list, seat: int, rng: random.Random) -> str:
        return choose(name, view, legal, seat, level=level, seed=rng.randrange(1 << 30), budget_s=budget)
    return play


def random_player(name: str, view: dict, legal: list, seat: int, rng: random.Random) -> str:
    return rng.choice(legal)


# one-rule bots: the simplest strategies a player might find, each a strong habit (the AI at
# level normal must beat every one of them: the best scores ≤ 30 %)
FAVOURITE = {"squares": ("leap", "move"), "logic_square": ("avi", "use"), "maken": ("attack", "fb"),
             "art_of_war": ("attack", "support"), "avalon": ("ranged", "invade", "summon")}


def one_rule_bots(name: str) -> dict[str, Player]:
    def first(name_, view, legal, seat, rng):
        return legal[0]

    def last(name_, view, legal, seat, rng):
        return legal[-1]

    def favourite(name_, view, legal, seat, rng):
        for verb in FAVOURITE.get(name_, ()):
            mine = [c for c in legal if c.split()[0] == verb]
            if mine:
                return rng.choice(mine)
        return rng.choice(legal)

    return {"first_legal": first, "last_legal": last, f"always_{'_or_'.join(FAVOURITE.get(name, ('any',)))}": favourite}


def play_match(name: str, options: dict, players: list[Player], seed: int) -> dict:
    """One match; each seat's player is handed that seat's view only."""
    game = registry.get(name)
    state = game.new_match(players=len(players), seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        if game.outcome(state) is not None or not game.to_act(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        state = game.apply(state, seat, players[seat](name, game.view(state, seat), legal, seat, rng))
    outcome = game.outcome(state) or {"winners": [], "reason": "unfinished"}
    return {"winners": list(outcome["winners"]), "reason": outcome["reason"], "first": 0}


def first_seat_options(name: str) -> dict:
    """Options that make seat 0 move first (Avalon's Sanctuary: lead the first round)."""
    schema = registry.get(name).option_schema()
    return {"first": 0} if "first" in schema else {"leader": 0} if "leader" in schema else {}


def one_against(name: str, player: Player, others: Player, rounds: int, players: int,
                seed: int) -> float | None:
    """``player`` in each seat in turn against ``others`` in the rest, ``rounds`` times: its
    score share (draws half; the matches take the seeds after ``seed``)."""
    deals = [{"bot_seat": seat} for _ in range(rounds) for seat in range(players)]
    if not deals:
        return None
    share, _n = rule_bot_share(name, player, others, deals, seed, players)
    return round(share, 3)


def rule_bot_deals(name: str, minimum: int) -> list[dict]:
    """The options of the one-rule bots' matches: seat 0's and seat 1's content, each deck the bot
    may hold against each deck of its opponent (mirrors included) with the bot in each seat,
    repeated until there are at least ``minimum`` matches (a game without content: defaults);
    a smaller plan takes ``minimum`` of them spread over the list."""
    decks = content(name)
    cycle: list[dict] = []
    for mine, theirs in [(mine, theirs) for mine in decks for theirs in decks] or [(None, None)]:
        for seat in (0, 1):
            opts: dict[str, Any] = {"bot_seat": seat}
            if mine is not None:
                opts["decks"] = [mine, theirs] if seat == 0 else [theirs, mine]
            cycle.append(opts)
    if minimum < len(cycle):
        return [cycle[i * len(cycle) // minimum] for i in range(minimum)]
    return cycle * -(-minimum // len(cycle))


def rule_bot_share(name: str, bot: Player, normal: Player, deals: list[dict], seed: int,
                   players: int = 2) -> tuple[float, int]:
    """The bot's score share against ``normal`` in the other seats over ``deals`` (draws half;
    the matches take the seeds after ``seed``) and the number of matches."""
    score = 0.0
    for deal in deals:
        seed += 1
        seat = deal["bot_seat"]
        seats = [normal] * players
        seats[seat] = bot
        opts = {"decks": deal["decks"]} if "decks" in deal else {}
        score += _score(play_match(name, opts, seats, seed), seat)
    return score / len(deals), len(deals)


def _score(result: dict, seat: int) -> float:
    winners = result["winners"]
    return 0.5 if not winners else (1.0 if seat in winners else 0.0)


def content(name: str) -> list[str]:
    schema = registry.get(name).option_schema()
    return list((schema.get("decks") or {}).get("choices") or [])


def run(plan: str = "full", games: list[str] | None = None, log: Callable[[str], None] = lambda s: None,
        per_order: int | None = None, strength: bool = True, seed_set: int = 0) -> dict:
    """``per_order`` overrides the plan's matches per pairing and seat order; ``strength=False``
    leaves out the slow strength checks of ``hard`` (against random and greedy); the one-rule bots
    still play; ``seed_set`` plays other matches (SEED_SET_STRIDE)."""
    cfg = dict(PLANS[plan])
    if per_order is not None:
        cfg["per_order"] = per_order
    if isinstance(seed_set, bool) or not isinstance(seed_set, int) or seed_set < 0:
        raise ValueError(f"the seed set is a whole number from 0, not {seed_set!r}")
    base = seed_set * SEED_SET_STRIDE
    out: dict[str, Any] = {"meta": {"plan": plan, **cfg, "seed_set": seed_set}, "games": {}}
    for name in games or registry.names():
        game = registry.get(name)
        if not hasattr(game, "determinize"):
            continue
        normal = ai_player("normal")
        results: list[tuple[dict, int]] = []          # (result, seat of the first-named content)
        pairings = []
        decks = content(name)
        per = cfg["per_order"] if per_order is not None or plan != "full" else FULL_PER_ORDER.get(name, cfg["per_order"])
        seed = base
        for i, a in enumerate(decks):
            for b in decks[i + 1:]:
                score, n = 0.0, 0
                for a_seat in (0, 1):
                    for _ in range(per):
                        seed += 1
                        order = [a, b] if a_seat == 0 else [b, a]
                        res = play_match(name, {"decks": order, **first_seat_options(name)}, [normal, normal], seed)
                        results.append((res, a_seat))
                        score += _score(res, a_seat)
                        n += 1
                low, high = wilson(score, n)
                pairings.append({"a": a, "b": b, "a_win": round(score / n, 3), "n": n,
                                 "ci95": [round(low, 3), round(high, 3)]})
                log(f"{name}: {a} vs {b}: {score}/{n}")
        if not pairings:                               # SQUARES: self-play with the defaults
            for _ in range(2 * per):
                seed += 1
                res = play_match(name, first_seat_options(name), [normal, normal], seed)
                results.append((res, 0))
        if seed >= base + min(SEED_BASE.values()):
            raise ValueError(f"{seed} pairing matches reach the seeds of the strength checks")
        players = 2
        first_wins = sum(_score(r, r["first"]) for r, _ in results)
        caps = sum(1 for r, _ in results if r["reason"] in CAP_REASONS)
        row: dict[str, Any] = {
            "pairings": pairings,
            "first_player_win": round(first_wins / len(results), 3) if results else None,
            "turn_cap_share": round(caps / len(results), 3) if results else None,
            "matches": len(results),
            "per_order": per,
        }
        out["games"][name] = row
        hard = ai_player("hard", cfg["budget"])
        for key, other in (("vs_random", random_player), ("vs_greedy", ai_player("normal"))):
            if not strength:
                row[key] = None
                continue
            row[key] = one_against(name, hard, other, cfg["strength"], players, base + SEED_BASE[key])
            log(f"{name}: hard {key}: {row[key]}")
        best, best_name, best_n = -1.0, None, 0
        deals = rule_bot_deals(name, cfg["rule_bots"])
        row["trivial_all"] = {}
        for k, (bot_name, bot) in enumerate(one_rule_bots(name).items()):
            share, n = rule_bot_share(name, bot, normal, deals,
                                      base + SEED_BASE["rule_bots"] + k * RULE_BOT_STRIDE)
            row["trivial_all"][bot_name] = round(share, 3)
            log(f"{name}: one-rule bot {bot_name} vs normal: {share:.3f} (n = {n})")
            if share > best:
                best, best_name, best_n = share, bot_name, n
        row["trivial_vs_ai"] = round(best, 3) if best_name else None
        row["trivial_best"] = best_name
        row["trivial_n"] = best_n
        row["trivial_ci95"] = [round(x, 3) for x in wilson(best * best_n, best_n)] if best_n else None
    return out


TARGETS = {"pairing": (0.40, 0.60), "first_player_win": (0.42, 0.58), "turn_cap_share": 0.05,
           "vs_random": 0.95, "vs_greedy": 0.70, "trivial_vs_ai": 0.30}


def misses(result: dict) -> list[str]:
    out = []
    for name, row in result["games"].items():
        for p in row["pairings"]:
            if not TARGETS["pairing"][0] <= p["a_win"] <= TARGETS["pairing"][1]:
                out.append(f"{name}: {p['a']} vs {p['b']} {p['a_win']:.0%} (target 40–60 %)")
        fp = row["first_player_win"]
        # GAMES.md's content targets are for the card games ("Content balance (all card games)"):
        # SQUARES has no content to change, its first player's share is the rulebook's own and is
        # reported, not judged
        if row["pairings"] and fp is not None and not TARGETS["first_player_win"][0] <= fp <= TARGETS["first_player_win"][1]:
            out.append(f"{name}: first player {fp:.0%} (target 42–58 %)")
        if row["turn_cap_share"] is not None and row["turn_cap_share"] > TARGETS["turn_cap_share"]:
            out.append(f"{name}: turn caps {row['turn_cap_share']:.0%} (target ≤ 5 %)")
        for key in ("vs_random", "vs_greedy"):
            if row.get(key) is not None and row[key] < TARGETS[key]:
                out.append(f"{name}: hard {key} {row[key]:.0%} (target ≥ {TARGETS[key]:.0%})")
        if row.get("trivial_vs_ai") is not None and row["trivial_vs_ai"] > TARGETS["trivial_vs_ai"]:
            out.append(f"{name}: the one-rule bot {row['trivial_best']} scores {row['trivial_vs_ai']:.0%} "
                       f"against normal over {row.get('trivial_n')} matches (target ≤ 30 %)")
    return out


def format_table(result: dict) -> str:
    lines = []
    for name, row in result["games"].items():
        lines.append(f"{name}: first player {row['first_player_win']} · turn caps {row['turn_cap_share']} · "
                     f"hard vs random {row.get('vs_random')} · hard vs greedy {row.get('vs_greedy')} · "
                     f"best one-rule bot vs normal {row.get('trivial_vs_ai')} ({row.get('trivial_best')}, "
                     f"n={row.get('trivial_n')}) "
                     f"({row['matches']} self-play matches)")
        for p in row["pairings"]:
            lines.append(f"  {p['a']:>14} vs {p['b']:<14} {p['a_win']:.2f}  95% [{p['ci95'][0]:.2f}, {p['ci95'][1]:.2f}]  n={p['n']}")
    return "\n".join(lines)


def heatmap(result: dict) -> bytes:
    """The win-rate matrices as one PNG (green fair, red lopsided)."""
    import io

    from PIL import Image, ImageDraw

    from render import fonts

    blocks = [(name, row) for name, row in result["games"].items() if row["pairings"]]
    cell, pad, label, top = 84, 16, 130, 78
    heights = []
    for _name, row in blocks:
        ids = sorted({p["a"] for p in row["pairings"]} | {p["b"] for p in row["pairings"]})
        heights.append(top + len(ids) * cell + pad)
    width = label + max([len(sorted({p["a"] for p in r["pairings"]} | {p["b"] for p in r["pairings"]}))
                         for _, r in blocks] or [1]) * cell + pad
    img = Image.new("RGB", (max(width, 420), max(60, sum(heights))), (250, 248, 244))
    d = ImageDraw.Draw(img)
    y = 0
    for (name, row), h in zip(blocks, heights):
        ids = sorted({p["a"] for p in row["pairings"]} | {p["b"] for p in row["pairings"]})
        rate = {}
        for p in row["pairings"]:
            rate[(p["a"], p["b"])] = p["a_win"]
            rate[(p["b"], p["a"])] = 1 - p["a_win"]
        fonts.text(d, (pad, y + 20), name, 16, (20, 20, 20), bold=True, anchor="lm")
        n = max((p["n"] for p in row["pairings"]), default=0)
        fonts.text(d, (pad, y + 42), f"the row's win rate against the column (draws half, n = {n} a cell)",
                   11, (90, 90, 90), anchor="lm")
        for j, b in enumerate(ids):
            fonts.text(d, (label + j * cell + cell // 2, y + top - 10), fonts.fit(b, 11, cell - 6), 11, (20, 20, 20),
                       anchor="mm")
        for i, a in enumerate(ids):
            fonts.text(d, (pad, y + top + i * cell + cell // 2), fonts.fit(a, 12, label - pad - 6), 12, (20, 20, 20),
                       anchor="lm")
            for j, b in enumerate(ids):
                x0, y0 = label + j * cell, y + top + i * cell
                if a == b:
                    d.rectangle((x0, y0, x0 + cell - 2, y0 + cell - 2), fill=(220, 220, 220))
                    continue
                r = rate.get((a, b), 0.5)
                off = min(1.0, abs(r - 0.5) / 0.25)
                colour = (int(120 + 135 * off), int(200 - 120 * off), 120)
                d.rectangle((x0, y0, x0 + cell - 2, y0 + cell - 2), fill=colour)
                fonts.text(d, (x0 + cell // 2, y0 + cell // 2), f"{r:.2f}", 13, (20, 20, 20), anchor="mm")
        y += h
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
