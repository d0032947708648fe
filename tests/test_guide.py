"""/rules: a player's guide per game, paged with ◀ ▶, a start picture on the first page, in
the reader's language, and never developer documentation (issue 14, "Rules for players")."""
from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from cogs.guide import guide_pages
from data import i18n
from discord_fakes import component, message_text
from rules import registry

DEV_WORDS = ("docs/", ".md", "view(", "to_act", "legal_commands", "rules/")


def _text(message: dict) -> str:
    return json.dumps({k: v for k, v in message.items() if not k.startswith("_")}, ensure_ascii=False)


@pytest.mark.parametrize("game", registry.names())
@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_rules_pages_through_the_guide_with_a_start_picture(env, game, locale):
    ix = await env.fake.slash(env.bot, env.alice, "rules", game=game, locale=locale)
    assert ix.ephemeral
    first = ix.last
    embed = first["embeds"][0]
    assert embed["image"]["url"] == "attachment://start.png"
    stored = env.fake.messages.get(int(first["id"]), first)
    picture = next(a for a in stored["attachments"] if a["filename"] == "start.png")
    Image.open(io.BytesIO(picture["_bytes"])).load()
    pages = guide_pages(game, i18n.locale_of(locale))
    seen = [embed["description"]]
    message = first
    for n in range(1, len(pages)):       # ▶ to the last page
        nxt = component(message, rf"^guide:{game}:{n}$")
        assert nxt is not None and not nxt.get("disabled"), (n, message["components"])
        message = (await env.fake.click(env.bot, env.alice, message, nxt["custom_id"], locale=locale)).last
        seen.append(message["embeds"][0]["description"])
    if pages:
        assert seen == [body for _, body in pages]
        back = component(message, rf"^guide:{game}:{max(len(pages) - 2, 0)}$")
        if len(pages) > 1:
            message = (await env.fake.click(env.bot, env.alice, message, back["custom_id"], locale=locale)).last
            assert message["embeds"][0]["description"] == pages[-2][1]
    for text in [_text(first), _text(message)]:
        assert not any(w in text for w in DEV_WORDS), text[:500]


@pytest.mark.parametrize("game", registry.names())
def test_a_guide_has_the_same_pages_in_both_languages_and_reads_on_a_phone(game):
    en, ja = guide_pages(game, "en"), guide_pages(game, "ja")
    assert 4 <= len(en) == len(ja) <= 8
    for title, body in en + ja:
        assert len(title) <= 60 and len(body) <= 1500
    latin = re.compile(r"[A-Za-z]{4,}")
    for title, body in ja:
        outside = re.sub(r"`[^`]*`", "", title + body)
        words = [w for w in latin.findall(outside) if w not in ("KING", "GUARDIAN", "WIZARD", "SOLDIER")]
        assert len(words) <= 3, words      # notation lives in backticks; no English prose



# ---------------------------------------------------------------------------- every page, both ways
# What a player must never be shown: repository paths, developer documents, the engine's view format.
PATH = re.compile(r"(?:\b[\w-]+/)+[\w-]+\.(?:py|md|json|txt)\b|\bdocs/|\brules/|\bdata/")
VIEW_WORDS = ("to_act", "legal_commands", "public_to_act", "row_sums", "row_limits", "over_limit",
              "it_unused", "hand_count", "view(", "registry", "new_match", "Engine ruling", "View format")


def _assert_for_players(message: dict) -> None:
    text = _text(message)
    assert not PATH.search(text), PATH.search(text).group(0)
    assert not [w for w in VIEW_WORDS if w in text], [w for w in VIEW_WORDS if w in text]


def _buttons(message: dict) -> dict[str, dict]:
    return {c["label"]: c for row in message.get("components") or [] for c in row["components"]}


