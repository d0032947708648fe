"""``/card name`` (cogs/card_lookup.py): the autocomplete finds a shipped card of any game by its
English or its Japanese name — folded so that case, full-width letters, spaces and dots, and
hiragana against katakana do not matter — best matches first; each suggestion names the card in
the reader's language, its other name and its game; a typed name is taken when it names one
card; the answer's picture is the card alone and its text the card's whole rules text."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.card_lookup import CardRef, card_layout, card_png, choices, fold, index, label, matching, rank, resolve
from data.card_sets import games
from layout_reading import check_layout, view_pictures, view_text


@pytest.fixture(scope="module")
def cards() -> list[CardRef]:
    def shipped(game: str) -> list:
        ad = games.adapter(game)
        cs, _ = ad.validate(ad.base_files("extend", ad.newest_edition()))
        return ad.entries(cs, set())
    return index({g: shipped(g) for g in games.GAMES})


def find(cards: list[CardRef], game: str, card_id: str) -> CardRef:
    return next(c for c in cards if c.game == game and c.id == card_id)


def test_folding_ignores_case_width_spaces_dots_and_the_kana_script():
    assert fold("Blitz Vector") == fold("blitz-vector") == fold("ＢＬＩＴＺ　ＶＥＣＴＯＲ") == "blitzvector"
    assert fold("ブリッツ・ベクター") == fold("ぶりっつべくたー") == fold("ﾌﾞﾘｯﾂ･ﾍﾞｸﾀｰ")
    assert fold("柊ツバキ") == "柊つばき"


def test_every_card_game_is_indexed_without_its_ready_made_decks(cards):
    assert {c.game for c in cards} == set(games.GAMES)
    assert not [c for c in cards if getattr(c.entry, "deck", False)]
    assert len({c.value for c in cards}) == len(cards), "each suggestion's value names one card"
    assert all(len(c.value) <= 100 and c.name.get("en") and c.name.get("ja") for c in cards)


def test_an_english_name_is_found_from_its_first_letters_and_from_a_later_word(cards):
    blitz = find(cards, "logic_square", "av01")
    assert matching(cards, "blitz")[0] == blitz
    assert matching(cards, "BLITZ VEC")[0] == blitz
    assert blitz in matching(cards, "vector"), "a name's second word"
    assert rank(blitz, fold("blitz vector")) == 0 and rank(blitz, fold("bli")) == 1
    assert rank(blitz, fold("vec")) == 2 and rank(blitz, fold("itz")) == 3 and rank(blitz, fold("zzz")) is None


def test_a_japanese_name_is_found_in_katakana_in_hiragana_and_in_kanji(cards):
    blitz = find(cards, "logic_square", "av01")
    assert matching(cards, "ブリッツ")[0] == blitz
    assert matching(cards, "ぶりっつ")[0] == blitz, "hiragana finds the katakana name"
    assert matching(cards, "ベクター")[0] == blitz or blitz in matching(cards, "ベクター")
    tsubaki = find(cards, "maken", "tsubaki")
    assert matching(cards, "柊")[0] == tsubaki
    assert matching(cards, "ツバキ")[0] == tsubaki and matching(cards, "つばき")[0] == tsubaki


def test_exact_names_come_before_names_that_start_so_and_before_names_that_hold_it(cards):
    found = matching(cards, "king")
    ranks = [rank(c, "king") for c in found]
    assert ranks == sorted(ranks) and found, "best first"
    assert all(c.game == "art_of_war" for c in found[:3]), [c.name for c in found[:3]]
    assert matching(cards, "no such card at all") == []


def test_suggestions_name_the_card_in_the_readers_language_its_other_name_and_its_game(cards):
    blitz = find(cards, "logic_square", "av01")
    assert label(blitz, "en") == "Blitz Vector (ブリッツ・ベクター) — Battle Logic Square"
    assert label(blitz, "ja") == "ブリッツ・ベクター（Blitz Vector）：バトルロジックスクエア"
    shown = choices(cards, "", "en")
    assert len(shown) == 25, "nothing typed: the first 25 cards"
    assert all(1 <= len(c.name) <= 100 and len(c.value) <= 100 for c in choices(cards, "a", "ja"))
    assert choices(cards, "blitz", "en")[0].value == "logic_square:av01"


def test_a_typed_name_is_taken_when_it_names_one_card(cards):
    blitz = find(cards, "logic_square", "av01")
    assert resolve(cards, "logic_square:av01") == blitz, "a picked suggestion"
    assert resolve(cards, "blitz vector") == blitz, "a whole name, any case"
    assert resolve(cards, "ブリッツ・ベクター") == blitz
    assert resolve(cards, "Blitz Vect") == blitz, "the only card that starts so"
    assert resolve(cards, "king") is None, "several kings: pick one from the list"
    assert resolve(cards, "") is None and resolve(cards, "no such card") is None
    assert resolve(cards, "maken:no_such_id") is None


def test_the_answer_shows_the_card_alone_and_says_all_of_its_text(cards):
    for game in games.GAMES:
        card = next(c for c in cards if c.game == game)
        for locale in ("en", "ja"):
            img = Image.open(io.BytesIO(card_png(card, locale)))
            assert img.width >= 400 and img.height >= 100
            view = card_layout(card, locale)
            words = view_text(view).replace("\\", "")
            assert card.entry.rules[locale][:20].replace("*", "") in words
            assert view_pictures(view) == ["attachment://card.png"]
            assert words.splitlines()[0] == "### " + card.shown(locale)
            assert check_layout(view.to_components(), {"card.png"}) == []
            # a card whose picture could not be drawn: the words alone, no gallery naming a missing file
            alone = card_layout(card, locale, picture=False)
            assert view_pictures(alone) == [] and check_layout(alone.to_components(), set()) == []
