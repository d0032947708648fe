"""Issue 35, "A match record as text" (host/match_record.py, host/console_replay.py): a finished
match written as a short text record — header tags, numbered public moves, a block of public views
— read back and checked, and stepped through in the console.  Random matches of all five games
are played through a real host and store to their end.  Each test's docstring quotes the sentence
of the issue it checks."""
from __future__ import annotations

import asyncio
import base64
import dataclasses
import io
import json
import re
import zlib

import pytest

from data import i18n
from data.store import ACTIVE
from host.console import main as console_main
from host.match_record import (
    FORMAT, MAX_STEPS, MAX_UNPACKED, RecordError, full_export_allowed, read_record, record_steps,
    record_text, to_record, write_record,
)
from host.replay import _final_view, _initial_state, _public_command, _step
from host.replay_steps import public_steps
from rules import registry
from test_replay_steps import _played as played

A, B = 101, 102
SEED = 913_427_650_118      # a seed whose digits no record could hold by chance
CARD_GAMES = ("logic_square", "maken", "art_of_war", "avalon")


async def _played(tmp_path, game: str, seed: int = 7, max_moves: int = 300, finish: bool = True):
    """A match of ``game`` between Ann and Ben on an SQLite file, random legal moves (drawn with
    ``seed``; the match's own seed is :data:`SEED` + ``seed``) until it ends, or Ann resigns
    (:func:`test_replay_steps._played`); returns the file instead of the open store."""
    store, eng, rec, commands = await played(tmp_path, game, seed, max_moves, match_seed=SEED + seed, finish=finish)
    await store.close()
    return tmp_path / f"{game}-{seed}.db", eng, rec, commands


def _record(eng, rec, commands, locale: str = "en") -> tuple[str, list[dict], dict]:
    steps = public_steps(eng, rec, commands)
    start = eng.view(_initial_state(eng, rec), None)
    return write_record(eng, rec, steps, locale=locale, start_view=start), steps, start


def _block(text: str) -> dict:
    """The views block of a record, decoded."""
    payload = re.search(r'^\[Views "([^"]*)"\]$', text, flags=re.M).group(1)
    return json.loads(zlib.decompress(base64.b64decode(payload)))


def _public_views(eng, rec, commands) -> list[dict]:
    """Every public view the match passed through (as JSON reads it back), and its final view
    as the host shows it."""
    state = _initial_state(eng, rec)
    views = [eng.view(state, None)]
    for c in commands:
        state = _step(eng, state, c.seat, c.command)
        views.append(eng.view(state, None))
    views.append(_final_view(rec, views[-1]))
    return json.loads(json.dumps(views))


# ------------------------------------------------------------------------------ writing and reading
@pytest.mark.parametrize("game", list(registry.names()))
async def test_a_record_reads_back_to_the_same_public_steps(tmp_path, game):
    """"`/match record` downloads a short text record — a header (game, players, options, result,
    date) and the numbered public moves in words and notation, like a chess PGN, carrying what is
    needed to redraw each public step without the seed" — written, read back: the same steps with
    the same views, the start view, the game and names; every header tag; one numbered line per
    step with its words and its notation in braces."""
    _, eng, rec, commands = await _played(tmp_path, game)
    text, steps, start = _record(eng, rec, commands)
    read = read_record(text)
    assert read.game == game and read.names == rec.names
    assert read.start_view == json.loads(json.dumps(start))
    assert read.steps == record_steps(rec, steps)
    assert [s["view"] for s in read.steps[:-1]] == json.loads(json.dumps([s["view"] for s in steps[:-1]]))
    assert read.steps[-1]["view"] == json.loads(json.dumps(_final_view(rec, steps[-1]["view"])))
    assert read.steps[-1]["view"].get("outcome"), "the last picture shows who won"
    # the header, in the reader's words
    assert read.header["Game"] == i18n.t(f"game.{game}", "en")
    assert re.fullmatch(r"Ann( \(.+\))? vs Ben( \(.+\))?", read.header["Players"]), read.header["Players"]
    assert "(" in read.header["Players"], "the first player is marked"
    assert read.header["Result"].startswith(("Ann won", "Ben won", "Draw"))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", read.header["Date"]) and read.header["Match"] == f"#{rec.id}"
    assert read.header["Options"]
    assert ("Edition" in read.header) == bool(getattr(eng, "editions", None))
    # the numbered moves: words, then the notation in braces
    lines = text.splitlines()
    for s in steps:
        line = next(x for x in lines if x.startswith(f"{s['seq']}. "))
        assert line.startswith(f"{s['seq']}. {s['name']}: ")
        if s["command"] not in ("join", "resign"):
            assert line.endswith("{" + s["command"] + "}")
        if s["words"]:
            assert s["words"]["en"] in line
    # the same record from the stored match without a file in between (the console's --db)
    assert to_record(eng, rec, steps, locale="en", start_view=start) == read
    # record_text: what the download is, straight from the command log
    assert record_text(eng, rec, commands, locale="en") == text


