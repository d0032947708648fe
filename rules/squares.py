"""SQUARES (GOTTA2, 2014): the rules engine.

Two players, a 5×5 board, ten two-sided pieces each; take 3 of the 5 centre squares.
Rules, rulings and the notation: ``docs/rules/squares.md``.  The contract: ``docs/engine.md``.

>>> from rules import registry
>>> game = registry.get("squares")
>>> state = game.new_match(players=2, seed=7, options={"first": 0})
>>> game.to_act(state)
[0]
>>> game.legal_commands(state, 0)[:3]
['place S1 a1', 'place S1 b1', 'place S1 c1']
>>> state = game.apply(state, 0, "place L2 c1")
>>> state = game.apply(state, 1, "S3 c5")            # friendly spelling of "place S3 c5"
>>> state = game.apply(state, 0, "leap c1 c3")
>>> game.view(state, None)["pieces"][0]["label"], game.view(state, None)["pieces"][0]["square"]
('L2', 'c3')

Coordinates are absolute, like chess: files a–e left to right as seen by seat 0, ranks 1–5;
rank 1 is seat 0's nearest row, rank 5 seat 1's, rank 3 the centre row.  A square's index in
``SquaresState.board`` is ``(rank - 1) * 5 + file``.  A cell is ``""`` (empty) or a 3-character
string ``owner + side + number``, e.g. ``"0S3"`` = seat 0's piece A3 with its Support side up.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from rules.common import int_option, loser_first
from rules.contract import IllegalCommand, en_text
from rules import prng as _prng
from rules import squares_final as _final

# --------------------------------------------------------------------------- geometry

FILES = "abcde"
SQUARES: tuple[str, ...] = tuple(f + str(r) for r in range(1, 6) for f in FILES)
SQ_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARES)}
CENTRE_RANK = 3
NEAREST_RANK = (1, 5)          # per seat: rank of that seat's nearest row ("row 1")
BASE_LIMIT = 8


def _neighbours(i: int, dist: int) -> tuple[int, ...]:
    r, f = divmod(i, 5)
    out = []
    for dr, df in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, ff = r + dr * dist, f + df * dist
        if 0 <= rr < 5 and 0 <= ff < 5:
            out.append(rr * 5 + ff)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i, 1) for i in range(25))
LEAPS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i, 2) for i in range(25))
NEAR_SQUARES = (tuple(range(0, 5)), tuple(range(20, 25)))


def own_row(seat: int, rank: int) -> int:
    """The row number as the rulebook counts it, from ``seat``'s side (1 = nearest, 3 = centre)."""
    return rank if seat == 0 else 6 - rank


# --------------------------------------------------------------------------- pieces

SIDES = "SLXP"                                  # canonical order of up sides
KIND_OF_SIDE = {"S": "A", "L": "A", "X": "B", "P": "B"}
SIDES_OF_KIND = {"A": ("S", "L"), "B": ("X", "P")}
SIDE_NAMES = {"S": "Support", "L": "Leap", "X": "Swap", "P": "Supply"}
PIECES = tuple((k, n) for k in "AB" for n in range(1, 6))     # every seat owns each once

# cell string -> (owner, side, number, kind)
CELL: dict[str, tuple[int, str, int, str]] = {
    f"{o}{s}{n}": (o, s, n, KIND_OF_SIDE[s]) for o in (0, 1) for s in SIDES for n in range(1, 6)
}
# one character per cell for compact position keys
_CODE = {"": "."}
for _i, _c in enumerate(sorted(CELL)):
    _CODE[_c] = chr(ord("A") + _i) if _i < 26 else chr(ord("a") + _i - 26)
del _i, _c

# --------------------------------------------------------------------------- messages
# English text of every message key.  data/i18n/en/squares.json holds the same texts (a test
# checks they agree); data/i18n/ja/squares.json the Japanese ones with the same placeholders.

