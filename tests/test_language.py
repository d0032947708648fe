"""No English in Japanese, no Japanese in English (issue 16).

"A test renders every catalog message and card text of every game in ja and fails on Latin words
that are not card ids, notation or proper names (and the reverse for en)."  What a Japanese text
may hold in Latin letters: the notation a player types (command words, card ids, squares, option
names — collected from the engines themselves), slash-command names, abbreviations the rulebooks
print in capitals (AVI, CAA, GC, LP …), proper names (Discord, the games' titles, file formats),
names of the players; everything else is a defect.
"""
from __future__ import annotations

import random
import re

import pytest

from data import i18n
from host.texts import illegal_msg
from render.narrate import narrate
from rules import IllegalCommand, registry

CODE = re.compile(r"`[^`]*`")
PLACEHOLDER = re.compile(r"\{[^}]*\}")
TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_'’\-]*")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
NAMES = ["Alice", "Bob", "Cleo", "Dan"]

PROPER = {
    # the games' titles and the places and formats the bot names
    "SQUARES", "Battle", "Logic", "Square", "Project", "Maken", "Art", "War", "Avalon's", "Avalon", "Sanctuary",
    "Discord", "SQLite", "PostgreSQL", "JSON", "PNG", "CSV", "URL", "Python", "OAuth", "Components",
    "English",                                          # the language's own name in the language menu
    "Elo", "Glicko",
}
TITLES = ("Art of War", "Battle Logic Square", "Project Maken", "Avalon's Sanctuary")
CONSOLE = {"help", "board", "hand", "log", "resign", "quit"}     # the terminal's own commands
# the terminal's usage and first-run help quote command lines and the labels of Discord's
# developer portal, which has no Japanese version ("Reset Token", "Message Content Intent" …)
TERMINAL_ONLY = {"bot.no_token", "bot.usage"}


def notation() -> set[str]:
    """Every word of every game's notation: command words and arguments of the legal commands
    met in random play, the engines' verb lists, option names and values, ready-made deck ids."""
    words: set[str] = set()
    for name in registry.names():
        game = registry.get(name)
        for players in {game.min_players, game.max_players}:
            for seed in range(3):
                state = game.new_match(players=players, seed=seed, options={})
                rng = random.Random(seed)
                for _ in range(300):
                    if game.outcome(state) is not None:
                        break
                    seat = rng.choice(game.to_act(state))
                    legal = game.legal_commands(state, seat)
                    for command in legal:
                        words.update(command.split())
                    state = game.apply(state, seat, rng.choice(legal))
        schema = game.option_schema() if hasattr(game, "option_schema") else {}
        for option, spec in schema.items():
            words.add(option)
            words.update(str(c) for c in spec.get("choices") or [] if isinstance(c, str))
        for verb in getattr(game, "verbs", ()) or ():
            words.add(verb)
    from rules.avalon.engine import USAGE as AU, VERBS as AV
    from rules.maken.messages import USAGE, VERBS as MV
    words.update(AV)
    words.update(MV)
    # the notation's own examples (double spd, triple atk …; Avalon's support avatar, which
    # random play meets only when it happens to reach a battle)
    for usage in list(USAGE.values()) + list(AU.values()):
        words.update(TOKEN.findall(usage))
    return words


@pytest.fixture(scope="module")
def allowed() -> set[str]:
    words = notation() | PROPER | set(NAMES) | CONSOLE | set(registry.names())
    # slash commands and their options: a player types them as they are
    for key, text in i18n.catalog("en").items():
        if key.startswith("cmd.") and key.endswith(".name"):
            words.update(text.split())
    for key, text in i18n.catalog("ja").items():
        if key.startswith("cmd.") and key.endswith(".name"):
            words.update(text.split())
    return words


def latin_words(text: str, allowed: set[str]) -> list[str]:
    """The Latin words of ``text`` that are none of: notation, a card id, a square, an
    abbreviation in capitals, an environment variable, a path, a URL, a flag, a proper name."""
    text = PLACEHOLDER.sub(" ", CODE.sub(" ", text))
    text = re.sub(r"<t:[^>]*>", " ", text)          # a Discord timestamp
    for title in TITLES:
        text = text.replace(title, " ")
    out = []
    for raw in re.split(r"\s+", text):
        if not raw or "/" in raw or raw.startswith("-") or "=" in raw or "@" in raw or "." in raw.strip(".。,、)）(（"):
            continue            # a path, a URL, a flag, an option=value, a file name
        for word in TOKEN.findall(raw):
            bare = word.strip("'’-")
            if (not bare or bare in allowed or bare.lower() in allowed or bare.isupper()
                    or re.fullmatch(r"[a-z]{1,4}\d{1,3}[a-z]?", bare)          # card ids (ac07, s02, c21)
                    or re.fullmatch(r"[a-eA-E][1-5]?", bare)                    # squares, files
                    or re.fullmatch(r"[A-Z][a-z]?", bare)                       # Ac, Sc, Br, P1 …
                    or re.fullmatch(r"[pl]\d(l\d)?", bare)                      # Avalon players and lands
                    or re.fullmatch(r"[A-Z]\d+", bare) or re.fullmatch(r"\d+[a-z]{1,2}", bare)):
                continue
            out.append(bare)
    return out


def test_every_japanese_catalog_message_is_japanese(allowed):
    bad = {}
    for key, text in i18n.catalog("ja").items():
        if key in TERMINAL_ONLY:
            continue
        words = latin_words(text, allowed)
        if words:
            bad[key] = (words, text[:120])
    assert not bad, bad


