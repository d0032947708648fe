"""Battle Logic Square secrecy: views never show another seat's hand, deck order or face-down IT
cards; a chain-response window is a secret decision that nothing public reveals, and a pass looks
exactly like no window at all.

project ruling (docs/rules/logic_square.md): "The opponent's chance to respond is a real decision with a time limit, offered only when
they hold a card that may legally respond — never reveal that they hold one."  "IT cards are
face-down and private to the owner until used".  the engine contract (docs/engine.md): "view(state, s) never contains what
seat s may not know (other hands, deck order, face-down cards, IT decks, secret choices)".
"""
from __future__ import annotations

import json

from rules import registry

game = registry.get("logic_square")

PUBLIC_KEYS = {"game", "seat", "turn", "max_turns", "first", "player", "phase", "to_act", "awakening_rule",
               "board", "players", "chain", "last", "outcome", "cards",
               "edition"}       # the rules edition the match plays under (public; issue 17: determinize)


def pos(**kw):
    return game.position(**kw)


def act(state, *commands):
    for cmd in commands:
        state = game.apply(state, game.to_act(state)[0], cmd)
    return state


def text(view) -> str:
    return json.dumps(view, ensure_ascii=False)


def test_view_keys_public_and_private():
    state = game.new_match(2, 3, {"first": 0})
    pub = game.view(state, None)
    assert set(pub) == PUBLIC_KEYS and pub["seat"] is None
    for seat in (0, 1):
        v = game.view(state, seat)
        assert set(v) == PUBLIC_KEYS | {"hand", "it_unused", "pending"} and v["seat"] == seat
        assert v["hand"] == list(state.hand[seat]) and v["it_unused"] == list(state.it_left[seat])
    assert game.view(state, 0)["pending"] == {"kind": "main", "ap": 2, "caa_used": False}
    assert game.view(state, 1)["pending"] is None


def test_public_and_opponent_views_never_contain_a_hand_card_deck_order_or_unused_it_card():
    """4.⑦ 自分の手札は相手のプレイヤーに見えないように  4.④ すべて裏向きで置き、お互いに表面は確認できません。
    4.⑥ 裏向きで置かれている自分の《IT》カードはいつでも表面を確認できます (only its owner)."""
    state = pos(hands={0: ["ac01", "ac02"], 1: ["br05", "sc10"]}, it={0: ["it01"], 1: ["it07", "it03"]},
                decks={0: ["ac03"], 1: ["sc12", "ac15"]}, pos=("c2", "c4"))
    for s in (state, act(state, "use ac01")):
        for seat in (None, 0):
            t = text(game.view(s, seat))
            for hidden in ("br05", "sc10", "it07", "it03", "sc12", "ac15"):
                assert hidden not in t, (seat, hidden)
        t1 = text(game.view(s, 1))
        assert "br05" in t1 and "it07" in t1 and "ac03" not in t1 and "it01" not in t1
        pub = game.view(s, None)
        assert pub["players"][1]["hand_count"] == 2 and pub["players"][1]["it_unused_count"] == 2
        assert pub["players"][1]["deck_count"] == 2


def test_the_cards_dict_defines_every_card_the_view_mentions():
    state = pos(hands={0: ["ac13", "sc03"], 1: ["ac11"]}, it={0: ["it02"]}, pos=("c3", "c4"),
                placed=[("a2", 1, "sc06", 50)], trash={1: ["br01"]}, edition=2)
    state = act(state, "use ac13", "chain ac11")
    own = game.view(state, 0)
    assert set(own["cards"]) == {"av01", "av02", "ac13", "ac11", "sc03", "it02", "sc06", "br01"}
    card = own["cards"]["ac13"]
    assert card["name"] == {"ja": "スタティックショット", "en": "Static Shot"} and card["cb"] is True
    assert card["category"] == "Ac" and card["cost"] == 1 and card["damage"] == 30
    assert card["range"] == [[3, 0], [2, 0], [1, 0]] and card["text"]["ja"] and card["text"]["en"]
    assert card["types"] == [{"id": "shot", "ja": "ショット", "en": "Shot"}]
    assert own["cards"]["av01"]["abilities"][0]["cost"] == 2
    assert own["cards"]["av01"]["awakening"]["life"] == 200
    assert own["cards"]["it02"]["build"] == [{"category": "Sc", "count": 1}]
    assert own["cards"]["sc06"]["aura"][0]["mod"] == "turret"
    pub = game.view(state, None)
    assert set(pub["cards"]) == {"av01", "av02", "ac13", "ac11", "sc06", "br01"}


def responder_start(hand1):
    return pos(hands={0: ["ac13", "ac01"], 1: hand1}, it={1: ["it04"]}, pos=("c3", "c4"))


def responder_window(hand1):
    return act(responder_start(hand1), "use ac13")


def test_a_hidden_window_shows_nothing_to_the_public_or_to_the_active_player():
    """Project ruling (docs/rules/logic_square.md): "never reveal that they hold one".  The issue: "nothing public reveals that it was
    offered".  While the window is open, the public view and the declarer's view are exactly the
    views of the moment before the declaration (no chain, no used card, no AP spent): the same
    whichever response card the responder holds, and the same as a command not yet made."""
    a = responder_window(["ac11", "sc01"])
    b = responder_window(["ac07", "sc02"])
    assert game.to_act(a) == [1] == game.to_act(b)
    for seat in (None, 0):
        assert game.view(a, seat) == game.view(b, seat)
        assert game.view(a, seat) == game.view(responder_start(["ac11", "sc01"]), seat)
        assert game.view(a, seat)["chain"] == [] and game.view(a, seat)["last"] is None
    assert game.view(a, None)["to_act"] == [0] and game.public_to_act(a) == [0]
    assert game.legal_commands(a, 0) == []
    assert game.view(a, 1)["pending"] == {
        "kind": "chain", "responses": ["chain ac11"],
        "answering": {"seat": 0, "source": "hand", "card": "ac13", "target": None,
                      "range": ["c5", "c4"], "paid": []}}
    assert [d["card"] for d in game.view(a, 1)["chain"]] == ["ac13"]