async def test_the_record_speaks_the_readers_language_and_keeps_both(tmp_path):
    """"the numbered public moves in words" — in the downloader's language (a Japanese record says
    ゲーム names, results and moves in Japanese), while the views block keeps both languages, so
    the console replays it in either."""
    _, eng, rec, commands = await _played(tmp_path, "squares", finish=True)
    text, steps, _ = _record(eng, rec, commands, locale="ja")
    read = read_record(text)
    assert read.header["Game"] == "SQUARES" and "対" in read.header["Players"]
    assert "：" in text.splitlines()[len(read.header) + 1]
    assert steps[0]["words"]["ja"] in text and steps[0]["words"]["en"] not in text
    assert read.steps[0]["words"] == steps[0]["words"]


async def test_a_long_match_stays_small(tmp_path):
    """"a short text record" — each step keeps how its public view differs from the one before
    (a card table is not repeated a hundred times), so a whole match is a few kilobytes."""
    _, eng, rec, commands = await _played(tmp_path, "logic_square")
    text, steps, _ = _record(eng, rec, commands)
    full = len(json.dumps([s["view"] for s in steps]))
    assert len(text) * 10 < full, (len(text), full)


async def test_a_players_name_cannot_forge_a_line_of_the_record(tmp_path):
    """"carrying what is needed to redraw each public step" — a display name with a line break
    and a fake views line stays one name inside its own line; the record still reads back."""
    _, eng, rec, commands = await _played(tmp_path, "squares")
    evil = 'Ann\n[Views "AAAA"]\n[Result "Ann won"]'
    rec = dataclasses.replace(rec, names=[evil, "Ben"])
    steps = [dict(s, name=rec.names[s["seat"]]) for s in public_steps(eng, rec, commands)]
    text = write_record(eng, rec, steps, locale="en", start_view=eng.view(_initial_state(eng, rec), None))
    assert text.count("\n[Views ") == 1
    read = read_record(text)
    assert read.names[0] == evil and read.header["Result"] != "Ann won"
    assert read.steps == record_steps(rec, steps)


# ------------------------------------------------------------------------------ who gets what
@pytest.mark.parametrize("game", CARD_GAMES)
async def test_the_record_holds_nothing_a_stranger_may_not_see(tmp_path, game):
    """"Who gets what: the full export (seed and hidden commands) goes only to the match's own
    players once it has ended; everyone else, and every replay, gets the public record." — the
    record holds no seed, no hidden command and no seat's own view: each of its views is a public
    view the match passed through, each of its commands the public form of a stored one."""
    _, eng, rec, commands = await _played(tmp_path, game, seed=3)
    text, steps, start = _record(eng, rec, commands)
    block = _block(text)
    raw = json.dumps(block, ensure_ascii=False)
    assert str(rec.seed) not in text and str(rec.seed) not in raw and "seed" not in block
    public = _public_views(eng, rec, commands)
    read = read_record(text)
    assert read.start_view == public[0]
    for s in read.steps:
        assert s["view"] in public, f"step {s['seq']} shows a view nobody saw"
        assert s["view"].get("seat") is None
        assert set(s) == {"seq", "seat", "name", "command", "words", "story", "turn", "view"}
    # commands: their public form only; a hidden decision never appears
    state, shown, hidden = _initial_state(eng, rec), [], []
    for c in commands:
        form = "join" if c.command.startswith("__join__") else "resign" if c.command == "__resign__" \
            else _public_command(eng, state, c.seat, c.command)
        if form is not None:
            shown.append(form)
        if form is None or (form != c.command and not c.command.startswith("__")):
            hidden.append(c.command)        # a secret decision, or a masked command's raw form
        state = _step(eng, state, c.seat, c.command)
    assert [s["command"] for s in read.steps] == shown
    secrets = [h for h in hidden if h not in shown]
    for secret in secrets:
        assert "{" + secret + "}" not in text and f'"command":"{secret}"' not in json.dumps(block, separators=(",", ":"))
    # the full export is for the match's own players, once it has ended
    assert full_export_allowed(rec, A) and full_export_allowed(rec, B)
    assert not full_export_allowed(rec, 999) and not full_export_allowed(rec, None)
    assert not full_export_allowed(dataclasses.replace(rec, status=ACTIVE), A)


