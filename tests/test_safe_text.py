"""Issue 45, finding 5 (first part) and the ``problems.txt`` crash of finding 1: one function,
:func:`cogs.common.safe_text`, makes any user-supplied text safe for a Discord message, and every
cog shows card, deck, set, event and player text through it.

    "`plain()` in `cogs/cards.py` leaves a live masked link for names like
    `[a](https://e.co)[b](https://e.co)` or `[[x](https://evil.example)]` in `/cards show` and
    `/cards diff`" (finding 5)

    "a JSON string with a lone surrogate (`"A\\ud800B"`) is accepted and then crashes … the cog's
    `problems.txt` when it is in an effect name" (finding 1)

The checker below is the test's own: a small reader of Discord's markdown that knows which
characters start a construct, independent of how ``safe_text`` escapes them.
"""
from __future__ import annotations

import doctest
import re
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

import cogs.common
from cogs.common import file_bytes, render, safe_names, safe_text
from data.card_sets.problems import Problem
from host.types import Msg, Result, msg
from layout_reading import view_text

COGS = Path(__file__).resolve().parent.parent / "cogs"

# ---------------------------------------------------------------------------- the corpus
MASKED_LINKS = [
    "[a](https://e.co)[b](https://e.co)",                   # finding 5: adjacent links
    "[[x](https://evil.example)]",                           # finding 5: a nested link
    "[a](https://e.co)",
    "x [a](https://e.co) y [b](https://e.co) z",
    "[a] (https://e.co)",
    "[a](<https://e.co>)",
    "[a](https://e.co \"title\")",
    "\\[a](https://e.co)",                                   # an escape of the designer's own
    "\\\\[a](https://e.co)",                                 # … escaped back
    "[**bold**](https://e.co)",
    "[a]\n(https://e.co)",
    "[a](https://e.co)[",
    "]]]][[[[(https://e.co)",
    "[`code`](https://e.co)",
    "[[[a](https://e.co)](https://e.co)](https://e.co)",
    "[a\u200b](https://e.co)",                              # a zero-width space inside
    "［a］(https://e.co)",                                  # full-width brackets: no markdown at all
]
MENTIONS = [
    "@everyone", "@here", "@everyone@here", "a@everyone", "@\u200beveryone",
    "<@123456789012345678>", "<@!123456789012345678>", "<@&123456789012345678>", "<#123456789012345678>",
    "</cards upload:123456789012345678>", "<t:1700000000:R>", "<t:1700000000>", "<:owl:123456789012345678>",
    "<a:owl:123456789012345678>", "<id:customize>", "<https://e.co>", "@everyone <@&1> <#2>",
]
MARKDOWN = [
    "*i*", "**b**", "***bi***", "_u_", "__u__", "~~s~~", "||spoiler||", "`code`", "```block```",
    "```py\nprint(1)\n```", "# Heading", "## Heading", "### Heading", "-# subtext", "> quote", ">>> quote",
    "- item", "* item", "+ item", "1. item", "  # spaced heading", "12. item", "a\n# heading inside", "#", "-", ">",
    "1.", "a\n>>> q", "-#x", "+1 attack",
    "\\", "\\*not bold\\*", "a_b_c", "snake_case_id", "a__b__c", "_a_b_", "x_\u0301y", "x*y*z", "|||", "~",
    "`", "https://e.co/path?q=1", "http://e.co", "see https://e.co", "discord.gg/abc",
]
INVISIBLE = [
    "A\u200bB", "A\u200cB\u200dC", "\u202eevil\u202c", "\u2066isolate\u2069", "soft\u00adhyphen", "\ufeffBOM",
    "\u2060join", "\u180e", "\u3164", "\u115f\u1160", "\u034f", "tab\there", "line\nbreak", "cr\r\nlf",
    "\x00nul\x07bell\x1b[31m", "\u2028sep\u2029", "\x85next",
]
WHOLE = ["A\ud800B", "\udc00", "\ud83d\ude00 paired", "e\u0301", "Å"]   # surrogates and NFC
JAPANESE = ["赤の騎士", "ランタンの従士", "「炎の剣」", "騎士（改）", "ＡＢＣ", "竜・改　二", "魔剣‐零"]
LONG = ["x" * 5000, "*" * 3000, "[a](https://e.co)" * 300, "赤" * 1000, "@everyone " * 400]

CORPUS = MASKED_LINKS + MENTIONS + MARKDOWN + INVISIBLE + WHOLE + JAPANESE + LONG

