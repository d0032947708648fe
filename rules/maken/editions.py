"""Project Maken rules editions (as Art of War's): a match keeps the edition it started under, so
a match stored before a balance change replays with its old numbers; a new match uses the newest.

- edition 1: the cards and ready-made decks of ``data/cards/maken/0*.json`` as they are;
- edition 2: the balance changes of ``data/cards/maken/editions.json`` (reasons and figures:
  ``docs/rules/maken.md``, "Balance (rules edition 2)");
- edition 3: the second round of balance changes there ("Balance (rules edition 3)");
- edition 4: the third ("Balance (rules edition 4)");
- edition 5: edition 4's cards under the rulebook's own opening — the very first TP of the game
  draws at most 2 again (``docs/rules/maken.md``, "Rules editions" and "Rules edition 5").

Edition N applies every patch numbered up to N, oldest first.  A patch (one entry of a card file's
``"editions"`` key) may change a character's draw limit (``characters``), the numbers of known cards (``cards``: speed, reach, attack, guard,
cost, gain, the amounts of the bet / hit / support effects, and the destination icon), replace the card counts of a
ready-made deck (``decks``).  Editions 2–4 also changed an opening number the rulebook gives
(``rules``: ``first_draw_limit`` — what the very first TP may draw, printed 2 — and
``second_hand`` — the second player's opening hand, printed 5); that is a rule of the game, not
card content, so only those editions may carry a ``rules`` patch (``RULES_PATCH_LAST``; they are
kept so their matches replay exactly) and every later edition plays the printed numbers.  A
``rules`` patch in a later edition is refused naming the file and the key.  Every patch is
validated like the files' cards; errors name the file, the card (or deck) and the field.

The state records its edition (``d["edition"]``; a state stored before editions has none and is
edition 1) and, from edition 2 on, the opening numbers it plays with (``d["rules"]``), so ``apply``
needs no card set; ``view`` shows the edition and ``determinize`` samples under it.
"""
from __future__ import annotations

import json
from typing import Any

from rules.editions import edition_number, known, number_error, upto
from rules.maken.card_schema import CardDataError, _Ctx, keyed, normalise_card
from rules.maken.decks import deck_problems, normalise_spec

EDITIONS = (1, 2, 3, 4, 5)
EDITION = EDITIONS[-1]
# the last edition allowed a ``rules`` patch (an opening number of the rulebook): editions 2–4 did,
# wrongly, and stay so that their matches replay; from edition 5 the rules are the printed ones
RULES_PATCH_LAST = 4
CARD_FIELDS = ("speed", "reach", "attack", "guard", "cost", "gain", "bet", "hit", "effect", "icon")
RULES = {"first_draw_limit": (1, 3), "second_hand": (3, 8)}
PRINTED = {"first_draw_limit": 2, "second_hand": 5}


def edition_of(value: object) -> int:
    """A known rules edition of this game, or ValueError."""
    return known(value, EDITIONS, "Project Maken")


def rules_patch_error(file: str, card: str | None, field: str, rule: str, why: str) -> Any:
    """The refusal of a rules patch (``cardcheck.rules_patch``, naming the rule).  Its catalog
    text's placeholder is ``{key}``, the name of the error's own ``key`` argument, so the param is
    set after the error is made."""
    err = CardDataError(file, card, field, why, key="rules_patch")
    err.params["key"] = rule
    return err


def _raw(card: dict) -> dict:
    """A normalised card back in its file form (so a patched card is validated as a file card)."""
    out = {k: json.loads(json.dumps(v)) for k, v in card.items() if k not in ("front", "back", "text")}
    if card["kind"] == "attack":
        out["reach"] = card["front"] if card["front"] == card["back"] else [card["front"], card["back"]]
    return out