@pytest.mark.parametrize("game", registry.names())
@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_rules_answers_privately_and_pages_to_the_end_and_back(env, game, locale):
    lang = i18n.locale_of(locale)
    pages = guide_pages(game, lang)
    assert pages, f"{game} has no guide"
    prev_label, next_label = i18n.t("records.page.prev", lang), i18n.t("records.page.next", lang)
    ix = await env.fake.slash(env.bot, env.alice, "rules", game=game, locale=locale)
    assert ix.ephemeral
    message = ix.last
    stored = env.fake.messages[int(message["id"])]
    assert [a["filename"] for a in stored["attachments"]] == ["start.png"]
    assert Image.open(io.BytesIO(stored["attachments"][0]["_bytes"])).size[0] >= 300
    shown = []
    for n in range(len(pages)):                           # ▶ … to the last page
        embed = message["embeds"][0]
        shown.append(embed["description"])
        assert pages[n][0] in embed["title"] and f"{n + 1}" in embed["footer"]["text"]
        assert len(embed["description"]) <= 4096 and len(embed["title"]) <= 256
        assert bool(embed.get("image")) == (n == 0) and bool(message["attachments"]) == (n == 0)
        buttons = _buttons(message)
        assert buttons[prev_label].get("disabled", False) == (n == 0)
        assert buttons[next_label].get("disabled", False) == (n == len(pages) - 1)
        assert all(len(c["custom_id"]) <= 100 for c in buttons.values())
        _assert_for_players(message)
        if n + 1 < len(pages):
            message = (await env.fake.click(env.bot, env.alice, message, buttons[next_label]["custom_id"],
                                            locale=locale)).last
    assert shown == [body for _, body in pages]
    for n in range(len(pages) - 2, -1, -1):               # ◀ … back to the first page
        message = (await env.fake.click(env.bot, env.alice, message, _buttons(message)[prev_label]["custom_id"],
                                        locale=locale)).last
        assert message["embeds"][0]["description"] == pages[n][1]
        _assert_for_players(message)
    assert message["embeds"][0]["image"]["url"] == "attachment://start.png"   # the picture is back
    assert [a["filename"] for a in message["attachments"]] == ["start.png"]
    assert env.fake.unhandled == []


async def test_rules_is_public_only_when_asked_and_its_buttons_survive_a_restart(env):
    ix = await env.fake.slash(env.bot, env.alice, "rules", game="squares", public=True)
    assert not ix.ephemeral and ix.last["embeds"][0]["image"]
    message = ix.last
    await env.restart()                                     # persistent: routed by custom_id alone
    ix = await env.fake.click(env.bot, env.bob, message, "guide:squares:1", locale="ja")
    assert ix.last["embeds"][0]["description"] == guide_pages("squares", "ja")[1][1]
    ix = await env.fake.slash(env.bot, env.alice, "rules", game="squares", public=False)
    assert ix.ephemeral


async def test_a_game_without_a_guide_gets_a_short_page_with_players_and_options(env, monkeypatch):
    squares = registry.get("squares")

    class Unguided:                     # a registered game whose catalog has no guide pages
        name, min_players, max_players = "unguided", 2, 2

        def __getattr__(self, attr):
            return getattr(squares, attr)

    monkeypatch.setitem(registry._games, "unguided", Unguided())
    for locale, lang in (("en-US", "en"), ("ja", "ja")):
        ix = await env.fake.slash(env.bot, env.alice, "rules", game="unguided", locale=locale)
        message = ix.last
        embed = message["embeds"][0]
        assert i18n.t("cogs.rules.missing", lang, game="unguided") == embed["description"]
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields[i18n.t("cogs.rules.players", lang)] == "2–2"
        assert "`max_turns`" in fields[i18n.t("cogs.board.options", lang)]
        assert "`200`" in fields[i18n.t("cogs.board.options", lang)]
        assert embed["image"]["url"] == "attachment://start.png" and not message["components"]
        _assert_for_players(message)