# ---------------------------------------------------------------------------- the checker
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
ALWAYS = set("*_~|`[]<@\\")                 # a construct (or an escape) from anywhere
WORDY = re.compile(r"[A-Za-z0-9]")
# a block marker (heading, subtext, quote, list) at a line's start needs a space after it (or the
# end of the text: the message may go on with one)
LINE_START = re.compile(r"[ \u3000]*(?:#+|-#|>+|[-+*]|\d+\.)(?=\s|$)")


def read(out: str) -> tuple[list[tuple[str, bool]], int]:
    """``out`` as Discord reads it: each character shown and whether it was escaped; and how many
    escapes there were.  A backslash before punctuation is hidden and the punctuation is plain."""
    chars: list[tuple[str, bool]] = []
    escapes = i = 0
    while i < len(out):
        if out[i] == "\\" and i + 1 < len(out) and out[i + 1] in PUNCT:
            chars.append((out[i + 1], True))
            escapes += 1
            i += 2
        else:
            chars.append((out[i], False))
            i += 1
    return chars, escapes


def problems_of(out: str, *, lines: bool = False, limit: int | None = None) -> list[str]:
    """What would let ``out`` do more than show words: [] when it is safe."""
    found = []
    chars, escapes = read(out)
    shown = "".join(c for c, _ in chars)
    live = "".join(c if not escaped else "\x00" for c, escaped in chars)    # escaped: no markup
    for k, c in enumerate(live):
        # Discord's underscore emphasis needs a word boundary (ASCII \b) at its ends: a lone
        # "_" between ASCII letters or digits (snake_case) starts none
        if c == "_" and 0 < k < len(live) - 1 and WORDY.match(live[k - 1]) and WORDY.match(live[k + 1]):
            continue
        if c in ALWAYS:
            found.append(f"unescaped {c!r}")
    if re.search(r"\[[^\x00]*\]\(", live):
        found.append("masked link")
    for form in ("<@", "<#", "</", "<t:", "<:", "<a:", "<id:", "<http"):
        if form in live:
            found.append(f"mention or tag {form}")
    if re.search(r"@(everyone|here)", live):
        found.append("@everyone/@here without a break")
    if re.search(r"[a-z]://", live, re.I):
        found.append("a bare URL that links and previews")
    for line in live.split("\n"):
        if LINE_START.match(line):
            found.append(f"a line starting with a marker: {line[:20]!r}")
    for c in shown:
        cat = unicodedata.category(c)
        if cat in ("Cf", "Cs") or (cat == "Cc" and not (lines and c == "\n")):
            found.append(f"invisible or control character U+{ord(c):04X}")
    if not lines and "\n" in shown:
        found.append("a line break")
    if limit is not None and (len(shown) > limit or len(out) > limit + escapes):
        found.append(f"longer than {limit}")
    if out.endswith("\\") and not out.endswith("\\\\"):
        found.append("ends in half an escape")
    return found


# ---------------------------------------------------------------------------- safe_text
def test_the_corpus_is_large_enough():
    assert len(CORPUS) >= 60


@pytest.mark.parametrize("name", CORPUS)
def test_every_hostile_name_comes_out_as_words_only(name):
    """Issue 45, finding 5: "One function that makes any user-supplied text safe for a Discord
    message (markdown, masked links, mentions, invisible characters) … with a test over a corpus
    of hostile names"."""
    for kw in ({}, {"lines": True}, {"limit": 40}, {"limit": 1}):
        out = safe_text(name, **kw)
        assert problems_of(out, lines=kw.get("lines", False), limit=kw.get("limit")) == [], (name, kw, out)
        out.encode("utf-8")                      # never a lone surrogate (a message would fail to send)


@pytest.mark.parametrize("name", [n for n in CORPUS if not any(
    unicodedata.category(c) in ("Cf", "Cc", "Cs", "Zl", "Zp") or c in "\u3164\u115f\u1160\u034f" for c in n)])
def test_the_reader_sees_the_name_as_typed(name):
    """The escapes are hidden by Discord: what a reader sees is the name itself (NFC)."""
    chars, _ = read(safe_text(name, lines=True))
    assert "".join(c for c, _ in chars) == unicodedata.normalize("NFC", name)


def test_the_old_escaper_left_live_links_and_the_checker_sees_them():
    """Finding 5 as filed: ``discord.utils.escape_markdown`` escapes one greedy ``[…](…)`` match,
    so a later or a nested link stays live.  The checker catches it; safe_text does not."""
    for name in ("[a](https://e.co)[b](https://e.co)", "[[x](https://evil.example)]"):
        old = discord.utils.escape_markdown(discord.utils.escape_mentions(name))
        assert "masked link" in problems_of(old)
        assert problems_of(safe_text(name)) == []


