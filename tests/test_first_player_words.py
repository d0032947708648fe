"""The first player in the reader's words, per game: SQUARES' rulebook says 先番／後番, the card
games say 先攻／後攻 (docs/glossary_ja.md, "Shared" and "Statistics").  The statistics (the text of
``/統計``, its picture, the CSV export) and the best-of-N series texts (the prompt, its buttons, who
moves first, the trail, the errors) look up the game's own key first (``i18n.game_key``: e.g.
``stats.first.squares``) and fall back to the shared one.  Pure calls on hand-made figures and
series: no store, no match played."""
from __future__ import annotations

import asyncio

import pytest

from data import i18n
from data.csv_export import read_csv
from host.events import bestof as BO
from host.events import series as S
from host.leagues import LeagueError

# (game, the words it says, the words it must never say)
WORDS = [("squares", ("先番", "後番"), ("先攻", "後攻", "先手", "後手")),
         ("maken", ("先攻", "後攻"), ("先番", "後番", "先手", "後手"))]
SHARE = {"n": 12, "share": 0.5, "ci95": [0.25, 0.75]}
FIGURES = {"decks": {"a": SHARE, "b": SHARE}, "matchups": {("a", "b"): SHARE, ("b", "a"): SHARE},
           "identities": {}, "cards": {}, "openings": {}, "first": SHARE, "median_length": 30.0,
           "games": 12, "by": "match"}


def _says(text: str, good: tuple, bad: tuple) -> None:
    assert good[0] in text, text
    assert not any(w in text for w in bad), text


def test_game_key_takes_the_games_own_key_and_falls_back_to_the_shared_one():
    """"keys `stats.first.squares` with a lookup that falls back to the shared key": SQUARES has
    its own, Project Maken and a game without one (None) get the shared key; both languages have
    the same keys, so the choice is the same in en and ja."""
    assert i18n.game_key("stats.first", "squares") == "stats.first.squares"
    assert i18n.game_key("stats.first", "maken") == i18n.game_key("stats.first", None) == "stats.first"
    assert i18n.game_key("events.series.first.squares", "squares") == "events.series.first.squares"
    for key in ("stats.first", "stats.chart.first", "stats.csv.first", "events.series.prompt",
                "events.series.button.first", "events.trail.first_drawn", "events.err.not_chooser"):
        assert key + ".squares" in i18n.catalog("en") and key + ".squares" in i18n.catalog("ja"), key


@pytest.mark.parametrize("game, good, bad", WORDS)
def test_the_statistics_text_picture_and_csv_say_the_games_first_player(game, good, bad, monkeypatch):
    """Glossary: "先攻の勝率 — the first player's share of wins (a shared text: 先攻; SQUARES says
    先番・後番)": the /統計 overview line, the picture's footer and the CSV's row label."""
    from cogs.stats import Stats
    from render import stats_chart

    lines = Stats._overview(None, game, FIGURES, {}, {}, "ja")
    _says(next(line for line in lines if "勝率：" in line), good, bad)
    seen: dict = {}
    monkeypatch.setattr(stats_chart, "matrix_image", lambda names, cells, **kw: seen.update(kw))
    stats_chart.chart_image(game, FIGURES, {"a": "A", "b": "B"}, locale="ja")
    _says(seen["footer"][0], good, bad)


class _Store:
    """The two reads the CSV export makes: one finished match, no ratings."""

    def __init__(self, game: str) -> None:
        self.game = game

    async def stats_facts(self, guild_id: int, game: str | None = None) -> list[dict]:
        return [{"game": self.game, "match": 7, "finished_at": 0, "seats": [{"user": 1}, {"user": 2}],
                 "names": ["Alice", "Bob"], "winners": [0], "first": 0, "length": 20}]

    async def leaderboard(self, scope: str, game: str, offset: int, limit: int) -> tuple[list, int]:
        return [], 0


class _Stats:
    """The statistics service's reads: one split of ``FIGURES``."""

    async def names(self, game: str, split: str, locale: str) -> tuple[dict, dict, None]:
        return {}, {}, None

    async def splits(self, guild_id: int, game: str, scope: list) -> list[tuple[str, int]]:
        return [("-|-", 12)]

    async def report(self, guild_id: int, game: str, *, split: str):
        return type("R", (), {"data": {"figures": FIGURES}})()


@pytest.mark.parametrize("game, good, bad", WORDS)
def test_the_csv_export_heads_and_labels_the_first_player_in_the_games_words(game, good, bad):
    """The ratings export of one game: the matches CSV's column (先攻 → 先番 for SQUARES) and the
    statistics CSV's row of the first player's win rate."""
    from host.stats.exports import export_files

    files = asyncio.run(export_files(_Store(game), _Stats(), 5, game, "ja"))
    header = read_csv(files["matches.csv"])[0]
    assert good[0] in header and not set(bad) & set(header), header
    rows = read_csv(files["stats.csv"])
    assert [r for r in rows if r[3] == good[0]] and not [r for r in rows if r[3] in bad], rows


def _pairing(game: str, *, elimination: bool) -> tuple[dict, dict]:
    d = {"game": game, "players": [{"id": 1, "name": "Alice"}, {"id": 2, "name": "Bob"}], "pairings": []}
    p = {"id": 4, "round": 1, "a": 1, "b": 2, "best_of": 3,
         "series": S.new(1, 2, 3, elimination=elimination, seeds=(1, 2), game=game, seed="x-4")}
    d["pairings"].append(p)
    return d, p


@pytest.mark.parametrize("game, good, bad", WORDS)
def test_a_series_prompt_its_draw_its_trail_and_its_errors_say_the_games_first_player(game, good, bad):
    """"SQUARES says 先番/後番, the card games 先攻/後攻": the higher seed's prompt in a bracket,
    the Swiss draw of game 1 (its line and its trail entry), and the errors of a choice made by
    the wrong player or twice."""
    d, p = _pairing(game, elimination=True)
    _says(BO.prompt_text(d, p, "ja"), good, bad)
    with pytest.raises(LeagueError) as err:
        BO.choose(d, p, 2, True)                      # Bob is not the higher seed
    _says(i18n.t(err.value.key, "ja", **err.value.params), good, bad)
    BO.choose(d, p, 1, False)
    with pytest.raises(LeagueError) as err:
        BO.choose(d, p, 1, True)
    _says(i18n.t(err.value.key, "ja", **err.value.params), good, bad)
    _says(BO.first_text(d, p, "ja"), good, bad)
    swiss, q = _pairing(game, elimination=False)
    _says(BO.first_text(swiss, q, "ja"), good, bad)
    entries, _ = BO.trail_changes({"pairings": [dict(q, series=None)]}, swiss, at=0.0, by=None)
    (drawn,) = [e for e in entries if e["what"].startswith("events.trail.first_drawn")]
    _says(i18n.t(drawn["what"], "ja", **drawn["params"]), good, bad)


@pytest.mark.parametrize("game, good, bad", WORDS)
async def test_the_choice_buttons_are_the_games_words(game, good, bad):
    """The 「先攻」「後攻」 buttons (glossary, "Events") are 「先番」「後番」 in SQUARES."""
    from cogs.league_series import choice_view

    labels = [item.item.label for item in choice_view(1, 4, 1, "ja", game).children]
    assert labels == list(good), labels
