"""The list of games waiting on a player (``/turns``) and its daily digest, in words.

Pure functions over plain rows (:class:`Waiting`), one per unfinished match or event game in
which the player is to act, across every server the bot shares with them; ``now`` is an
instant (epoch seconds, UTC).

* **Order**: by time left.  First the games whose clock runs, by deadline; then those whose
  clock is paused (a weekend pause, playing hours, a vacation: no deadline yet) by the bank
  they have left; then the games without a time limit.  Ties by match number.
* **Privacy**: a server's name and a jump link are shown only where the player may see that
  server and channel; elsewhere the entry says "a match in another server", without its name.
  The game, the opponents (whom the player is seated with), the turn and the time left are
  always shown.
* **Pages**: each page is one message within Discord's 2,000 characters (counted in UTF-16
  units, as Discord counts them) and at most ``per_page`` entries; the header and the page
  indicator are counted in.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from data import i18n

MESSAGE_LIMIT = 2000
PER_PAGE = 10
NAME_MAX = 32                   # a Discord display name
SERVER_MAX = 100                # a Discord server name
OPPONENTS_MAX = 6


@dataclass(frozen=True)
class Waiting:
    """One game waiting on the player.  ``deadline`` is the instant the player's time runs out
    while their clock runs; ``bank_left`` the seconds left while it is paused (no deadline);
    neither for a game without a time limit.  ``visible``: the player may see the server and
    channel (then ``server`` and ``url`` are shown)."""

    match_id: int
    guild_id: int | None
    game: str
    opponents: Sequence[str] = field(default_factory=tuple)
    turn: int = 1
    deadline: float | None = None
    bank_left: float | None = None
    visible: bool = True
    url: str | None = None
    event: bool = False
    server: str | None = None


def sort_key(row: Waiting) -> tuple[int, float, int]:
    if row.deadline is not None:
        return (0, row.deadline, row.match_id)
    if row.bank_left is not None:
        return (1, row.bank_left, row.match_id)
    return (2, 0.0, row.match_id)


def order(rows: Iterable[Waiting]) -> list[Waiting]:
    """The entries by time left (running clocks by deadline, paused ones by bank left, no time
    limit last; ties by match number)."""
    return sorted(rows, key=sort_key)


def units(text: str) -> int:
    """A text's length as Discord counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _clip(name: str, limit: int) -> str:
    name = " ".join(str(name).split())
    return name if len(name) <= limit else name[: limit - 1] + "…"


def span_text(seconds: float, locale: Any) -> str:
    """A duration in words: ``2 d 3 h``, ``5 h 10 min``, ``45 min`` (``2日3時間`` …)."""
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return i18n.t("clock.turns.span.dh", locale, d=days, h=hours)
    if hours:
        return i18n.t("clock.turns.span.hm", locale, h=hours, m=mins)
    return i18n.t("clock.turns.span.m", locale, m=mins)


def left_text(row: Waiting, locale: Any) -> str:
    """The time left: a Discord timestamp (each reader sees it in their own time zone) while
    the clock runs, the bank left while it is paused."""
    if row.deadline is not None:
        return i18n.t("clock.turns.left.deadline", locale, at=int(row.deadline))
    if row.bank_left is not None:
        return i18n.t("clock.turns.left.paused", locale, left=span_text(row.bank_left, locale))
    return i18n.t("clock.turns.left.none", locale)


def _match(row: Waiting, locale: Any) -> str:
    if row.visible and row.url:
        return i18n.t("clock.turns.match_link", locale, match_id=row.match_id, url=row.url)
    return i18n.t("clock.turns.match", locale, match_id=row.match_id)


def _where(row: Waiting, locale: Any) -> str:
    if row.guild_id is None:
        return ""
    if not row.visible:
        return i18n.t("clock.turns.where.hidden", locale)
    if row.server:
        return i18n.t("clock.turns.where.server", locale, server=_clip(row.server, SERVER_MAX))
    return ""


