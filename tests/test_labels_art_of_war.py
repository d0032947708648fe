"""Art of War moves in words (issue 14): units by their printed names, squares, attack against
defence — never a bare token (docs/rules/art_of_war.md, "Notation")."""
from __future__ import annotations

from render.labels import choices
from rules import registry

game = registry.get("art_of_war")


def _menu(state, seat, locale):
    legal = game.legal_commands(state, seat)
    return {c.command: c for c in choices("art_of_war", game.view(state, seat), seat, legal, locale,
                                          ["Alice", "Bob"])}


def test_attacks_name_both_units_and_the_numbers():
    # "| `attack b2 b3` | the unit on b2 attacks the enemy on b3 |"
    state = game.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "kp", 1: "w"})
    en, ja = _menu(state, 0, "en"), _menu(state, 0, "ja")
    attack = en["attack b2 b3"]
    assert attack.label == "Attack: SOLDIER b2 → SOLDIER b3" and attack.group == "SOLDIER (b2)"
    assert attack.description.startswith("attack ") and " vs defence " in attack.description
    assert ja["attack b2 b3"].label == "攻撃：ソルジャー（b2）→ソルジャー（b3）"


def test_rear_supports_and_answers_read_as_words():
    # "| `support a b3`, `support k p a2 c2` | rear supports |" and
    # "| `support g`, `support w`, `pass` | answers in a response window |"
    state = game.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "kp", 1: "w"})
    en = _menu(state, 0, "en")
    kings = [c for c in en.values() if c.command.startswith("support k ")]
    assert kings and all("rear support as" in c.label for c in kings)
    window = game.apply(state, 0, "support k a b3")
    answers = _menu(window, 1, "en")
    assert answers["support w"].label == "Answer with WIZARD" and answers["pass"].label == "Pass"
    assert _menu(window, 1, "ja")["support w"].label == "ウィザードで対応"
