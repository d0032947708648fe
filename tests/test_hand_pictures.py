"""Hand pictures read on a phone (issue 33, "Hand pictures on a phone"), and picture text that
fits its box and breaks lines by the Japanese rules.

Every card game's hand picture (the DM picture, ``part="hand"``), in both languages, at the start
and in the middle of random matches, for both seats:
- is at most twice as tall as it is wide;
- has no text under 8 px once scaled to 400 px wide;
- draws no two texts over each other (ink boxes recorded by :class:`render.fonts.drawn_boxes`);
- shows each card's whole effect in words (its card text, wrapped over lines).
"""
from __future__ import annotations

import random

import pytest

from render import render_image
from render.fonts import drawn_boxes, drawn_text, overlaps, wrap
from render.linebreak import NO_END, NO_START, break_lines
from rules import registry

GAMES = ["maken", "art_of_war", "avalon", "logic_square"]
NAMES = ["Alice", "Bob"]


def _states(name: str, seed: int, plies=(0, 12, 30)):
    game = registry.get(name)
    state = game.new_match(players=2, seed=seed, options={})
    rng = random.Random(seed)
    out = []
    for ply in range(max(plies) + 1):
        if ply in plies:
            out.append(state)
        if game.outcome(state) is not None or not game.to_act(state):
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    return game, out


def _texts(name: str, view: dict, locale: str) -> list[str]:
    """The effect words of every card the hand picture must show."""
    cards = view.get("cards") or {}
    if name == "art_of_war":
        seat = view["seat"]
        defs = [(view.get("kings") or [{}, {}])[seat % 2] if c == "k" else (view.get("units") or {}).get(c) or {}
                for c in view.get("hand") or []]
    else:
        ids = list(view.get("hand") or []) + list(view.get("it_unused") or [])
        defs = [cards.get(c) or {} for c in ids]
    return [(d.get("text") or {}).get(locale, "") for d in defs if isinstance(d.get("text"), dict)]


def _squash(s: str) -> str:
    return "".join(s.split())


def _check(name: str, view: dict, locale: str) -> list[str]:
    with drawn_text() as sizes, drawn_boxes() as boxes:
        image = render_image(name, view, locale=locale, names=NAMES, part="hand")
    problems = []
    if image.height > 2 * image.width:
        problems.append(f"{image.width}x{image.height}: taller than twice its width")
    smallest = min(size for size, _ in sizes) * 400 / image.width
    if smallest < 8:
        problems.append(f"text of {smallest:.1f} px at 400 px wide")
    for a, b in overlaps(boxes):
        problems.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}")
    drawn = _squash("".join(text for _, text in sizes))
    for text in _texts(name, view, locale):
        if _squash(text) not in drawn:
            problems.append(f"card text not shown whole: {text!r}")
    return problems


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_hand_picture_fits_a_phone_and_shows_every_cards_effect(name: str, locale: str) -> None:
    problems = []
    for seed in (3, 7):
        game, states = _states(name, seed)
        for k, state in enumerate(states):
            for seat in (0, 1):
                view = game.view(state, seat)
                problems += [f"seed {seed} position {k} seat {seat}: {p}" for p in _check(name, view, locale)]
    assert not problems, "\n".join(problems[:12])


