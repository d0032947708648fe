"""The messages of limited play as Components V2 layouts (cogs/layouts.py), built from what the
draft service says (host/limited/service.py) — no Discord calls here, so each is tested alone:

* :func:`table_layout` — the draft's public message in its channel: the set, the format, the seats
  (people by name, computers as such), what the draft waits for and until when, and its buttons.
* :func:`pick_layout` — a drafter's DM: the pack as a picture with each card numbered, one select
  to pick (the same numbers and names), their pool one tap away, the time left.
* :func:`winston_layout` — a Winston player's DM: the pile in front of them, Take and Pass.
* :func:`build_layout` — deck building (to the player alone): the pool, the limits, the kept
  part's select and the pool's cards in selects, Save and Build for me.
* :func:`survey_layout` — the survey after a match of a server's own set.

Card and player names are people's text: shown through :func:`cogs.common.safe_text`.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

import discord

from cogs.common import clip, game_name, safe_text, tr
from cogs.draft_items import (
    BuildButton, BuildSelect, PickSelect, SurveyButton, SurveySelect, TableButton, WinstonButton,
)
from cogs.layouts import layout, rows_of

SELECT_MAX = 25              # Discord: options in a select
LABEL_MAX = 100              # Discord: a select option's label and value
ACCENT = {"open": 0xF1C40F, "drafting": 0x5865F2, "building": 0x1ABC9C, "done": 0x2ECC71, "cancelled": 0x95A5A6}
PACK_PICTURE = "pack.png"
POOL_PICTURE = "pool.png"
MAIN_SELECTS = 4             # selects of pool cards in the deck builder (4 × 25 = 100 cards)


def when(t: float | None) -> str:
    """A Discord timestamp that each reader sees in their own time and as "in 40 seconds"."""
    return f"<t:{int(t)}:R>" if t else ""


def draft_title(row: Any, locale: str) -> str:
    return tr(f"draft.title.{row.format}", locale, draft=row.id, game=game_name(row.game, locale))


def set_line(row: Any, locale: str) -> str:
    if row.set_name is None:
        return tr("draft.set.shipped", locale)
    return tr("draft.set.own", locale, name=safe_text(row.set_name, 40), version=row.set_version)


def seat_lines(row: Any, locale: str, *, decks: bool = False, waiting: Iterable[int] = ()) -> list[str]:
    waiting = set(waiting)
    out = []
    for s in row.seats:
        if s.user_id is None:
            who = tr("draft.seat.computer" if row.status != "open" else "draft.seat.open", locale)
        else:
            who = f"<@{s.user_id}> ({safe_text(s.name, 40)})"
        mark = ""
        if decks and s.user_id is not None:
            mark = " ✅" if s.deck else " ⏳"
        elif s.seat in waiting:
            mark = " ⏳"
        out.append(f"{s.seat + 1}. {who}{mark}")
    return out


def table_layout(row: Any, locale: str, *, waiting: Sequence[int] = (), deadline: float | None = None,
                 info: dict | None = None, play: str = "`/draft play`",
                 round_no: tuple[int, int] | None = None, league: int | None = None,
                 late: Sequence[dict] = ()) -> discord.ui.LayoutView:
    """The draft's public message; ``waiting``: the seats picking now, ``deadline`` the earliest
    time a pick is taken for its player; ``info``: the draft's numbers (packs, size, timer);
    ``play``: the command that challenges, as the reader's client names it; ``round_no``: a
    booster draft's (round, rounds), to say which way its packs pass; ``league``: the event whose
    pod this is (its decks are locked, its pools and seed shown under the event's decklist rules);
    ``late``: the newest picks the timer made for a person (who and which pick, never the card)."""
    info = info or {}
    blocks = [set_line(row, locale) + tr("draft.sep", locale) + format_line(row, info, locale)]
    blocks.append("\n".join(seat_lines(row, locale, decks=row.status in ("building", "done"), waiting=waiting)))
    if row.status == "open":
        blocks.append(tr("draft.table.open", locale))
        items = [TableButton(row.id, a, label=tr(f"draft.button.{a}", locale),
                             style=discord.ButtonStyle.primary if a in ("join", "start") else discord.ButtonStyle.secondary)
                 for a in ("join", "leave", "start", "cancel")]
    elif row.status == "drafting":
        names = [f"<@{s.user_id}>" if s.user_id else tr("draft.seat.computer", locale)
                 for s in row.seats if s.seat in set(waiting)]
        line = tr("draft.table.picking", locale, names=", ".join(names) or "-")
        if round_no is not None and row.format == "booster":
            way = tr("draft.way.left" if round_no[0] % 2 == 1 else "draft.way.right", locale)
            line = tr("draft.two_sentences", locale, a=tr("draft.table.round", locale, round=round_no[0],
                                                           rounds=round_no[1], way=way), b=line)
        if deadline:
            line = tr("draft.two_sentences", locale, a=line, b=tr("draft.table.until", locale, when=when(deadline)))
        blocks.append(line)
        if late:
            names = {s.seat: safe_text(s.name, 40) for s in row.seats}
            said = [tr("draft.table.late_pick" if x["round"] is not None else "draft.table.late_take", locale,
                       name=names.get(x["seat"], "?"), round=x["round"] or 0, pick=x["pick"]) for x in late]
            blocks.append("-# ⏱ " + tr("draft.table.late", locale, picks=tr("core.list_sep", locale).join(said)))
        items = [TableButton(row.id, "pack", label=tr("draft.button.pack", locale), style=discord.ButtonStyle.primary)]
    elif row.status == "building":
        blocks.append(tr("draft.table.building", locale, command=play) if league is None
                      else tr("draft.table.event_building", locale, league=league))
        items = [TableButton(row.id, "build", label=tr("draft.button.build", locale), style=discord.ButtonStyle.primary),
                 TableButton(row.id, "close", label=tr("draft.button.close", locale))]
    elif row.status == "done" and league is not None:
        blocks.append(tr("draft.table.event_done", locale, league=league))
        items = [TableButton(row.id, "show", label=tr("draft.button.show", locale)),
                 TableButton(row.id, "build", label=tr("draft.button.deck", locale))]
    elif row.status == "done":
        blocks.append(tr("draft.table.done", locale, seed=row.seed.hex()))
        items = [TableButton(row.id, "show", label=tr("draft.button.show", locale)),
                 TableButton(row.id, "build", label=tr("draft.button.deck", locale))]
    else:
        blocks.append(tr("draft.table.cancelled", locale))
        items = []
    return layout(accent=ACCENT.get(row.status), title=draft_title(row, locale), blocks=blocks, rows=rows_of(items))


def format_line(row: Any, info: dict, locale: str) -> str:
    timer = int(info.get("timer") or 0)
    timer_text = tr("draft.timer.none", locale) if not timer else tr("draft.timer.per_card", locale, n=timer)
    if row.format == "winston":
        return tr("draft.format.winston", locale, n=info.get("size", 0), timer=timer_text)
    if row.format == "sealed":
        return tr("draft.format.sealed", locale, packs=info.get("packs", 0), size=info.get("size", 0))
    return tr("draft.format.booster", locale, packs=info.get("packs", 0), size=info.get("size", 0), timer=timer_text)


def _card_options(cards: Any, ids: Sequence[str], locale: str, *, numbered: bool = True,
                  values: Sequence[str] | None = None, chosen: Iterable[str] = ()) -> list[discord.SelectOption]:
    chosen = set(chosen)
    out = []
    for i, cid in enumerate(ids):
        name = safe_text(cards.name(cid, locale), 80)
        label = clip(f"{i + 1}. {name}" if numbered else name, LABEL_MAX)
        value = (values[i] if values is not None else cid)[:LABEL_MAX]
        out.append(discord.SelectOption(label=label, value=value, default=value in chosen))
    return out


def pick_layout(row: Any, front: dict | None, cards: Any, pool: Sequence[str], locale: str, *,
                note: str = "") -> discord.ui.LayoutView:
    """A drafter's DM: the pack in front of them (``front``: the service's ``in_front``), or what
    they wait for; their pool is one tap away."""
    title = draft_title(row, locale)
    blocks = [note] if note else []
    pool_button = TableButton(row.id, "pool", label=tr("draft.button.pool", locale, n=len(pool)))
    if front is None or front.get("kind") != "pack":
        blocks.append(tr("draft.dm.waiting" if row.status == "drafting" else "draft.dm.over", locale))
        return layout(accent=ACCENT.get(row.status), title=title, blocks=blocks, rows=rows_of([pool_button]))
    ids = list(front["cards"])
    head = tr("draft.dm.pack", locale, round=front["round"], rounds=front["rounds"], pick=front["pick"],
              n=len(ids))
    if front.get("deadline"):
        head += "\n" + tr("draft.dm.deadline", locale, when=when(front["deadline"]))
    if front.get("queued", 1) > 1:
        head += "\n" + tr("draft.dm.queued", locale, n=front["queued"] - 1)
    blocks.insert(0, head)
    select = PickSelect(row.id, int(front["round"]), int(front["pick"]),
                        options=_card_options(cards, ids[:SELECT_MAX], locale),
                        placeholder=tr("draft.dm.placeholder", locale))
    return layout(accent=ACCENT["drafting"], title=title, pictures=[(PACK_PICTURE, head.split("\n")[0])],
                  blocks=blocks, rows=rows_of([select, pool_button]))


def winston_layout(row: Any, front: dict | None, cards: Any, pool: Sequence[str], locale: str, *,
                   other: str = "", note: str = "") -> discord.ui.LayoutView:
    """A Winston player's DM: the pile in front of them with Take and Pass, or whose look it is."""
    title = draft_title(row, locale)
    blocks = [note] if note else []
    pool_button = TableButton(row.id, "pool", label=tr("draft.button.pool", locale, n=len(pool)))
    if front is None:
        blocks.append(tr("draft.winston.theirs", locale, name=other) if row.status == "drafting"
                      else tr("draft.dm.over", locale))
        return layout(accent=ACCENT.get(row.status), title=title, blocks=blocks, rows=rows_of([pool_button]))
    head = tr("draft.winston.pile", locale, pile=front["pile"], n=len(front["cards"]), stack=front["stack"],
              piles=" · ".join(str(n) for n in front["piles"]))
    if front.get("deadline"):
        head += "\n" + tr("draft.dm.deadline_pile", locale, when=when(front["deadline"]))
    names = "\n".join(f"{i}. {safe_text(cards.name(c, locale), 80)}" for i, c in enumerate(front["cards"], 1))
    blocks[:0] = [head, names]
    take = WinstonButton(row.id, int(front["turn"]), "take", label=tr("draft.button.take", locale),
                         style=discord.ButtonStyle.success)
    items = [take]
    if front.get("can_pass"):
        items.append(WinstonButton(row.id, int(front["turn"]), "pass",
                                   label=tr("draft.button.pass", locale, pile=front["pile"])))
    return layout(accent=ACCENT["drafting"], title=title, pictures=[(PACK_PICTURE, head.split("\n")[0])],
                  blocks=blocks, rows=rows_of([*items, pool_button]))