def test_japanese_names_stay_unchanged():
    for name in JAPANESE:
        assert safe_text(name) == unicodedata.normalize("NFC", name)
    assert safe_text("赤の騎士") == "赤の騎士"


def test_invisible_characters_and_line_breaks():
    assert safe_text("A\u200bB\u202eC\u00adD\ufeffE") == "ABCDE"
    assert safe_text("a\nb\r\nc\td") == "a b c d"
    assert safe_text("a\nb\r\nc", lines=True) == "a\nb\nc"
    assert safe_text("x\n# big\n> q\n- l\n1. n", lines=True) == "x\n\\# big\n\\> q\n\\- l\n1\\. n"
    assert safe_text("e\u0301") == "\u00e9"                          # NFC


def test_lone_surrogates_become_a_replacement_character_and_pairs_one_character():
    """Finding 1: "a JSON string with a lone surrogate ("A\\ud800B")" must not crash what shows it."""
    assert safe_text("A\ud800B") == "A\ufffdB"
    assert safe_text("\ud83d\ude00") == "\U0001f600"
    assert file_bytes("A\ud800B") == "A\ufffdB".encode("utf-8")


def test_clipped_before_escaping_so_an_escape_is_never_cut():
    out = safe_text("*" * 100, 10)
    assert out == "\\*" * 9 + "…"
    assert len(read(out)[0]) == 10
    assert safe_text("abc", 3) == "abc" and safe_text("abcd", 3) == "ab…"
    assert safe_text(12345) == "12345"                                # any value: str() of it


def test_plain_words_with_punctuation_stay_as_they_are():
    """Only what could form markup is escaped: a card's "+1 attack" or "#3" needs no backslash."""
    for text in ("+1 attack", "-1 life", "#3 seed", "1.5 mana", "a > b", "Leap: Support 2 c1 ⤴ c3", "(x)", "x:y"):
        assert safe_text(text) == text


def test_snake_case_needs_no_escape_but_emphasis_does():
    assert safe_text("mizuha_basic") == "mizuha_basic"
    assert safe_text("a__b__c") == "a\\_\\_b\\_\\_c"
    assert safe_text("_a_ 赤_b_赤") == "\\_a\\_ 赤\\_b\\_赤"


def test_mentions_read_as_words():
    assert safe_text("@everyone") == "\\@everyone"
    assert safe_text("<@&1>") == "\\<\\@&1>"
    assert safe_text("</cards upload:1>") == "\\</cards upload:1>"
    assert safe_text("https://e.co") == "https\\://e.co"


def test_the_module_doctests_pass():
    assert doctest.testmod(cogs.common).failed == 0


# ---------------------------------------------------------------------------- host messages
def test_host_messages_show_user_words_through_safe_text():
    """A host message's params that carry user words (a player's, set's, deck's name; a move in
    words) are made safe when a cog renders it; the bot's own params are left alone."""
    joined = render(msg("host.joined", name="[a](https://e.co)@everyone"), "en")
    assert problems_of(joined.replace(" joined.", "")) == [] and "joined" in joined
    both = render(msg("host.outcome.win", names={"en": "<@1>, *b*", "ja": "<@1>、*b*"},
                      reason=msg("host.raw", text="[x](https://e.co)")), "ja")
    assert "<@1>" not in both.replace("\\<", "") and "\\[x\\]" in both
    played = render(msg("host.played", name="@here", command="Play [x](https://e.co)"), "en")
    assert "\\@here" in played and "\\[x\\]" in played
    counted = render(Msg("cards.uploaded", {"name": "**S** v1", "game": msg("game.maken"), "cards": 3, "replaced": 0,
                                            "decks": 1}), "en")
    assert "\\*\\*S\\*\\* v1" in counted and "3 cards" in counted
    assert render("already **text**", "en") == "already **text**" and render(None, "en") == ""


def test_event_names_map():
    assert safe_names({1: "@everyone", 2: "赤"}) == {1: "\\@everyone", 2: "赤"}


def test_a_problem_names_user_words_safely():
    """Finding 5: problem params that are user words go through ``words=safe_text``."""
    p = Problem("cards.json", 3, "c1", "effects", "cardcheck.unknown_effect",
                {"name": "[[x](https://evil.example)]", "known": ["damage"]})
    line = p.render("en", code=cogs.common.code, words=safe_text)
    assert "\\[\\[x\\](https\\://evil.example)\\]" in line