EN: dict[str, str] = {
    "squares.err.game_over": "The match is over; no more commands are accepted.",
    "squares.err.not_your_turn": "It is not your turn: waiting for player {waiting}.",
    "squares.err.empty": "Type a command. Legal now: {legal}",
    "squares.err.syntax": "Cannot read \"{command}\": write it like {usage}. Legal now: {legal}",
    "squares.err.unknown_verb": "Unknown action \"{verb}\": use place, move, leap, swap, return or pass. Legal now: {legal}",
    "squares.err.unknown_piece": "\"{token}\" is not a piece: write the up side and the number, S1–S5 (Support), L1–L5 (Leap), X1–X5 (Swap) or P1–P5 (Supply). Legal now: {legal}",
    "squares.err.side_missing": "Say which side of {piece} is up: {first} or {second}. Legal now: {legal}",
    "squares.err.unknown_square": "\"{token}\" is not a square: files a–e, ranks 1–5. Legal now: {legal}",
    "squares.err.not_in_reserve": "Your piece {piece} is not in your reserve (it stands on {square}); you can place only pieces from your reserve. Legal now: {legal}",
    "squares.err.not_nearest_row": "You can place only on your nearest row, rank {rank} (a{rank}–e{rank}), not on {square}. Legal now: {legal}",
    "squares.err.own_piece_on_target": "Your own piece {label} already stands on {square}; your pieces never share a square. Legal now: {legal}",
    "squares.err.row_limit": "Rank {rank} (your row {row}) would total {total} for you, over your limit of {limit} (8 + {supply} Supply). Legal now: {legal}",
    "squares.err.no_own_piece": "There is no piece of yours on {square}. Legal now: {legal}",
    "squares.err.not_adjacent": "A move goes exactly one square up, down, left or right; {origin} to {target} is not. Legal now: {legal}",
    "squares.err.no_leap": "{label} on {square} is not Leap-up; only a Leap-up piece (L1–L5) can leap. Legal now: {legal}",
    "squares.err.leap_distance": "A leap goes exactly 2 squares up, down, left or right; {origin} to {target} is not. Legal now: {legal}",
    "squares.err.leap_off_board": "A leap from {origin} to {target} would leave the board (files a–e, ranks 1–5). Legal now: {legal}",
    "squares.err.leap_own_piece": "A leap never lands on your own piece, and {label} stands on {square}. Legal now: {legal}",
    "squares.err.no_swap": "{label} on {square} is not Swap-up; only a Swap-up piece (X1–X5) can swap. Legal now: {legal}",
    "squares.err.swap_not_adjacent": "A swap exchanges places with a piece directly up, down, left or right; {target} is not next to {origin}. Legal now: {legal}",
    "squares.err.swap_empty": "{square} is empty: a swap needs a piece (yours or your opponent's) to exchange with; to go to an empty square, move. Legal now: {legal}",
    "squares.err.must_return": "You are over your row limit on rank {ranks}: return pieces to your reserve first. Legal now: {legal}",
    "squares.err.no_return": "There is nothing to return: return is asked only when an ability leaves you over a row limit. Legal now: {legal}",
    "squares.err.return_not_over": "{square} is on rank {rank}, where you are within your limit; return a piece from rank {ranks}. Legal now: {legal}",
    "squares.err.pass_not_allowed": "You can pass only when you have no legal action; you have {count} legal commands. Legal now: {legal}",
    "squares.reason.centre": "holds 3 of the 5 centre squares",
    "squares.reason.repetition": "the same position repeated, a house rule",
    "squares.reason.turn_limit": "the turn limit was reached, a house rule",
    "squares.side.S": "Support",
    "squares.side.L": "Leap",
    "squares.side.X": "Swap",
    "squares.side.P": "Supply",
    "squares.kind.A": "piece A (Support / Leap)",
    "squares.kind.B": "piece B (Swap / Supply)",
    "squares.verb.place": "place",
    "squares.verb.move": "move",
    "squares.verb.leap": "leap",
    "squares.verb.swap": "swap",
    "squares.verb.return": "return",
    "squares.verb.pass": "pass",
    "squares.phase.play": "{seat} to act",
    "squares.phase.return": "{seat} must return pieces to the reserve",
    "squares.phase.over": "game over",
}

USAGE = {
    "place": "place S3 c1",
    "move": "move c1 c2",
    "leap": "leap c1 c3",
    "swap": "swap c2 d2",
    "return": "return c3",
    "pass": "pass",
    None: "place S3 c1 / move c1 c2 / leap c1 c3 / swap c2 d2 / return c3 / pass",
}

VERBS = ("place", "move", "leap", "swap", "return", "pass")

# --------------------------------------------------------------------------- options

OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "first": {"default": None, "choices": [None, 0, 1]},
    "max_turns": {"default": 200, "min": 10, "max": 1000},
    "repetition": {"default": 3, "min": 2, "max": 10},
}


