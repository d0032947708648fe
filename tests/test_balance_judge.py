"""``balance.judge`` (issue 32): whether a run of ``python -m balance`` measured a figure enough to
judge it against its target — pure arithmetic, no matches played."""
from __future__ import annotations

from balance.judge import MET, MISSED, TARGETS, UNDECIDED, describe, judge, judge_game, tally, verdict, wilson

PAIRING = TARGETS["pairing"]


def test_met_only_inside_missed_only_outside_else_undecided():
    """The rule: "a figure meets its target only when its whole 95 % interval lies inside the
    target band, misses it only when the whole interval lies outside it, and is otherwise
    undecided" — the band's edges count as inside."""
    assert verdict(0.42, 0.58, PAIRING) == MET
    assert verdict(0.40, 0.60, PAIRING) == MET                   # on the edges: inside
    assert verdict(0.61, 0.90, PAIRING) == MISSED
    assert verdict(0.05, 0.39, PAIRING) == MISSED
    assert verdict(0.60, 0.90, PAIRING) == UNDECIDED             # touches the band
    assert verdict(0.35, 0.55, PAIRING) == UNDECIDED
    assert verdict(0.30, 0.70, PAIRING) == UNDECIDED             # wider than the band


def test_the_quick_plans_figures_from_issue_32_are_not_enough_matches_to_judge():
    """Issue 32: "--quick ... prints 'target missed: avalon: grove vs sunfire 100 %' and 'the
    one-rule bot first_legal scores 50 % … over 4 matches'" — over 4 matches their 95 % intervals
    (0.51–1.00 and 0.15–0.85) reach into the target, so neither is judged."""
    grove = judge(1.0, 4, PAIRING)
    assert grove["verdict"] == UNDECIDED and grove["ci95"] == [0.51, 1.0] and grove["n"] == 4
    assert judge(0.5, 4, TARGETS["trivial_vs_ai"])["verdict"] == UNDECIDED
    assert judge(1 / 6, 12, TARGETS["first_player_win"])["verdict"] == UNDECIDED   # 2 of 12: 0.05–0.45
    # no pairing of 4 matches can be judged either way: every interval is wider than 40 points
    assert {judge(k / 8, 4, PAIRING)["verdict"] for k in range(9)} == {UNDECIDED}


def test_enough_matches_decide_and_a_full_plans_sample_says_what_it_can():
    """The same rule in the full plan: "missed" only when the whole interval lies outside, "met"
    only when it lies inside — so at n = 40 a pairing (±15 points) can only be shown to miss, and
    hard's 40 of 40 against random (0.91–1.00) cannot show ≥ 95 %."""
    assert judge(0.8, 40, PAIRING)["verdict"] == MISSED          # 0.65–0.90
    assert judge(0.62, 40, PAIRING)["verdict"] == UNDECIDED      # 0.46–0.75
    assert judge(0.5, 40, PAIRING)["verdict"] == UNDECIDED       # 0.35–0.65
    assert judge(0.5, 100, PAIRING)["verdict"] == MET            # 0.40–0.60
    assert judge(1.0, 40, TARGETS["vs_random"])["verdict"] == UNDECIDED
    assert judge(0.85, 40, TARGETS["vs_greedy"])["verdict"] == MET
    assert judge(0.0, 240, TARGETS["turn_cap_share"])["verdict"] == MET
    assert judge(0.0, 40, TARGETS["turn_cap_share"])["verdict"] == UNDECIDED   # 0–0.09
    assert judge(0.15, 72, TARGETS["trivial_vs_ai"])["verdict"] == MET        # 0.09–0.25
    assert judge(0.5, 72, TARGETS["trivial_vs_ai"])["verdict"] == MISSED


def test_a_figure_without_a_sample_is_undecided_and_a_given_interval_is_used():
    """A figure with no known n cannot be judged; an interval the run computed from the exact
    score is judged as it is."""
    assert judge(0.9, None, PAIRING)["verdict"] == UNDECIDED
    assert judge(None, 40, PAIRING)["verdict"] == UNDECIDED
    assert judge(0.5, 40, PAIRING, (0.41, 0.59)) == {"value": 0.5, "n": 40, "ci95": [0.41, 0.59],
                                                     "target": [0.4, 0.6], "verdict": MET}
    low, high = wilson(20, 40)
    assert judge(0.5, 40, PAIRING)["ci95"] == [round(low, 3), round(high, 3)]


def test_targets_read_as_games_md_writes_them():
    assert [describe(TARGETS[k]) for k in ("pairing", "first_player_win", "turn_cap_share", "vs_random",
                                           "vs_greedy", "trivial_vs_ai")] == [
        "40–60 %", "42–58 %", "≤ 5 %", "≥ 95 %", "≥ 70 %", "≤ 30 %"]


def test_a_game_row_is_judged_figure_by_figure():
    """Each figure with its own n: the pairings theirs, the first player and turn caps the run's
    matches, hard's checks theirs, the best one-rule bot its matches; SQUARES' first player is
    reported, not judged; hard's checks at a time budget (the quick plan's) measure another player
    than the targets' and are not judged; a check left out (--no-hard) has no verdict."""
    row = {"pairings": [{"a": "x", "b": "y", "a_win": 0.5, "n": 100}], "first_player_win": 0.5, "matches": 600,
           "turn_cap_share": 0.0, "vs_random": 0.0, "vs_random_n": 40, "vs_greedy": None,
           "trivial_vs_ai": 0.5, "trivial_n": 4, "trivial_best": "first_legal"}
    pairings, figures = judge_game(row)
    assert [p["verdict"] for p in pairings] == [MET]
    assert {k: f["verdict"] for k, f in figures.items()} == {
        "first_player_win": MET, "turn_cap_share": MET, "vs_random": MISSED, "trivial_vs_ai": UNDECIDED}
    _, budgeted = judge_game(row, budget=0.05)
    assert budgeted["vs_random"]["verdict"] == UNDECIDED and "0.05 s budget" in budgeted["vs_random"]["why"]
    _, squares = judge_game({**row, "pairings": []})
    assert "first_player_win" not in squares
    counts = tally({"meta": {"plan": "quick", "budget": None}, "games": {"g": row}})
    assert counts == {MET: 3, MISSED: 1, UNDECIDED: 1}
    # the full plan, at its own sample sizes, judges each share as the target states it
    _, full = judge_game(row, full=True)
    assert full["trivial_vs_ai"]["verdict"] == MISSED
    assert tally({"meta": {"plan": "full", "budget": None}, "games": {"g": row}}) == {MET: 3, MISSED: 2, UNDECIDED: 0}