# ---------------------------------------------------------------------------- the cog
class _Followup:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, **kw) -> None:
        self.sent.append(kw)


class _Response:
    def __init__(self) -> None:
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **_) -> None:
        self.done = True


def _interaction() -> SimpleNamespace:
    return SimpleNamespace(locale=discord.Locale.american_english, guild_id=7, id=1,
                           user=SimpleNamespace(id=5, roles=[]), permissions=SimpleNamespace(manage_guild=True),
                           response=_Response(), followup=_Followup())


def _bot(**sets) -> SimpleNamespace:
    async def settings(_gid):
        return {}
    return SimpleNamespace(host=SimpleNamespace(card_sets=SimpleNamespace(**sets)),
                           store=SimpleNamespace(get_guild_settings=settings))


async def test_problems_txt_survives_a_lone_surrogate_in_an_effect_name():
    """Issue 45, finding 1: a lone surrogate "crashes … the cog's `problems.txt` when it is in an
    effect name"; now the file is written (U+FFFD for it) and the message names it safely."""
    from cogs.cards import Cards

    bad = Problem("cards.json", 3, "c1", "effects", "cardcheck.unknown_effect",
                  {"name": "A\ud800B[x](https://e.co)", "known": ["damage", "move_self"]})

    async def upload(*_args):
        return Result(ok=False, error=msg("cards.err.problems", count=1, file="cards.json"), data={"problems": [bad]})

    async def read():
        return b"{}"

    cog = Cards(_bot(upload=upload))
    ix = _interaction()
    file = SimpleNamespace(filename="cards\u202e.json", size=2, read=read)
    await Cards.upload.callback(cog, ix, file, "maken", "Set")
    (sent,) = ix.followup.sent
    report = sent["file"].fp.read().decode("utf-8")
    assert "A\ufffdB" in report and "\ud800" not in report
    assert "A\ufffdB" in sent["content"] and "\\[x\\]" in sent["content"]
    sent["content"].encode("utf-8")
    assert "\u202e" not in sent["content"]


async def test_cards_diff_shows_no_live_link(monkeypatch):
    """Finding 5: `/cards diff` with the names of the finding shows words, never a link."""
    from cogs.cards import Cards
    from data.card_sets.diff import ADDED, RENAMED, Change

    names = ["[a](https://e.co)[b](https://e.co)", "[[x](https://evil.example)]"]
    changes = [Change(ADDED, {"en": names[0], "ja": names[0]}),
               Change(RENAMED, {"en": names[1], "ja": names[1]}, old={"en": "@everyone", "ja": "@everyone"})]
    row = SimpleNamespace(name="<@&1> set", version=2)
    base = SimpleNamespace(name="[s](https://e.co)", version=1)

    async def diff(*_args):
        return Result(ok=True, data={"row": row, "against": base, "changes": changes})

    cog = Cards(_bot(diff=diff))
    ix = _interaction()
    ix.response.send_message = ix.followup.send
    await Cards.diff.callback(cog, ix, "maken", "x", None, None)
    (sent,) = ix.followup.sent
    for line in sent["content"].split("\n"):
        body = line.removeprefix("• ")
        assert problems_of(body) == [], line


async def test_cards_show_lists_names_without_live_links(monkeypatch):
    """Finding 5: `/cards show` lists each card's name under its picture: words, never a link."""
    import render.card_pages
    from cogs.cards import Cards

    monkeypatch.setattr(render.card_pages, "page_png", lambda *a, **k: b"png")
    entries = [SimpleNamespace(id=f"c{i}", deck=False, own=True, name={"en": n, "ja": n})
               for i, n in enumerate(MASKED_LINKS[:6])]
    row = SimpleNamespace(id=3, name="[[x](https://evil.example)]", version=1)
    cog = Cards(_bot())
    view, _file = await cog._page("maken", row, {"entries": entries, "query": "", "total": 6}, 0, "en")
    title, _head, *names = view_text(view).split("\n")
    assert problems_of(title.removeprefix("### ")) == []
    assert len(names) == 6
    for line in names:
        assert problems_of(line.removeprefix("🃏 **").removesuffix("**")) == [], line


