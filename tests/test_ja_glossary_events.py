"""Japanese of the event, card-set, statistics and replay texts: one word per concept, and UI
words quoted exactly as the client shows them (issue 47, "Japanese: one word per concept, UI
words quoted exactly").

``docs/glossary_ja.md`` lists the words ("Events", "Card sets", "Statistics", "Replay") and the
form rules; these tests scan every file of the ja catalog (``data/i18n/ja/``) with them.  A text
counts for every game ("shared") unless its key or file belongs to one game (the ``area`` of
``test_ja_glossary``).  What the form rules never look into is the same narrow list as there:
text in backticks, ``{placeholders}``, URLs and paths, Discord timestamps and Markdown links."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from data import i18n
from test_ja_glossary import _outside, area, ja_entries

JA = i18n.catalog("ja")
EN = i18n.catalog("en")
ROOT = Path(__file__).resolve().parent.parent

# the keys of the event layer (leagues, Swiss events, brackets and their guide)
EVENT = re.compile(r"^(events\.|leagues\.|league_admin\.|cmd\.league|guide\.events\.|guide\.help\.5\.|authority\.league\.)")
# the names of slash commands and options: they stay as a Japanese client knows them (/リーグ …)
COMMAND_NAME = re.compile(r"^cmd\..*\.name$")
# a move, as a counter or a noun ("1手ずつ", "公開手{n}手", "再生できる手") — SQUARES' word only
MOVE = r"(?:\d|\}|公開|できる|の|まだ)手(?![札元番順動放前持袋続妻])|手ずつ|(?<![相選上入若派])手(?=[はがを](?![ずす]))"

# (the glossary's banned variant, the word to use, the keys it applies to)
WORDS: list[tuple[str, str, object]] = [
    (r"先手|後手", "先攻・後攻 (the card games and shared texts), 先番・後番 (SQUARES)", None),
    (r"先攻|後攻", "先番・後番 (SQUARES' own words)", "squares"),
    (r"ドロップ", "棄権", None),
    (r"(?:\d|\})局(?!面)", "戦 (レート戦{n}戦) or 回: 局 is never a counter", None),
    (MOVE, "操作・ステップ (手 is SQUARES' word)", "not squares"),
    (r"イベント", "大会", None),
    (r"(?<!/)リーグ(?!管理| #|番号)", "大会 (リーグ only in /リーグ, /リーグ管理, リーグ番号 and リーグ #{n})", None),
    (r"募集メッセージ|リーグ(?:の)?メッセージ", "大会メッセージ", None),
    (r"スイスドロー", "スイス式", None),
    (r"カード方式|チェス方式|ポケモン方式", "カードゲーム式・チェス式・ポケモンカード式", None),
    (r"参加人数の上限", "定員", None),
    (r"ラウンド", "回戦 (an event's round)", "event"),
    (r"(?<![\d{])(?:\d+本(?!先取|勝負)|(?:[014-9]|\d\d+)本先取|(?:[02-9]|\d\d+)本勝負)",
     "1本勝負・2本先取・3本先取 (best of 1, 3, 5)", None),
    (r"席\s*`?0", "a seat counted from 1 (プレイヤー1)", None),
    (r"対戦#", "対戦 #{n} (a match by its number)", None),
    (r"出荷", "標準 (the shipped cards)", None),
    (r"ガードが破られ|ガードを崩させ|ガードキャンセル・GC|ガードブレイク・GB", "GB成立・GC成立, ガード維持しない", "maken"),
    (r"聖地[はを][^。]*倒", "聖戦に勝利した (the rulebook's words: 配置クリーチャーを聖戦で倒した)", "avalon"),
    (r"列\s*`?[a-e]`?\s*[〜～~]|行\s*`?[1-5]`?\s*[〜～~]", "縦の並び a〜e, 列 1〜5", None),
]


def _applies(scope: object, stem: str, key: str) -> bool:
    if scope is None:
        return True
    if scope == "event":
        return bool(EVENT.match(key))
    if scope == "not squares":
        return area(stem, key) != "squares"
    return area(stem, key) == scope


def test_event_card_set_statistics_and_replay_texts_use_one_word_per_concept():
    """Glossary: first player 先攻／後攻 in the card games, 先番／後番 in SQUARES, never 先手／後手;
    drop is 棄権; 局 is never a counter and 手 only in SQUARES; the event is 大会 in prose, its
    message the 大会メッセージ; the menus' スイス式・カードゲーム式・定員; an event's round is
    a 回戦; best of 1, 3, 5 are 1本勝負・2本先取・3本先取; seats count from 1; the shipped cards
    are 標準; Maken's judge says GB成立・GC成立; Avalon's sanctuary is won in a 聖戦, not defeated;
    a board's `a`〜`e` axis is the 縦の並び and 列 counts `1`〜`5`; a match is 対戦 #{n}."""
    bad = []
    for stem, key, text in ja_entries():
        if COMMAND_NAME.match(key):
            continue
        bare = re.sub(r"`[^`]*`", "", text)
        for pattern, use, scope in WORDS:
            if _applies(scope, stem, key):
                for m in re.finditer(pattern, bare):
                    bad.append(f"{stem}.json {key}: {m.group()!r} -> {use}: {text[:80]!r}")
    assert not bad, "\n".join(bad)


