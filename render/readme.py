"""The README's pictures, drawn by the bot's own code and committed under ``docs/pictures/``.

    python -m render.readme [--out DIR] [--locale en|ja]

:func:`write_all` writes, into ``--out`` (default ``docs/pictures``), every file
:func:`pictures` names, and ``pictures.json`` (:func:`manifest`):

- ``board_<game>.png`` — the public board of every registered game, after a fixed number of
  random legal commands from a fixed seed (:func:`render.__main__.play`, the same play as
  ``python -m render``), drawn by :func:`render.render_png` as the bot posts it;
- ``hand_<game>.png`` — the hand picture a player of that card game gets by DM
  (``render_png(..., part="hand")`` of the seat's own view);
- ``act_menu.png`` — the ephemeral **Act** menu of the player whose move it is, its text and
  options built by :func:`render.readme_menu.act_menu_parts` (what the cog's ``build_menu``
  builds) from the player's moves in words (:func:`menu_moves`);
- ``bracket.png`` — a single elimination of 8 with some results in
  (:func:`render.readme_samples.bracket_view`), drawn by :func:`render.bracket.draw_bracket`;
- ``standings.png`` — a league's standings table (:func:`render.standings.draw_standings` of
  :func:`render.standings.sample_rows`);
- ``replay.gif`` — the animated picture of a SQUARES match's first moves
  (:func:`render.gif.match_gif` of :func:`render.readme_samples.public_steps`).

Same arguments, same pictures: every position comes from a fixed seed.  ``pictures.json``
records, per picture, its size and a SHA-256 of its decoded RGBA pixels, with the Pillow and
FreeType versions that drew them; ``tests/test_readme_pictures.py`` draws every picture again
and compares (docs/pictures/README.md).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import PIL
from PIL import Image, features

from data import i18n
from render import render_png
from render.__main__ import play
from render.bracket import draw_bracket
from render.gif import match_gif
from render.labels import Choice, choices
from render.readme_menu import MenuParts, act_menu_parts, menu_png
from render.readme_samples import bracket_view, public_steps
from render.standings import draw_standings, sample_rows

NAMES = ["Alice", "Bob", "Carol", "Dave"]
DEFAULT_OUT = Path("docs") / "pictures"
MANIFEST = "pictures.json"
MAX_BYTES = 300 * 1024          # each picture: small enough for the repository and a phone


@dataclass(frozen=True)
class Scene:
    game: str
    seed: int
    moves: int
    players: int


# one position per game: a match under way, with pieces or cards on the table
BOARDS = (
    Scene("squares", 7, 30, 2),
    Scene("logic_square", 7, 30, 2),
    Scene("maken", 7, 40, 2),
    Scene("art_of_war", 7, 40, 2),
    Scene("avalon", 2, 60, 3),
)
# the hand picture of the flagship card game, seen by the seat whose move it is
HAND = Scene("logic_square", 7, 30, 2)
# the Act menu of an Art of War turn: attacks and rear supports, every one fits one select, so
# one pick plays it
MENU = Scene("art_of_war", 7, 40, 2)
MENU_MATCH_ID = 12
# the replay: a SQUARES match from its start, a short one so the GIF stays small
REPLAY = Scene("squares", 7, 16, 2)
# the standings: a league of 8 after five rounds, with the card preset's tiebreaks
STANDINGS_ROWS = 8
STANDINGS_COLUMNS = ["omw", "gwp", "ogw"]
STANDINGS_LEAGUE = 3


def pictures() -> list[str]:
    """The file names of the pictures :func:`write_all` writes (``pictures.json`` besides)."""
    return list(drawers())


def _seat_to_act(game, state) -> int:
    seats = game.to_act(state)
    if not seats:
        raise ValueError("the scene's match has nobody to act; choose fewer moves")
    return sorted(seats)[0]


def board_png(scene: Scene, locale: str = "en") -> bytes:
    game, state = play(scene.game, scene.seed, scene.moves, scene.players)
    return render_png(scene.game, game.view(state, None), locale=locale, names=NAMES[:scene.players])


def hand_png(scene: Scene, locale: str = "en") -> bytes:
    game, state = play(scene.game, scene.seed, scene.moves, scene.players)
    seat = _seat_to_act(game, state)
    return render_png(scene.game, game.view(state, seat), locale=locale, names=NAMES[:scene.players],
                      part="hand")


def menu_moves(scene: Scene = MENU, locale: str = "en") -> list[Choice]:
    """The moves in words of the seat to act at ``scene``, as ``host.choices`` hands them to the
    cog's Act menu."""
    game, state = play(scene.game, scene.seed, scene.moves, scene.players)
    seat = _seat_to_act(game, state)
    return choices(scene.game, game.view(state, seat), seat, game.legal_commands(state, seat), locale,
                   NAMES[:scene.players])


def menu_parts(scene: Scene = MENU, locale: str = "en") -> MenuParts:
    """(content, placeholder, options) of the Act menu at ``scene`` (match #:data:`MENU_MATCH_ID`)."""
    return act_menu_parts(MENU_MATCH_ID, menu_moves(scene, locale), locale)


