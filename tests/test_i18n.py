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


def test_both_languages_have_the_same_keys_and_placeholders():
    en, ja = i18n.catalog("en"), i18n.catalog("ja")
    assert set(en) == set(ja), set(en) ^ set(ja)
    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key


def test_no_text_is_empty_and_files_are_objects():
    for loc in i18n.LOCALES:
        for path in (ROOT / loc).glob("*.json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            assert isinstance(data, dict)
            assert all(isinstance(v, str) and v.strip() for v in data.values()), path


def test_translation_falls_back_to_english_then_to_the_key():
    assert i18n.t("core.yes", "ko") == "Yes"
    assert i18n.t("no.such.key", "ja") == "no.such.key"
    assert i18n.t("host.err.turn_time", "ja", min=1, max=168).startswith("手番")


def test_missing_placeholder_is_left_visible_not_crashing():
    assert "{names}" in i18n.t("host.outcome.win", "en", reason="x")