# ------------------------------------------------------------------------------ garbage
def _pack(obj) -> str:
    return base64.b64encode(zlib.compress(json.dumps(obj).encode())).decode()


def _views_line(payload: str) -> str:
    return f'[Game "SQUARES"]\n\n1. Ann: x {{x}}\n\n[Views "{payload}"]\n'


def _ok_data(n: int = 1) -> dict:
    return {"format": FORMAT, "game": "squares", "names": ["Ann", "Ben"], "start": {"turn": 1},
            "steps": [{"seq": i + 1, "seat": i % 2, "name": "Ann", "command": "pass", "words": None,
                       "story": [], "turn": 1, "patch": {}} for i in range(n)]}


def _with(**change) -> str:
    data = _ok_data(2)
    for path, value in change.items():
        where = data
        *head, last = path.split("__")
        for key in head:
            where = where[int(key) if key.isdigit() else key]
        where[int(last) if last.isdigit() else last] = value
    return _views_line(_pack(data))


GOOD = _views_line(_pack(_ok_data(2)))
GARBAGE = {
    "empty": ("", "record.err.no_views"),
    "prose": ("1. e4 e5 2. Nf3 Nc6\n", "record.err.no_views"),
    "cut inside the views line": (GOOD[: len(GOOD) - 40], "record.err.base64"),
    "truncated base64": (_views_line(_pack(_ok_data(40))[:101]), "record.err.base64"),
    "not base64": (_views_line("this is not base64!"), "record.err.base64"),
    "truncated zlib": (_views_line(_pack(_ok_data(400))[:200]), "record.err.zlib"),
    "not zlib": (_views_line(base64.b64encode(b"just some bytes here").decode()), "record.err.zlib"),
    "zip bomb": (_views_line(base64.b64encode(zlib.compress(b" " * (MAX_UNPACKED + 4096), 9)).decode()),
                 "record.err.too_large"),
    "not json": (_views_line(base64.b64encode(zlib.compress(b"{not json")).decode()), "record.err.json"),
    "NaN": (_views_line(base64.b64encode(zlib.compress(b'{"format": NaN}')).decode()), "record.err.json"),
    "deep json": (_views_line(base64.b64encode(zlib.compress(b"[" * 100_000)).decode()), "record.err.json"),
    "a list": (_views_line(_pack([1, 2, 3])), "record.err.field"),
    "other format": (_with(format=2), "record.err.format"),
    "unknown game": (_with(game="chess"), "record.err.unknown_game"),
    "names not a list": (_with(names="Ann vs Ben"), "record.err.field"),
    "a name not text": (_with(names__1=7), "record.err.field"),
    "start not an object": (_with(start=[1]), "record.err.field"),
    "steps not a list": (_with(steps={"1": {}}), "record.err.field"),
    "a step not an object": (_with(steps__1="pass"), "record.err.field"),
    "a gap in the numbers": (_with(steps__1__seq=3), "record.err.field"),
    "a seat out of range": (_with(steps__0__seat=2), "record.err.field"),
    "a seat that is true": (_with(steps__0__seat=True), "record.err.field"),
    "a command not text": (_with(steps__0__command=["pass"]), "record.err.field"),
    "words of numbers": (_with(steps__0__words={"en": 1}), "record.err.field"),
    "a story not a list": (_with(steps__0__story="it happened"), "record.err.field"),
    "a turn not a number": (_with(steps__0__turn="one"), "record.err.field"),
    "no patch": (_with(steps__0__patch=None), "record.err.field"),
    "a patch of the wrong shape": (_with(steps__0__patch={"x": 1}), "record.err.field"),
    "a patch into a number": (_with(steps__0__patch={"p": {"turn": {"s": {"a": 1}}}}), "record.err.field"),
    "too many steps": (_views_line(_pack(_ok_data(MAX_STEPS + 1))), "record.err.too_many_steps"),
    "two views lines": (GOOD + GOOD, "record.err.two_views"),
}


