"""Each card's value for drafting, measured by self-play (``python -m balance --card-values FILE``;
docs/ai.md, "The computer drafter").  Pure: no I/O; the same seed measures the same matches.

A **measurement** plays ``matches`` self-play matches, each between two decks built at random but
legal: each seat gets a random pool of the set — every card of the set, a random number of copies
of each from 1 to its copy limit (an Art of War unit, which has none, 1 to :data:`UNIT_COPIES`) —
and the computer drafter's deck builder (:meth:`ai.drafter.Drafter.build_deck`) makes a deck of
the game's own size from it with values drawn at random, so the kept parts the game requires (a
Battle Logic Square AVI and IT deck, a Project Maken character with only its own cards, an Art of
War KING, an Avalon's Sanctuary avatar with its creatures of two attributes) are chosen at random
too.  The computer plays both seats at level ``normal`` (one ply: cheap) by default.

A card's **value** is its win rate when in the deck (draws count half) over the seats whose deck
held it, shrunk toward 0.5 by a prior of :data:`PRIOR` games — a Bayesian average,
``(wins + PRIOR × 0.5) / (games + PRIOR)`` — so a card seen in few decks is not over- or
under-valued: as if every card had first played ``PRIOR`` games and won half of them.  A card no
deck held is worth 0.5.

Every random choice is a hash of the seed, the game, the match and the seat (SHA-256), never a
shared random state, so a match's decks follow from its number alone: :func:`play_chunk` plays
any matches of a measurement (the host's worker may play them in chunks and resume) and
:func:`values_from` turns their results into :class:`CardValues`, serialisable as JSON
(a server set's values are stored with its balance run).  The matches themselves are as
deterministic as ``python -m balance``'s (the computer at a level without a time budget).

>>> shrink(10.0, 10, prior=10.0), shrink(0.0, 0, prior=10.0), shrink(0.0, 10, prior=10.0)
(0.75, 0.5, 0.25)
"""
from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ai import LEVELS
from ai.drafter import GAMES, HEAD, IT, SIZE, Drafter
from balance import ai_player, play_match
from rules import registry
from rules.logic_square.decks import IT_SIZE

PRIOR = 10.0                  # pseudo-games at 0.5 a card starts with
LEVEL = "normal"              # the computer's level in the measuring matches
MATCHES = {"full": 400, "quick": 40, "tiny": 4}      # matches a game, by the balance plan
UNIT_COPIES = 8               # an Art of War unit in a random pool: 1–8 copies (no copy limit)
ATTEMPTS = 20                 # random pools tried before a full one (a pool that cannot fill a deck)
SEED_STRIDE = 1_000_003       # a match's seed: seed × SEED_STRIDE + its number + 1

# (name, decks, seed) -> the winning seats: one match between two decks (each a list of card ids,
# as Drafter.build_deck gives it)
Play = Callable[[str, list, int], list]


def shrink(wins: float, games: int, prior: float = PRIOR) -> float:
    """The Bayesian average ``(wins + prior × 0.5) / (games + prior)``: the win rate pulled toward
    0.5 by ``prior`` pseudo-games (0.5 with no games)."""
    return (wins + prior * 0.5) / (games + prior) if games + prior > 0 else 0.5


def _unit(*parts: Any) -> float:
    """A number in [0, 1) from SHA-256 of ``parts``: the same parts, the same number."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64


def _engine(name: str, engine: Any) -> Any:
    return engine if engine is not None else registry.get(name)


def random_deck(name: str, cards: dict, seed: int, match: int, seat: int) -> list[str]:
    """A random legal deck of ``name`` (card ids, the kept parts first; see the module docstring)
    for one seat of one match: a random pool, built into a deck with random values."""
    size = SIZE[name] + 1 + (IT_SIZE if name == "logic_square" else 0)
    for attempt in range(ATTEMPTS + 1):
        values = {c: _unit("value", name, seed, match, seat, attempt, c) for c in cards}
        drafter = Drafter(values, name, "greedy", cards=cards)
        pool: list[str] = []
        for cid in cards:
            limit = drafter.limit(cid) or UNIT_COPIES
            kept = cards[cid].get("category") in (HEAD[name], IT)
            copies = 1 if kept else (limit if attempt == ATTEMPTS
                                     else 1 + int(_unit("copies", name, seed, match, seat, attempt, cid) * limit))
            pool += [cid] * copies
        deck = drafter.build_deck(pool)
        if len(deck) == size:
            return deck
    raise ValueError(f"{name}: the set cannot make a deck of {SIZE[name]} cards")


def deck_spec(engine: Any, deck: Iterable[str]) -> dict:
    """The game's deck spec of a list of card ids (each routed by ``decks.add``: an AVI, a
    character, a KING, an avatar to its place)."""
    spec = engine.decks.empty()
    for cid in deck:
        spec = engine.decks.add(spec, cid, 1)
    return spec


def match_decks(name: str, cards: dict, seed: int, match: int) -> list[list[str]]:
    """Both seats' decks of match number ``match`` of a measurement with ``seed``."""
    return [random_deck(name, cards, seed, match, seat) for seat in (0, 1)]


