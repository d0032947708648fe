"""A whole match as one animated GIF (issue 35, "Animated picture"), in the manner of lichess's
lila-gif: one frame per public position, one global palette, each later frame only the region
that changed.

    match_gif(game, steps, *, start_view, names, locale="en", max_frames=300) -> GifResult

``steps`` are :func:`host.replay_steps.public_steps` (each with its PUBLIC ``view`` and ``turn``),
``start_view`` the public view of the start position (``None``: the GIF starts at the first step).
Pure: no Discord, no store, no I/O, and drawn from the views alone — never from an engine state —
so the bytes are a function of ``(game, views, names, locale)``: two histories whose public views
are the same give the same GIF, whatever their hidden cards were (the secrecy tests compare the
bytes).  The same inputs give byte-identical output (Pillow's median cut, nearest-colour mapping
without dithering and LZW are all deterministic).

How it stays small (docs/performance.md, "Replays and the animated picture"):

* **One palette for every frame.**  An adaptive palette of at most 255 colours is built once from
  a mosaic of a few frames spread over the match (the last one included: the result banner has
  colours of its own), and every frame is mapped onto it without dithering.  The GIF then has a
  single global colour table — no frame carries a local one — and a flat-colour board mapped
  without dithering stays flat, which LZW compresses well.
* **Delta frames.**  Because every frame shares the palette, each is compared with the one before
  in palette indices and only the bounding box of what changed is written, its unchanged pixels
  painted with the transparent index (the 256th, which the 255-colour palette leaves free) and
  the frame below kept (disposal 1), so long runs of "unchanged" compress to almost nothing: about
  half the bytes of the bounding box alone (a 152-frame Project Maken match: 4.6 MiB -> 2.6 MiB).
* **A streaming writer** (:func:`_write`; the LZW coding is Pillow's): Pillow's own multi-frame
  writer does the same deltas but holds every frame whole until the end — 2 GB for 300 frames —
  and remaps each frame's palette again; this one holds two frames, ~110 MB at its peak.
* **Identical consecutive frames merged** (their durations summed): steps released together at the
  end of a secret window share one public view, and a command that changes nothing public draws
  the same picture.

Every frame is laid on one canvas (the largest width and height of the match's pictures), top-left
aligned on the pictures' own paper colour: the pictures grow downwards (more cards, the result
banner), so aligning the tops keeps the board in place from frame to frame and the deltas small.
The pictures are 500-720 px wide; at that width they are kept at their native size (Discord shows
a GIF scaled to the phone's width itself, as it does the board PNGs, which are drawn to be read
at 400 px).  A GIF over :data:`MAX_BYTES` (Discord's 8 MiB upload limit without boosts) is
sampled more sparsely (down to the first and last positions), then scaled down, until it fits (at
300 frames a GIF is at most ~6.5 MiB on the bench: this is a guard, not the usual path).
"""
from __future__ import annotations

import io
import struct
import time
import zlib
from dataclasses import dataclass
from typing import Any, Sequence

from PIL import Image, ImageChops

from render.base import PAPER

MAX_BYTES = 8 * 1024 * 1024     # Discord's attachment limit for a server without boosts
MAX_FRAMES = 300                # positions kept at most (sampled evenly beyond)
NATIVE_MAX_WIDTH = 720          # pictures at most this wide are kept at their size
FRAME_MS = 1200                 # a position
TURN_MS = 2500                  # the first position of a new turn: the eye needs a beat to see who moves
FINAL_MS = 5000                 # the end (the result banner) before the loop starts again
PALETTE_COLOURS = 255           # the 256th index stays free for the delta frames' transparency
PALETTE_SAMPLES = 8             # frames in the mosaic the palette is built from
SMALLEST_WIDTH = 120            # scaling down to fit stops here: then it gives up
TRANSPARENT = 255               # the index of a delta frame's unchanged pixels (no colour has it)


@dataclass(frozen=True)
class GifResult:
    """An animated GIF of a match and what it holds."""

    data: bytes           # the GIF file
    frames: int           # frames in the GIF (after identical consecutive ones were merged)
    steps: int            # public steps of the match
    sampled: bool         # the match had more positions than fit (max_frames or MAX_BYTES): sampled evenly
    seconds: float        # drawing + encoding, wall clock


