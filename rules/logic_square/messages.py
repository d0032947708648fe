"""English text of every Battle Logic Square message key.

``data/i18n/en/logic_square.json`` holds the same texts (a test checks they agree) and
``data/i18n/ja/logic_square.json`` the Japanese ones with the same placeholders.  Outcome reasons
use the host's ``reason.<name>`` keys, so they live here too.
"""
from __future__ import annotations

EN: dict[str, str] = {
    # --- errors (IllegalCommand keys)
    "logic_square.err.game_over": "The match is over; no more commands are accepted.",
    "logic_square.err.not_your_turn": "It is not your turn: waiting for player {waiting}.",
    "logic_square.err.resolving": "The last card is still being resolved. Try again in a moment.",
    "logic_square.err.empty": "Type a command. Legal now: {legal}",
    "logic_square.err.syntax": "Cannot read \"{command}\": write it like {usage}. Legal now: {legal}",
    "logic_square.err.unknown_verb": "Unknown action \"{verb}\": use move, use, it, avi, caa, end, chain, pass or discard. Legal now: {legal}",
    "logic_square.err.unknown_square": "\"{token}\" is not a square: files a–e, ranks 1–5 (like c3). Legal now: {legal}",
    "logic_square.err.unknown_card": "\"{token}\" is not a card id in this match. Legal now: {legal}",
    "logic_square.err.not_in_hand": "{card} is not in your hand. Legal now: {legal}",
    "logic_square.err.no_ap": "That costs {cost} AP and you have {ap} AP left. Legal now: {legal}",
    "logic_square.err.move_not_adjacent": "Your AVI on {origin} moves one square left, right, forward or back; {square} is not next to it. Legal now: {legal}",
    "logic_square.err.move_occupied": "{square} is occupied: an AVI moves only to an empty square. Legal now: {legal}",
    "logic_square.err.move_opponent_area": "{square} is in your opponent's area (their two nearest rows): your AVI cannot enter it. Legal now: {legal}",
    "logic_square.err.br_chain_only": "{card} is a Br card: it can only be declared in a chain, when its break condition holds. Legal now: {legal}",
    "logic_square.err.not_hand_card": "{card} is not a card you use from your hand (AVI and IT cards have their own commands). Legal now: {legal}",
    "logic_square.err.no_target": "{card} needs an opponent's AVI or placed card in its hit range, and there is none. Legal now: {legal}",
    "logic_square.err.no_square": "{card} needs an empty square in its range to place or move to, and there is none. Legal now: {legal}",
    "logic_square.err.square_needed": "Say where: {card} places or moves to a square of its range, e.g. {example}. Legal now: {legal}",
    "logic_square.err.square_not_allowed": "{card} hits everything of your opponent's in its range: name no square. Legal now: {legal}",
    "logic_square.err.bad_square": "{square} is not a square {card} can choose (it must be empty and in range; an AVI never enters the opponent's area). Legal now: {legal}",
    "logic_square.err.it_unknown": "{card} is not an unused IT card of yours. Legal now: {legal}",
    "logic_square.err.build": "{card} needs these cards from your hand put in the trash: {need}. Legal now: {legal}",
    "logic_square.err.avi_ability": "Your AVI has abilities 1 to {count}, not \"{number}\". Legal now: {legal}",
    "logic_square.err.caa_used": "CAA is once per turn and you have used it this turn. Legal now: {legal}",
    "logic_square.err.caa_count": "CAA puts 1 to 3 cards from your hand in the trash (you named {count}). Legal now: {legal}",
    "logic_square.err.cards_not_in_hand": "You do not hold {cards} in your hand. Legal now: {legal}",
    "logic_square.err.must_respond": "Answer the chain first: declare a response with chain, or pass. Legal now: {legal}",
    "logic_square.err.no_window": "There is no chain to answer now. Legal now: {legal}",
    "logic_square.err.not_a_response": "{card} cannot answer this card: a CB card answers a CB card (with its range met) and a Br card answers when its break condition holds. Legal now: {legal}",
    "logic_square.err.must_discard": "Your hand has {count} cards: put cards in the trash with discard until you hold 5. Legal now: {legal}",
    "logic_square.err.no_discard": "You discard only in your end phase while holding 6 or more cards. Legal now: {legal}",
    # --- deck problems (validate_deck, deck codes)
    "logic_square.deck.malformed": "The deck cannot be read: {detail}",
    "logic_square.deck.avi_missing": "The deck needs exactly 1 AVI card; it has none.",
    "logic_square.deck.unknown_card": "{card} is not a known card ({part}).",
    "logic_square.deck.avi_not_avi": "{card} is a {category} card; the deck needs exactly 1 AVI card.",
    "logic_square.deck.resource_count": "The resource deck has {count} cards; it needs exactly 30.",
    "logic_square.deck.resource_count.one": "The resource deck has {count} card; it needs exactly 30.",
    "logic_square.deck.not_resource": "{card} is a {category} card; the resource deck takes only Ac, Sc and Br cards.",
    "logic_square.deck.white_copies": "{card} is white: at most 3 copies, not {count}.",
    "logic_square.deck.green_copies": "{card} is green: at most 2 copies, not {count}.",
    "logic_square.deck.blue_copies": "{card} is blue: at most 1 copy, not {count}.",
    "logic_square.deck.red_copies": "{card} is red: at most 1 copy, not {count}.",
    "logic_square.deck.blue_total": "The deck has {count} blue cards; at most 5 in total.",
    "logic_square.deck.red_total": "The deck has {count} red cards; at most 1 in total.",
    "logic_square.deck.it_count": "The IT deck has {count} cards; it needs exactly 5.",
    "logic_square.deck.it_count.one": "The IT deck has {count} card; it needs exactly 5.",
    "logic_square.deck.it_not_it": "{card} is a {category} card; the IT deck takes only IT cards.",
    "logic_square.deck.it_duplicate": "{card} is in the IT deck twice; the 5 IT cards must all be different.",
    "logic_square.deck.edit_one_avi": "{card} is an AVI card: a deck has exactly 1 AVI (adding one replaces the deck's AVI), so add 1 copy.",
    "logic_square.deck.edit_not_in_deck": "{card} is not in this deck, so it cannot be removed.",
    "logic_square.deck.code_invalid": "\"{code}\" is not a deck code (it looks like ls1-av01-3ac01.2ac02…-it01.it02…-1a2b).",
    "logic_square.deck.code_checksum": "The deck code \"{code}\" has a typo: its check digits do not match.",
    # --- outcome reasons (the host shows reason.<name>)
    "reason.knockout": "the opponent's AVI fell to 0 life",
    "reason.double_knockout": "both AVIs fell to 0 life at the same moment",
    "reason.decks_out": "both resource decks ran out; the higher life decided",
    # --- words for front ends
    "logic_square.verb.move": "move",
    "logic_square.verb.use": "use",
    "logic_square.verb.it": "IT",
    "logic_square.verb.avi": "AVI ability",
    "logic_square.verb.caa": "CAA",
    "logic_square.verb.end": "end turn",
    "logic_square.verb.chain": "chain",
    "logic_square.verb.pass": "pass",
    "logic_square.verb.discard": "discard",
    "logic_square.phase.main": "main phase",
    "logic_square.phase.discard": "end phase: discard to 5",
    "logic_square.phase.over": "game over",
    "logic_square.category.AVI": "AVI",
    "logic_square.category.Ac": "Action",
    "logic_square.category.Sc": "Script",
    "logic_square.category.Br": "Break",
    "logic_square.category.IT": "Integrate",
    "logic_square.colour.white": "white",
    "logic_square.colour.green": "green",
    "logic_square.colour.blue": "blue",
    "logic_square.colour.red": "red",
}

USAGE = {
    "move": "move c2",
    "use": "use ac01 / use sc05 c2",
    "it": "it it01 ac01 ac02 / it it02 c2 sc01",
    "avi": "avi 1 / avi 2 c2",
    "caa": "caa ac01 sc02",
    "end": "end",
    "chain": "chain ac04 / chain ac05 b2",
    "pass": "pass",
    "discard": "discard ac01",
    None: "move c2 / use ac01 / it it01 ac01 ac02 / avi 1 / caa ac01 / end",
}

VERBS = ("move", "use", "it", "avi", "caa", "end", "chain", "pass", "discard")

__all__ = ["EN", "USAGE", "VERBS"]