def validate_options(options: dict | None) -> dict:
    """Return the normalised options (only the ones given); raise ValueError for bad ones."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"SQUARES options must be a dict, not {type(options).__name__}")
    out: dict[str, Any] = {}
    for name, value in options.items():
        spec = OPTION_SCHEMA.get(name)
        if spec is None:
            allowed = ", ".join(OPTION_SCHEMA)
            raise ValueError(f"unknown SQUARES option {name!r}; allowed options: {allowed}")
        if name == "first":
            if value is None or (isinstance(value, str) and value.strip().lower() in ("", "random")):
                continue                               # random, same as leaving it out
            try:
                seat = int_option("SQUARES", name, value)
            except ValueError:
                seat = -1
            if seat not in (0, 1):
                raise ValueError(
                    f"SQUARES option 'first' must be 0 or 1 (or absent for random), not {value!r}")
            out[name] = seat
        else:
            number = int_option("SQUARES", name, value)
            if not spec["min"] <= number <= spec["max"]:
                raise ValueError(
                    f"SQUARES option {name!r} must be between {spec['min']} and {spec['max']}, "
                    f"not {number}")
            out[name] = number
    return out


# --------------------------------------------------------------------------- state

@dataclass(frozen=True)
class SquaresState:
    """The whole match as plain, immutable data (``dump``/``load`` give it back exactly).

    ``player`` is the turn player (whose turn it is).  During ``phase == "return"`` the seat
    deciding is ``returner``.  ``history`` holds the compact key of every decision point so far
    (for the repetition rule).  ``last`` describes the last action of a turn (see ``view``).
    ``result`` is the outcome once the match is over.
    """

    seed: int
    first: int
    max_turns: int
    repetition: int
    board: tuple[str, ...]
    player: int
    turn: int
    phase: str                       # "play" | "return" | "over"
    returner: int | None
    history: tuple[str, ...]
    last: dict | None
    result: dict | None


def _position_key(board: tuple[str, ...], player: int, phase: str, returner: int | None) -> str:
    code = _CODE
    return "".join([code[c] for c in board]) + f"{player}{phase[0]}{'-' if returner is None else returner}"


def _rows(board: tuple[str, ...]) -> tuple[list[list[int]], list[list[int]]]:
    """Per seat and rank index (0–4): the sum of that seat's numbers, and its Supply-up count."""
    sums = [[0] * 5, [0] * 5]
    sup = [[0] * 5, [0] * 5]
    for i, c in enumerate(board):
        if c:
            o, side, n, _ = CELL[c]
            r = i // 5
            sums[o][r] += n
            if side == "P":
                sup[o][r] += 1
    return sums, sup


def _over_ranks(board: tuple[str, ...], seat: int) -> list[int]:
    sums, sup = _rows(board)
    return [r + 1 for r in range(5) if sums[seat][r] > BASE_LIMIT + sup[seat][r]]