def match_gif(game: str, steps: Sequence[dict], *, start_view: dict | None, names: list[str],
              locale: Any = "en", max_frames: int = MAX_FRAMES, max_bytes: int = MAX_BYTES) -> GifResult:
    """The match as an animated GIF: the start position (when ``start_view`` is given), then the
    public view after each step, drawn with :func:`render.render_image`; looping forever.

    Each frame stays :data:`FRAME_MS`, the first frame of a new turn (``turn`` differs from the
    frame before) :data:`TURN_MS`, the last :data:`FINAL_MS`.  Over ``max_frames`` positions, the
    positions are sampled evenly, the first and the last always kept (``sampled``).  The bytes are
    at most ``max_bytes`` (sampled, then scaled down to fit); ``ValueError`` when there is nothing
    to draw, or when even the first and last positions at :data:`SMALLEST_WIDTH` px do not fit."""
    t0 = time.perf_counter()
    views = ([start_view] if start_view is not None else []) + [s["view"] for s in steps]
    turns = ([start_view.get("turn")] if start_view is not None else []) + [s.get("turn") for s in steps]
    if not views:
        raise ValueError("a match GIF needs at least one position")
    limit = max(2, max_frames)
    scale = 1.0
    while True:
        keep = _sample(len(views), limit)
        data, frames, width = _gif(game, [views[i] for i in keep], _durations([turns[i] for i in keep]),
                                   names, locale, scale)
        if len(data) <= max_bytes:
            return GifResult(data=data, frames=frames, steps=len(steps), sampled=len(keep) < len(views),
                             seconds=time.perf_counter() - t0)
        # Fewer positions first: the bytes go with the frames kept, and each frame stays as
        # readable as the board PNGs.  Scaling down is the last resort: a scaled picture's soft
        # edges compress worse than its area saves (a 60-frame Battle Logic Square GIF at 360 px
        # wide instead of 500 was 1,033 KiB instead of 972).  Each round aims a little low.
        ratio = max_bytes / len(data) * 0.9
        if len(keep) > 2:
            limit = max(2, min(len(keep) - 1, int(len(keep) * ratio)))
        elif width * scale > SMALLEST_WIDTH:
            scale = max(scale * max(0.5, ratio ** 0.5), SMALLEST_WIDTH / width)
        else:
            raise ValueError(f"a match GIF cannot fit {max_bytes} bytes")


def _sample(n: int, limit: int) -> list[int]:
    """``limit`` of the positions 0…n-1 spread evenly, the first and the last always among them
    (all of them when there are no more than ``limit``)."""
    if n <= limit:
        return list(range(n))
    return sorted({round(k * (n - 1) / (limit - 1)) for k in range(limit)})


def _durations(turns: list[Any]) -> list[int]:
    """Milliseconds per frame: :data:`FRAME_MS`, :data:`TURN_MS` on a new turn, :data:`FINAL_MS`
    on the last."""
    out = [TURN_MS if k and turns[k] != turns[k - 1] else FRAME_MS for k in range(len(turns))]
    out[-1] = FINAL_MS
    return out


def _draw(game: str, view: dict, names: list[str], locale: Any, scale: float) -> Image.Image:
    from render import render_image

    picture = render_image(game, view, locale=locale, names=list(names))
    if picture.mode != "RGB":
        picture = picture.convert("RGB")
    if scale != 1.0:
        picture = picture.resize((max(1, round(picture.width * scale)), max(1, round(picture.height * scale))),
                                 Image.Resampling.LANCZOS)
    return picture