def parse_patch(cs: Any, file: str, key: str, patch: Any) -> tuple[int, dict]:
    """Validate one edition's changes (``"editions": {"2": {...}}``) against the cards as they stand
    in the edition before (``cs.patches`` must hold every earlier edition's changes)."""
    where = f"editions.{key}"
    if edition_number(key, 2) is None:
        raise CardDataError(file, None, where, number_error(2), key="mk_edition_number", value=str(key)[:20])
    if int(key) not in EDITIONS:
        raise CardDataError(file, None, where, f"unknown rules edition (known: {', '.join(map(str, EDITIONS))})",
                            key="mk_edition_unknown", value=str(key), editions=[str(e) for e in EDITIONS])
    # a card or character is patched as it stands in the edition before (the patches are read
    # oldest first), so a later patch changes only the fields it names and keeps the earlier ones
    cs = at(cs, int(key) - 1)
    if not isinstance(patch, dict):
        raise CardDataError(file, None, where, 'must be an object with "cards", "decks" and/or "rules"',
                            key="not_object")
    out: dict[str, dict] = {"characters": {}, "cards": {}, "decks": {}, "rules": {}}
    for part, value in patch.items():
        if part == "comment":
            continue
        if part not in out:
            raise CardDataError(file, None, f"{where}.{part}",
                                "unknown key; allowed: characters, cards, decks, rules, comment",
                                key="unknown_key", allowed=["characters", "cards", "decks", "rules", "comment"])
        if part == "rules" and int(key) > RULES_PATCH_LAST:
            # the opening numbers are rules of the game, not printed on a card (docs/rules/maken.md: an edition
            # never changes a rule); editions 2–4 stay only so that their matches replay exactly
            named = f".{next(iter(value))}" if isinstance(value, dict) and value else ""
            raise rules_patch_error(file, None, f"{where}.rules{named}", named.lstrip(".") or "rules",
                                    "an edition changes card content only, never a rule of the game; "
                                    f"a rules patch is kept only in editions 2–{RULES_PATCH_LAST}")
        if not isinstance(value, dict):
            raise CardDataError(file, None, f"{where}.{part}", "must be an object keyed by id", key="not_object")
        for cid, fields in value.items():
            if part == "rules":
                lo, hi = RULES.get(cid, (None, None))
                if lo is None:
                    raise CardDataError(file, None, f"{where}.rules.{cid}",
                                        f"not a rules number; allowed: {', '.join(RULES)}",
                                        key="unknown_key", allowed=list(RULES))
                if isinstance(fields, bool) or not isinstance(fields, int) or not lo <= fields <= hi:
                    raise CardDataError(file, None, f"{where}.rules.{cid}",
                                        f"must be a whole number from {lo} to {hi}, not {fields!r}",
                                        key="int_range", low=lo, high=hi, value=str(fields)[:30])
                out["rules"][cid] = fields
            elif part == "decks":
                if cid not in cs.decks:
                    raise CardDataError(file, cid, where, "no such ready-made deck", key="mk_patch_unknown", id=str(cid)[:30])
                spec = {"character": cs.decks[cid]["spec"]["character"], "cards": fields}
                problems = deck_problems(cs, spec) if isinstance(fields, dict) else \
                    [{"text": 'a deck patch is {"<card id>": copies, ...} (the whole deck)', "key": "not_object",
                      "params": {}}]
                if problems:
                    first = problems[0]
                    plain = first["key"] == "maken.deck.malformed"      # its detail is English: not shown
                    raise keyed(file, cid, f"{where}.decks", "illegal deck: " + "; ".join(p["text"] for p in problems),
                                "not_object" if plain else first["key"], {} if plain else first["params"])
                out["decks"][cid] = normalise_spec(spec)
            elif part == "characters":
                if cid not in cs.characters:
                    raise CardDataError(file, cid, where, "no such character", key="mk_patch_unknown", id=str(cid)[:30])
                if not isinstance(fields, dict) or set(fields) != {"draw_limit"}:
                    raise CardDataError(file, cid, where, 'a character patch is {"draw_limit": 1–5}',
                                        key="mk_patch_character")
                n = fields["draw_limit"]
                if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
                    raise CardDataError(file, cid, f"{where}.draw_limit", f"must be a whole number from 1 to 5, not {n!r}",
                                        key="int_range", low=1, high=5, value=str(n)[:30])
                out["characters"][cid] = {**cs.characters[cid], "draw_limit": n}
            else:
                if cid not in cs.cards:
                    raise CardDataError(file, cid, where, "no such card", key="mk_patch_unknown", id=str(cid)[:30])
                if not isinstance(fields, dict) or not fields:
                    raise CardDataError(file, cid, where, f"must be an object with some of: {', '.join(CARD_FIELDS)}",
                                        key="mk_patch_fields", allowed=list(CARD_FIELDS))
                for f in fields:
                    if f not in CARD_FIELDS:
                        raise CardDataError(file, cid, f"{where}.{f}",
                                            f"cannot be patched; allowed: {', '.join(CARD_FIELDS)}",
                                            key="unknown_field", allowed=list(CARD_FIELDS))
                    old = cs.cards[cid].get(f)
                    if f in ("bet", "hit", "effect") and (
                            not isinstance(fields[f], list) or len(fields[f]) != len(old or [])
                            or any(not isinstance(e, dict) or e.get("do") != o["do"] for e, o in zip(fields[f], old))):
                        raise CardDataError(file, cid, f"{where}.{f}",
                                            "an edition changes effect amounts only: the same effects in the same order",
                                            key="mk_patch_effects")
                card = normalise_card(_Ctx(file), {**_raw(cs.cards[cid]), **fields}, cs.characters)
                out["cards"][cid] = card
    return int(key), out