def match_seed(seed: int, match: int) -> int:
    return seed * SEED_STRIDE + match + 1


def self_play(level: str = LEVEL, engine: Any = None) -> Play:
    """The measuring match: the computer at ``level`` in both seats (``engine``: a server's card
    set; default the registered game), each deck checked legal first."""
    def play(name: str, decks: list, seed: int) -> list:
        game = _engine(name, engine)
        specs = [deck_spec(game, d) for d in decks]
        for spec in specs:
            problems = game.decks.validate(spec)
            if problems:
                raise ValueError(f"{name}: a random deck is not legal: {problems[0]['text']}")
        player = ai_player(level, game=engine)
        return play_match(name, {"decks": specs}, [player, player], seed, game=engine)["winners"]
    return play


def play_chunk(name: str, matches: Iterable[int], *, seed: int = 0, engine: Any = None,
               level: str = LEVEL, play: Play | None = None) -> tuple[list[dict], float]:
    """Plays the measurement's ``matches`` (their numbers): ``[{"i": number, "w": winners}]`` and
    the CPU seconds they took.  ``play``: the match to play (default :func:`self_play`)."""
    start = time.process_time()
    game = _engine(name, engine)
    cards = game.decks.cards()
    play = play or self_play(level, engine)
    out = []
    for i in matches:
        winners = play(name, match_decks(name, cards, seed, i), match_seed(seed, i))
        out.append({"i": int(i), "w": sorted(int(w) for w in winners)})
    return out, time.process_time() - start


@dataclass(frozen=True)
class CardValues:
    """A measurement's result: per card its ``value`` (the shrunk win rate), ``games`` (seats
    whose deck held it) and ``wins`` (their score, draws half); how it was measured — ``matches``,
    ``seed``, ``level``, ``prior`` — and ``label`` (which set and version, if the caller names it)."""
    game: str
    values: dict[str, float]
    games: dict[str, int]
    wins: dict[str, float]
    matches: int
    seed: int
    level: str = LEVEL
    prior: float = PRIOR
    label: str | None = None

    def ranked(self) -> list[tuple[str, float]]:
        """(card, value), best first; ties by card id."""
        return sorted(self.values.items(), key=lambda cv: (-cv[1], cv[0]))

    def to_json(self) -> dict:
        return {"game": self.game, "matches": self.matches, "seed": self.seed, "level": self.level,
                "prior": self.prior, "label": self.label,
                "cards": {cid: {"value": self.values[cid], "games": self.games[cid], "wins": self.wins[cid]}
                          for cid in sorted(self.values)}}

    @classmethod
    def from_json(cls, d: Any) -> "CardValues":
        """Checks every field (ValueError naming the first that does not fit): a stored row is
        checked when read; a value must be the shrunk win rate of its own wins and games."""
        if not isinstance(d, dict) or set(d) != {"game", "matches", "seed", "level", "prior", "label", "cards"}:
            raise ValueError("card values are an object with game, matches, seed, level, prior, label and cards")
        game, matches, seed, level, prior, label = (d[k] for k in ("game", "matches", "seed", "level", "prior", "label"))
        if game not in GAMES:
            raise ValueError(f"card values: unknown card game {game!r}")
        for key, n in (("matches", matches), ("seed", seed)):
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"card values: {key} is a whole number from 0, not {n!r}")
        if level not in LEVELS:
            raise ValueError(f"card values: unknown level {level!r}")
        if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 < prior < math.inf:
            raise ValueError(f"card values: the prior is a positive number, not {prior!r}")
        if label is not None and not isinstance(label, str):
            raise ValueError(f"card values: the label is text, not {label!r}")
        if not isinstance(d["cards"], dict):
            raise ValueError("card values: cards is an object card id -> {value, games, wins}")
        values, games, wins = {}, {}, {}
        for cid, row in d["cards"].items():
            if not isinstance(row, dict) or set(row) != {"value", "games", "wins"}:
                raise ValueError(f"card values: {cid!r} is not {{value, games, wins}}")
            g, w, v = row["games"], row["wins"], row["value"]
            if isinstance(g, bool) or not isinstance(g, int) or not 0 <= g <= 2 * matches:
                raise ValueError(f"card values: {cid!r}: games is a whole number from 0 to {2 * matches}, not {g!r}")
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= g or (w * 2) % 1:
                raise ValueError(f"card values: {cid!r}: wins is a multiple of 0.5 from 0 to its games, not {w!r}")
            if isinstance(v, bool) or not isinstance(v, (int, float)) or abs(v - round(shrink(w, g, prior), 6)) > 1e-9:
                raise ValueError(f"card values: {cid!r}: the value {v!r} is not its shrunk win rate")
            values[cid], games[cid], wins[cid] = float(v), g, float(w)
        return cls(game, values, games, wins, matches, seed, level, float(prior), label)