# ---------------------------------------------------------------------------- /help
def _top_level(bot) -> list:
    return list(bot.tree.get_commands())


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_help_names_every_command_the_bot_registers_as_the_client_shows_it(env, locale):
    lang = i18n.locale_of(locale)
    ix = await env.fake.slash(env.bot, env.alice, "help", locale=locale)
    assert ix.ephemeral
    embed = ix.last["embeds"][0]
    text = message_text(ix.last)
    assert len(json.dumps(embed, ensure_ascii=False)) <= 6000 and len(embed["fields"]) >= 6
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])
    assert "{" not in text and "}" not in text, "a command placeholder was not filled in"
    ja = i18n.catalog("ja")
    for cmd in _top_level(env.bot):
        key = cmd._locale_name.extras.get("key")
        shown = ja[key] if lang == "ja" else cmd.name
        assert f"`/{shown}" in text, f"/help has no line for /{cmd.name} ({shown})"
        for sub in getattr(cmd, "commands", []):          # and every subcommand of a group
            sub_shown = ja[sub._locale_name.extras["key"]] if lang == "ja" else sub.name
            assert f"`/{shown} {sub_shown}`" in text, f"/help has no line for /{cmd.name} {sub.name}"
    _assert_for_players(ix.last)
    ix = await env.fake.slash(env.bot, env.alice, "help", locale=locale, public=True)
    assert not ix.ephemeral


# ---------------------------------------------------------------------------- Japanese is Japanese
# Latin letters a Japanese reader may meet outside backticks: the rulebooks' own terms, printed in
# Latin letters in the Japanese rulebooks themselves (and the game names as published).
RULEBOOK_LATIN = {"AVI", "AP", "IT", "CB", "Br", "Ac", "Sc", "CAA", "X",            # Battle Logic Square
                  "TP", "LP", "FB", "GB", "GC",                                     # Project Maken
                  "KING", "SOLDIER", "ARCHER", "PRIEST", "GUARDIAN", "WIZARD",      # Art of War
                  "SQUARES", "Art", "of", "War"}


def _latin_outside_backticks(text: str) -> list[str]:
    outside = re.sub(r"`[^`]*`", "", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", outside) if w not in RULEBOOK_LATIN]


@pytest.mark.parametrize("game", registry.names())
def test_japanese_guides_use_no_latin_words_outside_backticks(game):
    for title, body in guide_pages(game, "ja"):
        assert _latin_outside_backticks(title + "\n" + body) == [], (game, title)


def test_japanese_help_uses_no_latin_words_outside_backticks():
    ja = i18n.catalog("ja")
    keys = [k for k in ja if k.startswith("guide.help.") or k in ("guide.page", "cogs.rules.missing")]
    assert len(keys) >= 8
    for key in keys:
        assert _latin_outside_backticks(re.sub(r"\{[a-z0-9_]+\}", "", ja[key])) == [], key


# ---------------------------------------------------------------------------- the organiser's guide
@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_help_topic_events_pages_through_the_organisers_guide_naming_real_commands(env, locale):
    """/help with the topic "Running an event" (issue 34: an organiser's guide page in /help,
    paged like /rules): every page names the event commands as the reader's client shows them,
    with ◀ ▶ that keep working (persistent custom ids)."""
    lang = i18n.locale_of(locale)
    ix = await env.fake.slash(env.bot, env.alice, "help", locale=locale, topic="events")
    assert ix.ephemeral
    pages = guide_pages("events", lang)
    assert len(pages) >= 5
    seen = []
    message = ix.last
    for n in range(len(pages)):
        embed = message["embeds"][0]
        assert embed["title"].endswith(pages[n][0])
        text = embed["description"]
        assert "{" not in text and "}" not in text, "a command placeholder was not filled in"
        seen.append(text)
        if n + 1 < len(pages):
            ix = await env.fake.click(env.bot, env.alice, message, f"guide:events:{n + 1}", locale=locale)
            message = ix.last
    shown = "\n".join(seen)
    ja = i18n.catalog("ja")
    admin = next(c for c in env.bot.tree.get_commands() if c.name == "league-admin")
    for sub in ("create", "settings", "checkin", "report", "trail", "export", "decklists"):
        cmd = next(c for c in admin.commands if c.name == sub)
        words = f"{ja[admin._locale_name.extras['key']]} {ja[cmd._locale_name.extras['key']]}" if lang == "ja" \
            else f"league-admin {sub}"
        assert f"`/{words}`" in shown, f"the organiser's guide does not name /league-admin {sub}"


def test_the_japanese_organisers_guide_uses_no_latin_words_outside_backticks():
    for title, body in guide_pages("events", "ja"):
        assert _latin_outside_backticks(title + "\n" + re.sub(r"\{[a-z0-9_]+\}", "", body)) == [], title
