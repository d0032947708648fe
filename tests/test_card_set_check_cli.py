"""``python -m data.card_sets check FILE``: a card set checked offline prints exactly what
``/cards upload`` reports for it, in English and Japanese, with the upload's size limits and
exit status 0 (fine), 1 (problems) or 2 (wrong usage, unreadable file)."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from data import i18n
from data.card_sets import check
from data.card_sets.build import build_set
from data.card_sets.export import export_files
from data.card_sets.games import GAMES
from data.card_sets.upload import MAX_FILE, MAX_UNPACKED, read_upload
from data.store import open_store
from host.card_sets import CardSets

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "card_sets"
GUILD, DESIGNER = 9001, 77

# three rows of Project Maken attacks, three mistakes (the example of docs/card_sets.md)
BAD_ATTACKS = (
    "id,character,name_ja,name_en,speed,reach,attack,guard,posture,unguardable,cost,gain,gc,bet,hit,icon\n"
    "ts20,tsubaki,速攻,Quick One,fast,1,2,1,stand,,,,,,,dust\n"
    "ts21,tsubaki,座り斬り,Sitting Cut,3,1,2,1,sit,,,,,,,dust\n"
    "ts22,tsubaki,癒やし斬り,Healing Cut,3,1,2,1,stand,,,,,,heal 2,dust\n")


def run(args: list[str], tmp_path: Path, lang: str = "C") -> subprocess.CompletedProcess:
    """The real ``python -m data.card_sets`` from another folder, in a terminal of ``lang``."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env.update({"LANG": lang, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"})
    return subprocess.run([sys.executable, "-m", "data.card_sets", *args], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=tmp_path, timeout=120)


def call(args: list[str]) -> tuple[int, list[str], list[str]]:
    """``check.main`` in this process: (exit status, stdout lines, stderr lines)."""
    out, err = io.StringIO(), io.StringIO()
    code = check.main(args, out, err)
    return code, out.getvalue().splitlines(), err.getvalue().splitlines()


def set_zip(game: str) -> bytes:
    """The test data set of ``game`` (every CSV of tests/data/card_sets/<game>) as one zip."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((DATA / game).glob("*.csv")):
            z.writestr(f.name, f.read_bytes())
    return buf.getvalue()



def exported_json(game: str) -> bytes:
    """The test data set exported by ``/cards export``'s code: its JSON file."""
    files, problems = read_upload("set.zip", set_zip(game))
    built = build_set(game, files, "extend", read_problems=problems)
    assert built.ok, [p.render("en") for p in built.problems]
    out = export_files(built.content, "Playtest")
    return next(body for name, body in out.items() if name.endswith(".json"))


async def upload_problems(tmp_path: Path, game: str, filename: str, data: bytes) -> list:
    """What ``/cards upload`` (host/card_sets.py, the cog's service) answers for the file."""
    store = await open_store(str(tmp_path / "upload.sqlite3"))
    try:
        res = await CardSets(store).upload(GUILD, DESIGNER, game, "Playtest", filename, data)
    finally:
        await store.close()
    assert not res.ok
    return res.data["problems"]


# --------------------------------------------------------------------------- a good set
@pytest.mark.parametrize("game", GAMES)
def test_a_good_set_of_each_game_exits_0_with_a_summary_naming_game_name_and_cards(tmp_path, game):
    """The export of each game's test data set (its JSON file, and its CSVs zipped) is fine: one
    line naming the game (told from the file), the set and its cards; the same with --game."""
    (tmp_path / "Playtest.json").write_bytes(exported_json(game))
    (tmp_path / "playtest.zip").write_bytes(set_zip(game))
    files, problems = read_upload("set.zip", set_zip(game))
    counts = build_set(game, files, "extend", read_problems=problems).counts
    for path in (tmp_path / "Playtest.json", tmp_path / "playtest.zip"):
        for args in ([str(path)], [str(path), "--game", game]):
            code, out, err = call(args + ["--lang", "en", "--name", "Owl Kings"])
            assert (code, err) == (0, []), (out, err)
            assert out == [i18n.t("cardcheck_cli.ok", "en", file=path.name, game=i18n.t(f"game.{game}", "en"),
                                  name="Owl Kings", mode=i18n.t("cmd.cards.mode.extend", "en"),
                                  cards=counts["cards"], decks=counts["decks"])]
            assert i18n.t(f"game.{game}", "en") in out[0] and "“Owl Kings”" in out[0]
            assert f"{counts['cards']} card" in out[0]
    code, out, _err = call([str(tmp_path / "Playtest.json"), "--lang", "ja"])
    assert code == 0 and out[0].startswith("Playtest.json：問題はありません。")
    assert "「Playtest」" in out[0] and f"独自のカード{counts['cards']}枚" in out[0]