def test_a_sets_version_is_a_version_and_a_rules_edition_is_a_edition():
    """Glossary: 版 is a rules edition; a card set's version is バージョン.  The English text of the
    same key tells which is meant ("version" or "edition")."""
    bad = []
    for key, text in JA.items():
        en = EN.get(key, "")
        version, edition = re.search(r"\bversions?\b|\bv\{", en), re.search(r"\beditions?\b", en)
        if version and not edition and "版" in text:
            bad.append(f"{key}: 版 for a version -> バージョン: {text[:80]!r}")
        if version and edition and "バージョン" not in text:
            bad.append(f"{key}: a set's version -> バージョン: {text[:80]!r}")
        if edition and not version and "バージョン" in text:
            bad.append(f"{key}: バージョン for a rules edition -> 版: {text[:80]!r}")
    assert not bad, "\n".join(bad)


def test_the_top_cut_is_the_only_kettou_tournament():
    """Glossary: 決勝トーナメント is the top cut after Swiss or round-robin rounds only; a text
    about elimination matches or brackets in general says エリミネーション or トーナメント."""
    bad = [f"{key}: {text[:80]!r}" for key, text in JA.items() if "決勝トーナメント" in text
           and re.search(r"\belimination\b|\bbracket", EN.get(key, ""), re.I) and not re.search(r"\bcut\b", EN.get(key, ""))]
    assert not bad, "\n".join(bad)


def test_best_of_n_is_said_as_a_publisher_prints_it():
    """`events.err.best_of` said 5本先取 (first to five) for best of 5."""
    assert [JA[f"events.series.best_of.{n}"].split("（")[0] for n in (1, 3, 5)] == ["1本勝負", "2本先取", "3本先取"]
    assert all(word in JA["events.err.best_of"] for word in ("1本勝負", "2本先取", "3本先取"))


def test_maken_judge_and_the_guarding_players_choice_say_the_rulebooks_words():
    """The judge line pasted a paraphrase where the rulebook says GB成立 / GC成立, and the guarding
    player's `break` read ガードブレイク (breaking the opponent's guard)."""
    assert [JA[f"maken.judge.{k}"] for k in ("clean_hit", "trade", "guard_holds", "guard_break", "guard_cancel")] \
        == ["直撃", "相打", "ガード成立", "GB成立", "GC成立"]
    assert JA["labels.maken.break"] == "ガード維持しない" and "GB成立" in JA["labels.maken.break.why"]


def test_the_csv_files_never_head_two_columns_alike():
    """`stats.csv.games` gave the ratings CSV two columns both headed ゲーム: each header row of
    the statistics export (the key tuples of host/stats/exports.py) names its columns apart."""
    source = (ROOT / "host" / "stats" / "exports.py").read_text(encoding="utf-8")
    rows = [re.findall(r'"(\w+)"', row) for row in re.findall(r'stats\.csv\.\{k\}"\) for k in \(([^)]*)\)', source)]
    assert len(rows) == 3 and all(rows)
    for row in rows:
        heads = [JA[f"stats.csv.{k}"] for k in row]
        assert len(set(heads)) == len(heads), heads
    assert JA["stats.csv.games"] == "対戦数"


# --------------------------------------------------------------------------- form
def test_no_dash_between_japanese_parts():
    """Glossary (Form): between Japanese parts no ` — `: （…）, ：, ・ or 、."""
    bad = [f"{stem}.json {key}: {text[:80]!r}" for stem, key, text in ja_entries()
           if "—" in _outside(text) and text.strip() != "—"]
    assert not bad, "\n".join(bad)