def test_a_hidden_it_window_hides_the_used_it_card_and_its_build_cards():
    """6.II C: an IT card and its build cards are revealed when it is used — but while the answer
    window is open nothing public may show that the use is waiting for an answer."""
    start = pos(hands={0: ["br02", "ac01"], 1: ["ac13"]}, it={0: ["it05", "it01"]}, pos=("c3", "c4"))
    window = act(start, "it it05 br02")                                 # Storm Grid (CB)
    assert game.to_act(window) == [1]
    for seat in (None, 0):
        assert game.view(window, seat) == game.view(start, seat)
        assert "it05" not in text(game.view(window, None))
    done = act(window, "pass")
    pub = game.view(done, None)
    assert pub["players"][0]["it_used"] == ["it05"] and pub["players"][0]["trash"] == ["br02"]


def test_a_pass_is_indistinguishable_from_no_window():
    """The brief: "a chain pass must not be distinguishable from 'no window was offered'"."""
    with_window = act(responder_window(["ac11", "sc01"]), "pass")
    without = responder_window(["ac01", "sc01"])                       # ac01 has no CB: no window
    assert game.to_act(without) == [0] == game.to_act(with_window)
    for seat in (None, 0):
        assert game.view(with_window, seat) == game.view(without, seat)
    # the log line of the pass is hidden; the declaration itself is public
    window = responder_window(["ac11", "sc01"])
    assert game.public_command(window, 1, "pass") is None
    assert game.public_command(window, 1, "chain ac11") == "chain ac11"
    start = pos(hands={0: ["ac13"]}, pos=("c3", "c4"))
    assert game.public_command(start, 0, "use ac13") == "use ac13"


def test_the_deeper_window_of_the_active_player_is_hidden_from_the_opponent_too():
    """8. 相手がチェーンアクションによって《CB》を持つカードを使用した場合、自分もチェーンアクションとして… —
    that window of the turn player is secret too: the opponent and the public keep seeing the moment
    before the chain began."""
    start = pos(hands={0: ["ac13", "ac07"], 1: ["ac11"]}, pos=("c3", "c4"))
    state = act(start, "use ac13", "chain ac11")
    assert game.to_act(state) == [0] and game.public_to_act(state) == [0]
    for seat in (None, 1):
        assert game.view(state, seat) == game.view(start, seat)
    assert game.view(state, 1)["pending"] is None
    assert game.view(state, 0)["pending"]["kind"] == "chain"
    assert [d["card"] for d in game.view(state, 0)["chain"]] == ["ac13", "ac11"]


def test_a_state_with_an_open_window_survives_dump_and_load():
    """The moment before the chain is part of the state: a restart mid-window shows the same views."""
    state = act(pos(hands={0: ["ac13", "ac07"], 1: ["ac11"]}, pos=("c3", "c4")), "use ac13", "chain ac11")
    again = game.load(game.dump(state))
    assert again == state and again.base == state.base
    for seat in (None, 0, 1):
        assert game.view(again, seat) == game.view(state, seat)


def test_the_chain_and_the_last_action_are_public_once_revealed():
    state = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"))
    window = act(state, "use ac13")
    assert game.view(window, None)["chain"] == []                      # not while the window is open
    done = act(window, "chain ac11")
    pub = game.view(done, None)
    assert pub["chain"] == [] and [d["card"] for d in pub["last"]["chain"]] == ["ac13", "ac11"]
    assert pub["last"]["resolved"] == [1, 0] and pub["last"]["command"] == "use ac13"
    assert done.base is None


def test_view_format_for_renderers():
    """docs/rules/logic_square.md "View format": the board, players, chain and last action."""
    state = pos(hands={0: ["ac01", "sc03"]}, pos=("c2", "c4"), placed=[("e4", 1, "sc06", 50)],
                life=(480, 500), avis=("av01", "av02"), edition=2)
    state = act(state, "use ac01")
    view = game.view(state, 0)
    assert view["board"] == {
        "avis": [{"seat": 0, "card": "av01", "square": "c2", "life": 480, "awakened": False, "awakening_life": 200},
                 {"seat": 1, "card": "av02", "square": "c4", "life": 460, "awakened": False, "awakening_life": 250}],
        "placed": [{"square": "e4", "owner": 1, "card": "sc06", "durability": 50, "max_durability": 50}]}
    assert view["players"][0] == {
        "seat": 0, "avi": "av01", "life": 480, "ap": 2, "ap_next": 0, "shield": 0, "hand_count": 1,
        "deck_count": 0, "trash": ["ac01"], "it_used": [], "it_unused_count": 0, "caa_used": False}
    assert view["last"] == {
        "seat": 0, "kind": "use", "command": "use ac01", "card": "ac01", "target": None,
        "chain": [{"seat": 0, "source": "hand", "card": "ac01", "target": None,
                   "range": ["c4", "b3", "c3", "d3"], "paid": []}],
        "resolved": [0],
        "events": [{"type": "resolve", "seat": 0, "card": "ac01", "index": 0},
                   {"type": "damage", "seat": 1, "square": "c4", "target": "avi", "amount": 40, "card": "ac01"}]}
    assert view["phase"] == "main" and view["turn"] == 3 and view["to_act"] == [0]
    assert view["hand"] == ["sc03"] and view["pending"] == {"kind": "main", "ap": 2, "caa_used": False}