def test_logic_square_chain_window_mark_is_not_drawn_over_the_numbers() -> None:
    """During a chain window an answerable card says "can answer now" on its own line, not over
    "Hit damage 40"."""
    game = registry.get("logic_square")
    for seed in range(1, 40):
        state = game.new_match(players=2, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(300):
            if game.outcome(state) is not None or not game.to_act(state):
                break
            seat = game.to_act(state)[0]
            view = game.view(state, seat)
            pending = view.get("pending") or {}
            if pending.get("kind") == "chain" and any(str(c).startswith("chain ") for c in pending.get("responses") or []):
                with drawn_boxes() as boxes:
                    render_image("logic_square", view, locale="en", names=NAMES, part="hand")
                assert any("answer" in b.text for b in boxes)
                assert not overlaps(boxes)
                return
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    pytest.skip("no chain window found")


# --- Japanese line breaking (禁則処理) ----------------------------------------------------------

def _rules_kept(lines: list[str]) -> bool:
    return all(not ln or ln[0] not in NO_START for ln in lines[1:]) and all(ln[-1:] not in NO_END for ln in lines[:-1])


@pytest.mark.parametrize("text,width", [
    ("「魔剣」を使う。", 4), ("ダメージを与えた。", 4), ("ゲージが1マス減ったッ", 10),
    ("相手の《AVI》に30ダメージ。", 6), ("（発動順4）：攻撃値+1・耐久値+2。", 5), ("ちょっとまって", 3),
])
def test_break_lines_keeps_the_japanese_rules(text: str, width: int) -> None:
    lines = break_lines(text, width, len)
    assert "".join(lines) == text
    assert _rules_kept(lines), lines
    assert all(len(ln) <= width for ln in lines), lines


def test_break_lines_spaced_text_by_words_and_long_words_by_characters() -> None:
    assert break_lines("Hit damage 30 across the row", 12, len) == ["Hit damage", "30 across", "the row"]
    assert break_lines("abcdefghij", 4, len) == ["abcd", "efgh", "ij"]
    assert break_lines("a\nb", 10, len) == ["a", "b"]


@pytest.mark.parametrize("text", ["相手の《AVI》に30ダメージを与える。効果は「ターン終了まで」続く。",
                                  "ゲージが1マス減ったッ！ ダッシュしてジャンプ。"])
@pytest.mark.parametrize("width", [60, 75, 90, 110, 130])
def test_picture_wrap_never_starts_a_line_with_closing_punctuation_or_small_kana(text: str, width: int) -> None:
    lines = list(wrap(text, 13, width))
    assert _squash("".join(lines)) == _squash(text)
    assert _rules_kept(lines), lines


def test_result_banner_is_never_cut() -> None:
    """"★ Alice wins — turn limit reached, higher l…": the banner shrinks and wraps instead."""
    game = registry.get("squares")
    view = game.view(game.new_match(players=2, seed=1, options={}), None)
    view = dict(view, outcome={"winners": [0], "reason": "turn_limit"})
    for locale in ("en", "ja"):
        with drawn_text() as drawn, drawn_boxes() as boxes:
            image = render_image("squares", view, locale=locale, names=["Alexandra Featherstonehaugh", "Bob"])
        assert not [t for _, t in drawn if t.endswith("…")]
        assert not overlaps(boxes)
        assert min(s for s, _ in drawn) * 400 / image.width >= 8


def _break_lines_measuring_every_step(text: str, width: float, measure) -> list[str]:
    """The line breaker as it was before it estimated widths: the whole line measured at every
    token (the reference :func:`break_lines` must agree with)."""
    from render.linebreak import _split_long, _tokens

    out: list[str] = []
    for para in str(text).split("\n"):
        line = ""
        for tok in _tokens(para):
            cand = line + tok
            if not line.strip() or measure(cand.rstrip()) <= width:
                line = cand
                continue
            out.append(line.rstrip())
            line = tok
        out.append(line.rstrip())
    fitted: list[str] = []
    for line in out:
        fitted.extend(_split_long(line, width, measure) if measure(line) > width else [line])
    return fitted


def test_estimated_widths_break_every_card_text_exactly_where_measuring_every_step_does():
    """The breaker adds a token's width instead of measuring the whole line each time (fast on
    long Japanese texts, ``python -m bench --cards``): the lines must be the very same, with the
    picture's own font, for every card text the games ship, in both languages and every size."""
    from data import i18n
    from render import fonts

    texts = set()
    for name in ("logic_square", "maken", "art_of_war", "avalon"):
        for card in registry.get(name).decks.cards().values():
            for value in card.values():
                if isinstance(value, dict) and set(value) <= {"en", "ja"}:
                    texts.update(v for v in value.values() if isinstance(v, str))
    texts.update(v for v in i18n.catalog("ja").values() if len(v) > 40)
    checked = 0
    sizes = (12, 15, 18)
    widths = {size: {} for size in sizes}     # the font's own width of each text, measured once a size

    def measurer(size: int):
        def measure(s: str) -> float:
            if s not in widths[size]:
                widths[size][s] = fonts.text_width(s, size)
            return widths[size][s]
        return measure
    # Each text at every width and one of the sizes in turn (every size meets long and short
    # texts of both languages): the font's size changes only the widths measured, which both
    # breakers read through the same ``measure``; a third of the work of every size for each.
    for k, text in enumerate(sorted(texts)[:400]):
        measure = measurer(sizes[k % len(sizes)])
        for width in (180, 290, 420, 572):
            assert break_lines(text, width, measure) == _break_lines_measuring_every_step(text, width, measure), \
                (sizes[k % len(sizes)], width, text)
            checked += 1
    assert checked == 1600