@pytest.mark.parametrize("name", list(GARBAGE))
def test_garbage_is_a_localized_error_that_says_what_is_wrong(name):
    """"`python bot.py --local --replay FILE` steps through such a record" — a file anybody may
    hand us: a cut, altered or hostile one (a zip bomb, JSON of the wrong shape) is a RecordError
    whose message, in both languages, says what is wrong and what is expected; never a traceback."""
    text, key = GARBAGE[name]
    with pytest.raises(RecordError) as exc:
        read_record(text)
    assert exc.value.key == key
    for locale in ("en", "ja"):
        said = exc.value.render(locale)
        assert said != key and "{" not in said.replace("{x}", ""), said
        assert "record.expect" not in said


def test_a_good_hand_made_record_reads():
    """"carrying what is needed to redraw each public step without the seed" — the minimal record
    the garbage above is made from reads, each step's view rebuilt from its changes."""
    data = _ok_data(2)
    data["steps"][1]["patch"] = {"s": {"turn": 2}}
    read = read_record(_views_line(_pack(data)))
    assert [s["view"] for s in read.steps] == [{"turn": 1}, {"turn": 2}]
    assert read.header == {"Game": "SQUARES"}


# ------------------------------------------------------------------------------ the console
def _run(argv: list[str], typed: str, code: int = 0) -> str:
    """``python bot.py --local ARGV`` with ``typed`` as its input: what it printed."""
    out = io.StringIO()
    assert console_main(argv, stdin=io.StringIO(typed), stdout=out) == code, out.getvalue()[-2000:]
    return out.getvalue()


async def _console(argv: list[str], typed: str, code: int = 0) -> str:
    """:func:`_run` from an async test (the console runs its own event loop, on another thread)."""
    return await asyncio.to_thread(_run, argv, typed, code)


async def test_the_console_steps_through_a_record_file(tmp_path):
    """"`python bot.py --local --replay FILE` steps through such a record in the console" — `n`,
    `p`, `l`, `t 2`, `q`: each step says "Step k of n · turn t", the move in words, what it did,
    and saves its picture (once per step) where the console saves pictures."""
    _, eng, rec, commands = await _played(tmp_path, "squares")
    text, steps, _ = _record(eng, rec, commands)
    path = tmp_path / "match.txt"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "pictures"
    n = len(steps)
    said = await _console(["--replay", str(path), "--out", str(out)], "n\np\nl\nt 2\nq\n")
    heads = re.findall(r"^(?:\[\d+/\d+\] > )?(Step \d+ of \d+ · turn \d+)$", said, flags=re.M)
    first2 = next(s for s in steps if s["turn"] == 2)
    assert heads == [f"Step 1 of {n} · turn {steps[0]['turn']}", f"Step 2 of {n} · turn {steps[1]['turn']}",
                     f"Step 1 of {n} · turn {steps[0]['turn']}", f"Step {n} of {n} · turn {steps[-1]['turn']}",
                     f"Step {first2['seq']} of {n} · turn 2"]
    assert f"Ann: {steps[0]['words']['en']} {{{steps[0]['command']}}}" in said or \
        f"Ben: {steps[0]['words']['en']} {{{steps[0]['command']}}}" in said
    assert "Game: SQUARES" in said and f"Match: #{rec.id}" in said and "Keys:" in said
    pictures = re.findall(r"\(picture: (.+)\)", said)
    shown = {1, 2, n, first2["seq"]}
    assert len(pictures) == 5 and len(set(pictures)) == len(shown)      # a step is drawn once
    for p in set(pictures):
        assert open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert {int(p.stem.partition("-step")[2]) for p in out.glob("*.png")} == shown