# ---------------------------------------------------------------------------- one function only
def test_no_cog_escapes_on_its_own():
    """"show user text only through one safe-text function": no cog calls discord.py's escapers
    or keeps an escaper of its own (the old ``plain()``); cogs/common.py holds safe_text."""
    for path in sorted(COGS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for needle in ("escape_markdown", "escape_mentions", "def plain("):
            assert needle not in text or path.name == "common.py", f"{path.name}: {needle}"


# ---------------------------------------------------------------------------- texts the host words
HOSTILE = "[a](https://e.co)[b](https://e.co) @everyone <@&1>"


def _live(out: str) -> bool:
    """Would ``out`` hold a live link or mention (the finding's forms)?"""
    return "[a](" in out or "](https://" in out or "@everyone" in out.replace("\\@everyone", "") or "<@&" in out


def test_an_events_decklist_shows_player_deck_and_card_names_safely(monkeypatch):
    """Issue 45, finding 5: every place that shows "card, deck, set, event or player text" goes
    through the one function — an event's decklist mixes the bot's bold section titles with a
    player's, a saved deck's and a server set's card names, so the host words it with the front
    end's ``words`` (the cog passes safe_text)."""
    from host.events import entry as E

    monkeypatch.setattr(E, "_name", lambda d, uid: HOSTILE)
    monkeypatch.setattr(E, "locked_deck", lambda d, uid: {"kind": "saved", "label": HOSTILE, "hash": "a" * 64,
                                                          "spec": {}, "at": 0})
    monkeypatch.setattr(E, "deck_sections", lambda d, spec, locale: [("Main", [(HOSTILE, 2)])])
    for lang in ("en", "ja"):
        raw = E.decklist_text({}, 1, lang)
        assert _live(raw)                               # the host's own words are the text as stored
        out = E.decklist_text({}, 1, lang, safe_text)
        assert not _live(out) and "**Main**" in out and out.count(safe_text(HOSTILE)) == 3


def test_an_events_trail_shows_a_kept_name_safely():
    """Issue 45, finding 5: a trail entry's own texts (a player's name kept with the entry when
    they are no longer listed) are made safe by the front end's ``words_of``."""
    from host.events import trail

    e = {"what": "events.trail.join", "params": {"player": 5, "name": HOSTILE}, "at": 0}
    assert _live(trail.line(e, {}, "en"))
    for lang in ("en", "ja"):
        assert not _live(trail.line(e, {}, lang, safe_text))
    assert "Ann" in trail.line(e, {5: "Ann"}, "en", safe_text)     # a listed player: the name given


def test_a_balance_result_shows_the_sets_deck_names_safely():
    """Issue 45, finding 5: the balance run's result post names the set's ready-made decks; the
    cog gives the service safe_text for them."""
    from balance.sets import make_plan
    from data.store import BalanceRun
    from host.balance_runs import BalanceRuns

    plan = make_plan(["a", "b"], per_order=1, seed=1)
    results = [{"w": [0], "r": "win", "f": 0}] * len(plan["matches"])
    runs = BalanceRuns(None, None)
    runs._deck_names = lambda _run, _locale: {"a": HOSTILE, "b": "Hawk Dive"}
    run = BalanceRun(1, 1, "art_of_war", 1, "en", "done", plan=plan, progress={"results": results})
    assert _live(runs.result_text(run, "en"))
    runs.words = safe_text
    for lang in ("en", "ja"):
        text = runs.result_text(run, lang)
        assert not _live(text) and safe_text(HOSTILE) in text



def test_a_balance_result_names_the_most_valuable_cards_safely():
    """The result's card values line names the set's own cards (their names, made safe like the
    deck names), never their ids."""
    from balance.card_values import CardValues
    from balance.sets import make_plan
    from data.store import BalanceRun
    from host.balance_runs import BalanceRuns

    plan = make_plan(["a", "b"], per_order=1, seed=1, values=2)
    results = [{"w": [0], "r": "win", "f": 0}] * len(plan["matches"])
    values = CardValues("art_of_war", {"k1": 0.5, "k2": 0.5}, {"k1": 2, "k2": 2}, {"k1": 1.0, "k2": 1.0}, 2, 1)
    runs = BalanceRuns(None, None)
    runs._deck_names = lambda _run, _locale: {"a": "Owl Watch", "b": "Hawk Dive"}
    runs._card_names = lambda _run, _locale: {"k1": HOSTILE, "k2": "Iron King"}
    run = BalanceRun(1, 1, "art_of_war", 1, "en", "done", plan=plan,
                     progress={"results": results, "values": [{"i": 0, "w": [0]}, {"i": 1, "w": [1]}],
                               "card_values": values.to_json()})
    assert _live(runs.result_text(run, "en"))
    runs.words = safe_text
    for lang in ("en", "ja"):
        text = runs.result_text(run, lang)
        assert not _live(text) and safe_text(HOSTILE) in text and "Iron King" in text and "k1" not in text
