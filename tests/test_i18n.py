"""The ja/en catalog: both languages say everything, with the same placeholders."""
from __future__ import annotations

import json
from pathlib import Path

from data import i18n

ROOT = Path(i18n.__file__).resolve().parent


def test_every_catalog_file_exists_in_both_languages():
    en = sorted(p.name for p in (ROOT / "en").glob("*.json"))
    ja = sorted(p.name for p in (ROOT / "ja").glob("*.json"))
    assert en == ja and en


def _singular(key: str, en: dict) -> bool:
    """An English-only singular form (``x.one`` beside ``x``): Japanese has no plural."""
    return key.endswith(".one") and key[:-4] in en


def test_both_languages_have_the_same_keys_and_placeholders():
    en, ja = i18n.catalog("en"), i18n.catalog("ja")
    plain = {k for k in en if not _singular(k, en)}
    assert plain == set(ja) - {k for k in ja if _singular(k, en)}, plain ^ set(ja)
    for key in plain:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
    for key in set(en) - plain:     # the singular says no more than the general form
        assert i18n.placeholders(en[key]) <= i18n.placeholders(en[key[:-4]]), key


def test_plural_forms_follow_the_count_in_english_and_not_in_japanese():
    assert i18n.t("core.moves", "en", count=1) == "1 move"
    assert i18n.t("core.moves", "en", count=2) == "2 moves"
    assert i18n.t("core.moves", "en", count=0) == "0 moves"
    assert i18n.t("core.moves", "ja", count=1) == i18n.t("core.moves", "ja", count=2).replace("2", "1")
    assert i18n.t("core.moves", "en") == "{count} moves"


def test_no_english_text_says_s_or_es_in_brackets_or_a_plural_after_one():
    en = i18n.catalog("en")
    for key, text in en.items():
        assert "(s)" not in text and "(es)" not in text, (key, text)
    said = [
        ("host.status.to_act", dict(names="Alice", n=1), "(after 1 move)"),
        ("labels.maken.facedown.n", dict(n=2), "2 face-down cards"),
        ("labels.maken.facedown.n", dict(n=1), "1 face-down card"),
        ("leagues.joined", dict(league=1, name="L", n=1), "(1 player)"),
        ("records.streak.loss", dict(n=1), "1 loss in a row"),
        ("records.streak.loss", dict(n=3), "3 losses in a row"),
        ("records.streak.win", dict(n=1), "1 win in a row"),
        ("records.streak.draw", dict(n=2), "2 draws in a row"),
        ("deck.illegal", dict(name="D", n=1), "breaks 1 deck-building rule:"),
        ("cogs.act.header", dict(match_id=1, n=1), "(1 choice)"),
        ("cogs.log.header", dict(game="G", match_id=1, n=1), "1 move"),
        # texts with several numbers count each with its own noun ({n:~one|other})
        ("stats.head", dict(games=1, where="W", by="game"), "1 game ·"),
        ("stats.head", dict(games=2, where="W", by="game"), "2 games ·"),
        ("cards.list_line", dict(cards=1, decks=2, versions=1), "1 card, 2 decks · {mode} · 1 version ·"),
        ("cards.uploaded", dict(cards=1, replaced=0, decks=1), "1 card of its own (0 replacing shipped ones) and "
                                                               "1 ready-made deck"),
        ("leagues.started", dict(league=1, rounds=1), "started: 1 round."),
        ("leagues.started", dict(league=1, rounds=5), "started: 5 rounds."),
        ("events.reg.set.checkin", dict(minutes=1), "from 1 minute before"),
        ("maken.log.effect.recover", dict(name="A", n=1), "puts 1 damage card under"),
        ("logic_square.deck.it_count", dict(count=1), "has 1 card;"),
    ]
    for key, params, words in said:
        assert words in i18n.t(key, "en", **params), (key, i18n.t(key, "en", **params))


def test_no_text_is_empty_and_files_are_objects():
    for loc in i18n.LOCALES:
        for path in (ROOT / loc).glob("*.json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            assert isinstance(data, dict)
            assert all(isinstance(v, str) and v.strip() for v in data.values()), path


def test_translation_falls_back_to_english_then_to_the_key():
    assert i18n.t("core.yes", "ko") == "Yes"
    assert i18n.t("no.such.key", "ja") == "no.such.key"
    assert i18n.t("host.err.turn_time", "ja", min=1, max=168).startswith("1回の番の持ち時間")


def test_missing_placeholder_is_left_visible_not_crashing():
    assert "{names}" in i18n.t("host.outcome.win", "en", reason="x")