def at(cs: Any, edition: int) -> Any:
    """``cs`` (the files' cards, with ``patches``; a :class:`rules.maken.cards.CardSet`) as it
    stands in rules ``edition``: a card set of the same class."""
    def step(sets: tuple[dict, dict, dict, dict], _ed: int, patch: dict) -> tuple[dict, dict, dict, dict]:
        characters, cards, decks, rules = sets
        characters.update(patch["characters"])
        cards.update(patch["cards"])
        for did, spec in patch["decks"].items():
            decks[did] = {"name": decks[did]["name"], "spec": json.loads(json.dumps(spec))}
        rules.update(patch["rules"])
        return sets

    characters, cards, decks, rules = upto((dict(cs.characters), dict(cs.cards), dict(cs.decks), dict(PRINTED)),
                                           cs.patches, edition, step)
    if edition > RULES_PATCH_LAST:      # the rulebook's opening, whatever editions 2–4 changed
        rules = dict(PRINTED)
    out = type(cs)(characters, cards, decks)
    out.rules = rules
    return out


# ------------------------------------------------------------------ the state's opening numbers
def stamp(d: dict, edition: int, cs: Any) -> None:
    """Record the edition (and, when they differ from the printed ones, its opening numbers)."""
    d["edition"] = edition
    rules = {k: v for k, v in getattr(cs, "rules", PRINTED).items() if v != PRINTED[k]}
    if rules:
        d["rules"] = rules


def edition_key(d: dict) -> dict:
    """The view's ``edition`` (absent for edition 1, so edition 1's views are as before editions;
    ``determinize`` reads a view without one as edition 1)."""
    ed = d.get("edition", 1)
    return {} if ed == 1 else {"edition": ed}


def first_draw_limit(d: dict) -> int:
    return d.get("rules", {}).get("first_draw_limit", PRINTED["first_draw_limit"])


def hand_start(d: dict, s: int) -> int:
    return d.get("rules", {}).get("second_hand", PRINTED["second_hand"]) if s != d["first"] else PRINTED["second_hand"]


class EditionsMixin:
    """The editions surface of :class:`rules.maken.engine.MakenGame` (as Art of War's engine)."""

    editions = EDITIONS
    files_cardset: Any
    cardset: Any
    edition: int

    def _init_editions(self, cardset: Any, edition: int | None) -> None:
        self.files_cardset = cardset                      # the files' cards with every patch
        self.edition = EDITION if edition is None else edition_of(edition)   # new matches: the newest
        self.cardset = cardset.at(self.edition) if hasattr(cardset, "at") else cardset
        self._other_editions: dict[int, Any] = {}
        self.__dict__.pop("_all_cards_json", None)      # :meth:`_all_cards` writes it again

    def _all_cards(self) -> dict:
        """A copy of every character and card of this edition (a state holds its cards): read
        from their JSON, written once per engine (the card set of an engine does not change)."""
        text = self.__dict__.get("_all_cards_json")
        if text is None:
            text = self.__dict__["_all_cards_json"] = json.dumps(
                dict(list(self.cardset.characters.items()) + list(self.cardset.cards.items())))
        return json.loads(text)

    def cardset_at(self, edition: int) -> Any:
        """The cards and ready-made decks of rules ``edition`` (a match keeps its edition's)."""
        return self.for_edition(edition).cardset

    def for_edition(self, edition: Any) -> Any:
        """This game under rules ``edition`` (ValueError for an unknown one)."""
        ed = edition_of(edition)
        if ed == self.edition:
            return self
        got = self._other_editions.get(ed)
        if got is None:
            got = self._other_editions[ed] = type(self)(self.files_cardset, edition=ed)
        return got


__all__ = ["EDITIONS", "EDITION", "RULES_PATCH_LAST", "PRINTED", "EditionsMixin", "edition_of", "parse_patch", "at", "stamp",
           "rules_patch_error",
           "first_draw_limit", "hand_start", "edition_key"]