def _palette(pictures: list[Image.Image]) -> Image.Image:
    """One adaptive palette for every frame: median cut over a mosaic of a few pictures spread
    over the match (the first and the last among them), each halved by dropping every other pixel
    (nearest neighbour: no colour that is not in a picture)."""
    halves = [p.resize((max(1, p.width // 2), max(1, p.height // 2)), Image.Resampling.NEAREST) for p in pictures]
    mosaic = Image.new("RGB", (sum(h.width for h in halves), max(h.height for h in halves)), PAPER)
    x = 0
    for half in halves:
        mosaic.paste(half, (x, 0))
        x += half.width
    return mosaic.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _gif(game: str, views: list[dict], durations: list[int], names: list[str], locale: Any,
         scale: float) -> tuple[bytes, int, int]:
    """The GIF of ``views`` with ``durations``: (bytes, frames, unscaled canvas width).

    Two passes, so memory stays flat however long the match: each picture is drawn, mapped onto
    the palette and kept only as its zlib-compressed palette indices (~30 KiB instead of ~2 MiB of
    RGB), while the canvas size (the largest picture) is found; then each is laid on the canvas
    and written as a delta frame.  Pillow's own multi-frame writer keeps every frame whole until
    the end (about 2 GB for 300 frames) and remaps each frame's palette again; this writer keeps
    two frames and the output."""
    picks = _sample(len(views), PALETTE_SAMPLES)
    palette = _palette([_draw(game, views[i], names, locale, scale) for i in picks])
    colours = palette.getpalette() or []
    paper = Image.new("RGB", (1, 1), PAPER).quantize(palette=palette, dither=Image.Dither.NONE).getpixel((0, 0))
    packed: list[tuple[tuple[int, int], bytes]] = []
    by_view: dict[int, tuple[tuple[int, int], bytes]] = {}     # the same view object: drawn once
    widest = 0
    for k, view in enumerate(views):
        if k and view == views[k - 1]:          # released together: the same picture again
            packed.append(packed[-1])
            continue
        if id(view) in by_view:                 # (``views`` holds every view, so ids are unique)
            packed.append(by_view[id(view)])
            continue
        picture = _draw(game, view, names, locale, scale)
        widest = max(widest, round(picture.width / scale))
        indices = picture.quantize(palette=palette, dither=Image.Dither.NONE)
        packed.append((indices.size, zlib.compress(indices.tobytes(), 1)))
        by_view[id(view)] = packed[-1]
    size = (max(s[0] for s, _ in packed), max(s[1] for s, _ in packed))
    return (*_write(size, colours, paper, packed, durations), widest)


def _write(size: tuple[int, int], colours: list[int], paper: int,
           packed: list[tuple[tuple[int, int], bytes]], durations: list[int]) -> tuple[bytes, int]:
    """The GIF file: header with the global colour table and the NETSCAPE loop, then each
    frame as the bounding box of what changed since the frame before, its unchanged pixels
    :data:`TRANSPARENT` (and kept: disposal 1, "do not dispose"), identical frames merged."""
    out = io.BytesIO()
    table = bytes(colours[:768]).ljust(768, b"\0")
    out.write(b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, paper, 0) + table)
    out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\0")     # loop forever
    previous: Image.Image | None = None
    pending: list = []          # the frame waiting for its duration: [box, image data, ms]
    frames = 0
    for (dims, raw), ms in zip(packed, durations):
        canvas = Image.new("P", size, paper)
        canvas.paste(Image.frombytes("P", dims, zlib.decompress(raw)), (0, 0))
        if previous is None:
            box, region = (0, 0, *size), canvas
        else:
            delta = ImageChops.subtract_modulo(canvas, previous)
            found = delta.getbbox()
            if found is None:                   # nothing changed: the frame before stays longer
                pending[2] += ms
                continue
            box, region = found, canvas.crop(found)
            region.paste(TRANSPARENT, mask=delta.crop(found).point(_UNCHANGED, "1"))
        if pending:
            _frame(out, *pending, first=frames == 1)
        pending = [box, _lzw(region), ms]
        frames += 1
        previous = canvas
    _frame(out, *pending, first=frames == 1)
    out.write(b"\x3b")
    return out.getvalue(), frames


_UNCHANGED = [255] + [0] * 255      # a delta of 0 (the same palette index) -> the mask's "unchanged"


def _frame(out: io.BytesIO, box: tuple[int, int, int, int], data: bytes, ms: int, *, first: bool) -> None:
    """A graphic control extension (delay, disposal 1, the transparent index on every frame but
    the first) and the image descriptor at ``box`` (no local colour table), then its data."""
    left, top, right, bottom = box
    flags = (1 << 2) | (0 if first else 1)
    delay = min(0xFFFF, round(ms / 10))     # centiseconds, 16 bits: a long run of the same frame is capped
    out.write(b"\x21\xf9\x04" + struct.pack("<BHBB", flags, delay, TRANSPARENT, 0))
    out.write(b"\x2c" + struct.pack("<HHHHB", left, top, right - left, bottom - top, 0) + data)


def _lzw(region: Image.Image) -> bytes:
    """The LZW image data of a palette image (minimum code size, sub-blocks, terminator), by
    Pillow's GIF encoder: the image saved alone, and its data cut out after the image descriptor.
    (No palette remapping and no "optimize": the indices are written as they are.)"""
    buf = io.BytesIO()
    region.save(buf, format="GIF", optimize=False, interlace=False)
    data = buf.getvalue()
    flags = data[10]
    pos = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    while data[pos] == 0x21:                     # extensions Pillow may write before the image
        pos += 2
        while data[pos]:
            pos += 1 + data[pos]
        pos += 1
    if data[pos] != 0x2C or data[pos + 9] & 0x80:
        raise RuntimeError("unexpected GIF layout from Pillow's encoder")
    return data[pos + 10:-1]                     # after the descriptor, up to the trailer