def test_one_wave_dash():
    """Glossary (Form): one wave dash 〜 (U+301C), never ～ (U+FF5E) or ~ between Japanese or numbers."""
    bad = [f"{stem}.json {key}: {text[:80]!r}" for stem, key, text in ja_entries()
           if re.search(r"[～~]", _outside(text))]
    assert not bad, "\n".join(bad)


def test_one_page_indicator():
    """Glossary (Form): every page indicator reads {page}/{pages}ページ."""
    bad = [f"{stem}.json {key}: {text!r}" for stem, key, text in ja_entries()
           if "{page}" in text and "{pages}" in text and "{page}/{pages}ページ" not in text]
    assert not bad, "\n".join(bad)


def test_no_san_after_a_name_or_a_mention():
    """Glossary (Form): no さん after a name or a mention, in every file (the names of most texts
    stand bare, and a name may be a computer player's)."""
    bad = [f"{stem}.json {key}: {text[:80]!r}" for stem, key, text in ja_entries() if re.search(r"[}>]さん", text)]
    assert not bad, "\n".join(bad)


PING = re.compile(r"\{mentions?\}|<@[!&]?\{\w+\}>")


def test_a_mention_stands_apart_from_the_sentence():
    """Glossary (Form): a mention (the pinged players) is followed by a space or a line break, or
    ends the text; it is never glued to を／が／さん or to the sentence it opens."""
    bad = [f"{stem}.json {key}: {text[:80]!r}" for stem, key, text in ja_entries()
           for m in PING.finditer(text) if m.end() < len(text) and not text[m.end()].isspace()]
    assert not bad, "\n".join(bad)


WORD = re.compile(r"(?<![A-Za-z0-9_.%\\-])[a-z][a-z_]+(?![A-Za-z0-9])")
# the terminal's first-run help quotes the labels of Discord's developer portal, which has no
# Japanese version ("Send Messages in Threads"), as test_language does
TERMINAL_ONLY = {"bot.no_token"}


def test_no_english_left_inside_japanese():
    """Glossary (Form): notation a player types and file names stand in backticks; an English
    word a Japanese client shows in Japanese (public, deck, shipped → 公開, デッキ, 標準) is never
    left in a Japanese text, not even in a quoted slash command.  A command description is plain
    text in Discord (backticks show as they are): there, notation follows 「例：」."""
    bad = []
    for stem, key, text in ja_entries():
        if key in TERMINAL_ONLY:
            continue
        plain = _outside(text)
        if key.startswith("cmd.") and key.endswith(".description"):
            plain = plain.split("例：")[0]
        words = WORD.findall(plain)
        words += [w for code in re.findall(r"`(/[\u3040-\u30ff\u3400-\u9fff][^`]*)`", text)
                  for w in WORD.findall(re.sub(r"\{[^{}]*\}", "", code))]
        if words:
            bad.append(f"{stem}.json {key}: {words}: {text[:80]!r}")
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------------------- UI labels
SPAN = re.compile(r"\*\*「([^」*\n]+)」\*\*|「([^」\n]+)」|\*\*([^*\n]+)\*\*")
JOIN = re.compile(r"\s*(?:か|・|、|と|や|／)?\s*")
TRIGGER = re.compile(r"\s*(?:ボタン|メニュー|を押|をタップ|を選|を有効|を指定)")
# the bot's own help pages: there bold marks a label the client shows, and nothing else
HELP = re.compile(r"^guide\.(help|events)\.")


def _normal(value: str) -> str:
    return re.sub(r"^[^\w「]+|[…\s]+$", "", value.strip())


