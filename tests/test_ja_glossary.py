"""Japanese that reads as a publisher would print it (issue 33, "Japanese that reads as a
publisher would write it" and the Japanese items of "The thread").

The per-game glossary is ``docs/glossary_ja.md``: each game speaks its rulebook's own words, one
per concept.  These tests scan the ja catalog per game area (the keys and files of that game;
the shared files count for every game) and fail on the banned variants, and on the form rules
that can be checked mechanically.  The exceptions are narrow and listed here and in the
glossary: text inside backticks (notation a player types), ``{placeholders}``, URLs and
``scheme://`` paths, Discord timestamps (``<t:…>``) and Markdown links (``[text](url)``).

The words of the event, card-set, statistics and replay texts, the form rules added with them
(no dash between parts, one wave dash, one page indicator, no さん, mentions apart, no English
left) and the UI-label check of the guides are in ``test_ja_glossary_events.py`` (issue 47)."""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from data import i18n

ROOT = Path(i18n.__file__).resolve().parent
GAMES = ("squares", "logic_square", "maken", "art_of_war", "avalon")
JP = "\u3040-\u30ff\u3400-\u9fff\u3000-\u303f\uff00-\uffef"
# what the form rules never look into: notation, placeholders, URLs and paths, timestamps, links
PROTECTED = re.compile(r"`[^`]*`|\{[^{}]*\}|https?://\S+|<t:[^>]*>|\]\([^)]*\)|[a-z]+:///?[^\s）)]*")