def _opponents(row: Waiting, locale: Any) -> str:
    names = [_clip(n, NAME_MAX) for n in row.opponents[:OPPONENTS_MAX]]
    if len(row.opponents) > OPPONENTS_MAX:
        names.append(i18n.t("clock.turns.more_names", locale, n=len(row.opponents) - OPPONENTS_MAX))
    return i18n.t("core.list_sep", locale).join(names) if names else i18n.t("clock.turns.nobody", locale)


def entry_text(row: Waiting, locale: Any, rank: int) -> str:
    """One entry of ``/turns``: rank, game, match (a jump link where the player may see it),
    opponents, turn, time left, and where it is played."""
    text = i18n.t("clock.turns.line", locale, rank=rank, game=i18n.t(f"game.{row.game}", locale),
                  match=_match(row, locale), opponents=_opponents(row, locale),
                  turn=i18n.t(i18n.game_key("clock.turns.turn", row.game), locale, turn=row.turn),
                  left=left_text(row, locale))
    extra = [part for part in (i18n.t("clock.turns.event", locale) if row.event else "", _where(row, locale)) if part]
    if extra:
        text += i18n.t("clock.turns.extra", locale, extra=i18n.t("core.list_sep", locale).join(extra))
    return text


def short_text(row: Waiting, locale: Any) -> str:
    """One entry of the digest: game, match, time left."""
    return i18n.t("clock.turns.short", locale, game=i18n.t(f"game.{row.game}", locale), match=_match(row, locale),
                  left=left_text(row, locale))


def pages(rows: Iterable[Waiting], locale: Any, per_page: int = PER_PAGE,
          limit: int = MESSAGE_LIMIT) -> list[str]:
    """``/turns``: the entries in order, as messages of at most ``per_page`` entries and
    ``limit`` characters each (a header, the entries, and the page indicator when there are
    several pages)."""
    ordered = order(rows)
    if not ordered:
        return [i18n.t("clock.turns.empty", locale)]
    n = len(ordered)
    header = i18n.t("clock.turns.header", locale, n=n)
    # room for the page indicator with the most digits it can have
    worst_footer = i18n.t("clock.turns.page", locale, page=n, pages=n)
    budget = limit - units(header) - units(worst_footer) - 2
    chunks: list[list[str]] = []
    size = 0
    for rank, row in enumerate(ordered, 1):
        line = entry_text(row, locale, rank)
        if units(line) > budget:                # a pathological line: the short form, cut
            line = f"{rank}. " + short_text(row, locale)
            line = line if units(line) <= budget else line[: budget - 1] + "…"
        cost = units(line) + 1
        if not chunks or len(chunks[-1]) >= per_page or size + cost > budget:
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += cost
    out = []
    for i, chunk in enumerate(chunks, 1):
        text = header + "\n" + "\n".join(chunk)
        if len(chunks) > 1:
            text += "\n" + i18n.t("clock.turns.page", locale, page=i, pages=len(chunks))
        out.append(text)
    return out


def digest_text(rows: Iterable[Waiting], locale: Any, limit: int = MESSAGE_LIMIT) -> str | None:
    """The daily digest DM: the same list in short form in one message (the entries that do
    not fit are counted at the end); None when nothing waits (no digest is sent)."""
    ordered = order(rows)
    if not ordered:
        return None
    lines = [i18n.t("clock.turns.digest.header", locale, n=len(ordered))]
    worst_more = i18n.t("clock.turns.digest.more", locale, n=len(ordered))
    size = units(lines[0])
    for i, row in enumerate(ordered):
        line = "• " + short_text(row, locale)
        rest = len(ordered) - i - 1
        room = limit - size - 1 - (units(worst_more) + 1 if rest else 0)
        if units(line) > room:
            lines.append(i18n.t("clock.turns.digest.more", locale, n=len(ordered) - i))
            break
        lines.append(line)
        size += units(line) + 1
    return "\n".join(lines)
