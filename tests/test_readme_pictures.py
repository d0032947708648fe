"""The README's pictures (``docs/pictures/``, drawn by ``python -m render.readme``) are committed,
and they stay what the code draws.

- Every picture is drawn again here and compared with the committed file.  When this machine's
  Pillow, FreeType, raqm and HarfBuzz are the versions ``pictures.json`` records, the decoded
  pixels must be identical.  Otherwise antialiasing and kerning may differ a little, so the test
  asks for the same size and frame count and at most :data:`TOLERANCE` of the pixels of any frame
  differing by more than :data:`CHANNEL` in some channel (how that was chosen: below), and its
  message says which mode ran.
- ``docs/pictures/`` holds exactly the pictures :func:`render.readme.pictures` names (with
  ``pictures.json`` and its ``README.md``), each at most 300 KiB; the command writes exactly those;
  drawing is deterministic, byte for byte.
- The Act menu picture says what the cog sends: :func:`render.readme_menu.act_menu_parts` gives
  what ``cogs.components.build_menu`` builds for the same moves, in English and Japanese.  The
  bracket sample is the host's own bracket view, and the replay GIF is the one ``/match gif``
  sends for that match.
- The README embeds every picture, every picture it embeds exists, and the README or a guide in
  ``docs/`` names the command that redraws them.
"""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from PIL import Image, ImageChops

from render import readme
from render.labels import Choice
from render.readme_menu import act_menu_parts

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"
EXTRA = {readme.MANIFEST, "README.md"}       # the files of docs/pictures/ that are not pictures

# The tolerance when the versions differ.  Measured on these pictures: Pillow 10.4.0 with
# FreeType 2.13.2 and Pillow 13.0.0 with FreeType 2.14.3 draw identical pixels, and a colour
# picked a little differently by a new quantiser moves a pixel by far less than 48; Pillow's own
# layout instead of raqm (kerning moves whole words by a pixel) changes up to 5.3 % of a text-heavy
# picture.  What the guard is for: a position drawn one move later changes 5.7 % of the SQUARES
# and Project Maken boards, another end of the replay 13 % of its last frame, and a taller or wider
# picture fails on its size.  So 2 % of pixels off by more than 48: never tripped by antialiasing,
# tripped by most changes of what is drawn.  A change of one word (0.01 % of the pixels) is below
# any tolerance that rendering noise allows; only the exact mode sees it.
TOLERANCE = 0.02
CHANNEL = 48


@pytest.fixture(scope="module")
def drawn() -> dict[str, bytes]:
    """Every picture as the code draws it now (in English, the README's language)."""
    return readme.draw_all("en")


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads((PICTURES / readme.MANIFEST).read_text(encoding="utf-8"))