def copy_values(pool: Sequence[str]) -> list[tuple[str, str]]:
    """Each copy of the pool once, as (card id, value): ``id~1``, ``id~2`` for a second copy, so
    a multi-select can take one copy and not another."""
    seen: Counter = Counter()
    out = []
    for cid in sorted(pool):
        seen[cid] += 1
        out.append((cid, f"{cid}~{seen[cid]}"))
    return out


def build_layout(row: Any, data: dict, locale: str, *, chosen: dict | None = None,
                 problems: Sequence[str] = (), saved: bool = False, play: str = "`/draft play`"
                 ) -> discord.ui.LayoutView:
    """Deck building, to the player alone: their pool, the limits, a select for each kept part
    (from the pool where it has them, else from the set), the pool's cards in multi-selects (one
    tap chooses many), Save and Build for me.  ``chosen``: what is chosen so far (slot → values)."""
    cards, pool, rules = data["cards"], data["pool"], data["rules"]
    chosen = chosen or {}
    deck = data.get("deck") or []
    kinds = cards.kinds
    kept_kinds = list(data["kept"])
    main = [(cid, v) for cid, v in copy_values(pool) if kinds.get(cid) not in kept_kinds]
    limits = tr("draft.build.rules", locale, size=rules["size"],
                copies=rules["copies"] if rules.get("copies") else tr("draft.build.game_copies", locale))
    blocks = [limits]
    if deck:
        shown = Counter(deck)
        blocks.append(tr("draft.build.current", locale, n=len(deck), cards=", ".join(
            f"{safe_text(cards.name(c, locale), 40)}{f' ×{n}' if n > 1 else ''}" for c, n in shown.items())))
    if saved:
        blocks.append("✅ " + tr("draft.build.saved", locale, command=play))
    if problems:      # the headline, then each broken rule
        blocks.append("⚠️ " + "\n".join([problems[0], *(f"- {p}" for p in problems[1:11])]))
    items: list[Any] = []
    for kind in kept_kinds:
        options = data["kept"][kind][:SELECT_MAX]
        if not options:
            continue
        many = kind == "it"
        limit = min(len(options), 5) if many else 1
        items.append(BuildSelect(row.id, f"k.{kind}", options=_card_options(
            cards, options, locale, numbered=False, chosen=chosen.get(f"k.{kind}", [])),
            min_values=1, max_values=limit, placeholder=tr("draft.build.kept", locale, kind=kind)))
    for i in range(MAIN_SELECTS):
        part = main[i * SELECT_MAX:(i + 1) * SELECT_MAX]
        if not part:
            break
        values = [v for _, v in part]
        items.append(BuildSelect(row.id, f"m.{i}", options=_card_options(
            cards, [c for c, _ in part], locale, numbered=False, values=values, chosen=chosen.get(f"m.{i}", [])),
            min_values=0, max_values=len(part),
            placeholder=tr("draft.build.main", locale, part=i + 1, parts=(len(main) + SELECT_MAX - 1) // SELECT_MAX)))
    items.append(BuildButton(row.id, "save", label=tr("draft.button.save", locale), style=discord.ButtonStyle.success))
    items.append(BuildButton(row.id, "auto", label=tr("draft.button.auto", locale)))
    return layout(accent=ACCENT.get(row.status), title=tr("draft.build.title", locale, draft=row.id),
                  pictures=[(POOL_PICTURE, tr("draft.build.pool_alt", locale, n=len(pool)))],
                  blocks=blocks, rows=rows_of(items), timeout=None)


def survey_layout(match_id: int, game: str, set_label: str, seen: Sequence[str], cards: Any, locale: str,
                  answer: Any = None) -> discord.ui.LayoutView:
    """The one-tap survey after a match of a server's own set: fun 1–5, a card too strong, a card
    too weak (from the cards the player saw: the first 25 by name)."""
    ids = sorted(seen, key=lambda c: cards.name(c, locale).casefold() if cards else c)[:SELECT_MAX]
    blocks = [tr("draft.survey.ask", locale, match=match_id, set=set_label)]
    if answer is not None:
        parts = []
        if answer.fun:
            parts.append(tr("draft.survey.fun_is", locale, n=answer.fun))
        if answer.strong:
            parts.append(tr("draft.survey.strong_is", locale, card=safe_text(cards.name(answer.strong, locale), 60)))
        if answer.weak:
            parts.append(tr("draft.survey.weak_is", locale, card=safe_text(cards.name(answer.weak, locale), 60)))
        if parts:
            blocks.append("✅ " + " · ".join(parts))
    items: list[Any] = [SurveyButton(match_id, n, label=str(n), style=discord.ButtonStyle.primary
                                     if answer is not None and answer.fun == n else discord.ButtonStyle.secondary)
                        for n in range(1, 6)]
    if ids and cards is not None:
        for part in ("strong", "weak"):
            items.append(SurveySelect(match_id, part, options=_card_options(
                cards, ids, locale, numbered=False, chosen=[getattr(answer, part)] if answer and getattr(answer, part) else []),
                placeholder=tr(f"draft.survey.{part}", locale)))
    return layout(accent=0x9B59B6, title=tr("draft.survey.title", locale, match=match_id, game=game_name(game, locale)),
                  blocks=blocks, footer=tr("draft.survey.anonymous", locale), rows=rows_of(items))


__all__ = ["table_layout", "pick_layout", "winston_layout", "build_layout", "survey_layout", "copy_values", "when",
           "PACK_PICTURE", "POOL_PICTURE"]
