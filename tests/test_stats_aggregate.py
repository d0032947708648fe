"""A server's statistics as counters (issue 37, ``host/stats/aggregate.py``): what finished games
add, and the figures read back — checked against games with known results, by hand."""
from __future__ import annotations

from host.stats.aggregate import increments, median_length, pairing_increments, report, share, user_decks


def game(winners, first=0, length=30, *, decks=("iron_wall", "own"), played=((), ()), ids=(None, None),
         league=None, practice=False, edition=3, cards=None, season=1, users=(1, 2)):
    return {"game": "art_of_war", "edition": edition, "cards": cards, "league": league, "pairing": None,
            "practice": practice, "winners": list(winners), "first": first, "length": length, "season": season,
            "seats": [{"user": users[s], "deck": decks[s], "identity": ids[s], "played": list(played[s])}
                      for s in (0, 1)]}


def sums(*games) -> dict:
    out: dict = {}
    for g in games:
        for k, (n, s) in increments(g).items():
            a, b = out.get(k, (0, 0.0))
            out[k] = (a + n, b + s)
    return out


def figures(total: dict, split: str = "3|-", scope: str = "all") -> dict:
    return report([(k, n, s) for (sp, sc, k), (n, s) in total.items() if sp == split and sc == scope])


def test_deck_win_rates_count_draws_half_with_their_intervals():
    total = sums(game([0]), game([0]), game([1]), game([]))
    f = figures(total)
    assert f["by"] == "match" and f["games"] == 4
    assert f["decks"]["iron_wall"] == share(4, 2.5) and f["decks"]["own"] == share(4, 1.5)
    assert f["decks"]["iron_wall"]["share"] == 0.625
    low, high = f["decks"]["iron_wall"]["ci95"]
    assert 0.2 < low < 0.625 < high < 0.95
    assert f["matchups"][("iron_wall", "own")]["share"] == 0.625 and f["matchups"][("own", "iron_wall")]["n"] == 4


def test_a_card_played_by_both_players_counts_for_each_and_not_played_is_the_rest_of_the_decks_games():
    """"for each card, the matches it was played in … and the same deck's matches in which that
    card was not played (n and interval for both)": ``archer`` played by both seats in game 1."""
    g1 = game([0], decks=("iron_wall", "iron_wall"), played=(("archer",), ("archer", "wizard")))
    g2 = game([1], decks=("iron_wall", "iron_wall"), played=((), ("wizard",)))
    g3 = game([0], decks=("iron_wall", "iron_wall"), played=(("archer",), ()))
    f = figures(sums(g1, g2, g3))
    archer = f["cards"]["iron_wall"]["archer"]
    assert archer["played"]["n"] == 3 and archer["played"]["score"] == 2.0        # g1 both seats, g3 seat 0
    assert archer["not_played"]["n"] == 3 and archer["not_played"]["score"] == 1.0  # 6 deck-games − 3
    wizard = f["cards"]["iron_wall"]["wizard"]
    assert wizard["played"]["n"] == 2 and wizard["played"]["score"] == 1.0          # g1 seat 1 lost, g2 seat 1 won


def test_a_card_that_stayed_hidden_is_not_counted():
    """Only the facts' ``played`` lists count: a card never played publicly (it stayed in hand)
    has no counter at all, so it is neither played nor "not played"."""
    f = figures(sums(game([0], played=(("archer",), ()))))
    assert set(f["cards"]["iron_wall"]) == {"archer"} and "own" not in f["cards"]


def test_first_player_and_median_length():
    f = figures(sums(game([0], first=0, length=10), game([0], first=1, length=20), game([], first=0, length=20),
                     game([1], first=1, length=40)))
    assert f["first"] == share(4, 2.5)            # wins, a loss, a draw (half), a win
    assert f["median_length"] == 20.0 and median_length({}) is None


def test_splits_and_scopes_keep_editions_sets_seasons_and_practice_apart():
    total = sums(game([0], edition=3), game([0], edition=4), game([0], cards=17), game([1], season=2),
                 game([1], practice=True))
    assert figures(total, "3|-")["games"] == 2 and figures(total, "4|-")["games"] == 1
    assert figures(total, "3|17")["games"] == 1
    assert figures(total, "3|-", "s2")["games"] == 1 and figures(total, "3|-", "s1")["games"] == 1
    assert figures(total, "3|-", "all|p")["games"] == 1      # practice counted apart, only when asked for


def test_a_league_game_counts_for_game_figures_and_its_pairing_once_for_match_figures():
    """"a best-of-three counts each game for game figures and the pairing for match figures"."""
    g1 = game([0], league=5)
    g2 = game([1], league=5)
    g3 = game([0], league=5)
    total = sums(g1, g2, g3)
    f = figures(total)
    assert f["by"] == "game" and f["decks"]["iron_wall"]["n"] == 3       # no match figures yet: by game
    for k, (n, s) in pairing_increments([g1, g2, g3], {"winner": 1}).items():
        a, b = total.get(k, (0, 0.0))
        total[k] = (a + n, b + s)
    f = figures(total)
    assert f["by"] == "match" and f["decks"]["iron_wall"] == share(1, 1.0) and f["decks"]["own"] == share(1, 0.0)
    assert f["cards"] == {} and f["first"]["n"] == 3       # game figures still count every game


def test_a_players_own_decks_are_told_apart_by_their_hash_for_their_profile():
    g1 = game([1], users=(1, 2))
    g1["seats"][1]["own_hash"] = "abc"
    g2 = game([0], users=(1, 2))
    g2["seats"][1]["own_hash"] = "def"
    rows = [(k, n, s) for (sp, sc, k), (n, s) in sums(g1, g2).items() if sc == "all"]
    mine = user_decks(rows, 2)
    assert mine["own"] == share(2, 1.0) and mine["own:abc"] == share(1, 1.0) and mine["own:def"] == share(1, 0.0)
    assert list(user_decks(rows, 1)) == ["iron_wall"]


def test_a_game_without_decks_counts_no_deck():
    squares = {"game": "squares", "edition": None, "cards": None, "league": None, "practice": False,
               "winners": [1], "first": 0, "length": 25, "season": 1, "opening": ["L2 c1", "S3 c5"],
               "seats": [{"user": 1, "deck": None, "identity": None, "played": []},
                         {"user": 2, "deck": None, "identity": None, "played": []}]}
    f = figures(sums(squares), "-|-")
    assert f["decks"] == {} and f["first"] == share(1, 0.0)
    # "the first placements": the first player's (order 1) apart from the second player's
    assert f["openings"] == {"1:L2 c1": share(1, 0.0), "2:S3 c5": share(1, 1.0)}