def ja_entries() -> list[tuple[str, str, str]]:
    """(file stem, key, text) of every Japanese entry."""
    out = []
    for path in sorted((ROOT / "ja").glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            out.append((path.stem, key, text))
    return out


def area(stem: str, key: str) -> str:
    """The game a Japanese entry belongs to, or "shared" (shown in every game)."""
    if key.startswith(("narrate.ls.", "render.ls.")) or stem == "render_ls":
        return "logic_square"
    if key.startswith("narrate.aow."):
        return "art_of_war"
    for game in GAMES:
        if key.startswith(game + ".") or f".{game}." in key or key.endswith(f".{game}") or stem.endswith(game):
            return game
    if key.startswith("render.squares.") or key.startswith("narrate.squares."):
        return "squares"
    return "shared"


# --------------------------------------------------------------------------- banned variants
# (pattern, the word to use) — the glossary's "not" column
CARD_GAMES_AND_SHARED = [
    (r"(?<!/)対局(?!番号)", "対戦 (the command name /対局 and its option 対局番号 excepted)"),
    (r"棋譜", "記録"), (r"合法手", "できる行動"), (r"指[しすせ]", "行う・選ぶ"),
    (r"手番|手数|(?<![相])手を選", "番・ターン・行動 (手番 is SQUARES' word)"),
]
BANNED = {
    "squares": [(r"控え", "手元"), (r"手持ち", "手元"), (r"駒", "コマ"), (r"段", "列"), (r"筋", "縦の並び"),
                (r"バトル", "戦闘")],
    "logic_square": [(r"ビルド", "アクション構築条件"), (r"構築コスト", "アクション構築条件"),
                     (r"捨て", "トラッシュに置く"), (r"ゲーム終了", "対戦終了")],
    "maken": [(r"判定", "ジャッジ"), (r"ガ難", "ガード難易度")],
    "art_of_war": [(r"段", "前列・後列"), (r"取り消", "キャンセル"), (r"Art of War", "アート・オブ・ウォー")],
    "avalon": [(r"攻撃力", "攻撃値"), (r"耐久力", "耐久値"), (r"回避", "避け"), (r"忍者マスター", "ニンジャマスター"),
               (r"能力順", "発動順"), (r"侵攻", "遠距離戦闘・侵略戦闘"), (r"ウェポンリプレイス", "武具交換の契り"),
               (r"(?<!囁きの)密告(?!網)", "囁きの密告網"), (r"カオスパニック|ポイズンミスト|奇術師の指先", "our own card names")],
    "shared": [(r"レートなし", "レーティング対象外"), (r"対局終了|ゲーム終了|終局", "対戦終了"),
               (r"Art of War", "アート・オブ・ウォー")],
}
# the one exception: the names of the /対局 command and its match-number option, which players
# already know; every text around them says 対戦
COMMAND_NAMES = {"cmd.match.name", "cmd.opt.match.name"}
for _game in ("logic_square", "maken", "art_of_war", "avalon", "shared"):
    BANNED[_game] = BANNED[_game] + CARD_GAMES_AND_SHARED


def test_each_game_speaks_its_rulebooks_words_one_per_concept():
    """SQUARES 手元・コマ・列・戦闘; Battle Logic Square アクション構築条件・トラッシュに置く;
    Project Maken ジャッジ・攻撃値・ガード難易度; Art of War キャンセル・前列/後列;
    Avalon's Sanctuary 攻撃値/耐久値・避け・ニンジャマスター・発動順; shogi words for SQUARES only."""
    bad = []
    for stem, key, text in ja_entries():
        if key in COMMAND_NAMES:
            continue
        bare = re.sub(r"`[^`]*`", "", text)     # notation a player types is not Japanese prose
        for pattern, use in BANNED[area(stem, key)]:
            for m in re.finditer(pattern, bare):
                bad.append(f"{stem}.json {key}: {m.group()!r} -> {use}: {text[:90]!r}")
    assert not bad, "\n".join(bad)


def test_the_title_of_art_of_war_is_one_katakana_title():
    assert i18n.t("game.art_of_war", "ja") == "アート・オブ・ウォー"


def test_one_word_each_for_game_over_winner_and_unrated():
    ja = i18n.catalog("ja")
    assert ja["render.game_over"] == ja["render.ls.phase.over"] == ja["squares.phase.over"] == "対戦終了"
    assert ja["render.winner_badge"] == ja["render.ls.winner_badge"] == "勝者"
    assert ja["leagues.embed.unrated"] == "レーティング対象外" and "レーティング対象外" in ja["records.unrated_mark"]


# --------------------------------------------------------------------------- form
def _outside(text: str) -> str:
    return PROTECTED.sub("\u0000", text)


def test_japanese_punctuation_is_full_width_outside_notation():
    """（）：「」・〜 in Japanese; half-width only inside backticks."""
    bad = []
    for stem, key, text in ja_entries():
        plain = _outside(text)
        for what, pattern in (("half-width ( )", r"[()]"), ("half-width :", r":"),
                              ("half-width ?/! after Japanese", rf"[{JP}][?!]"),
                              ("ASCII ', ' next to Japanese", rf"[{JP}], |, [{JP}]"),
                              ("' · ' between Japanese", r" · ")):
            if re.search(pattern, plain):
                bad.append(f"{stem}.json {key}: {what}: {text[:90]!r}")
    assert not bad, "\n".join(bad)


# a mention (the pinged players) stands apart from the sentence: a space after it is the rule
PING = re.compile(r"\{mentions?\}|<@[!&]?\{\w+\}>")


def test_no_space_between_japanese_and_a_placeholder_or_a_number():
    """`{name}は「{card}」を{land}に素成しました。`, not `{name} は {card} を {land} に` (a
    mention is no part of the sentence: `{mentions} 対戦の申し込みです！`)."""
    bad = []
    for stem, key, text in ja_entries():
        plain = PING.sub("@", re.sub(r"`[^`]*`", "`", text))
        if re.search(rf"[{JP}] +(\{{|\d)|(\}}|\d) +[{JP}]", plain):
            bad.append(f"{stem}.json {key}: {text[:90]!r}")
    assert not bad, "\n".join(bad)


def test_avalon_narration_puts_card_names_in_corner_brackets():
    text = i18n.t("avalon.ev.forge", "ja", player="コンピューター2", card="灰刃の決闘士", land="土地3")
    assert text == "コンピューター2は「灰刃の決闘士」を土地3に素成した。"


# what the thread narrates as it happens: plain style (plain past, or a noun ending), never です・ます
NARRATION = re.compile(r"^(narrate\.|avalon\.ev\.|maken\.log\.|render\.ls\.ev\.|render\.ls\.last\.|art_of_war\.event\.)")
POLITE = re.compile(r"(です|ます|ました|ません|でした|ください)")


def test_narration_is_in_one_plain_style():
    """The thread narrates in plain style: 「{name}は「{card}」を{land}に素成した。」,
    「Bobに5ダメージ」 — not a mix with 「…素成しました。」."""
    bad = [f"{stem}.json {key}: {text[:90]!r}" for stem, key, text in ja_entries()
           if NARRATION.match(key) and POLITE.search(_outside(text))]
    assert not bad, "\n".join(bad)


def _first_line(text: str) -> str:
    return _outside(text).split("\n")[0].strip()


def polite(sentence: str) -> bool:
    return bool(re.search(r"(です|ます|ください|ません|でした|ました)[。？]?$|？$", sentence.strip()))


def test_errors_are_polite_sentences():
    """An error (`*.err.*`) is told in です・ます: its first sentence ends in です／ます／ください／
    ません (before a 「：」 that introduces what follows, as in 「その操作はできません：{reason}」),
    and so does every later sentence but a label and its list (「今できること：{legal}」)."""
    bad = []
    for stem, key, text in ja_entries():
        if ".err." not in key:
            continue
        line = _first_line(text)
        while re.search(r"（[^（）]*）", line):          # an aside in brackets is no sentence
            line = re.sub(r"（[^（）]*）", "", line)
        sentences = [x.strip() for x in re.split(r"(?<=[。？])", line) if x.strip()]
        for n, sentence in enumerate(sentences):
            if sentence.strip("\u0000。") == "":       # a placeholder: a sentence of its own
                continue
            if "：" in sentence:
                if n:                                   # a label and its list
                    continue
                head, _, rest = sentence.partition("：")
                # 「その操作はできません：{reason}」, or a heading: 「徴兵：先に…してください。」
                sentence = head if polite(head) else rest
            if not polite(sentence):
                bad.append(f"{stem}.json {key}: {sentence[:60]!r} in {text[:90]!r}")
                break
    assert not bad, "\n".join(bad)


BUTTONS = re.compile(r"\.button\.|_button$|badge")
# Project Maken's rulebook names its two guard states 「ガードしている」「ガードさせている」
RULEBOOK_STATES = {"maken.render.badge.guarding", "maken.render.badge.guarded"}


def test_buttons_and_badges_are_nouns():
    """A button or a badge is a noun (承諾・辞退・投了・行動中), not a sentence or a verb."""
    bad = [f"{stem}.json {key}: {text!r}" for stem, key, text in ja_entries()
           if BUTTONS.search(key) and key not in RULEBOOK_STATES and (re.search(r"[。！？]", text) or POLITE.search(text)
                                       or re.search(r"[るうくすつむぶぐ]$", text))]
    assert not bad, "\n".join(bad)


def test_fragments_are_rewritten_as_finished_sentences():
    ja = i18n.catalog("ja")
    assert ja["render.ls.dm_act"].endswith("。") and "から選べます" in ja["render.ls.dm_act"]
    assert "?" not in ja["cogs.err.which_match"] and "ひとつに決まりません" not in ja["cogs.err.which_match"]
    assert "主催者ロール のロール" not in ja["leagues.err.not_organiser"]
    assert "未 / 未" not in i18n.t("avalon.label.battle", "ja", invader="P1", defender="P2",
                                  a=ja["avalon.label.no"], d=ja["avalon.label.no"])
    assert i18n.t("narrate.squares.centre_two", "ja", name="Alice") == \
        "Aliceは中央の列の2マスを制圧している。あと1マスで勝利"
    for game in GAMES:
        assert "最初の画像" not in ja[f"guide.{game}.1.title"], game
    # the paragraph the four card-game guides share names what that game has
    assert "コマ" not in ja["guide.maken.3.body"] and "マス" not in ja["guide.maken.3.body"].split("\n")[0]
    assert "コマ" not in ja["guide.avalon.3.body"].split("\n")[0]


# --------------------------------------------------------------------------- command names
@pytest.fixture(scope="module")
def command_paths() -> dict[str, dict[str, set[str]]]:
    """{"en"|"ja": {top-level name: its subcommand names}} from the synced command tree."""
    from bot import dump_commands

    payload = asyncio.run(dump_commands())
    out: dict[str, dict[str, set[str]]] = {"en": {}, "ja": {}}
    for command in payload:
        for loc in ("en", "ja"):
            name = command["name"] if loc == "en" else (command.get("name_localizations") or {}).get("ja")
            subs = set()
            for opt in command.get("options") or []:
                if opt["type"] in (1, 2):
                    subs.add(opt["name"] if loc == "en" else (opt.get("name_localizations") or {}).get("ja"))
            out[loc][name] = subs
    return out


MENTION = {
    # a command starts a word: after a space, a bracket or Japanese punctuation ("3/5" is no command)
    "ja": re.compile(r"(?<![^\s（「、。：・(])/([A-Za-z\u3040-\u30ff\u3400-\u9fff][^\s/`)）、。」：:]*)"
                     r"(?: ([^\s/`)）、。」：:]+))?"),
    "en": re.compile(r"(?<![^\s(\"'])/([a-z][a-z-]*)(?: ([a-z][a-z-]*))?"),
}


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_every_command_a_text_names_is_that_languages_command_name(command_paths, locale):
    """A Japanese client shows `/対局 手札`, `/対戦`, `/行動`, `/デッキ`: a ja text that says
    `/match hand` names a command the reader cannot find."""
    tree = command_paths[locale]
    bad = []
    for key, text in i18n.catalog(locale).items():
        if key.startswith("bot."):          # the terminal's help, URLs and paths only
            continue
        for m in MENTION[locale].finditer(re.sub(r"https?://\S+", "", text)):
            top, sub = m.group(1), m.group(2)
            if top not in tree:
                bad.append(f"{key}: /{top} in {text[:80]!r}")
            elif sub and tree[top] and sub.isascii() == (locale == "en") and sub not in tree[top] \
                    and any(sub in subs for subs in tree.values()):
                bad.append(f"{key}: /{top} {sub} in {text[:80]!r}")
    assert not bad, "\n".join(bad)


def test_the_board_footer_names_the_japanese_commands():
    footer = i18n.t("cogs.board.footer", "ja")
    assert "/行動" in footer and "/対局" in footer and "/move" not in footer and "/match" not in footer


def test_the_rules_options_line_is_in_words_in_japanese():
    """`/rules` showed `first=random (random|1|2)` to a Japanese reader."""
    from host.options import options_guide
    from rules import registry

    text = options_guide(registry.get("squares"), "ja")
    assert "先番 `first`：`random`・`1`・`2`（既定：`random`）" in text
    assert "(" not in _outside(text) and "|" not in text


# --------------------------------------------------------------------------- damage, lists
def test_maken_says_who_deals_and_who_takes_damage():
    """`ジャッジ：相打 — コンピューター1 が 2 ダメージ` (dealt) then `コンピューター1が4ダメージ`
    (taken) read the same: dealt is `を与えた`, taken is `に`, and the two dealers are joined
    with the reader's list separator."""
    from render.maken import judge_dealt

    def t(key, **params):
        return i18n.t(key, "ja", **params)

    assert judge_dealt(t, ["Alice", "Bob"].__getitem__, [2, 4]) == "Aliceが2ダメージを与えた、Bobが4ダメージを与えた"
    assert i18n.t("maken.log.damage", "ja", name="Bob", n=4) == "Bobに4ダメージ"
    en = judge_dealt(lambda k, **p: i18n.t(k, "en", **p), ["Alice", "Bob"].__getitem__, [2, 4])
    assert en == "Alice deals 2 damage, Bob deals 4 damage"


def test_player_lists_use_the_readers_separator():
    """"アレンジ済み, 入国済み", "手札 4, 山札 17": ASCII commas in Japanese."""
    from types import SimpleNamespace

    from host.texts import _names
    from render.text import render_text
    from rules import registry

    rec = SimpleNamespace(names=["Alice", "Bob"])
    assert i18n.t("host.status.waiting", "ja", names=_names(rec, [0, 1])) == "待機中：Alice、Bob"
    assert i18n.t("host.status.waiting", "en", names=_names(rec, [0, 1])).endswith(": Alice, Bob")
    game = registry.get("art_of_war")
    text = render_text("art_of_war", game.view(game.new_match(players=2, seed=1, options={}), None),
                       locale="ja", names=["Alice", "Bob"])
    assert "手札" in text and ", " not in text


# --------------------------------------------------------------------------- not your turn
def test_one_not_your_turn_message_naming_the_player_in_every_game():
    """Never a 0-based `席0`: the host names the player; an engine counts players from 1."""
    from rules import IllegalCommand, registry

    assert i18n.t("host.err.not_your_turn", "ja", names="Bob") == "今はあなたの番ではありません（Bobの操作待ち）。"
    assert i18n.t("host.err.not_your_turn", "en", names="Bob") == "It is not your turn: waiting for Bob."
    said = set()
    for name in GAMES:
        game = registry.get(name)
        state = game.new_match(players=game.min_players, seed=3, options={})
        waiting = game.to_act(state)
        idle = next(s for s in range(game.min_players) if s not in waiting)
        with pytest.raises(IllegalCommand) as exc:
            game.apply(state, idle, "pass")
        text = i18n.t(exc.value.key, "ja", **exc.value.params)
        assert text == f"今はあなたの番ではありません（プレイヤー{waiting[0] + 1}の操作待ち）。", name
        said.add(i18n.catalog("ja")[exc.value.key])
    assert len(said) == 1


# --------------------------------------------------------------------------- card texts
def card_texts() -> list[tuple[str, str, str]]:
    """(game, where, text) of every Japanese card text a player reads: the ``ja`` strings of
    ``data/cards/<game>/`` and the texts the engines generate from the card data (Project Maken's
    and Avalon's Sanctuary's rules texts)."""
    out = []

    def walk(game: str, where: str, value) -> None:
        if isinstance(value, dict):
            for key, v in value.items():
                if key == "ja" and isinstance(v, str):
                    out.append((game, where, v))
                else:
                    walk(game, f"{where}/{key}", v)
        elif isinstance(value, list):
            for v in value:
                walk(game, where, v)

    cards = ROOT.parent / "cards"
    for path in sorted(cards.glob("*/*.json")):
        walk(path.parent.name, f"{path.parent.name}/{path.name}", json.loads(path.read_text(encoding="utf-8")))
    from rules.avalon.files import load_avalon
    from rules.maken.files import load_maken
    from rules.avalon.cards import card_text

    for cid, card in load_maken().cards.items():
        out.append(("maken", f"maken card {cid}", card["text"]["ja"]))
    for cid, card in load_avalon()["cards"].items():
        out.append(("avalon", f"avalon card {cid}", card_text(card)["ja"]))
    return out


# Battle Logic Square's rulebook prints an awakening as <覚醒 X>: its own notation, kept
RULEBOOK_NOTATION = re.compile(r"<覚醒 \d+> ?")


def test_japanese_card_texts_speak_the_rulebooks_words_in_japanese_punctuation():
    """`魔素:黄1。配置中:…。防衛側で戦闘する時(発動順4):…` and `戦闘支援(発動順1・ウェポンリプレイス):…`
    (half-width punctuation, and a card of the rulebook's pool the bot does not have) read as
    `魔素：黄1。配置中：…（発動順4）：…` and `戦闘支援（発動順1）：…`."""
    texts = card_texts()
    assert len({game for game, _, _ in texts}) == 4 and len(texts) > 100
    bad = []
    for game, where, text in texts:
        plain = RULEBOOK_NOTATION.sub("", _outside(text))
        for pattern, use in BANNED[game]:
            if re.search(pattern, plain):
                bad.append(f"{where}: {pattern!r} -> {use}: {text[:90]!r}")
        for what, pattern in (("half-width ( )", r"[()]"), ("half-width :", r":"),
                              ("ASCII ', ' next to Japanese", rf"[{JP}], |, [{JP}]"), ("' · '", r" · "),
                              ("a space between Japanese and a number", rf"[{JP}] +\d|\d +[{JP}]")):
            if re.search(pattern, plain):
                bad.append(f"{where}: {what}: {text[:90]!r}")
    assert not bad, "\n".join(bad)


def test_pictures_and_narration_join_lists_with_the_readers_separator():
    """"commas are ASCII ("アレンジ済み, 入国済み", "手札 4, 山札 17")": a list a player reads is joined
    with the catalog's ``core.list_sep`` (、 in Japanese), never a hard-coded ", " — in the
    drawing and narration code of render/ (the console's raw view, render/text.py, the README
    pictures' script and the command line's own help are not read by players in Discord)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "render"
    allowed = {"__main__.py", "text.py", "readme.py"}
    found = [f"{p.name}:{n}" for p in sorted(root.glob("*.py")) if p.name not in allowed
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"""["'], ["']\.join\(""", line)]
    assert not found, found
