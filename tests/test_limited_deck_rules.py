"""Limited deck rules in the four card-game engines (docs/engine.md "Decks", rules/deck_rules.py).

The standing ruling of limited play: a sealed pool or a draft changes what a player may build
from, never how the game is played.  A card set may declare, for limited play only, the deck size
(within the game's own range where the rulebook gives one) and the copies allowed of a card.  A
match says so with the option ``deck_rules``; without it every engine is exactly as before.

Each game is checked for: a limited-size deck refused without ``deck_rules`` and accepted with
them; copies over the declared limit refused; every other deck rule still enforced (the rulebook
clause quoted at each test); bad ``deck_rules`` refused as one catalogued problem; a full
self-play match with a minimum-size deck that ends as the rulebook says (the opening and the
deck-out included); the options text in English and Japanese; exact replays.
"""
from __future__ import annotations

import json
import random

import pytest

from balance import ai_player
from data import i18n
from data.card_sets.limited import GAME_RULES
from host.options_text import deck_rules_line, public_options
from rules import IllegalCommand, registry
from rules.deck_rules import limited_range, read

GAMES = ("logic_square", "maken", "art_of_war", "avalon")
FULL = {"logic_square": 30, "maken": 30, "art_of_war": 20, "avalon": 40}
LOW = {game: (size + 1) // 2 for game, size in FULL.items()}
SIZE_KEY = {"logic_square": "logic_square.deck.resource_count", "maken": "maken.deck.count",
            "art_of_war": "art_of_war.deck.total", "avalon": "avalon.deck.size"}
LIMITED_SIZE_KEY = {"logic_square": "logic_square.deck.resource_count_limited", "maken": "maken.deck.count",
                    "art_of_war": "art_of_war.deck.total_limited", "avalon": "avalon.deck.size_limited"}

# minimum-size limited decks, two per game (seat 0, seat 1), each legal under {"size": LOW[game]}
LS_IT = ["it01", "it02", "it03", "it04", "it05"]
DECKS = {
    "logic_square": [
        {"avi": "av01", "resources": ["ac01"] * 3 + ["ac02"] * 3 + ["ac03"] * 3 + ["ac04"] * 3 + ["sc01"] * 3,
         "it": LS_IT},
        {"avi": "av02", "resources": ["ac06"] * 2 + ["ac07"] * 2 + ["ac13"] * 3 + ["sc02"] * 3 + ["sc03"] * 3
         + ["br01"] * 2, "it": ["it06", "it07", "it08", "it09", "it10"]},
    ],
    "maken": [
        {"character": "tsubaki", "cards": {"ts01": 3, "ts02": 3, "ts03": 3, "ts04": 3, "ts05": 3}},
        {"character": "gou", "cards": {"gu01": 3, "gu02": 3, "gu03": 3, "gu04": 3, "gu05": 3}},
    ],
    "art_of_war": [
        {"king": "king_iron", "units": {"soldier": 2, "archer": 2, "priest": 2, "guardian": 2, "wizard": 2}},
        {"king": "king_falcon", "units": {"soldier": 4, "archer": 3, "guardian": 3}},
    ],
}


def _shrink(counts: dict, size: int) -> dict:
    """The first ``size`` copies of a ``{card: copies}`` in its order."""
    out, left = {}, size
    for cid, n in counts.items():
        take = min(n, left)
        if take:
            out[cid] = take
        left -= take
    return out


def _avalon_decks() -> list[dict]:
    ready = registry.get("avalon").decks.ready()
    return [{"avatar": ready[d]["spec"]["avatar"], "cards": _shrink(ready[d]["spec"]["cards"], LOW["avalon"])}
            for d in ("dawn", "ember")]


def limited_decks(game: str) -> list[dict]:
    return json.loads(json.dumps(_avalon_decks() if game == "avalon" else DECKS[game]))


def rules_of(game: str, copies: int | None = None) -> dict:
    return {"size": LOW[game]} if copies is None else {"size": LOW[game], "copies": copies}


def keys(problems: list[dict]) -> list[str]:
    return [p["key"] for p in problems]


def check_catalogued(problems: list[dict]) -> None:
    """Every problem is a catalog key in both languages, its English text the catalog's."""
    for p in problems:
        for loc in ("en", "ja"):
            assert p["key"] in i18n.catalog(loc), (p["key"], loc)
            assert i18n.placeholders(i18n.catalog(loc)[p["key"]]) <= set(p["params"]), p["key"]
        assert i18n.t(p["key"], "en", **p["params"]) == p["text"]


# --------------------------------------------------------------------------- the range

@pytest.mark.parametrize("game", GAMES)
def test_the_range_is_the_one_a_set_may_declare(game):
    """A limited deck runs from half the rulebook's deck (rounded up) to the whole of it, as
    data/card_sets/limited.py lets a set declare it."""
    rules = GAME_RULES[game]
    assert limited_range(FULL[game]) == (rules.low, rules.deck) == (LOW[game], FULL[game])
    assert read({"size": LOW[game] - 1}, FULL[game])[1][0] == "size"
    assert read({"size": FULL[game] + 1}, FULL[game])[1][0] == "size"
    assert read({"size": FULL[game]}, FULL[game]) == ({"size": FULL[game], "copies": None}, None)


# --------------------------------------------------------------------------- size

@pytest.mark.parametrize("game", GAMES)
def test_a_limited_size_deck_is_refused_without_deck_rules_and_accepted_with_them(game):
    engine = registry.get(game)
    decks = limited_decks(game)
    for spec in decks:
        constructed = engine.decks.validate(spec)
        assert keys(constructed) == [SIZE_KEY[game]], constructed
        assert engine.decks.validate(spec, rules_of(game)) == []
        assert engine.decks.validate(spec, None) == constructed          # None: constructed play
    with pytest.raises(ValueError, match="illegal deck"):
        engine.new_match(players=2, seed=1, options={"decks": decks})
    state = engine.new_match(players=2, seed=1, options={"decks": decks, "deck_rules": rules_of(game)})
    assert engine.outcome(state) is None


@pytest.mark.parametrize("game", GAMES)
def test_a_deck_of_another_size_than_declared_is_refused(game):
    engine = registry.get(game)
    spec = limited_decks(game)[0]
    problems = engine.decks.validate(spec, {"size": LOW[game] + 1})
    assert keys(problems) == [LIMITED_SIZE_KEY[game]]
    assert problems[0]["params"]["size"] == LOW[game] + 1
    check_catalogued(problems)
    # the ready-made (constructed) decks fit rules of the rulebook's own size and no copy limit
    for did, ready in engine.decks.ready().items():
        assert engine.decks.validate(ready["spec"], {"size": FULL[game]}) == [], did


@pytest.mark.parametrize("game", GAMES)
def test_the_ready_made_default_decks_must_fit_the_limited_rules_too(game):
    """With deck_rules every seat's deck is checked, a ready-made one left to the default too."""
    engine = registry.get(game)
    with pytest.raises(ValueError, match="illegal deck"):
        engine.new_match(players=2, seed=1, options={"deck_rules": rules_of(game)})
    engine.new_match(players=2, seed=1, options={"deck_rules": {"size": FULL[game]}})


# --------------------------------------------------------------------------- copies

def test_logic_square_copies_replace_the_limit_of_a_name_and_keep_the_colour_totals():
    """Rulebook 3.II: 「白カード……同名のカードは3枚まで / 緑カード……2枚まで / 青カード……同名の
    カードは1枚まで、合計5枚まで / 赤カード……同名のカードは1枚まで、合計1枚まで」.  The limit of a
    name is a deck-construction setting a set may declare; the blue and red totals stay."""
    d = registry.get("logic_square").decks
    base = DECKS["logic_square"][0]
    assert keys(d.validate(base, rules_of("logic_square", copies=2))) == ["logic_square.deck.limited_copies"] * 5
    assert d.validate(base, rules_of("logic_square", copies=3)) == []
    problems = d.validate(base, rules_of("logic_square", copies=2))
    assert problems[0]["params"] == {"card": "ac01", "count": 3, "limit": 2}
    check_catalogued(problems)
    # three copies of a blue name: refused in constructed play, allowed with copies 3
    blue = dict(base, resources=["ac01"] * 3 + ["ac02"] * 3 + ["ac03"] * 3 + ["ac04"] * 3 + ["ac09"] * 3)
    assert "logic_square.deck.blue_copies" in keys(d.validate(blue, rules_of("logic_square")))
    assert d.validate(blue, rules_of("logic_square", copies=3)) == []
    # ≤ 5 blue in total stays
    six = dict(base, resources=["ac01"] * 3 + ["ac02"] * 3 + ["ac03"] * 3 + ["ac09"] * 3 + ["ac10"] * 3)
    assert keys(d.validate(six, rules_of("logic_square", copies=3))) == ["logic_square.deck.blue_total"]
    # ≤ 1 red in total stays: two copies of a red name break the total, not a copy limit
    red = dict(base, resources=["ac01"] * 3 + ["ac02"] * 3 + ["ac03"] * 3 + ["ac04"] * 3 + ["sc01"] + ["ac12"] * 2)
    assert keys(d.validate(red, rules_of("logic_square", copies=3))) == ["logic_square.deck.red_total"]


def test_maken_copies_replace_the_three_of_a_name():
    """docs/rules/maken.md "Decks" (project ruling): "one character card plus exactly 30 cards from
    that character's own pool, at most 3 copies of a name"."""
    d = registry.get("maken").decks
    base = DECKS["maken"][0]
    problems = d.validate(base, rules_of("maken", copies=2))
    assert keys(problems) == ["maken.deck.limited_copies"] * 5
    check_catalogued(problems)
    four = {"character": "tsubaki", "cards": {"ts01": 4, "ts02": 4, "ts03": 4, "ts04": 3}}
    assert keys(d.validate(four, rules_of("maken"))) == ["maken.deck.copies"] * 3
    assert d.validate(four, rules_of("maken", copies=4)) == []


def test_avalon_copies_replace_the_limits_by_originality_and_keep_the_one_star5_card():
    """Rulebook デッキの組み方: 「オリジナリティの星が1つで4枚、2つで3枚まで、3つで2枚、4つは1枚まで
    デッキに入れることができます。星が5つのカードは、カードの名前が違っても、デッキには1枚しか
    入れることができません」.  The limit of a name may be declared; the one ★5 card stays."""
    engine = registry.get("avalon")
    d = engine.decks
    base = _avalon_decks()[0]
    assert max(base["cards"].values()) == 4
    problems = d.validate(base, rules_of("avalon", copies=3))
    assert keys(problems) and set(keys(problems)) == {"avalon.deck.limited_copies"}
    check_catalogued(problems)
    cards = d.cards()
    stars = {c: v.get("orig") for c, v in cards.items()}
    full = engine.decks.ready()["dawn"]["spec"]["cards"]
    plain = {c: n for c, n in full.items() if stars[c] <= 3}          # ★1–★3 cards only
    star4 = next(c for c, o in stars.items() if o == 4)
    star5 = [c for c, o in stars.items() if o == 5]
    two_star4 = dict(base, cards=dict(_shrink(plain, LOW["avalon"] - 2), **{star4: 2}))
    assert keys(d.validate(two_star4, rules_of("avalon"))) == ["avalon.deck.copies"]
    assert d.validate(two_star4, rules_of("avalon", copies=4)) == []
    two_star5 = dict(base, cards=dict(_shrink(plain, LOW["avalon"] - 2), **{star5[0]: 1, star5[1]: 1}))
    assert keys(d.validate(two_star5, rules_of("avalon", copies=4))) == ["avalon.deck.star5"]
    one_star5 = dict(base, cards=dict(_shrink(plain, LOW["avalon"] - 1), **{star5[0]: 1}))
    assert sum(one_star5["cards"].values()) == LOW["avalon"]
    assert d.validate(one_star5, rules_of("avalon", copies=4)) == []


def test_art_of_war_declares_no_copy_limit():
    """Rulebook: 「KING」カード1枚+5種類のカードを20枚選び合計21で1デッキ(国) — basic units in any
    mix: a copy limit is refused as the one problem, ten of one unit is a legal limited army."""
    d = registry.get("art_of_war").decks
    problems = d.validate(DECKS["art_of_war"][0], rules_of("art_of_war", copies=2))
    assert keys(problems) == ["art_of_war.deck.rules_no_copies"]
    check_catalogued(problems)
    assert d.validate({"king": "king_sage", "units": {"wizard": 10}}, rules_of("art_of_war")) == []
    assert d.validate({"king": "king_sage", "units": {"wizard": 10}}, {"size": 10, "copies": None}) == []


# --------------------------------------------------------------------------- every other rule stays

def test_logic_square_every_other_rule_stays():
    """Rulebook 3: 「《AVI》カードを1枚選びます」; 「リソースカード（《Ac》カード、《Sc》カード、《Br》
    カード）から…選んで」; 「《IT》カードのみで構成します。…同名のカードは1枚まで、合計5枚まで」."""
    d = registry.get("logic_square").decks
    rules = rules_of("logic_square")
    base = DECKS["logic_square"][0]
    assert keys(d.validate(dict(base, avi=None), rules)) == ["logic_square.deck.avi_missing"]
    assert keys(d.validate(dict(base, avi="ac01"), rules)) == ["logic_square.deck.avi_not_avi"]
    swapped = dict(base, resources=base["resources"][:-1] + ["it06"])
    assert keys(d.validate(swapped, rules)) == ["logic_square.deck.not_resource"]
    assert keys(d.validate(dict(base, it=LS_IT[:4]), rules)) == ["logic_square.deck.it_count"]
    assert keys(d.validate(dict(base, it=LS_IT[:4] + ["it01"]), rules)) == ["logic_square.deck.it_duplicate"]
    assert keys(d.validate(dict(base, it=LS_IT[:4] + ["ac01"]), rules)) == ["logic_square.deck.it_not_it"]
    unknown = dict(base, resources=base["resources"][:-1] + ["zz99"])
    assert keys(d.validate(unknown, rules)) == ["logic_square.deck.unknown_card"]


def test_maken_every_other_rule_stays():
    """docs/rules/maken.md "Decks" (project ruling): "one character card plus exactly 30 cards from
    that character's own pool" — the character and its own pool stay in a limited deck."""
    d = registry.get("maken").decks
    rules = rules_of("maken")
    base = DECKS["maken"][0]
    assert keys(d.validate(dict(base, character=None), rules)) == ["maken.deck.no_character"]
    other = dict(base, cards={"ts01": 3, "ts02": 3, "ts03": 3, "ts04": 3, "gu01": 3})
    assert keys(d.validate(other, rules)) == ["maken.deck.other_pool"]
    with_char = dict(base, cards={"ts01": 3, "ts02": 3, "ts03": 3, "ts04": 3, "ts05": 2, "gou": 1})
    assert keys(d.validate(with_char, rules)) == ["maken.deck.character_in_cards"]
    assert keys(d.validate(dict(base, character="ts01"), rules))[0] == "maken.deck.character_not_character"


def test_art_of_war_every_other_rule_stays():
    """Rulebook: 「KING」カード1枚+5種類のカードを20枚選び — one KING, basic units only."""
    d = registry.get("art_of_war").decks
    rules = rules_of("art_of_war")
    base = DECKS["art_of_war"][0]
    assert keys(d.validate(dict(base, king=None), rules)) == ["art_of_war.deck.no_king"]
    assert keys(d.validate(dict(base, king="soldier"), rules)) == ["art_of_war.deck.unknown_king"]
    units = dict(base["units"], soldier=1, king_sage=1)
    assert keys(d.validate(dict(base, units=units), rules)) == ["art_of_war.deck.unknown_card",
                                                                 "art_of_war.deck.total_limited"]
    assert "art_of_war.deck.bad_count" in keys(d.validate(dict(base, units=dict(base["units"], soldier=-1)), rules))


def test_avalon_every_other_rule_stays():
    """Rulebook: 「なお、アバターカードは40枚に含みませんので、最終的な枚数は41枚になります」 and
    「星が5つのカードは、カードの名前が違っても、デッキには1枚しか入れることができません」."""
    d = registry.get("avalon").decks
    rules = rules_of("avalon", copies=4)
    base = _avalon_decks()[0]
    assert keys(d.validate(dict(base, avatar=None), rules)) == ["avalon.deck.no_avatar"]
    assert keys(d.validate(dict(base, avatar="c01"), rules)) == ["avalon.deck.avatar_not_avatar"]
    cards = dict(_shrink(base["cards"], LOW["avalon"] - 1), a2=1)
    assert keys(d.validate(dict(base, cards=cards), rules)) == ["avalon.deck.avatar_in_deck"]
    cards = dict(_shrink(base["cards"], LOW["avalon"] - 1), zz9=1)
    assert keys(d.validate(dict(base, cards=cards), rules)) == ["avalon.deck.unknown_card"]


# --------------------------------------------------------------------------- bad rules

BAD_RULES = [
    (lambda g: {"size": LOW[g] - 1}, "size"),
    (lambda g: {"size": FULL[g] + 1}, "size"),
    (lambda g: {"size": LOW[g], "copies": 0}, "copies"),
    (lambda g: {"size": LOW[g], "copies": LOW[g] + 1}, "copies"),
    (lambda g: {"size": "fifteen"}, "shape"),
    (lambda g: {"size": True}, "shape"),
    (lambda g: {"copies": 2}, "shape"),
    (lambda g: {"size": LOW[g], "extra": 1}, "shape"),
    (lambda g: [LOW[g], 2], "shape"),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad,reason", BAD_RULES)
def test_bad_deck_rules_are_one_catalogued_problem_and_refused_by_the_match(game, bad, reason):
    engine = registry.get(game)
    rules = bad(game)
    if game == "art_of_war" and reason == "copies":
        reason = "no_copies"              # an army has no copy limit to declare at all
    problems = engine.decks.validate(limited_decks(game)[0], rules)
    assert keys(problems) == [f"{game}.deck.rules_{reason}"]
    check_catalogued(problems)
    with pytest.raises(ValueError, match="deck_rules"):
        engine.new_match(players=2, seed=1, options={"decks": limited_decks(game), "deck_rules": rules})


@pytest.mark.parametrize("game", GAMES)
def test_without_deck_rules_the_options_are_as_before(game):
    engine = registry.get(game)
    args = {"players": 2} if game == "avalon" else {}
    plain = engine.validate_options({}, **args)
    assert "deck_rules" not in plain
    assert engine.validate_options({"deck_rules": None}, **args) == plain
    opts = engine.validate_options({"decks": limited_decks(game), "deck_rules": rules_of(game)}, **args)
    assert opts["deck_rules"] == {"size": LOW[game], "copies": None}
    assert "deck_rules" not in engine.option_schema()        # set by limited play, never typed


# --------------------------------------------------------------------------- full matches

def _passive(legal: list[str]) -> str:
    """End the turn as soon as the rules allow; otherwise the first legal command."""
    for verb in ("end", "pass", "keep", "ready", "done"):
        mine = [c for c in legal if c.split()[0] == verb]
        if mine:
            return mine[0]
    return legal[0]


def _views(game: str, seed: int, chooser) -> tuple[object, list[dict], list[tuple[int, str]]]:
    """A limited match of minimum-size decks played to its end: the last state, the public view
    after every command and the log."""
    engine = registry.get(game)
    options = {"decks": limited_decks(game), "deck_rules": rules_of(game)}
    state = engine.new_match(players=2, seed=seed, options=options)
    views, log, rng = [engine.view(state, None)], [], random.Random(seed)
    for _ in range(3000):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        command = chooser(game, engine.view(state, seat), engine.legal_commands(state, seat), seat, rng)
        state = engine.apply(state, seat, command)
        log.append((seat, command))
        views.append(engine.view(state, None))
    assert engine.outcome(state) is not None, "the match did not end"
    return state, views, log


def test_logic_square_minimum_deck_opening_and_deck_out():
    """Rulebook 5.⑤ 「お互いに自身のリソースデッキを5枚引いて手札にする」; 7. 「両者のリソースデッキが
    0枚になった場合、そのターンの終了時にライフポイントの多いプレイヤーが勝利します」 (equal life: a
    draw, docs/rules/logic_square.md); a single empty deck only stops drawing."""
    state, views, _log = _views("logic_square", 5, lambda g, v, legal, s, r: _passive(legal))
    first = views[0]["player"]
    assert views[0]["players"][1 - first]["hand_count"] == 5
    assert views[0]["players"][1 - first]["deck_count"] == LOW["logic_square"] - 5
    one_empty = [v for v in views if sorted(p["deck_count"] == 0 for p in v["players"]) == [False, True]]
    assert one_empty and all(v["outcome"] is None for v in one_empty)
    outcome = registry.get("logic_square").outcome(state)
    assert outcome["reason"] == "decks_out" and outcome["winners"] == []
    assert [p["deck_count"] for p in views[-1]["players"]] == [0, 0]


def test_art_of_war_minimum_deck_opening_and_end_of_war():
    """Rulebook set-up ④ 「お互いにデッキから3枚引く」; 勝利条件 「勝負が着かずにお互いの山札が
    無くなったターンの終了時に判定する。お互いの王国エリアにあるカードの枚数が多い方が勝利する」."""
    state, views, _log = _views("art_of_war", 5, lambda g, v, legal, s, r: _passive(legal))
    assert [p["hand_count"] for p in views[0]["players"]] == [3, 3]
    assert [p["deck_count"] for p in views[0]["players"]] == [LOW["art_of_war"] - 3] * 2
    outcome = registry.get("art_of_war").outcome(state)
    assert outcome["reason"] == "end_of_war"
    assert [p["deck_count"] for p in views[-1]["players"]] == [0, 0]


def test_maken_minimum_deck_self_play_runs_through_the_stamina():
    """Opening (docs/rules/maken.md): 「the top 3 cards become face-down LP cards, the rest is the
    stamina pile. Each draws 5」; an empty stamina pile takes the rest of the damage from the dust
    (「スタミナ札が一枚も無くなった場合は、足りない分をダスト札の一番上から…」); a match still ends by
    the LP cards."""
    state, views, _log = _views("maken", 1, ai_player("normal"))
    size = LOW["maken"]
    assert [(p["lp_count"], p["hand_count"], p["stamina_count"]) for p in views[0]["players"]] == \
        [(3, 5, size - 8)] * 2
    assert any(p["stamina_count"] == 0 for v in views for p in v["players"])
    assert registry.get("maken").outcome(state)["reason"] == "lp"


def _discarder(game: str, view: dict, legal: list[str], seat: int, rng: random.Random) -> str:
    """Throw the whole hand away every set phase: the memory runs out fast."""
    for verb in ("discard", "done", "pass"):
        mine = [c for c in legal if c.split()[0] == verb]
        if mine:
            return mine[0]
    return legal[0]


def test_avalon_minimum_deck_self_play_opening_and_an_empty_memory():
    """Setup: 「メモリーから初期ライフの数だけカードを裏向きのまま置きます」 and a hand of 6;
    「プレイ中メモリーが0枚になったら、その時点でライフを1枚捨て山に送り、その後捨て山をよく
    切ってからメモリーとして…戻してください」 — a small deck runs out and is reshuffled."""
    state, views, _log = _views("avalon", 1, ai_player("normal"))
    life = views[0]["life_start"]
    assert [(p["hand_count"], p["life"], p["memory"]) for p in views[0]["players"]] == \
        [(6, life, LOW["avalon"] - 6 - life)] * 2
    assert registry.get("avalon").outcome(state)["reason"] in ("proofs", "last_standing", "all_out")
    state, views, _log = _views("avalon", 1, _discarder)
    refreshes = 0
    for before, after in zip(views, views[1:]):
        new = [e for e in after["events"] if e["key"] == "avalon.ev.refresh" and e not in before["events"]]
        for event in new:
            seat = int(event["params"]["player"][1:]) - 1
            was, now = before["players"][seat], after["players"][seat]
            assert now["life"] < was["life"] or now["status"] == "out"
            refreshes += 1
    assert refreshes
    assert registry.get("avalon").outcome(state)["reason"] in ("proofs", "last_standing", "all_out")


# the rulebook's ways a match ends (a house turn or round limit is not one of them)
ENDINGS = {"logic_square": ("knockout", "double_knockout", "decks_out"), "maken": ("lp",),
           "art_of_war": ("execution", "nation_building", "end_of_war", "annihilation"),
           "avalon": ("proofs", "last_standing", "all_out")}


@pytest.mark.parametrize("game", GAMES)
def test_a_computer_self_play_match_with_minimum_decks_ends_as_the_rulebook_says(game):
    """The existing AI (level normal) plays a whole limited match of minimum-size decks."""
    state, _views_, log = _views(game, 3, ai_player("normal"))
    assert log and registry.get(game).outcome(state)["reason"] in ENDINGS[game]


@pytest.mark.parametrize("game", GAMES)
def test_a_limited_match_replays_exactly(game):
    """The option is part of the stored options: seed + options + log give the same state."""
    engine = registry.get(game)
    options = {"decks": limited_decks(game), "deck_rules": rules_of(game)}
    state, _views_, log = _views(game, 2, lambda g, v, legal, s, r: r.choice(legal))
    again = engine.new_match(players=2, seed=2, options=json.loads(json.dumps(options)))
    for seat, command in log:
        again = engine.apply(again, seat, command)
    assert engine.dump(again) == engine.dump(state)
    assert engine.dump(engine.load(engine.dump(state))) == engine.dump(state)


# --------------------------------------------------------------------------- Avalon's late joiners

def test_avalon_a_late_joiner_deck_fits_the_limited_rules():
    engine = registry.get("avalon")
    decks = _avalon_decks()
    state = engine.new_match(players=2, seed=4, options={"decks": decks, "deck_rules": rules_of("avalon")})
    assert json.loads(engine.dump(state))["deck_rules"] == {"size": LOW["avalon"], "copies": None}
    assert engine.load(engine.dump(state)).deck_rules == {"size": LOW["avalon"], "copies": None}
    joined = engine.join(state, 2, decks[1])
    assert len(joined.players) == 3
    for deck in ("tide", None):                   # a 40-card ready-made deck, given or by default
        with pytest.raises(IllegalCommand) as err:
            engine.join(state, 2, deck)
        assert err.value.key == "avalon.err.join_deck"
    plain = engine.new_match(players=2, seed=4)
    assert "deck_rules" not in json.loads(engine.dump(plain))        # constructed: the dump as before
    with pytest.raises(IllegalCommand):
        engine.join(plain, 2, decks[1])


# --------------------------------------------------------------------------- options text

def _ids(spec: dict) -> set[str]:
    """Every card id a deck spec names."""
    out: set[str] = set()
    for value in spec.values():
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, (list, dict)):
            out.update(value)
    return out


WORDS = {"logic_square": ("resource cards", "リソースカード"), "maken": ("character", "キャラクター"),
         "art_of_war": ("basic units", "基本ユニット"), "avalon": ("avatar", "アバター")}


@pytest.mark.parametrize("game", GAMES)
def test_the_options_text_says_the_limited_rules_and_never_a_deck(game):
    engine = registry.get(game)
    decks = limited_decks(game)
    copies = None if game == "art_of_war" else 2
    options = {"decks": decks, "deck_rules": rules_of(game, copies)}
    en = public_options(engine, options, ["Alice", "Bob"], "en")
    ja = public_options(engine, options, ["Alice", "Bob"], "ja")
    size = LOW[game]
    assert f"Limited deck: {size} {WORDS[game][0]}" in en or (f"Limited deck: {size} cards" in en
                                                               and WORDS[game][0] in en)
    assert "リミテッドのデッキ：" in ja and f"{size}枚" in ja and WORDS[game][1] in ja
    if copies:
        assert "at most 2 copies of a card" in en and "同じカードは2枚まで" in ja
    else:
        assert "copies" not in en and "同じカード" not in ja
    text = en + ja
    assert not [c for spec in decks for c in _ids(spec) if c in text]
    assert "deck built from their pool" in en and "プールから組んだデッキ" in ja
    assert "{" not in text and "size" not in text


def test_the_options_text_line_reads_well_and_shows_nothing_raw():
    engine = registry.get("maken")
    assert deck_rules_line(engine, {"size": 20, "copies": 1}, "en") == \
        "Limited deck: 20 cards besides the character, at most 1 copy of a card"
    assert deck_rules_line(engine, {"size": 20, "copies": 1}, "ja") == \
        "リミテッドのデッキ：キャラクターのほかに20枚、同じカードは1枚まで"
    for bad in ("twenty", {"size": "20"}, {"size": 20, "copies": "2"}, {"size": 20, "x": 1}, [20, 2]):
        assert deck_rules_line(engine, bad, "en") is None
        assert "twenty" not in public_options(engine, {"deck_rules": bad}, None, "en")