def act_menu_png(locale: str = "en") -> bytes:
    return menu_png(menu_parts(MENU, locale), footer=i18n.t("readme.menu.only_you", locale))


def bracket_png(locale: str = "en") -> bytes:
    pages = draw_bracket(bracket_view(), locale)
    if len(pages) != 1:
        raise ValueError(f"the README's bracket should fit one page, not {len(pages)}")
    return pages[0]


def standings_png(locale: str = "en") -> bytes:
    title = i18n.t("events.standings.picture_title", locale, league=STANDINGS_LEAGUE,
                   name=i18n.t("readme.standings.league", locale))
    return draw_standings(sample_rows(STANDINGS_ROWS), STANDINGS_COLUMNS, locale, title=title)


def replay_gif(locale: str = "en") -> bytes:
    start, steps = public_steps(REPLAY.game, REPLAY.seed, REPLAY.moves, REPLAY.players)
    return match_gif(REPLAY.game, steps, start_view=start, names=NAMES[:REPLAY.players], locale=locale).data


def drawers() -> dict[str, Callable[[str], bytes]]:
    """File name → a function of the locale drawing that picture, in the README's order."""
    out: dict[str, Callable[[str], bytes]] = {}
    for scene in BOARDS:
        out[f"board_{scene.game}.png"] = lambda locale, s=scene: board_png(s, locale)
    out[f"hand_{HAND.game}.png"] = lambda locale: hand_png(HAND, locale)
    out["act_menu.png"] = act_menu_png
    out["bracket.png"] = bracket_png
    out["standings.png"] = standings_png
    out["replay.gif"] = replay_gif
    return out


# ---------------------------------------------------------------------------- the record
def frames(data: bytes) -> list[Image.Image]:
    """Every frame of a picture (one for a PNG), decoded to RGBA."""
    out = []
    with Image.open(io.BytesIO(data)) as img:
        for k in range(getattr(img, "n_frames", 1)):
            img.seek(k)
            out.append(img.convert("RGBA"))
    return out


def pixels_sha256(data: bytes) -> str:
    """SHA-256 of the decoded RGBA pixels of every frame (with each frame's size): the same
    picture gives the same hash however the file was compressed."""
    h = hashlib.sha256()
    for frame in frames(data):
        h.update(f"{frame.width}x{frame.height};".encode())
        h.update(frame.tobytes())
    return h.hexdigest()


def versions() -> dict[str, str | None]:
    """What draws the pictures' text: the Pillow and FreeType versions (antialiasing may change
    with them), and raqm's and HarfBuzz's (None without them: Pillow then lays text out by
    itself, kerning differently)."""
    return {"pillow": PIL.__version__, "freetype": features.version("freetype2"),
            "raqm": features.version("raqm"), "harfbuzz": features.version("harfbuzz")}


def manifest(drawn: dict[str, bytes], locale: str) -> dict:
    """``pictures.json``: the locale and :func:`versions` that drew the pictures and, per
    picture, its width, height, frames, bytes and :func:`pixels_sha256`."""
    entries = {}
    for name, data in drawn.items():
        decoded = frames(data)
        entries[name] = {"width": decoded[0].width, "height": decoded[0].height, "frames": len(decoded),
                         "bytes": len(data), "pixels_sha256": pixels_sha256(data)}
    return {"locale": locale, **versions(), "pictures": entries}


def draw_all(locale: str = "en") -> dict[str, bytes]:
    """Every picture of :func:`pictures`, drawn in ``locale``: file name → bytes."""
    return {name: draw(locale) for name, draw in drawers().items()}


def write_all(out: Path, locale: str = "en") -> list[Path]:
    """Draw every picture into ``out`` (made if missing) and write ``pictures.json`` there;
    returns the files written.  :class:`TooBig` (nothing written) when a picture is over
    :data:`MAX_BYTES`."""
    drawn = draw_all(locale)
    too_big = [f"{name} ({len(data) // 1024} KiB)" for name, data in drawn.items() if len(data) > MAX_BYTES]
    if too_big:
        raise TooBig(too_big)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, data in drawn.items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    path = out / MANIFEST
    path.write_text(json.dumps(manifest(drawn, locale), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written.append(path)
    return written


class TooBig(ValueError):
    """A picture is over :data:`MAX_BYTES`: ``pictures`` names them with their KiB."""

    def __init__(self, pictures: list[str]) -> None:
        super().__init__(f"over {MAX_BYTES // 1024} KiB: {', '.join(pictures)}")
        self.pictures = pictures


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = i18n.cli_locale(argv, "--locale")   # the help's language: the pictures' if given

    def h(key: str, **params: object) -> str:
        return i18n.t(f"readme.cli.{key}", lang, **params).replace("%", "%%")

    parser = argparse.ArgumentParser(prog="python -m render.readme", description=h("description"))
    parser.add_argument("--out", default=str(DEFAULT_OUT), help=h("out"))
    parser.add_argument("--locale", default="en", choices=["en", "ja"], help=h("locale"))
    args = parser.parse_args(argv)
    try:
        written = write_all(Path(args.out), args.locale)
    except TooBig as exc:
        print(i18n.t("readme.cli.too_big", lang, limit=MAX_BYTES // 1024, pictures=", ".join(exc.pictures)),
              file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