async def test_the_console_replay_ends_cleanly_and_refuses_what_is_not_a_step(tmp_path):
    """"steps through such a record in the console" — the end of the input ends it like `q`
    (exit code 0); a step or a turn that is not there, or a key it does not know, is told with
    the keys it takes; in Japanese when asked."""
    _, eng, rec, commands = await _played(tmp_path, "art_of_war")
    path = tmp_path / "match.txt"
    path.write_text(_record(eng, rec, commands)[0], encoding="utf-8")
    said = await _console(["--replay", str(path), "--no-pictures"], "9999\nt 999\nzz\n0\np\nl\nn\n")
    assert "! There is no step 9999" in said and "! No step is in turn 999" in said
    assert "! Unknown key zz." in said and said.count("Keys:") == 2
    assert "Before the first step" in said and "This is the position before the first step" in said
    assert "That was the last step" in said and "(picture:" not in said
    ja = await _console(["--replay", str(path), "--no-pictures", "--lang", "ja"], "")
    assert "ステップ1／" in ja and "ゲーム：アート・オブ・ウォー" in ja


@pytest.mark.parametrize("content,key", [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "record.err.not_text"),
    (b"[Event \"a chess game\"]\n1. e4 e5\n", "record.err.no_views"),
    (_views_line(_pack([1])).encode(), "record.err.field"),
])
def test_a_bad_record_file_is_one_localized_line_and_exit_code_2(tmp_path, content, key):
    """"`python bot.py --local --replay FILE`" — a file that is no record says why in one line
    (exit code 2), in the console's language; a missing file names itself."""
    from host.console_replay import read_file

    path = tmp_path / "record.txt"
    path.write_bytes(content)
    with pytest.raises(RecordError) as exc:
        read_file(str(path))
    assert exc.value.key == key
    for lang in ("en", "ja"):
        said = _run(["--replay", str(path), "--lang", lang], "", code=2)
        assert said.splitlines() == ["! " + exc.value.render(lang)]
    missing = _run(["--replay", str(tmp_path / "nope.txt")], "", code=2)
    assert missing.startswith("! Cannot read the record") and "nope.txt" in missing


async def test_the_console_replays_a_stored_match_of_a_database(tmp_path):
    """"(`--db FILE --replay N` through a stored match)" — the same public steps as a record of
    it; a match the database does not hold, or a database that is not there, is told (exit 2)."""
    db, eng, rec, commands = await _played(tmp_path, "maken")
    n = len(public_steps(eng, rec, commands))
    said = await _console(["--db", str(db), "--replay", str(rec.id), "--no-pictures"], "l\nf\nq\n")
    assert f"Step {n} of {n}" in said and f"Step 1 of {n}" in said
    assert f"Match: #{rec.id}" in said and "Game: Project Maken" in said
    with_pictures = await _console(["--db", str(db), "--replay", str(rec.id), "--out", str(tmp_path / "p")], "")
    assert "(picture:" in with_pictures
    assert "holds no match #77" in await _console(["--db", str(db), "--replay", "77"], "", code=2)
    gone = tmp_path / "nothing.db"
    assert "There is no database file" in await _console(["--db", str(gone), "--replay", "1"], "", code=2)
    assert not gone.exists(), "a replay never creates a database"


async def test_the_replay_of_an_unfinished_match_is_its_public_part(tmp_path):
    """"everyone else, and every replay, gets the public record" — a match still being played
    replays what has been seen so far, its result "not finished yet"."""
    db, eng, rec, commands = await _played(tmp_path, "logic_square", max_moves=12, finish=False)
    assert rec.status == ACTIVE
    text, steps, _ = _record(eng, rec, commands)
    read = read_record(text)
    assert read.header["Result"] == "Not finished yet." and read.steps == record_steps(rec, steps)
    said = await _console(["--db", str(db), "--replay", str(rec.id), "--no-pictures"], "q\n")
    assert "Result: Not finished yet." in said


def test_bot_takes_replay_only_with_local(capsys):
    """"`python bot.py --local --replay FILE`" — the option is listed by `python bot.py --help`
    and refused without `--local`, as every console option is."""
    import bot

    assert "--replay" in bot.parser("en").format_help() and "--replay" in bot.parser("ja").format_help()
    assert bot.main(["--replay", "match.txt"]) == 2
    assert "--replay: only with --local" in capsys.readouterr().err