def _off(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels where some RGBA channel of ``a`` and ``b`` differs by more than
    :data:`CHANNEL`."""
    bands = ImageChops.difference(a, b).split()
    worst = bands[0]
    for band in bands[1:]:
        worst = ImageChops.lighter(worst, band)
    return sum(worst.histogram()[CHANNEL + 1:]) / (a.width * a.height)


# ---------------------------------------------------------------------------- committed = drawn
def test_the_committed_pictures_are_what_the_code_draws(drawn, recorded):
    here, then = readme.versions(), {k: recorded.get(k) for k in readme.versions()}
    exact = here == then
    mode = ("exact mode: the versions that drew them, so the decoded pixels must be identical" if exact else
            f"tolerance mode: drawn with {then}, compared here with {here}, so the same size and at most "
            f"{TOLERANCE:.0%} of the pixels off by more than {CHANNEL}")
    redraw = "redraw them with `python -m render.readme` and commit docs/pictures/"
    assert recorded["locale"] == "en", f"the README's pictures are in English; {redraw}"
    assert set(recorded["pictures"]) == set(readme.pictures()), f"pictures.json is stale; {redraw}"
    if bool(here["raqm"]) != bool(then["raqm"]):
        # Pillow lays text out by itself without raqm (no libfribidi on the machine), kerning
        # whole words a pixel apart: up to 5.3 % of a text-heavy picture, past any tolerance that
        # still catches a changed position.  Said plainly rather than passed or failed wrongly.
        pytest.skip(f"the pictures were drawn with raqm {then['raqm']}, this machine lays text out "
                    f"{'with raqm ' + str(here['raqm']) if here['raqm'] else 'without raqm'}; "
                    "compare them on a machine like the one that drew them")
    for name, data in drawn.items():
        committed = (PICTURES / name).read_bytes()
        assert readme.pixels_sha256(committed) == recorded["pictures"][name]["pixels_sha256"], \
            f"{name} is not the picture pictures.json records; {redraw}"
        if exact:
            assert readme.pixels_sha256(data) == recorded["pictures"][name]["pixels_sha256"], \
                f"{name}: the code draws another picture ({mode}); {redraw}"
            continue
        old, new = readme.frames(committed), readme.frames(data)
        assert [f.size for f in new] == [f.size for f in old], \
            f"{name}: size or frames changed from {[f.size for f in old]} to {[f.size for f in new]} ({mode}); {redraw}"
        for k, (a, b) in enumerate(zip(old, new)):
            off = _off(a, b)
            assert off <= TOLERANCE, f"{name} frame {k}: {off:.2%} of the pixels differ ({mode}); {redraw}"


def test_the_pictures_folder_holds_exactly_the_pictures_each_small_enough():
    names = readme.pictures()
    assert len(names) == len(set(names))
    assert {p.name for p in PICTURES.iterdir()} == set(names) | EXTRA, \
        "docs/pictures/ holds exactly render.readme.pictures() with pictures.json and README.md (no leftovers)"
    for name in names:
        size = (PICTURES / name).stat().st_size
        assert 0 < size <= readme.MAX_BYTES, f"{name}: {size // 1024} KiB"
    games = {n[len("board_"):-len(".png")] for n in names if n.startswith("board_")}
    from rules import registry
    assert games == set(registry.names()), "a board picture for every game"
    assert {"act_menu.png", "bracket.png", "standings.png", "replay.gif"} <= set(names)
    assert any(n.startswith("hand_") for n in names)


def test_the_command_writes_exactly_the_pictures_and_their_record(tmp_path, drawn):
    out = subprocess.run([sys.executable, "-m", "render.readme", "--out", str(tmp_path / "pics")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    folder = tmp_path / "pics"
    assert {p.name for p in folder.iterdir()} == set(readme.pictures()) | {readme.MANIFEST}
    assert sorted(Path(line).name for line in out.stdout.split()) == sorted(set(readme.pictures()) | {readme.MANIFEST})
    record = json.loads((folder / readme.MANIFEST).read_text(encoding="utf-8"))
    assert record["locale"] == "en" and {k: record[k] for k in readme.versions()} == readme.versions()
    for name in readme.pictures():
        data = (folder / name).read_bytes()
        assert data == drawn[name], f"{name}: the command and draw_all disagree"
        entry = record["pictures"][name]
        assert entry["pixels_sha256"] == readme.pixels_sha256(data) and entry["bytes"] == len(data)
        with Image.open(folder / name) as img:
            assert (entry["width"], entry["height"], entry["frames"]) == (img.width, img.height,
                                                                          getattr(img, "n_frames", 1))
            assert img.format == ("GIF" if name.endswith(".gif") else "PNG")
    assert record["pictures"]["replay.gif"]["frames"] > 2, "the replay is animated"


def test_drawing_is_deterministic_byte_for_byte(drawn):
    assert readme.draw_all("en") == drawn


def test_a_picture_over_the_limit_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(readme, "MAX_BYTES", 10_000)
    with pytest.raises(readme.TooBig) as caught:
        readme.write_all(tmp_path / "pics")
    assert "replay.gif" in " ".join(caught.value.pictures) and "bracket.png" not in " ".join(caught.value.pictures)
    assert not (tmp_path / "pics").exists()


def test_the_pixel_hash_reads_pixels_not_file_bytes():
    img = Image.new("RGB", (40, 30), (10, 200, 30))
    small, large = io.BytesIO(), io.BytesIO()
    img.save(small, format="PNG", compress_level=9)
    img.save(large, format="PNG", compress_level=0)
    assert small.getvalue() != large.getvalue()
    assert readme.pixels_sha256(small.getvalue()) == readme.pixels_sha256(large.getvalue())
    img.putpixel((3, 3), (10, 200, 31))
    other = io.BytesIO()
    img.save(other, format="PNG")
    assert readme.pixels_sha256(other.getvalue()) != readme.pixels_sha256(small.getvalue())


def test_the_tolerance_lets_noise_through_and_stops_a_changed_picture():
    base = Image.new("RGBA", (100, 100), (255, 255, 255, 255))
    noisy = base.copy()
    for x in range(100):                       # every pixel of a row a little off, one row far off
        noisy.putpixel((x, 5), (255 - CHANNEL, 255, 255, 255))
        noisy.putpixel((x, 6), (0, 0, 0, 255))
    assert _off(base, noisy) == pytest.approx(0.01)
    changed = base.copy()
    changed.paste((0, 0, 0, 255), (0, 0, 100, 3))
    assert _off(base, changed) == pytest.approx(0.03)
    assert _off(base, changed) > TOLERANCE >= _off(base, noisy)


# ---------------------------------------------------------------------------- what the pictures show
def _cog_menu(choices: list[Choice], locale: str) -> tuple[str, str, list[tuple[str, str, str]]]:
    """(content, placeholder, options) of the Act menu as the cog builds it."""
    from cogs.components import build_menu

    content, view = build_menu(readme.MENU_MATCH_ID, choices, 0, 0, locale)
    items = [getattr(item, "item", item) for item in view.children]   # a DynamicItem wraps its select
    selects = [item for item in items if isinstance(item, discord.ui.Select)]
    assert len(selects) == 1 and len(items) == 1, "the one-select case: one select, nothing else"
    options = [(str(o.emoji or ""), o.label, o.description or "") for o in selects[0].options]
    return content, selects[0].placeholder or "", options


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_act_menu_picture_says_what_the_cog_sends(locale):
    moves = readme.menu_moves(readme.MENU, locale)
    parts = readme.menu_parts(readme.MENU, locale)
    assert parts == _cog_menu(moves, locale)
    content, placeholder, options = parts
    assert f"#{readme.MENU_MATCH_ID}" in content and placeholder and len(options) == len(moves) > 3
    assert not any(re.fullmatch(r"[a-z]+( [a-z0-9]+)*", label) for _, label, _ in options), "notation, not words"


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_menu_rules_match_the_cogs_for_long_texts_emoji_and_one_move(locale):
    long = "Rear support: " + "ARCHER " * 30
    cases = [
        [Choice("a", long, "x" * 150, emoji="⚔️"), Choice("b", "Pass", ""), Choice("c", "y" * 100, "z" * 101, group="g")],
        [Choice("end", "End the turn", "your opponent's turn begins", emoji="⏭️")],
        [Choice(f"m{i}", f"Move {i}", f"to {i}") for i in range(25)],
    ]
    for moves in cases:
        assert act_menu_parts(readme.MENU_MATCH_ID, moves, locale) == _cog_menu(moves, locale)
    with pytest.raises(ValueError):
        act_menu_parts(1, [Choice(f"m{i}", f"Move {i}") for i in range(26)], locale)
    with pytest.raises(ValueError):
        act_menu_parts(1, [], locale)


def test_the_act_menu_picture_is_drawn_from_those_parts():
    content, placeholder, options = readme.menu_parts()
    from render.readme_menu import menu_image
    img = menu_image(content, placeholder, options)
    assert img.width >= 400 and img.height > 40 * len(options)
    with Image.open(PICTURES / "act_menu.png") as committed:
        assert committed.size == img.size


def test_the_bracket_sample_is_the_hosts_own_bracket_view():
    from host.events import bracket
    from render.readme_samples import BRACKET_NAMES, BRACKET_RESULTS, bracket_view

    structure = bracket.build(list(range(1, len(BRACKET_NAMES) + 1)), kind="single")
    results = {mid: {"winner": w, "score": score} for mid, (w, score) in BRACKET_RESULTS.items()}
    titles = {key: "" for key in ("winners", "losers", "final", "round", "semifinal", "grand_final", "reset")}
    view = bracket.view(structure, results, dict(enumerate(BRACKET_NAMES, start=1)), titles)
    assert bracket_view() == view
    statuses = [m["status"] for r in view["sections"][0]["rounds"] for m in r["matches"]]
    assert {"done", "ready", "waiting"} <= set(statuses), "some results in, some matches still to play"


def test_the_replay_is_the_gif_the_bot_sends_for_that_match():
    from data.store_interface import ACTIVE, CommandRecord, MatchRecord
    from host.gif_worker import match_gif_of
    from render.readme_samples import public_steps

    scene = readme.REPLAY
    _, steps = public_steps(scene.game, scene.seed, scene.moves, scene.players)
    assert len(steps) == scene.moves
    rec = MatchRecord(game=scene.game, seed=scene.seed, seats=list(range(1, scene.players + 1)),
                      names=readme.NAMES[:scene.players], creator=1, status=ACTIVE, id=1, n_commands=len(steps))
    log = [CommandRecord(1, k + 1, s["seat"], s["command"], 0.0) for k, s in enumerate(steps)]
    assert match_gif_of(rec, log, locale="en").data == readme.replay_gif("en")


# ---------------------------------------------------------------------------- the README
def test_the_readme_embeds_every_picture_and_only_pictures_that_exist():
    """(May fail while README.md is being rewritten.)"""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    embedded = re.findall(r"!\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img[^>]*\bsrc=\"([^\"]+)\"", text)
    paths = [a or b for a, b in embedded]
    in_folder = [p for p in paths if p.startswith("docs/pictures/")]
    for path in in_folder:
        assert (ROOT / path).is_file(), f"the README embeds {path}, which does not exist"
    for name in readme.pictures():
        assert f"docs/pictures/{name}" in in_folder, f"the README does not show docs/pictures/{name}"
    guides = [text] + [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))]
    assert any("python -m render.readme" in g for g in guides), "the README or docs/ say how to redraw them"