@lru_cache(maxsize=None)
def label_keys() -> re.Pattern:
    """The keys whose text the client shows as a label: slash commands and their options
    (``cmd.*.name``), buttons (``*.button.*``), the Act menu (``labels.*``), and every key the
    cogs put on a choice, a button or a menu (``Choice(name=L("…"))``, ``locale_str(…, key="…")``,
    ``label=tr("…")``, ``placeholder=tr("…")``; an f-string key stands for each of its values)."""
    found = set()
    for path in sorted((ROOT / "cogs").glob("*.py")):
        found.update(re.findall(r'(?:(?:Choice\(name=|label=|placeholder=)(?:L|tr|N)\(|locale_str\([^\n]*?key=)f?"([^"]+)"',
                                path.read_text(encoding="utf-8")))
    assert len(found) > 30
    shapes = [re.escape(k).replace(r"\{", "{").replace(r"\}", "}") for k in found]
    shapes = [re.sub(r"\{[^{}]*\}", r"[^.]+", k) + (".*" if k.endswith(".") else "") for k in shapes]
    return re.compile(r"^(?:cmd\..*\.name|.*\.button\..*|labels\..*|" + "|".join(sorted(shapes)) + r")$")


@lru_cache(maxsize=None)
def shown(where: str) -> frozenset[str]:
    """Every label the ja client shows to a reader of ``where`` (a game, or "shared"): the label
    texts (:func:`label_keys`) of that game's keys and the shared keys, each also without its
    detail in brackets (カードゲーム式（勝点3・1・0…）)."""
    keys, out = label_keys(), set()
    for stem, key, text in ja_entries():
        if "{" in text or not keys.match(key) or area(stem, key) not in (where, "shared"):
            continue
        out.add(_normal(text))
        out.add(_normal(text.split("（")[0]))
    return frozenset(out)


def ui_labels(key: str, text: str) -> list[str]:
    """The UI labels a text names: a 「quoted」 or **bold** word (or a run of them, 「先攻」「後攻」)
    right before ボタン／メニュー／を押す／をタップ／を選ぶ／を有効／を指定; in the help pages every
    bold word."""
    spans = list(SPAN.finditer(text))
    out, run = [], []
    for i, m in enumerate(spans):
        run.append(m)
        following = spans[i + 1] if i + 1 < len(spans) else None
        if following is not None and JOIN.fullmatch(text[m.end():following.start()]):
            continue
        if TRIGGER.match(text, m.end()):
            out += [next(g for g in r.groups() if g) for r in run]
        elif HELP.match(key):
            out += [r.group(3) for r in run if r.group(3)]
        run = []
    return [label for label in out if "{" not in label]


def test_a_text_names_the_buttons_and_options_the_client_shows():
    """Guides named buttons and options that do not exist as written (対戦を始める for 自分の対戦を
    開始; ターン終了 for メインフェイズ終了; スイスドロー, カード方式, 参加人数の上限 for スイス式,
    カードゲーム式, 定員): every label a text tells the reader to press or choose, and every bold
    word of the help pages, is a label the ja client shows in that game (or in every game)."""
    bad, seen = [], 0
    for stem, key, text in ja_entries():
        labels = ui_labels(key, text)
        seen += len(labels)
        known = shown(area(stem, key)) if labels else frozenset()
        bad += [f"{stem}.json {key}: {label!r}" for label in labels if _normal(label) not in known]
    assert seen > 40 and not bad, "\n".join(bad)


@pytest.mark.parametrize("text, labels", [
    ("**「行動」**ボタンを押す", ["行動"]), ("「先攻」「後攻」ボタン", ["先攻", "後攻"]),
    ("「承諾」か「辞退」を押してください", ["承諾", "辞退"]), ("**確認**・**異議** ボタン", ["確認", "異議"]),
    ("カード名は「{card}」を選ぶ", []), ("**勝利条件：** 中央の列", []), ("「武具交換の契り」を使った", []),
])
def test_what_counts_as_a_ui_label(text, labels):
    """The labels test's scope: a quoted or bold word right before a press/choose word; card names,
    rulebook terms and quoted examples are no labels."""
    assert ui_labels("guide.squares.1.body", text) == labels


def test_japanese_in_backticks_in_a_guide_is_a_command_or_option_name():
    """A guide quotes an option to fill as the client names it: `結果`, `ゲームスコア`, `デッキ`,
    `定員` — Japanese in backticks (not a /command, checked by test_ja_glossary) is the ja name
    of a slash command's option or subcommand."""
    names = {text for key, text in JA.items() if COMMAND_NAME.match(key)}
    bad = [f"{key}: `{code}`" for key, text in JA.items() if key.startswith("guide.")
           for code in re.findall(r"`([^`]*)`", text)
           if re.search(r"[\u3040-\u30ff\u3400-\u9fff]", code) and not code.startswith("/") and code not in names]
    assert not bad, "\n".join(bad)
