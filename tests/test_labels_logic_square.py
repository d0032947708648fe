"""Battle Logic Square moves in words (issue 14): the Act menu names cards, the AVI and squares,
never the ids of the notation (docs/rules/logic_square.md, "Notation")."""
from __future__ import annotations

from render.labels import choices
from rules import registry

game = registry.get("logic_square")


def _menu(state, seat, locale):
    legal = game.legal_commands(state, seat)
    return {c.command: c for c in choices("logic_square", game.view(state, seat), seat, legal, locale,
                                          ["Alice", "Bob"])}


def test_main_phase_commands_name_cards_and_the_avi() -> None:
    # "| `move c2` | main | move your AVI to `c2` (1 AP) |", "| `use ac01` | main | use a hit card … (1 AP) |",
    # "| `caa ac01 ac01 sc02` | main | CAA: trash these 1–3 cards, draw twice as many (0 AP) |"
    state = game.position(hands={0: ["ac01", "ac12"]}, it={0: ["it01"]}, pos=("c1", "c3"))
    en, ja = _menu(state, 0, "en"), _menu(state, 0, "ja")
    avi = game.view(state, 0)["cards"][game.view(state, 0)["board"]["avis"][0]["card"]]["name"]
    assert en["move c2"].label == f"Move {avi['en']} c1 → c2"
    assert ja["move c2"].label == f"{avi['ja']}を移動（c1 → c2）"
    cards = game.view(state, 0)["cards"]
    assert en["use ac01"].label == f"Use {cards['ac01']['name']['en']}"
    assert en["use ac01"].description.startswith("1 AP · hit damage ")
    assert ja["use ac01"].label == f"{cards['ac01']['name']['ja']}を使用"
    caa = en["caa ac01 ac12"]
    assert caa.label == f"Trash {cards['ac01']['name']['en']}, {cards['ac12']['name']['en']}"
    assert caa.group == "Trash 2 cards to draw 4 (CAA)"
    assert en["end"].label == "End the main phase" and ja["end"].label == "メインフェイズ終了"
    it = [c for c in en.values() if c.command.startswith("it ")]
    assert it and all(cards["it01"]["name"]["en"] in c.label and c.group.startswith("IT card: ") for c in it)


def test_avi_ability_is_named() -> None:
    # "| `avi 1`, `avi 1 c3` | main | your AVI's ability 1 (with a square when it moves) |"
    state = game.position(hands={0: []}, pos=("c1", "c3"))
    view = game.view(state, 0)
    avi = view["cards"][view["board"]["avis"][0]["card"]]
    en = _menu(state, 0, "en")
    abilities = [c for c in en.values() if c.command.startswith("avi ")]
    assert abilities
    first = abilities[0]
    n = int(first.command.split()[1])
    assert avi["abilities"][n - 1]["name"]["en"] in first.label
    assert first.description.startswith(f"{avi['abilities'][n - 1]['cost']} AP · ")
