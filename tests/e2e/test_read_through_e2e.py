"""The read-through audit (issue 33, "Done when"): a match of each game played through the twin in
Japanese and in English, by random legal moves as players make them (``/move`` with its
suggestions, the Act menu under the board and in a DM), and then everything a player received
— every version of every message in the thread, the channel and their DMs, and every answer
only they saw: its text, its embeds and the labels of its buttons and selects — is read:

* no live button on a message whose match is over (a retired board, a prompt, a DM, the challenge);
* no ping of the bot itself;
* in the Japanese match, no English words outside backticks and names (rulebook abbreviations
  in capitals such as AVI, CAA, KING are names), and no command named in English inside them;
* in the English match, no Japanese;
* in either, no card or piece id outside backticks (``ts13``, ``ac01``, ``c03``).
"""
from __future__ import annotations

import os
import random
import re

import pytest

from .checks import assert_every_message_within_limits
from .test_every_game_e2e import QUICK_OPTIONS, registered_games
from .harness import board_title
from .twin import EPHEMERAL, components_of, find_component, message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

MAX_COMMANDS = 160          # then the match is resigned (every text has been seen by then)
MENU_EVERY = 9              # every this many commands the Act menu is used instead of /move
DISCORD_LOCALE = {"en": "en-US", "ja": "ja"}

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
MARKUP = re.compile(r"```.*?```|`[^`]*`|<(?:@[!&]?|#|t:|/)[^>]*>|https?://\S+", re.S)
# an English word: three letters or more, not part of an id or notation (letters and digits
# together: ts13, P5, c5) and not in capitals only (SQUARES, KING, AVI, CAA are names)
WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][a-z]+(?:['’][a-z]+)?(?![A-Za-z0-9_])")
ID = re.compile(r"(?<![A-Za-z0-9])[a-z]{1,3}\d{2,3}(?![A-Za-z0-9])")


def pieces(message: dict) -> list[str]:
    """Everything a reader sees in one version of a message: text, embeds, component labels."""
    out = [message_text(message)]
    for c in components_of(message):
        out += [c.get("label") or "", c.get("placeholder") or ""]
        for o in c.get("options") or []:
            out += [o.get("label") or "", o.get("description") or ""]
    return [p for p in out if p]


def english_words(line: str, names: set[str]) -> list[str]:
    bare = MARKUP.sub(" ", line)
    for name in names:
        bare = bare.replace(name, " ")
    return [w for w in WORD.findall(bare) if len(w) >= 3]


def language_problems(line: str, locale: str, names: set[str]) -> list[str]:
    """One line a reader saw, in the other language: in Japanese, English words outside backticks
    and ``names``, or a command named as a Japanese client does not name it (`` `/match …` ``);
    in English, Japanese."""
    out = []
    if locale == "ja":
        words = english_words(line, names)
        if words:
            out.append(f"English in Japanese: {words[:4]} in {line[:160]!r}")
        if re.search(r"`/[a-z]", line):
            out.append(f"a command named in English: {line[:160]!r}")
    elif JAPANESE.search(MARKUP.sub(" ", line)):
        out.append(f"Japanese in English: {line[:160]!r}")
    return out


async def play(twin, table, game: str, locale: str) -> tuple[int, int]:
    """A whole match of ``game`` between Alice and Bob in ``locale``; returns (match id, commands)."""
    dl = DISCORD_LOCALE[locale]
    alice, bob = table.alice, table.bob
    options = QUICK_OPTIONS.get(game)
    kw = {"options": options} if options else {}
    ix = await twin.slash(alice, "play", game=game, opponent=bob, locale=dl, guild_locale=dl, **kw)
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    ix = await twin.click(bob, challenge, f"m:{match_id}:accept", locale=dl)
    picker = find_component(ix.last or {}, r":deck:accept$")
    if picker is not None:
        await twin.click(bob, ix.last, picker["custom_id"], values=[picker["options"][0]["value"]], locale=dl,
                         until=lambda done: done.replies)
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, rf"^m:{match_id}:act$"),
                        what="the board")
    thread = table.thread_of(match_id)
    rng = random.Random(f"{game}-{locale}-read")
    played, asked_between = 0, False
    while table.board_message(match_id) is not None and played < MAX_COMMANDS:
        actor, choices = None, []
        for user in (alice, bob):
            choices = await twin.autocomplete(user, "move", "command", command="", match=match_id,
                                              channel_id=thread, locale=dl)
            if choices:
                actor = user
                break
        if actor is None:
            await twin.settle(quiet=0.3)
            continue
        other = bob if actor is alice else alice
        dm = [m for m in twin.dms(int(other["id"])) if m["_via"] == "channel" and board_title(m)
              and find_component(m, rf"^m:{match_id}:act$")]
        if dm and not asked_between:      # Act in a DM between turns: status and hand
            await twin.click(other, dm[-1], f"m:{match_id}:act", locale=dl)
            asked_between = True
        if played % MENU_EVERY == 1:
            ix = await twin.click(actor, table.board_message(match_id), f"m:{match_id}:act", locale=dl)
            for _ in range(4):
                select = find_component(ix.last or {}, r":c:")
                if select is None:
                    break
                option = rng.choice([o for o in select["options"] if not o["value"].startswith("p:")])
                ix = await twin.click(actor, ix.last, select["custom_id"], values=[option["value"]], locale=dl,
                                      until=lambda done: done.replies)
                if option["value"].startswith("c:"):
                    break
        else:
            ix = await twin.slash(actor, "move", command=rng.choice(choices)["value"], match=match_id,
                                  channel_id=thread, locale=dl, quiet=0.05)
        assert "⚠️" not in ix.text, ix.text
        played += 1
    if table.board_message(match_id) is not None:
        await twin.slash(alice, "match resign", match=match_id, channel_id=thread, locale=dl)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the result", timeout=60)
    # the DMs' last edits (without Act) may wait out a rate limit longer than a quiet spell
    await twin.wait_for(lambda: not any(find_component(m, rf"^m:{match_id}:act$")
                                        for u in (alice, bob) for m in twin.dms(int(u["id"]))),
                        what="every DM of the finished match without its Act button", timeout=30)
    await twin.settle(quiet=1.0)
    return match_id, played


