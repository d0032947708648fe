"""What changed between two versions of a set (or a set and the shipped cards), in words:
"Firewall Refresh: cost 1 → 2".

Each side is a list of :class:`data.card_sets.model.Entry` (cards and decks, each with its
:class:`Fact` s); entries are matched by id, facts by their stable key.  Pure: the words come
from the catalog (``cardset.diff.*``) in the reader's language.

>>> from data.card_sets.model import Entry, Fact
>>> def card(cost):
...     return Entry("av02", "avi", {"en": "Aegis Loop", "ja": "イージスループ"}, {"en": "", "ja": ""},
...                  [Fact("abilities.0.cost", {"en": "cost", "ja": "コスト"}, {"en": str(cost), "ja": str(cost)},
...                        {"en": "Firewall Refresh", "ja": "ファイアウォール更新"})])
>>> for line in render(changes([card(1)], [card(2)]), "en"):
...     print(line)
Aegis Loop — Firewall Refresh: cost 1 → 2
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data import i18n
from data.card_sets.model import Entry

ADDED, REMOVED, CHANGED, GAINED, LOST, RENAMED = "added", "removed", "changed", "gained", "lost", "renamed"


@dataclass(frozen=True)
class Change:
    """``kind``: added / removed (a whole card or deck), renamed, changed / gained / lost (a fact)."""

    kind: str
    name: dict                  # the card's or deck's name (the new one; removed: the old one)
    deck: bool = False
    subject: dict | None = None
    label: dict | None = None
    old: dict | None = None
    new: dict | None = None


def changes(old: list[Entry], new: list[Entry]) -> list[Change]:
    """Every change from ``old`` to ``new``, in the new set's order (removed ones last)."""
    before = {e.id: e for e in old}
    after_ids = {e.id for e in new}
    out: list[Change] = []
    for e in new:
        was = before.get(e.id)
        if was is None:
            out.append(Change(ADDED, e.name, e.deck))
            continue
        if was.name != e.name:
            out.append(Change(RENAMED, e.name, e.deck, old=was.name, new=e.name))
        old_facts = {f.key: f for f in was.facts}
        new_keys = set()
        for f in e.facts:
            new_keys.add(f.key)
            prev = old_facts.get(f.key)
            if prev is None:
                out.append(Change(GAINED, e.name, e.deck, f.subject, f.label, None, f.value))
            elif prev.value != f.value:
                out.append(Change(CHANGED, e.name, e.deck, f.subject, f.label, prev.value, f.value))
        for f in was.facts:
            if f.key not in new_keys:
                out.append(Change(LOST, e.name, e.deck, f.subject, f.label, f.value, None))
    for e in old:
        if e.id not in after_ids:
            out.append(Change(REMOVED, e.name, e.deck))
    return out


def _t(value: dict | None, locale: str) -> str:
    if not value:
        return ""
    return str(value.get(locale) or value.get("en") or next(iter(value.values()), ""))


def render(found: list[Change], locale: Any = "en") -> list[str]:
    """One line per change in the reader's language."""
    loc = i18n.locale_of(locale)
    lines = []
    for c in found:
        name = _t(c.name, loc)
        whole = "deck" if c.deck else "card"
        if c.kind in (ADDED, REMOVED):
            lines.append(i18n.t(f"cardset.diff.{c.kind}_{whole}", loc, name=name))
            continue
        if c.kind == RENAMED:
            lines.append(i18n.t("cardset.diff.renamed", loc, old=_t(c.old, loc), new=name))
            continue
        what = i18n.t("cardset.diff.subject", loc, name=name, subject=_t(c.subject, loc)) if c.subject else name
        lines.append(i18n.t(f"cardset.diff.{c.kind}", loc, what=what, label=_t(c.label, loc),
                            old=_t(c.old, loc), new=_t(c.new, loc)))
    return lines


__all__ = ["Change", "changes", "render", "ADDED", "REMOVED", "CHANGED", "GAINED", "LOST", "RENAMED"]
