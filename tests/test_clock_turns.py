"""The list of games waiting on a player, ``/turns``, and its daily digest (host/clocks/turns.py)."""
from __future__ import annotations

import random
import re

from host.clocks import turns as tu
from host.clocks.turns import Waiting

NOW = 1_700_000_000.0
URL = "https://discord.com/channels/111/222/333"


def rows(count: int, seed: int = 4) -> list[Waiting]:
    """``count`` waiting games in a shuffled order: deadlines (some equal), paused banks, none."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = i % 5
        out.append(Waiting(
            match_id=1000 + i, guild_id=None if i % 17 == 0 else 10 + i % 3,
            game=("squares", "logic_square", "maken", "art_of_war", "avalon")[i % 5],
            opponents=("Bob",) if i % 4 else ("Bob", "Cleo", "Dan"), turn=1 + i,
            deadline=NOW + 3600 * (i // 2) if kind < 3 else None,
            bank_left=rng.randrange(60, 7 * 86400) if kind == 3 else None,
            visible=i % 3 != 0, url=f"{URL}/{i}", event=i % 7 == 0, server=f"Server {i % 3}"))
    rng.shuffle(out)
    return out


def test_ordered_by_time_left_no_deadline_last_ties_by_match():
    """"`/turns` lists every unfinished match and event game waiting on the player … ordered by
    time left": running clocks by deadline, then paused ones by bank left, then the games
    without a time limit; ties by match number."""
    listed = [Waiting(7, 1, "maken", deadline=NOW + 50), Waiting(3, 1, "maken"), Waiting(5, 1, "maken", bank_left=10),
              Waiting(2, 1, "maken", deadline=NOW + 50), Waiting(9, 1, "maken", deadline=NOW - 5),
              Waiting(1, 1, "maken", bank_left=10), Waiting(4, 1, "maken", bank_left=5), Waiting(0, 1, "maken")]
    assert [r.match_id for r in tu.order(listed)] == [9, 2, 7, 4, 1, 5, 0, 3]


def test_a_hundred_entries_in_pages_within_discords_limits():
    """"`turns_ms_p99` … (`/turns` for a player with 100 waiting matches)": every entry once, in
    order, pages of at most 10 entries and 2,000 characters each with a page indicator."""
    listed = rows(100)
    pages = tu.pages(listed, "en")
    assert len(pages) == 10 and all(tu.units(p) <= 2000 for p in pages)
    ranks = [int(m) for p in pages for m in re.findall(r"^(\d+)\. ", p, re.M)]
    assert ranks == list(range(1, 101))
    ids = [int(m) for p in pages for m in re.findall(r"^\d+\. .*?#(\d+)", p, re.M)]
    assert ids == [r.match_id for r in tu.order(listed)]
    assert pages[0].startswith("100 games are waiting on you:\n") and pages[-1].endswith("Page 10/10")
    # 25 long entries do not fit in 2,000 characters: the characters decide, not the count
    ja = tu.pages(listed, "ja", per_page=25)
    assert len(ja) > 4 and ja[1].endswith(f"2/{len(ja)}ページ") and ja[0].startswith("あなたの番の対戦：100件\n")
    assert all(tu.units(p) <= 2000 and len(re.findall(r"^\d+\. ", p, re.M)) <= 25 for p in ja)
    assert [int(m) for p in ja for m in re.findall(r"^(\d+)\. ", p, re.M)] == list(range(1, 101))


def test_long_names_and_wide_characters_stay_within_2000_characters():
    """Discord counts a message's 2,000 characters in UTF-16 units: names full of emoji and the
    longest server names still page within the limit."""
    wide = "🐉" * 40
    listed = [Waiting(i, 1, "avalon", opponents=(wide, wide + "x", wide + "y", "Z" * 500), turn=99_999,
                      deadline=NOW + i, url=URL + "/" + "9" * 60, server="S" * 300) for i in range(60)]
    pages = tu.pages(listed, "ja", per_page=25)
    assert all(tu.units(p) <= 2000 for p in pages)
    assert sum(len(re.findall(r"^\d+\. ", p, re.M)) for p in pages) == 60
    assert "S" * 101 not in pages[0] and "Z" * 33 not in pages[0]
    tiny = tu.pages(listed[:3], "en", limit=300)
    assert all(tu.units(p) <= 300 for p in tiny) and sum(p.count("Avalon's Sanctuary") for p in tiny) == 3


def test_names_and_links_only_where_the_player_may_see_them():
    """"(names and links only where the player may see them)": elsewhere "a match in another
    server", without its name or link."""
    seen = Waiting(12, 5, "maken", ("Bob",), 4, deadline=NOW + 3600, visible=True, url=URL, server="Maken Club")
    hidden = Waiting(13, 6, "maken", ("Cleo",), 2, deadline=NOW + 7200, visible=False, url=URL, server="Secret Lair")
    en = tu.pages([seen, hidden], "en")[0]
    assert en.splitlines() == [
        "2 games are waiting on you:",
        f"1. Project Maken [#12]({URL}) vs Bob · turn 4 · time runs out <t:{int(NOW) + 3600}:R> · in Maken Club",
        f"2. Project Maken #13 vs Cleo · turn 2 · time runs out <t:{int(NOW) + 7200}:R> · a match in another server"]
    ja = tu.pages([seen, hidden], "ja")[0]
    assert "Secret Lair" not in ja and ja.count(URL) == 1 and "別のサーバーの対戦" in ja
    assert "Secret Lair" not in tu.digest_text([hidden], "en") and URL not in tu.digest_text([hidden], "en")


