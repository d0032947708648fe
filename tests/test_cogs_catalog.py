"""Every string the cogs show comes from the ja/en catalog, and both languages agree."""
from __future__ import annotations

import json
import re
from pathlib import Path

from cogs.common import TURN_CHOICES
from data import i18n

ROOT = Path(__file__).resolve().parent.parent
COGS = sorted((ROOT / "cogs").glob("*.py"))
LITERAL_KEY = re.compile(r"""\b(?:tr|L|N|i18n\.t)\(\s*(?:"[^"]*",\s*)?"((?:cmd|cogs|host|game)\.[a-z0-9_.]+)\"""")


def _cogs_files() -> dict[str, dict]:
    return {loc: json.loads((ROOT / "data" / "i18n" / loc / "cogs.json").read_text(encoding="utf-8"))
            for loc in ("en", "ja")}


def test_both_languages_have_the_same_keys_and_placeholders():
    files = _cogs_files()
    # an English singular (``x.one`` beside ``x``: data/i18n/__init__.py) has no Japanese twin
    singular = {k for k in files["en"] if k.endswith(".one") and k[:-4] in files["en"]}
    assert set(files["en"]) - singular == set(files["ja"])
    for key, text in files["en"].items():
        if key in singular:
            continue
        assert i18n.placeholders(text) == i18n.placeholders(files["ja"][key]), key
        assert files["ja"][key].strip(), key


def test_every_literal_key_used_in_the_cogs_exists():
    used = set()
    for path in COGS:
        used |= set(LITERAL_KEY.findall(path.read_text(encoding="utf-8")))
    assert len(used) > 60
    missing = sorted(k for k in used if not i18n.has(k))
    assert missing == []
    ja = i18n.catalog("ja")
    assert sorted(k for k in used if k.startswith(("cmd.", "cogs.")) and k not in ja) == []


def test_dynamic_keys_exist():
    keys = [f"cogs.turn.{s}" for s in TURN_CHOICES]
    keys += [f"cogs.button.{a}" for a in ("act", "accept", "decline", "join", "start", "resign", "status", "withdraw")]
    keys += [f"cogs.settings.lang.{v}" for v in ("auto", "ja", "en")]
    keys += [f"host.state.{s}" for s in ("pending", "open", "active", "finished", "aborted", "declined")]
    for key in keys:
        assert key in i18n.catalog("en") and key in i18n.catalog("ja"), key


def test_cogs_hold_no_user_facing_english_literals():
    """Replies go through tr(); a quoted sentence passed to send/reply would bypass the catalog."""
    bad = re.compile(r"""(?:send_message|reply|reply_error|followup\.send|edit_message)\(\s*[^,)]*?["'][A-Z][a-z]+ [a-z]""")
    for path in COGS:
        assert not bad.search(path.read_text(encoding="utf-8")), path.name