@lru_cache(maxsize=8192)
def _legal_cached(board: tuple[str, ...], player: int, phase: str, returner: int | None) -> tuple[str, ...]:
    if phase == "return":
        over = _over_ranks(board, returner)
        own = str(returner)
        return tuple(f"return {SQUARES[i]}" for i, c in enumerate(board)
                     if c and c[0] == own and i // 5 + 1 in over)
    if phase != "play":
        return ()
    p = player
    own = str(p)
    sums, sup = _rows(board)
    ps, pp = sums[p], sup[p]
    places: list[str] = []
    moves: list[str] = []
    leaps: list[str] = []
    swaps: list[str] = []
    on_board = set()
    for i, c in enumerate(board):
        if not c or c[0] != own:
            continue
        _, side, n, kind = CELL[c]
        on_board.add((kind, n))
        r = i // 5
        for j in NEIGHBOURS[i]:
            d = board[j]
            if d and d[0] == own:
                continue
            rj = j // 5
            if rj != r:
                if ps[rj] + n > BASE_LIMIT + pp[rj] + (side == "P"):
                    continue
            elif ps[r] > BASE_LIMIT + pp[r]:                 # cannot happen between turns
                continue
            moves.append(f"move {SQUARES[i]} {SQUARES[j]}")
        if side == "L":
            for j in LEAPS[i]:
                d = board[j]
                if not (d and d[0] == own):
                    leaps.append(f"leap {SQUARES[i]} {SQUARES[j]}")
        elif side == "X":
            for j in NEIGHBOURS[i]:
                if board[j]:
                    swaps.append(f"swap {SQUARES[i]} {SQUARES[j]}")
    near_r = NEAREST_RANK[p] - 1
    targets = [SQUARES[i] for i in NEAR_SQUARES[p] if not (board[i] and board[i][0] == own)]
    if targets:
        for side in SIDES:
            kind = KIND_OF_SIDE[side]
            limit = BASE_LIMIT + pp[near_r] + (side == "P")
            for n in range(1, 6):
                if (kind, n) in on_board or ps[near_r] + n > limit:
                    continue
                for sq in targets:
                    places.append(f"place {side}{n} {sq}")
    out = places + moves + leaps + swaps
    return tuple(out) if out else ("pass",)


def _legal(state: SquaresState) -> tuple[str, ...]:
    return _legal_cached(state.board, state.player, state.phase, state.returner)


# --------------------------------------------------------------------------- parsing

_PIECE_RE = re.compile(r"^([slxp])([1-5])$")
_KIND_RE = re.compile(r"^([ab])([1-5])$")
_SQUARE_RE = re.compile(r"^[a-e][1-5]$")
_SQUARE_LIKE_RE = re.compile(r"^[a-z]-?\d+$")


def _normalise(command: str) -> list[str]:
    text = command.strip().lower()
    text = re.sub(r"\s*(?:-|→|>)\s*", " ", text)      # c1-c2, c1->c2, c1 → c2
    return text.split()


# --------------------------------------------------------------------------- the game

class SquaresGame:
    """SQUARES behind the engine contract (``docs/engine.md``)."""

    name = "squares"
    min_players = 2
    max_players = 2

    # ----------------------------------------------------------------- setup
    def option_schema(self) -> dict[str, dict[str, Any]]:
        return {k: dict(v, choices=list(v["choices"])) if "choices" in v else dict(v)
                for k, v in OPTION_SCHEMA.items()}

    def rematch_options(self, options: dict | None, outcome: dict | None) -> dict:
        """Project ruling (docs/rules/squares.md): in a rematch the previous winner moves second;
        after a draw, random again."""
        return loser_first(options, outcome)

    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None, *,
                  prng: int = _prng.CURRENT) -> SquaresState:
        # SQUARES has no hidden information; its one random fact (who moves first, public at
        # once) comes from the seed alike under both PRNG versions.
        _prng.check(prng)
        if players != 2:
            raise ValueError(f"SQUARES is for exactly 2 players, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        opts = validate_options(options)
        first = opts["first"] if "first" in opts else random.Random(seed).randrange(2)
        board = ("",) * 25
        return SquaresState(
            seed=seed, first=first,
            max_turns=opts.get("max_turns", OPTION_SCHEMA["max_turns"]["default"]),
            repetition=opts.get("repetition", OPTION_SCHEMA["repetition"]["default"]),
            board=board, player=first, turn=0, phase="play", returner=None,
            history=(_position_key(board, first, "play", None),), last=None, result=None)

    def position(self, pieces: dict[int, dict[str, str]], player: int = 0, *, first: int | None = None,
                 turn: int = 0, max_turns: int = 200, repetition: int = 3, seed: int = 0) -> SquaresState:
        """Build a play-phase state from a position (for tests, docs and puzzles).

        ``pieces`` maps seat -> {square: label}, e.g. ``{0: {"c1": "L2"}, 1: {"c3": "X3"}}``.
        Raises ValueError for an impossible position (a piece twice, two pieces on a square,
        a row over its limit).
        """
        cells = [""] * 25
        for seat, placement in pieces.items():
            if seat not in (0, 1):
                raise ValueError(f"seat must be 0 or 1, not {seat!r}")
            seen = set()
            for sq, label in placement.items():
                if sq not in SQ_INDEX:
                    raise ValueError(f"{sq!r} is not a square")
                m = _PIECE_RE.match(label.lower())
                if not m:
                    raise ValueError(f"{label!r} is not a piece label (S1–S5, L1–L5, X1–X5, P1–P5)")
                side, n = m.group(1).upper(), int(m.group(2))
                pid = (KIND_OF_SIDE[side], n)
                if pid in seen:
                    raise ValueError(f"seat {seat} has piece {pid[0]}{n} twice")
                seen.add(pid)
                if cells[SQ_INDEX[sq]]:
                    raise ValueError(f"two pieces on {sq}")
                cells[SQ_INDEX[sq]] = f"{seat}{side}{n}"
        board = tuple(cells)
        for seat in (0, 1):
            if _over_ranks(board, seat):
                raise ValueError(f"seat {seat} is over the row limit on ranks {_over_ranks(board, seat)}")
        return SquaresState(
            seed=seed, first=player if first is None else first, max_turns=max_turns,
            repetition=repetition, board=board, player=player, turn=turn, phase="play",
            returner=None, history=(_position_key(board, player, "play", None),), last=None,
            result=None)

    # ----------------------------------------------------------------- queries
    def to_act(self, state: SquaresState) -> list[int]:
        if state.phase == "play":
            return [state.player]
        if state.phase == "return":
            return [state.returner]
        return []

    def legal_commands(self, state: SquaresState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return list(_legal(state))

    def outcome(self, state: SquaresState) -> dict | None:
        if state.result is None:
            return None
        return {"winners": list(state.result["winners"]), "reason": state.result["reason"]}

    def public_command(self, state_before: SquaresState, seat: int, command: str) -> str:
        """Nothing in SQUARES is secret: the canonical command itself."""
        try:
            verb, args = self._parse(state_before, seat, command)
        except IllegalCommand:
            return " ".join(command.split())
        return " ".join([verb, *args])

    def reveals(self, state_before: SquaresState, seat: int, command: str, state_after: SquaresState) -> bool:
        return _final.reveals(state_before, seat, command, state_after)     # rules/squares_final.py

    def final(self, state_before: SquaresState, seat: int, command: str, state_after: SquaresState) -> bool:
        return _final.final(self, state_before, seat, command, state_after)

    def view(self, state: SquaresState, seat: int | None) -> dict:
        board = state.board
        sums, sup = _rows(board)
        pieces = []
        centre = [0, 0]
        on_board: list[set] = [set(), set()]
        for i, c in enumerate(board):
            if not c:
                continue
            o, side, n, kind = CELL[c]
            on_board[o].add((kind, n))
            if i // 5 == CENTRE_RANK - 1:
                centre[o] += 1
            pieces.append({"square": SQUARES[i], "owner": o, "kind": kind, "number": n,
                           "side": side, "label": f"{side}{n}"})
        limits = [[BASE_LIMIT + sup[s][r] for r in range(5)] for s in (0, 1)]
        return {
            "game": "squares",
            "seat": seat,
            "first": state.first,
            "turn": state.turn,
            "max_turns": state.max_turns,
            "to_act": self.to_act(state),
            "phase": state.phase,
            "pieces": pieces,
            "reserves": [[{"kind": k, "number": n} for k, n in PIECES if (k, n) not in on_board[s]]
                         for s in (0, 1)],
            "row_sums": [list(sums[0]), list(sums[1])],
            "row_limits": limits,
            "over_limit": [[r + 1 for r in range(5) if sums[s][r] > limits[s][r]] for s in (0, 1)],
            "centre": centre,
            "last": json.loads(json.dumps(state.last)) if state.last is not None else None,
            "outcome": self.outcome(state),
            # what the rules need to go on from here (determinize): the repetition rule's limit
            # and every decision point so far, and the seat whose turn it is
            "repetition": state.repetition,
            "history": list(state.history),
            "player": state.player,
        }

    def determinize(self, view: dict, seat: int | None, rng: Any = None) -> SquaresState:
        """The state ``view`` shows (docs/engine.md): SQUARES hides nothing, so nothing is sampled."""
        board = [""] * 25
        for p in view["pieces"]:
            board[SQ_INDEX[p["square"]]] = f"{p['owner']}{p['side']}{p['number']}"
        phase = view["phase"]
        to_act = list(view["to_act"])
        return SquaresState(seed=0, first=int(view["first"]), max_turns=int(view["max_turns"]),
                            repetition=int(view["repetition"]), board=tuple(board), player=int(view["player"]),
                            turn=int(view["turn"]), phase=phase,
                            returner=to_act[0] if phase == "return" and to_act else None,
                            history=tuple(view["history"]),
                            last=json.loads(json.dumps(view["last"])) if view.get("last") is not None else None,
                            result=json.loads(json.dumps(view["outcome"])) if view.get("outcome") else None)

    # ----------------------------------------------------------------- persistence
    def dump(self, state: SquaresState) -> str:
        return json.dumps({
            "game": "squares", "version": 1,
            "seed": state.seed, "first": state.first, "max_turns": state.max_turns,
            "repetition": state.repetition, "board": list(state.board), "player": state.player,
            "turn": state.turn, "phase": state.phase, "returner": state.returner,
            "history": list(state.history), "last": state.last, "result": state.result,
        }, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> SquaresState:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("game") != "squares" or data.get("version") != 1:
            raise ValueError("not a SQUARES state (version 1)")
        board = tuple(data["board"])
        if len(board) != 25 or any(c and c not in CELL for c in board):
            raise ValueError("SQUARES state has a malformed board")
        if data["phase"] not in ("play", "return", "over"):
            raise ValueError(f"SQUARES state has an unknown phase {data['phase']!r}")
        return SquaresState(
            seed=data["seed"], first=data["first"], max_turns=data["max_turns"],
            repetition=data["repetition"], board=board, player=data["player"], turn=data["turn"],
            phase=data["phase"], returner=data["returner"], history=tuple(data["history"]),
            last=data["last"], result=data["result"])

    # ----------------------------------------------------------------- errors
    def _hint(self, state: SquaresState, verb: str | None = None, limit: int = 5) -> str:
        legal = _legal(state)
        if verb:
            preferred = [c for c in legal if c.startswith(verb + " ")]
            legal = tuple(preferred) + tuple(c for c in legal if not c.startswith(verb + " "))
        shown = ", ".join(legal[:limit])
        if len(legal) > limit:
            shown += f", … (+{len(legal) - limit})"
        return shown

    def _fail(self, key: str, state: SquaresState | None = None, prefer: str | None = None,
              **params: Any) -> IllegalCommand:
        """The IllegalCommand for ``key``; ``{legal}`` lists legal commands, ``prefer``-verb first."""
        if state is not None and "{legal}" in EN[key]:
            params["legal"] = self._hint(state, prefer)
        return IllegalCommand(en_text(EN, key, params), key=key, **params)

    # ----------------------------------------------------------------- parsing
    def _parse(self, state: SquaresState, seat: int, command: str) -> tuple[str, list[str]]:
        """Command text -> (verb, canonical args).  Syntax only, no rule checks."""
        if not isinstance(command, str):
            raise self._fail("squares.err.syntax", state, command=str(command), usage=USAGE[None])
        tokens = _normalise(command)
        if not tokens:
            raise self._fail("squares.err.empty", state)
        head = tokens[0]
        if head in VERBS:
            verb, args = head, tokens[1:]
        elif _PIECE_RE.match(head):                              # "S3 c1"
            verb, args = "place", tokens
        elif _SQUARE_RE.match(head) and len(tokens) == 2 and _SQUARE_RE.match(tokens[1]):
            a, b = SQ_INDEX[head], SQ_INDEX[tokens[1]]
            verb, args = ("leap" if b in LEAPS[a] else "move"), tokens
        elif _SQUARE_RE.match(head) and len(tokens) == 1 and state.phase == "return":
            verb, args = "return", tokens
        else:
            if re.fullmatch(r"[a-z]+", head):
                raise self._fail("squares.err.unknown_verb", state, verb=head)
            raise self._fail("squares.err.syntax", state, command=" ".join(tokens), usage=USAGE[None])
        arity = {"place": 2, "move": 2, "leap": 2, "swap": 2, "return": 1, "pass": 0}[verb]
        if len(args) != arity:
            raise self._fail("squares.err.syntax", state, verb, command=" ".join(tokens),
                             usage=USAGE[verb])
        if verb == "place" and _SQUARE_RE.match(args[0]) and _PIECE_RE.match(args[1]):
            args = [args[1], args[0]]                             # "place c1 S3"
        out = []
        for pos, tok in enumerate(args):
            if verb == "place" and pos == 0:
                m = _PIECE_RE.match(tok)
                if m:
                    out.append(m.group(1).upper() + m.group(2))
                    continue
                m = _KIND_RE.match(tok)
                if m:
                    first, second = SIDES_OF_KIND[m.group(1).upper()]
                    raise self._fail("squares.err.side_missing", state, verb,
                                     piece=m.group(1).upper() + m.group(2),
                                     first=first + m.group(2), second=second + m.group(2))
                raise self._fail("squares.err.unknown_piece", state, verb, token=tok)
            if not _SQUARE_RE.match(tok):
                if verb == "leap" and pos == 1 and _SQUARE_LIKE_RE.match(tok) and _SQUARE_RE.match(args[0]):
                    raise self._fail("squares.err.leap_off_board", state, verb,
                                     origin=args[0], target=tok)
                raise self._fail("squares.err.unknown_square", state, verb, token=tok)
            out.append(tok)
        return verb, out

    # ----------------------------------------------------------------- apply
    def apply(self, state: SquaresState, seat: int, command: str) -> SquaresState:
        if state.phase == "over":
            raise self._fail("squares.err.game_over")
        waiting = self.to_act(state)
        if isinstance(seat, bool) or seat not in waiting:
            raise self._fail("squares.err.not_your_turn", waiting=waiting[0] + 1)   # 1-based
        verb, args = self._parse(state, seat, command)
        canonical = " ".join([verb, *args])
        board = state.board
        own = str(seat)

        if state.phase == "return":
            if verb != "return":
                raise self._fail("squares.err.must_return", state, "return",
                                 ranks=", ".join(map(str, _over_ranks(board, seat))))
            return self._apply_return(state, seat, args[0])
        if verb == "return":
            raise self._fail("squares.err.no_return", state)
        if verb == "pass":
            legal = _legal(state)
            if legal != ("pass",):
                raise self._fail("squares.err.pass_not_allowed", state, count=len(legal))
            return self._end_turn(state, board, {"seat": seat, "command": "pass", "from": None,
                                                 "to": None, "battle": None, "returned": []})

        sums, sup = _rows(board)
        if verb == "place":
            label, sq = args
            side, n = label[0], int(label[1])
            kind = KIND_OF_SIDE[side]
            for i, c in enumerate(board):
                if c and c[0] == own and CELL[c][3] == kind and CELL[c][2] == n:
                    raise self._fail("squares.err.not_in_reserve", state, verb,
                                     piece=f"{kind}{n}", square=SQUARES[i])
            t = SQ_INDEX[sq]
            rank = NEAREST_RANK[seat]
            if t // 5 != rank - 1:
                raise self._fail("squares.err.not_nearest_row", state, verb, rank=rank, square=sq)
            self._check_target(state, seat, verb, t, side, n, sums, sup, same_row=False)
            return self._arrive(state, seat, canonical, None, t, f"{seat}{side}{n}", board, ability=False)

        o, t = SQ_INDEX[args[0]], SQ_INDEX[args[1]]
        c = board[o]
        if not c or c[0] != own:
            raise self._fail("squares.err.no_own_piece", state, verb, square=args[0])
        _, side, n, _ = CELL[c]
        if verb == "move":
            if t not in NEIGHBOURS[o]:
                raise self._fail("squares.err.not_adjacent", state, verb, origin=args[0], target=args[1])
            self._check_target(state, seat, verb, t, side, n, sums, sup, same_row=(o // 5 == t // 5))
            return self._arrive(state, seat, canonical, o, t, c, board, ability=False)
        if verb == "leap":
            if side != "L":
                raise self._fail("squares.err.no_leap", state, verb, label=f"{side}{n}",
                                 square=args[0])
            if t not in LEAPS[o]:
                raise self._fail("squares.err.leap_distance", state, verb, origin=args[0], target=args[1])
            d = board[t]
            if d and d[0] == own:
                raise self._fail("squares.err.leap_own_piece", state, verb, label=d[1:], square=args[1])
            return self._arrive(state, seat, canonical, o, t, c, board, ability=True)
        # swap
        if side != "X":
            raise self._fail("squares.err.no_swap", state, verb, label=f"{side}{n}",
                             square=args[0])
        if t not in NEIGHBOURS[o]:
            raise self._fail("squares.err.swap_not_adjacent", state, verb, origin=args[0], target=args[1])
        if not board[t]:
            raise self._fail("squares.err.swap_empty", state, verb, square=args[1])
        cells = list(board)
        cells[o], cells[t] = cells[t], cells[o]
        last = {"seat": seat, "command": canonical, "from": args[0], "to": args[1],
                "battle": None, "returned": []}
        return self._after_ability(state, tuple(cells), last)

    def _check_target(self, state, seat, verb, t, side, n, sums, sup, same_row) -> None:
        d = state.board[t]
        if d and d[0] == str(seat):
            raise self._fail("squares.err.own_piece_on_target", state, verb, label=d[1:],
                             square=SQUARES[t])
        r = t // 5
        supply = sup[seat][r] + (0 if same_row else side == "P")
        total = sums[seat][r] + (0 if same_row else n)
        if total > BASE_LIMIT + supply:
            raise self._fail("squares.err.row_limit", state, verb, rank=r + 1,
                             row=own_row(seat, r + 1), total=total, limit=BASE_LIMIT + supply,
                             supply=supply)

    def _arrive(self, state, seat, canonical, o, t, cell, board, ability: bool) -> SquaresState:
        """The piece ``cell`` (from square ``o``, or None when placed) arrives on ``t``."""
        cells = list(board)
        if o is not None:
            cells[o] = ""
        battle = None
        d = cells[t]
        if d:                                                   # an opponent's piece: battle
            a_val = CELL[cell][2] + self._support(cells, t, seat)
            d_val = CELL[d][2] + self._support(cells, t, 1 - seat)
            if a_val == d_val:
                cells[t], winner = "", "both_returned"
            elif a_val > d_val:
                cells[t], winner = cell, "attacker"
            else:
                winner = "defender"
            battle = {"square": SQUARES[t], "attacker": a_val, "defender": d_val, "winner": winner}
        else:
            cells[t] = cell
        last = {"seat": seat, "command": canonical, "from": None if o is None else SQUARES[o],
                "to": SQUARES[t], "battle": battle, "returned": []}
        if ability:
            return self._after_ability(state, tuple(cells), last)
        return self._end_turn(state, tuple(cells), last)

    @staticmethod
    def _support(cells, t: int, owner: int) -> int:
        tag = f"{owner}S"
        return sum(1 for j in NEIGHBOURS[t] if cells[j][:2] == tag)

    def _after_ability(self, state: SquaresState, board: tuple[str, ...], last: dict) -> SquaresState:
        actor = state.player
        for seat in (1 - actor, actor):                 # the opponent of the actor returns first
            if _over_ranks(board, seat):
                return self._decision(state, board, state.player, state.turn, "return", seat, last)
        return self._end_turn(state, board, last)

    def _apply_return(self, state: SquaresState, seat: int, sq: str) -> SquaresState:
        board = state.board
        i = SQ_INDEX[sq]
        c = board[i]
        if not c or c[0] != str(seat):
            raise self._fail("squares.err.no_own_piece", state, "return", square=sq)
        over = _over_ranks(board, seat)
        if i // 5 + 1 not in over:
            raise self._fail("squares.err.return_not_over", state, "return", square=sq,
                             rank=i // 5 + 1, ranks=", ".join(map(str, over)))
        cells = list(board)
        cells[i] = ""
        board = tuple(cells)
        last = dict(state.last or {}, returned=list((state.last or {}).get("returned", [])) + [sq])
        if _over_ranks(board, seat):
            return self._decision(state, board, state.player, state.turn, "return", seat, last)
        if seat != state.player and _over_ranks(board, state.player):
            return self._decision(state, board, state.player, state.turn, "return", state.player, last)
        return self._end_turn(state, board, last)

    def _end_turn(self, state: SquaresState, board: tuple[str, ...], last: dict) -> SquaresState:
        turn = state.turn + 1
        centre = [0, 0]
        for c in board[10:15]:
            if c:
                centre[CELL[c][0]] += 1
        for seat in (0, 1):
            if centre[seat] >= 3:
                return replace(state, board=board, turn=turn, phase="over", returner=None,
                               last=last, result={"winners": [seat], "reason": "centre"})
        return self._decision(state, board, 1 - state.player, turn, "play", None, last)

    def _decision(self, state, board, player, turn, phase, returner, last) -> SquaresState:
        key = _position_key(board, player, phase, returner)
        history = state.history + (key,)
        result = None
        if history.count(key) >= state.repetition:
            result = {"winners": [], "reason": "repetition"}
        elif phase == "play" and turn >= state.max_turns:
            result = {"winners": [], "reason": "turn_limit"}
        if result is not None:
            return replace(state, board=board, player=player, turn=turn, phase="over",
                           returner=None, history=history, last=last, result=result)
        return replace(state, board=board, player=player, turn=turn, phase=phase,
                       returner=returner, history=history, last=last, result=None)


__all__ = ["SquaresGame", "SquaresState", "validate_options", "OPTION_SCHEMA", "EN", "SQUARES",
           "own_row"]