@pytest.mark.parametrize("locale", ["ja", "en"])
@pytest.mark.parametrize("game", registered_games())
async def test_everything_a_player_reads_in_a_whole_match(game, locale, table, twin, bot):
    match_id, played = await play(twin, table, game, locale)
    assert played >= 2
    names = {"Alice", "Bob", "Carol", "tablebot", "TableBot"}
    me = twin.bot_user["id"]
    problems: list[str] = []
    ids: set[str] = set()
    read: list[str] = []
    for m in twin.messages.values():
        versions = m["_versions"]
        # a live button on a message of a match that is over
        if not m["flags"] & EPHEMERAL and components_of(m):
            where = "a DM" if twin.channels.get(int(m["channel_id"]), {}).get("type") == 1 else "a message"
            problems.append(f"live button on {where}: {[c.get('custom_id') for c in components_of(m)]} — "
                            f"{message_text(m)[:120]!r}")
        for v in versions:
            if f"<@{me}>" in message_text(v):
                problems.append(f"pings the bot: {message_text(v)[:120]!r}")
            for text in pieces(v):
                for line in text.splitlines():
                    read.append(line)
                    found = ID.findall(MARKUP.sub(" ", line))
                    if found:
                        ids.add(f"{found[0]} in {line[:100]!r}")
                    problems += language_problems(line, locale, names)
    if os.environ.get("READ_THROUGH_DUMP"):     # every line read, for a person to read through
        with open(os.environ["READ_THROUGH_DUMP"], "a", encoding="utf-8") as out:
            out.write(f"===== {game} ({locale})\n" + "\n".join(dict.fromkeys(read)) + "\n")
    # a card or piece id outside backticks (ts13, ac01, c03) is notation a player never types
    # there: every card is told by its name (a deck code a player copies is inside backticks)
    problems += [f"id outside backticks: {line}" for line in sorted(ids)]
    unique = list(dict.fromkeys(problems))
    print(f"{game} ({locale}): {played} commands; ids outside backticks: {len(ids)}")
    for p in unique:
        print("  ", p)
    assert not unique, f"{len(unique)} problems in what players read:\n" + "\n".join(unique[:60])
    assert_every_message_within_limits(twin)
