"""Issue 35, "Secrecy is tested, not assumed": "replay steps and the GIF are drawn from the public
views alone; a test builds, for random finished matches of every card game, a second history with
the same public views but different hidden cards (e.g. states sampled by ``determinize`` from the
public views) and gets identical pictures, texts and GIF bytes."

The second history: every state of the real one replaced by ``game.determinize(public view, None,
rng)`` — the same public view, every hidden card (hands, decks, face-down cards) sampled again.
A state inside a secret window (a response being decided: ``host.replay._hidden``) is kept as it
is, since the window itself is what nobody else sees and a state sampled from the public view
cannot hold it; the window's steps are released when it closes, from the public view then.  The
replay's steps (words, stories, views), the start view, the text record, the pictures and the GIF
made from both histories must be the same bytes, while the hidden cards differ in most positions.

What is drawn is sampled: every step's words and view (the whole input of a picture and of the GIF:
:func:`render.render_png` and :func:`render.gif.match_gif` take the views, the names and the
language and nothing else) are compared in full; the pictures of :data:`PICTURES` steps spread over
the match (the first and the last among them) in both languages, and a GIF of :data:`GIF_FRAMES`
positions spread the same way, are compared byte for byte.  Drawing every step of both histories
twice cost 30 s of the everyday suite and proved no more: a picture is a function of its view
(``tests/test_gif.py``, "the bytes are a function of the public views, names and locale").
"""
from __future__ import annotations

import json
import random

import pytest

from host.match_record import write_record
from host.replay import _final_view, _hidden
from host.replay_steps import history, steps_of
from render import render_png
from render.gif import _sample, match_gif
from test_replay_steps import _played

CARD_GAMES = ("logic_square", "maken", "art_of_war", "avalon")
PICTURES = 8        # steps whose pictures are drawn, in both languages, spread over the match
GIF_FRAMES = 10     # positions of the GIF drawn from each history


def _second_history(game, played, rng):
    """``played`` (:func:`host.replay_steps.history`) with every state outside a secret window
    re-dealt from its public view."""
    states = [played[0][0]] + [after for *_, after in played]

    def redeal(state):
        if _hidden(game, state):
            return state
        other = game.determinize(game.view(state, None), None, rng)
        assert game.view(other, None) == game.view(state, None), "determinize keeps the public view"
        return other

    other = [redeal(s) for s in states]
    return [(other[i], seat, command, other[i + 1]) for i, (_, seat, command, _) in enumerate(played)], states, other


def _outputs(game, rec, played, start):
    """Everything a replay shows of ``played``: the steps and the start view (as JSON), the text
    record, the pictures of :data:`PICTURES` steps in both languages and the bytes of a GIF of
    :data:`GIF_FRAMES` positions (module doc)."""
    steps = steps_of(game, rec, played)
    if steps:
        steps[-1] = {**steps[-1], "view": _final_view(rec, steps[-1]["view"])}
    start_view = game.view(start, None)
    pictures = [render_png(rec.game, steps[k]["view"], locale=loc, names=list(rec.names))
                for k in _sample(len(steps), PICTURES) for loc in ("en", "ja")]
    record = write_record(game, rec, steps, locale="ja", start_view=start_view)
    gif = match_gif(rec.game, steps, start_view=start_view, names=list(rec.names), locale="en",
                    max_frames=GIF_FRAMES).data
    texts = json.dumps({"start": start_view, "steps": steps}, sort_keys=True, ensure_ascii=False)
    return texts, pictures, record, gif


@pytest.mark.parametrize("game_name", CARD_GAMES)
@pytest.mark.parametrize("seed", [5, 8])
async def test_a_second_history_with_other_hidden_cards_replays_to_the_same_bytes(tmp_path, game_name, seed):
    store, game, rec, commands = await _played(tmp_path, game_name, seed=seed, max_moves=300)
    try:
        played = list(history(game, rec, commands))
        other, states, redealt = _second_history(game, played, random.Random(seed))
        # the second history really holds other hidden cards: most positions differ for a player
        differ = sum(game.view(a, seat) != game.view(b, seat) for a, b in zip(states, redealt) for seat in (0, 1))
        assert differ >= len(states) // 2, (differ, len(states))
        texts, pictures, record, gif = _outputs(game, rec, played, states[0])
        texts2, pictures2, record2, gif2 = _outputs(game, rec, other, redealt[0])
        assert texts == texts2, "the start view and the steps' words, stories and views"
        assert len(pictures) == 2 * min(PICTURES, len(json.loads(texts)["steps"])), "both languages"
        assert pictures == pictures2, "the pictures"
        assert record == record2, "the text record"
        assert gif == gif2, "the GIF bytes"
    finally:
        await store.close()