def test_the_real_command_line_checks_a_good_set_from_another_folder(tmp_path):
    (tmp_path / "owl_kings.zip").write_bytes(set_zip("maken"))
    proc = run(["check", "owl_kings.zip", "--name", "Owl Kings"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("owl_kings.zip: no problems. Project Maken, set “Owl Kings”")
    assert "/cards upload would store it." in proc.stdout and proc.stdout.count("\n") == 1
    assert proc.stdout.strip() in (ROOT / "docs" / "card_sets.md").read_text(encoding="utf-8")   # its example


# --------------------------------------------------------------------------- a set with problems
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_problems_printed_are_the_lines_the_upload_reports(tmp_path, lang):
    """The real command prints a heading, then exactly the lines /cards upload writes to its
    problems.txt (``Problem.render``) for the same file, in the terminal's language."""
    data = BAD_ATTACKS.encode("utf-8")
    (tmp_path / "attacks.csv").write_bytes(data)
    expected = [p.render(lang) for p in await upload_problems(tmp_path, "maken", "attacks.csv", data)]
    assert len(expected) == 3
    proc = run(["check", "attacks.csv"], tmp_path, lang="ja_JP.UTF-8" if lang == "ja" else "C")
    assert proc.returncode == 1, proc.stderr
    head, *lines = proc.stdout.splitlines()
    assert lines == expected
    assert head == i18n.t("cardcheck_cli.problems", lang, file="attacks.csv", count=3)
    # --lang wins over the terminal's language
    code, out, _err = call([str(tmp_path / "attacks.csv"), "--lang", lang, "--game", "maken"])
    assert code == 1 and out[1:] == expected


async def test_a_zip_with_problems_in_several_files_reports_them_all_as_the_upload_does(tmp_path):
    """Every problem of every file of a zip (a bad cell, and a deck naming an unknown card),
    sorted as the upload sorts them; Battle Logic Square told from the zip's layouts."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for f in sorted((DATA / "logic_square").glob("*.csv")):
            body = f.read_text(encoding="utf-8")
            if f.name == "decks.csv":
                body = body.rstrip("\n") + "\nbad_deck,悪い,Bad,nosuchcard*40\n"
            z.writestr(f.name, body)
    data = buf.getvalue()
    (tmp_path / "set.zip").write_bytes(data)
    for lang in ("en", "ja"):
        expected = [p.render(lang) for p in await upload_problems(tmp_path, "logic_square", "set.zip", data)]
        code, out, _err = call([str(tmp_path / "set.zip"), "--lang", lang])
        assert code == 1 and out[1:] == expected and expected


def test_a_file_naming_no_game_asks_for_game_and_with_it_lists_the_problems(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("kind,whatever\nx,y\n", encoding="utf-8")
    code, out, err = call([str(path), "--lang", "en"])
    assert code == 2 and out == [] and "--game" in err[0] and "cards.csv" in err[0]
    code, out, _err = call([str(path), "--lang", "en", "--game", "avalon"])
    files, problems = read_upload("cards.csv", path.read_bytes())
    expected = [p.render("en") for p in build_set("avalon", files, "extend", read_problems=problems).problems]
    assert code == 1 and out[1:] == expected and any("layout" in line.lower() for line in expected)


def test_a_json_of_cards_and_decks_only_is_told_by_the_game_that_takes_it(tmp_path):
    """``cards`` and ``decks`` are sections of several games: the one game whose check the whole
    set passes is it; one that none passes asks for --game, naming the games it could be."""
    good = tmp_path / "avalon.json"
    good.write_bytes(exported_json("avalon"))
    assert check.check_file(good).game == "avalon"
    bad = tmp_path / "bad.json"
    bad.write_text('{"cards": [{"id": "x"}], "decks": []}', encoding="utf-8")
    checked = check.check_file(bad)
    assert checked.game is None and len(checked.candidates) > 1
    code, _out, err = call([str(bad), "--lang", "en"])
    assert code == 2 and "could be a set for" in err[0] and "--game" in err[0]


def test_what_the_file_holds_cannot_drive_the_terminal(tmp_path):
    """A card id with an escape sequence and a direction override is printed with each of those
    characters as U+FFFD: the file cannot recolour the terminal or turn the text around."""
    path = tmp_path / "attacks.csv"
    path.write_text(BAD_ATTACKS.replace("ts20", "ts\x1b[31m20\u202e"), encoding="utf-8")
    code, out, _err = call([str(path), "--lang", "en", "--game", "maken"])
    text = "\n".join(out)
    assert code == 1 and "\x1b" not in text and "\u202e" not in text and "\ufffd" in text
    assert check.terminal_text("a\x1b[2Jb\u200fc\td") == "a\ufffd[2Jb\ufffdc\ufffdd"
    assert check.terminal_text("梟王　OWL KING") == "梟王　OWL KING"      # an ideographic space stays


# --------------------------------------------------------------------------- limits and bad files
def test_a_file_over_the_upload_limit_is_refused_as_the_upload_refuses_it(tmp_path):
    """The upload's own answer for a too-big attachment (cards.err.too_big), decided from the
    file's size before it is read; a zip may be 2 MiB, any other file 512 KiB."""
    big = tmp_path / "big.csv"
    big.write_bytes(b"id\n" + b"a" * MAX_FILE)
    for lang in ("en", "ja"):
        code, out, err = call([str(big), "--lang", lang])
        size = f"{big.stat().st_size / 1024:,.0f} KiB"
        assert (code, err) == (1, [])
        assert out == [i18n.t("cards.err.too_big", lang, name="big.csv", size=size, limit="512 KiB")]
    fits = tmp_path / "fits.zip"
    fits.write_bytes(b"x" * (MAX_FILE + 10))          # over 512 KiB but a zip: read, and found broken
    code, out, _err = call([str(fits), "--lang", "en", "--game", "maken"])
    assert code == 1 and "512 KiB" not in "\n".join(out)
    huge = tmp_path / "huge.zip"
    huge.write_bytes(b"x" * (MAX_UNPACKED + 1))
    code, out, _err = call([str(huge), "--lang", "en"])
    assert code == 1 and out == [i18n.t("cards.err.too_big", "en", name="huge.zip", size="2,048 KiB",
                                        limit="2048 KiB")]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_file_that_says_it_is_small_is_never_read_past_the_limit(tmp_path):
    """/dev/zero says it holds 0 bytes and never ends: at most the limit and one byte are read."""
    data, too_big = check.read_bounded(Path("/dev/zero"), 1024)
    assert data is None and too_big == "> 1 KiB"


def test_a_missing_file_a_folder_and_bad_arguments_exit_2_saying_why(tmp_path):
    code, out, err = call([str(tmp_path / "nope.csv"), "--lang", "en"])
    assert (code, out) == (2, []) and err == [i18n.t("cardcheck_cli.missing", "en", path=str(tmp_path / "nope.csv"))]
    code, _out, err = call([str(tmp_path), "--lang", "ja"])
    assert code == 2 and "フォルダー" in err[0]
    for args, key in (([], "no_file"), (["x.csv", "--game", "squares"], "bad_game"),
                      (["x.csv", "--mode", "merge"], "bad_mode"), (["x.csv", "--lang", "fr"], "bad_lang"),
                      (["x.csv", "--frobnicate"], "bad_arguments")):
        code, out, err = call(args + (["--lang", "en"] if "--lang" not in args else []))
        assert (code, out) == (2, []), args
        assert err and re.match(re.escape(i18n.t(f"cardcheck_cli.{key}", "en").split("{")[0]), err[0]), (args, err)


def test_help_works_in_both_languages_and_the_top_level_lists_check(tmp_path):
    proc = run(["check", "--help"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: python -m data.card_sets check")
    for opt in ("--game", "--mode", "--name", "--lang", "FILE"):
        assert opt in proc.stdout
    assert "Exit status: 0" in proc.stdout
    ja = run(["check", "--help"], tmp_path, lang="ja_JP.UTF-8")
    assert ja.returncode == 0 and ja.stdout.startswith("使い方：") and "終了コード" in ja.stdout
    top = run(["--help"], tmp_path)
    assert top.returncode == 0 and "check FILE" in top.stdout and "--game" in top.stdout
    none = run([], tmp_path)
    assert none.returncode == 2 and "check FILE" in none.stderr
    wrong = run(["frob"], tmp_path)
    assert wrong.returncode == 2 and "frob" in wrong.stderr


def test_the_docs_show_the_command_and_what_it_prints(tmp_path):
    """docs/card_sets.md's example is what the command prints for its three-mistake file."""
    doc = (ROOT / "docs" / "card_sets.md").read_text(encoding="utf-8")
    assert "## Checking a set before uploading" in doc and "python -m data.card_sets check FILE" in doc
    path = tmp_path / "attacks.csv"
    path.write_text(BAD_ATTACKS, encoding="utf-8")
    code, out, _err = call([str(path), "--lang", "en"])
    assert code == 1
    for line in out:
        assert line in doc, line