def test_every_english_catalog_message_is_english():
    ja_only = {"cmd.choice.lang_ja"}        # the language menu names Japanese in Japanese
    bad = {k: v for k, v in i18n.catalog("en").items() if k not in ja_only and JAPANESE.search(v)}
    assert not bad, bad


def _all_cards(name: str) -> dict:
    """Every card definition a game can show, with its texts (from views of matches with every
    ready-made deck / character / KING)."""
    game = registry.get(name)
    cards: dict = {}
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    choices = [None]
    for option in ("decks", "deck", "characters", "chars", "kings"):
        if option in schema and schema[option].get("choices"):
            choices = [(option, c) for c in schema[option]["choices"]]
    for choice in choices:
        for seed in range(3):
            options = {}
            if choice:
                option, value = choice
                default = schema[option].get("default")
                options[option] = [value] * len(default) if isinstance(default, list) else value
            try:
                state = game.new_match(players=game.min_players, seed=seed, options=options)
            except (ValueError, TypeError):
                state = game.new_match(players=game.min_players, seed=seed, options={})
            for seat in range(game.min_players):
                view = game.view(state, seat)
                cards.update(view.get("cards") or {})
                for king in view.get("kings") or []:        # Art of War: the KINGs are its cards
                    if isinstance(king, dict):
                        cards[king.get("id")] = king
    return cards


@pytest.mark.parametrize("name", ["logic_square", "maken", "art_of_war", "avalon"])
def test_every_card_text_is_in_its_own_language(name, allowed):
    cards = _all_cards(name)
    assert cards
    bad = {}
    for cid, card in cards.items():
        for field in ("name", "text"):
            value = card.get(field) if isinstance(card, dict) else None
            if not isinstance(value, dict):
                continue
            en, ja = str(value.get("en") or ""), str(value.get("ja") or "")
            if JAPANESE.search(en):
                bad[(cid, field, "en")] = en
            words = latin_words(ja, allowed)
            if words:
                bad[(cid, field, "ja")] = (words, ja)
    assert not bad, bad


BAD_INPUT = ["", "xyzzy", "move", "move z9 q0", "use zz99", "guard stand", "guard crouch zz", "keep stand",
             "gc", "support", "support zz", "attack", "attack a1 a1", "fb", "draw 9", "chain", "discard",
             "forge", "summon c01 l9", "ranged l1", "invade", "advance l9", "leap a1 a3", "swap a1 a2",
             "place L1 c3", "return a1", "setup", "deploy", "exchange", "immigrate", "set", "break", "call",
             "pass", "end", "done", "ready", "mulligan"]


@pytest.mark.parametrize("name", ["squares", "logic_square", "maken", "art_of_war", "avalon"])
def test_refusals_and_narration_rendered_in_japanese_hold_no_english(name, allowed):
    """Every refusal of bad input met in random play, and every narrated line, rendered in ja:
    parameters are catalog entries in the reader's language, never English words (issue 16:
    「GCできません: you do not have enough gauge」「今はstandガードはできません」「yellow の魔素」)."""
    game = registry.get(name)
    seen_keys: set[str] = set()
    for seed in range(3):
        players = 3 if name == "avalon" else 2
        state = game.new_match(players=players, seed=seed, options={})
        rng = random.Random(seed)
        for step in range(200):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            legal = game.legal_commands(state, seat)
            if step % 3 == 0:
                for seat_try in range(players):
                    for bad in BAD_INPUT + [c + " zz" for c in legal[:3]]:
                        try:
                            game.apply(state, seat_try, bad)
                        except IllegalCommand as exc:
                            message = illegal_msg(exc)
                            seen_keys.add(message.key)
                            text = message.render("ja")
                            typed = set(bad.split()) | set(" ".join(legal).split())
                            words = [w for w in latin_words(text, allowed) if w not in typed]
                            assert not words, (bad, text, words)
                            assert not JAPANESE.search(message.render("en")), message.render("en")
            before = game.view(state, None)
            state = game.apply(state, seat, rng.choice(legal))
            for line in narrate(name, before, game.view(state, None), NAMES, seat):
                assert not latin_words(line["ja"], allowed), line["ja"]
                assert not JAPANESE.search(line["en"]), line["en"]
    assert "host.err.illegal" not in seen_keys, "every refusal has its own catalog entry"


def test_maken_refusals_name_steps_reasons_and_guard_types_in_the_readers_language():
    """Issue 16: 「GCできません: you do not have enough gauge」 and 「今はstandガードはできません」 — the step,
    the reason and the guard type are catalog entries shown in the reader's language."""
    game = registry.get("maken")
    found: dict[str, str] = {}
    for seed in range(6):
        state = game.new_match(players=2, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(150):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            hand = game.view(state, seat).get("hand") or []
            for bad in ["gc", "keep", "guard stand " + " ".join(hand[:2]), "guard crouch " + " ".join(hand[:2]),
                        "guard air " + " ".join(hand[:2]), "draw 1", "call"]:
                try:
                    game.apply(state, seat, bad)
                except IllegalCommand as exc:
                    if exc.key in ("maken.err.guard_type", "maken.err.cannot_gc", "maken.err.wrong_step",
                                   "maken.err.cannot_keep"):
                        found.setdefault(exc.key, "")
                        message = illegal_msg(exc)
                        ja, en = message.render("ja"), message.render("en")
                        assert not re.search(r"\b(stand|crouch|air|you|not|step|phase)\b", re.split("今できること|できるのは", ja)[0]), ja
                        assert not JAPANESE.search(en), en
                        if exc.key == "maken.err.guard_type":
                            assert re.search("立ち|屈み|空中", ja), ja
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    assert {"maken.err.guard_type", "maken.err.cannot_gc", "maken.err.wrong_step"} <= set(found), found