def test_each_entry_says_game_opponent_turn_and_time_left_in_both_languages():
    """"each with its game, opponent, turn and a jump link"; every deadline shown is a Discord
    timestamp; a paused clock shows the bank left in words; SQUARES counts 手番, the card games ターン."""
    paused = Waiting(3, 1, "squares", ("Alice", "Bob"), 7, bank_left=2 * 86400 + 3 * 3600 + 59, event=True,
                     server="Hub", url=URL)
    assert tu.entry_text(paused, "ja", 1) == f"1. SQUARES [#3]({URL})：Alice、Bobとの対戦・手番7・持ち時間の停止中（残り2日3時間）（大会の対戦、サーバー：Hub）"
    assert tu.entry_text(paused, "en", 1).endswith("turn 7 · clock paused, 2 d 3 h left · event game, in Hub")
    card = Waiting(4, None, "art_of_war", ("Bob",), 3)
    assert tu.entry_text(card, "ja", 2) == "2. アート・オブ・ウォー #4：Bobとの対戦・ターン3・時間制限なし"
    assert tu.span_text(5 * 3600 + 600, "en") == "5 h 10 min" and tu.span_text(45 * 60 + 59, "ja") == "45分"
    many = Waiting(5, 1, "avalon", tuple(f"P{i}" for i in range(9)), 1, deadline=NOW)
    assert "P5, and" not in tu.entry_text(many, "en", 1) and "3 more" in tu.entry_text(many, "en", 1)


def test_nothing_waiting():
    assert tu.pages([], "en") == ["No game is waiting on you."]
    assert tu.pages([], "ja") == ["あなたの番の対戦はありません。"]
    assert tu.digest_text([], "en") is None


def test_the_daily_digest_is_the_same_list_short_in_one_message():
    """"an optional daily digest DM": the same entries in the same order, short, one message;
    what does not fit is counted at the end."""
    listed = rows(100)
    text = tu.digest_text(listed, "en")
    assert tu.units(text) <= 2000 and text.startswith("Daily digest: 100 games are waiting on you.\n")
    shown = [int(m) for m in re.findall(r"^• .*?#(\d+)", text, re.M)]
    assert shown == [r.match_id for r in tu.order(listed)][:len(shown)] and 10 < len(shown) < 100
    assert text.endswith(f"…and {100 - len(shown)} more.")
    small = tu.digest_text(listed[:3], "ja")
    assert small.startswith("まとめ通知：あなたの番の対戦が3件あります。") and small.count("\n• ") == 3
    for limit in (120, 200, 500):
        squeezed = tu.digest_text(listed, "ja", limit=limit)
        assert tu.units(squeezed) <= limit and squeezed.endswith("件")