def values_from(name: str, cards: dict, results: Iterable[dict], *, seed: int = 0, level: str = LEVEL,
                prior: float = PRIOR, label: str | None = None) -> CardValues:
    """The values measured by ``results`` (:func:`play_chunk`'s, in any order; each match's decks
    are dealt again from ``seed`` and its number).  Every card of ``cards`` gets a value."""
    games: Counter = Counter()
    wins: Counter = Counter()
    played = 0
    for row in results:
        played += 1
        winners = set(row["w"])
        for seat, deck in enumerate(match_decks(name, cards, seed, row["i"])):
            score = 0.5 if not winners else 1.0 if seat in winners else 0.0
            for cid in set(deck):
                games[cid] += 1
                wins[cid] += score
    ids = sorted(set(cards) | set(games))
    return CardValues(name, {c: round(shrink(wins[c], games[c], prior), 6) for c in ids},
                      {c: games[c] for c in ids}, {c: float(wins[c]) for c in ids},
                      played, seed, level, float(prior), label)


def measure(name: str, *, matches: int, seed: int = 0, engine: Any = None, level: str = LEVEL,
            prior: float = PRIOR, label: str | None = None, play: Play | None = None,
            log: Callable[[str], None] = lambda s: None) -> CardValues:
    """Plays a whole measurement of ``matches`` matches and returns its values (``engine``: a
    server's card set; ``play``: the match, default the computer at ``level``)."""
    if name not in GAMES:
        raise ValueError(f"card values are measured for the card games ({', '.join(GAMES)}), not {name!r}")
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise ValueError(f"matches is a whole number from 1, not {matches!r}")
    cards = _engine(name, engine).decks.cards()
    results: list[dict] = []
    step = max(1, matches // 10)
    for start in range(0, matches, step):
        chunk, _cpu = play_chunk(name, range(start, min(matches, start + step)), seed=seed, engine=engine,
                                 level=level, play=play)
        results += chunk
        log(f"{name}: card values: {len(results)}/{matches} matches")
    return values_from(name, cards, results, seed=seed, level=level, prior=prior, label=label)


def format_values(values: CardValues, names: dict | None = None, top: int = 8) -> str:
    """The best and the worst ``top`` cards of a measurement as text (``names``: card id → a
    printable name)."""
    names = names or {}
    ranked = values.ranked()
    lines = [f"{values.game}: card values from {values.matches} self-play matches "
             f"(level {values.level}, prior {values.prior:g} games at 0.5)"]
    parts = [("best", ranked[:top]), ("worst", ranked[-top:][::-1])] if len(ranked) > 2 * top else [("all", ranked)]
    for title, part in parts:
        lines.append(f"  {title}:")
        for cid, v in part:
            lines.append(f"    {cid:<14} {v:.3f}  n={values.games[cid]:<5} {names.get(cid, '')}")
    return "\n".join(lines)


__all__ = ["CardValues", "GAMES", "PRIOR", "LEVEL", "MATCHES", "shrink", "random_deck", "deck_spec", "match_decks",
           "match_seed", "self_play", "play_chunk", "values_from", "measure", "format_values"]
