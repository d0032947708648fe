"""End-to-end: a correspondence match over days, with the twin's clock (issue 15, findings 2 and
3). Discord rations edits of messages older than an hour (429/30046) and archives idle threads
(50083 on edits and member adds): the bot never edits a board or DM view that old — it posts a
fresh one and removes the old — picks an archive duration that fits the clock, and unarchives a
thread before adding a spectator.  Zero refused requests, zero invalid requests.

Clocks across days (issue 48), with the twin's clock moved over weeks:

* a Project Maken match on a ``3d+1d max 7d`` bank with the weekend pause, Alice in Tokyo with
  quiet hours, Bob in Paris with a daily digest: the banks in words and the deadlines as Discord
  timestamps on the board, a weekend not charged, a vacation taken (the deadline moves, the board
  says she is away), ``/turns`` across three servers (names and links only where she is a member),
  a reminder held through her night and delivered at 07:00, vacation days used automatically
  until none is left, the time-out claimed — the thread and the DMs read top to bottom;
* a 4-player Avalon's Sanctuary match: one player's vacation stops only their own turns;
* a Swiss event with 3-day rounds and no vacation: said at sign-up, the pairing's game carries the
  bank, and a player on vacation still spends it.

The bot's database is read (read-only) for the exact banks and deadlines; everything a player
does goes through the twin."""
from __future__ import annotations

import copy
import datetime as _dt
import re
import sqlite3
from zoneinfo import ZoneInfo

import pytest

from data.i18n import t as catalog

from .checks import assert_every_message_within_limits
from .test_league_e2e import ADMIN, announcements, league_message, open_pairings
from .harness import board_title
from .twin import find_component, message_text

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

HOUR = 3600
DAY = 24 * HOUR


def _view_dms(twin, user: dict) -> list[dict]:
    return [m for m in twin.dms(int(user["id"])) if any(a["filename"] == "hand.png" for a in m.get("attachments", []))
            and int(m["id"]) not in twin.deleted_messages]


def _thread_meta(twin, thread_id: int) -> dict:
    return twin.channels[int(thread_id)]["thread_metadata"]


async def test_a_match_played_over_a_week_never_edits_old_messages_and_survives_archiving(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    match_id = await table.start("logic_square", "first=1")
    thread_id = table.thread_of(match_id)
    # no turn clock: the thread archives only after a week of silence
    assert _thread_meta(twin, thread_id)["auto_archive_duration"] == 10080
    await twin.wait_for(lambda: _view_dms(twin, alice) and _view_dms(twin, bob), what="both DM views")
    async def whose_turn() -> dict:
        """The player whose move it is, as they can tell: /move offers them commands."""
        for user in (alice, bob):
            if await twin.autocomplete(user, "move", "command", command="", match=match_id, channel_id=thread_id):
                return user
        raise AssertionError("nobody may move")

    for gap in (10, 2 * HOUR, 5 * HOUR, DAY, 3 * DAY):
        await twin.advance(gap)
        actor = await whose_turn()
        before = table.latest_board(match_id)
        command, ix = await table.act_by_menu(actor, match_id, pick=lambda options: next(
            (o for o in options if o["label"].startswith(("End", "Move"))), options[0]))
        assert "You played" in ix.text, ix.text
        await twin.settle(quiet=0.3)
        if gap >= HOUR:     # a busy machine: the fresh board may take longer than the quiet spell
            await twin.wait_for(lambda: int(before["id"]) in twin.deleted_messages,
                                what="the board too old to edit to be replaced")
        board = table.latest_board(match_id)
        thread = [m for m in twin.posts(thread_id) if int(m["id"]) not in twin.deleted_messages]
        assert thread[-1]["id"] == board["id"], "the board is the newest message"
        if gap >= HOUR:
            # the old board was not edited: a fresh board replaced it and the old one is gone
            assert board["id"] != before["id"] and int(before["id"]) in twin.deleted_messages
        # one DM view per player, the newest; a view too old to edit was replaced, not edited
        for user in (alice, bob):
            assert len(_view_dms(twin, user)) == 1, [m["id"] for m in _view_dms(twin, user)]
    # a week of silence: Discord archives the thread
    await twin.advance(8 * DAY)
    assert _thread_meta(twin, thread_id)["archived"]
    # a spectator can still be added: the bot unarchives the thread first
    ix = await twin.slash(carol, "match spectate", match=match_id)
    assert int(carol["id"]) in twin.thread_members.get(int(thread_id), set()), ix.text
    # and the next move posts a fresh board in the (unarchived) thread
    command, ix = await table.act_by_menu(await whose_turn(), match_id)
    assert "You played" in ix.text
    await twin.settle(quiet=0.3)
    assert not _thread_meta(twin, thread_id)["archived"]
    assert find_component(table.latest_board(match_id), rf"^m:{match_id}:act$") is not None
    # another week of silence; then a command in the archived thread unarchives it (as Discord
    # does for a member's command) and is answered there
    await twin.advance(8 * DAY)
    assert _thread_meta(twin, thread_id)["archived"]
    ix = await twin.slash(bob, "match status", channel_id=thread_id)
    assert ix.ephemeral and f"#{match_id}" in ix.text, ix.text
    assert not _thread_meta(twin, thread_id)["archived"]
    # Discord refused nothing: no old-message edits (429/30046), no edits or adds in an archived
    # thread (50083); no invalid request at all
    assert not [r for r in twin.refusals if "30046" in r or "50083" in r or r.startswith("429")], twin.refusals
    assert twin.invalid_requests(window=30 * DAY) == 0
    assert not twin.violations, twin.violations
    assert_every_message_within_limits(twin)


# ============================================================================ clocks across days
# (issue 48) The real bot over weeks of the twin's clock: time banks, the weekend pause, vacations,
# quiet hours, the daily digest, /turns across servers, a time-out after bank and vacation.

CLOCK_LOOP = 0.5          # seconds between the bot's clock (and notices) loop runs: BOT_TEST_CLOCK_LOOP
TOKYO, PARIS, UTC = ZoneInfo("Asia/Tokyo"), ZoneInfo("Europe/Paris"), _dt.timezone.utc


@pytest.fixture
def bot_env() -> dict:
    return {"BOT_TEST_CLOCK_LOOP": str(CLOCK_LOOP)}


def db_match(bot, match_id: int):
    """The match as the bot stored it (read-only) and its command log [(seat, command, at)]."""
    from data import rows

    con = sqlite3.connect(f"file:{bot.db}?mode=ro", uri=True)
    try:
        row = con.execute(rows.SELECT + " WHERE id = ?", (int(match_id),)).fetchone()
        log = con.execute("SELECT seat, command, at FROM commands WHERE match_id = ? ORDER BY seq",
                          (int(match_id),)).fetchall()
    finally:
        con.close()
    return rows.decode(row), log


def db_rows(bot, sql: str, *args) -> list[tuple]:
    con = sqlite3.connect(f"file:{bot.db}?mode=ro", uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def engine_state(bot, match_id: int):
    """The engine state now (the log replayed as the host replays it): what the test plans
    moves with; the players themselves only use the board and autocomplete."""
    from host.replay import _initial_state, _step
    from rules import registry

    rec, log = db_match(bot, match_id)
    game = registry.get(rec.game)
    state = _initial_state(game, rec)
    for seat, command, _ in log:
        state = _step(game, state, seat, command)
    return rec, game, state


def next_monday(after: float) -> float:
    """00:00 UTC of the first Monday after ``after`` + 1 day whose next five weeks have one UTC
    offset in Paris (no daylight-saving change inside the scenario)."""
    day = _dt.datetime.fromtimestamp(after, UTC).date() + _dt.timedelta(days=1)
    while True:
        day += _dt.timedelta(days=1)
        start = _dt.datetime(day.year, day.month, day.day, tzinfo=UTC)
        if start.weekday() == 0 and len({(start + _dt.timedelta(days=d)).astimezone(PARIS).utcoffset()
                                         for d in range(36)}) == 1:
            return start.timestamp()


async def move_to(twin, at: float) -> None:
    """The twin's (and the bot's) clock to ``at`` (never backwards), once the bot has finished
    what it was doing: an edit already on its way must not reach Discord a day later (where the
    message would be too old to edit: a 429 the bot never asked for)."""
    await twin.settle(quiet=0.5)
    assert at >= twin.wall(), (at, twin.wall())
    await twin.advance(at - twin.wall())


def weekends(zone: ZoneInfo, start: float, days: int = 60) -> list[tuple[float, float]]:
    """The weekend pauses (Saturday 00:00 to Monday 00:00 local) of ``zone`` from the week of
    ``start`` on, as UTC instants."""
    day = _dt.datetime.fromtimestamp(start, zone).date() - _dt.timedelta(days=7)
    out = []
    for d in range(days + 14):
        date = day + _dt.timedelta(days=d)
        if date.weekday() == 5:
            sat = _dt.datetime(date.year, date.month, date.day, tzinfo=zone)
            mon = sat + _dt.timedelta(days=2)
            out.append((sat.timestamp(), _dt.datetime(mon.year, mon.month, mon.day, tzinfo=zone).timestamp()))
    return out


def deadline_at(since: float, bank: float, pauses: list[tuple[float, float]]) -> float:
    """When a bank of ``bank`` seconds, started at ``since``, runs out while its clock stops in
    ``pauses`` (a bank out at a pause's start runs out when the clock runs again)."""
    t, left = since, bank
    for a, b in sorted(pauses):
        if b <= t:
            continue
        if a > t:
            if t + left < a:
                return t + left
            left -= a - t
        t = max(t, b)
    return t + left


def running(since: float, until: float, pauses: list[tuple[float, float]]) -> float:
    """Seconds a clock runs from ``since`` to ``until`` outside ``pauses``."""
    out, t = 0.0, since
    for a, b in sorted(pauses):
        if b <= t or a >= until:
            continue
        out += max(0.0, a - t)
        t = max(t, b)
    return out + max(0.0, until - t)


def local(at: float, zone: ZoneInfo) -> _dt.datetime:
    return _dt.datetime.fromtimestamp(at, zone)


def at_local(date: _dt.date, hour: int, minute: int, zone: ZoneInfo) -> float:
    return _dt.datetime(date.year, date.month, date.day, hour, minute, tzinfo=zone).timestamp()


def posted_at(message: dict) -> float:
    """The twin's time when a message was made (its snowflake)."""
    return ((int(message["id"]) >> 22) + 1420070400000) / 1000


def pinged(message: dict) -> list[str]:
    return [str(u) for u in (message.get("_allowed_mentions") or {}).get("users") or []]


def thread_read(twin, thread_id: int) -> list[dict]:
    """Every message the bot put in the thread, oldest first (removed ones too: what a player
    scrolling at that time read), each as its newest version."""
    return sorted((m for m in twin.messages.values() if m["channel_id"] == str(thread_id)
                   and not m["flags"] & 64), key=lambda m: int(m["id"]))


def in_order(texts: list[str], wanted: list[str]) -> None:
    """Each of ``wanted`` (regular expressions) is found in ``texts`` after the one before."""
    i = 0
    for rx in wanted:
        while i < len(texts) and not re.search(rx, texts[i]):
            i += 1
        assert i < len(texts), f"not found in order: {rx!r}\n" + "\n---\n".join(texts[-30:])
        i += 1


def words(seconds: float, locale: str = "en") -> str:
    """A bank in words, as the board says it ("3 d 16 h")."""
    from host.clocks.control import format_left

    return format_left(seconds, locale)


def board_saying(table, match_id: int, text: str) -> str | None:
    """The words of the match's newest board, once they include ``text``."""
    board = message_text(table.latest_board(match_id))
    return board if text in board else None


def plan_handoff(game, state, from_seat: int, to_seat: int) -> tuple[str, str] | None:
    """A command of ``from_seat`` that starts ``to_seat``'s turn and a draw of ``to_seat`` after
    which it must bet first — a decision with no default, so a time-out there is claimed."""
    if game.to_act(state) != [from_seat]:
        return None
    for command in game.legal_commands(state, from_seat):
        after = game.apply(copy.deepcopy(state), from_seat, command)
        if game.to_act(after) != [to_seat] or after.d["step"] != "draw":
            continue
        for draw in game.legal_commands(after, to_seat):
            then = game.apply(copy.deepcopy(after), to_seat, draw)
            if game.to_act(then) == [to_seat] and then.d["step"] == "before" \
                    and game.timeout_command(then, to_seat) is None:
                return command, draw
    return None


@pytest.fixture
def servers(twin) -> dict:
    """Two more servers the bot is in (before it starts: they come in READY); in the third,
    Alice is no member (its members are set once the players exist)."""
    return {"second": twin.add_guild(0, "Second Guild"), "third": twin.add_guild(0, "Third Guild", members=())}


async def squares_waiting_on(table, challenger: dict, opponent: dict, guild: dict) -> int:
    """A SQUARES match in ``guild``: ``challenger`` challenges ``opponent``, who accepts and is
    to move first."""
    twin = table.twin
    ix = await twin.slash(challenger, "play", game="squares", opponent=opponent, options="first=2",
                          channel_id=guild["channel_id"])
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    await twin.click(opponent, challenge, f"m:{match_id}:accept")
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, rf"^m:{match_id}:act$"),
                        what="the board")
    assert await table.to_act(match_id, [opponent, challenger]) is opponent
    return match_id


async def test_a_maken_match_on_a_bank_over_two_weeks_with_weekends_vacations_quiet_hours_and_a_digest(
        servers, table, twin, bot):
    """Issue 48: "a Project Maken match on `3d+1d max 7d` across two weeks with a weekend pause, a
    vacation taken and one used automatically, quiet hours that hold a reminder until morning in
    `Asia/Tokyo` while the opponent is in `Europe/Paris`, a daily digest at the chosen hour,
    `/turns` across two servers, and a time-out after bank and vacation run out"."""
    alice, bob, carol = table.alice, table.bob, table.carol
    w1 = next_monday(twin.wall())
    await move_to(twin, w1 + 3 * DAY)          # Thursday of week 1, 00:00 UTC
    # the server gives 4 vacation days a year; Alice lives in Tokyo and sleeps 23:00-07:00,
    # Bob lives in Paris and reads a digest at 08:00
    ix = await twin.slash(carol, "settings vacation_days", value=4, permissions=ADMIN)
    assert "Vacation days: 4 per 365 days for each player" in ix.text, ix.text
    for user, path, kw, said in (
            (alice, "notify zone", {"zone": "Asia/Tokyo"}, "Time zone: Asia/Tokyo"),
            (alice, "notify quiet", {"hours": "23:00-07:00"}, "Quiet hours: 23:00 to 07:00"),
            (bob, "notify zone", {"zone": "Europe/Paris"}, "Time zone: Europe/Paris"),
            (bob, "notify digest", {"hour": "8"}, "Daily digest at 08:00")):
        ix = await twin.slash(user, path, **kw)
        assert ix.ephemeral and "Saved." in ix.text and said in ix.text, ix.text

    match_id = await table.start("maken", time_control="3d+1d max 7d", weekend_pause=True)
    thread_id = table.thread_of(match_id)
    board = message_text(table.latest_board(match_id))
    # the banks in words and the deadline as a Discord timestamp — never a number of seconds
    assert "Time banks: Alice: 3 d, Bob: 3 d. Time runs out <t:" in board, board
    assert "Time control: Daily: 3 days + 1 day per move, at most 7 days" in board, board
    assert "Weekend pause: no clock from Saturday 00:00 to Monday 00:00" in board, board
    rec, game, state = engine_state(bot, match_id)
    seat_of = {int(u): s for s, u in enumerate(rec.seats)}
    a_seat, b_seat = seat_of[table.uid(alice)], seat_of[table.uid(bob)]
    user_of = {a_seat: alice, b_seat: bob}
    tokyo_weekends = weekends(TOKYO, w1)

    async def play(seat: int, command: str) -> None:
        ix = await twin.slash(user_of[seat], "move", command=command, channel_id=thread_id)
        assert "You played" in ix.text, ix.text

    async def quick_until(done) -> tuple:
        """Whoever is to act plays the first legal command at once until ``done(state)``."""
        for _ in range(120):
            rec, game, state = engine_state(bot, match_id)
            if done(state):
                return rec, game, state
            seat = game.to_act(state)[0]
            await play(seat, game.legal_commands(state, seat)[0])
        raise AssertionError("the match never reached the state wanted")

    def digests() -> list[dict]:
        return [m for m in twin.dms(table.uid(bob)) if m["content"].startswith("Daily digest")]

    # -- Thursday in Paris: Bob is to act; his digest comes at 08:00, not before, and once
    rec, game, state = await quick_until(lambda st: game.to_act(st) == [b_seat])
    thursday = local(w1 + 3 * DAY, PARIS).date()
    await move_to(twin, at_local(thursday, 7, 50, PARIS))
    await twin.settle(quiet=2.0)            # the notices loop has run (every CLOCK_LOOP seconds)
    assert digests() == []
    await move_to(twin, at_local(thursday, 8, 5, PARIS))
    digest = (await twin.wait_for(digests, what="Bob's digest"))[0]
    assert digest["content"] == (f"Daily digest: 1 game is waiting on you.\n• Project Maken [#{match_id}]"
                                 f"(https://discord.com/channels/{twin.guild_id}/{thread_id}) · time runs out "
                                 f"<t:{int(rec.deadline)}:R>"), digest["content"]
    await move_to(twin, at_local(thursday, 9, 20, PARIS))
    await twin.settle(quiet=2.0)
    assert len(digests()) == 1              # once that day

    # Bob plays: his bank is charged the 9 hours it ran since his decision began, plus a day
    rec, _ = db_match(bot, match_id)
    bank, since = rec.meta["clock"]["banks"][b_seat], rec.meta["clock"]["since"][b_seat]
    await play(b_seat, game.legal_commands(state, b_seat)[0])
    rec, _ = db_match(bot, match_id)
    b_bank = rec.meta["clock"]["banks"][b_seat]
    assert b_bank == pytest.approx(min(bank - (rec.updated_at - since) + DAY, 7 * DAY), abs=1)
    assert f"Bob: {words(b_bank)}" in await twin.wait_for(
        lambda: board_saying(table, match_id, f"Bob: {words(b_bank)}"), what="Bob's bank on the board")

    # -- Alice's long decision.  The players play on until Bob's move starts Alice's turn (and her
    # draw leaves her a first bet to make: a decision with no default, so her time-out is
    # claimed).  Bob makes that move at an hour chosen so that, with Alice's bank, her weekend
    # and the vacation she will take on Monday, her reminder (12 h before her deadline) falls in
    # her Tokyo night.
    found: dict = {}

    def ready(st) -> bool:
        found["plan"] = plan_handoff(game, st, b_seat, a_seat) if game.to_act(st) == [b_seat] else None
        return found["plan"] is not None

    rec, game, state = await quick_until(ready)
    handoff, draw = found["plan"]
    a_bank = rec.meta["clock"]["banks"][a_seat]
    monday2 = local(w1 + 7 * DAY, TOKYO).date()
    vacation_at = at_local(monday2, 10, 0, TOKYO)        # Monday of week 2, 10:00 in Tokyo

    def her_deadline(t: float) -> float:
        return deadline_at(t, a_bank, tokyo_weekends + [(vacation_at, vacation_at + 2 * DAY)])

    def reminder_in_her_night(t: float) -> bool:      # 12 h before: between 00:30 and 05:30 in Tokyo
        hour = local(her_deadline(t) - 12 * HOUR, TOKYO)
        return 30 <= hour.hour * 60 + hour.minute <= 5 * 60 + 30

    friday = local(w1 + 4 * DAY, TOKYO).date()
    last = at_local(friday, 22, 0, TOKYO)                  # two hours before her weekend at the latest
    t = next(c for c in (twin.wall() + 120 + 600 * k for k in range(300)) if c < last and reminder_in_her_night(c))
    await move_to(twin, t)
    await play(b_seat, handoff)
    await play(a_seat, draw)
    rec, _ = db_match(bot, match_id)
    since = rec.meta["clock"]["since"][a_seat]
    assert since == pytest.approx(t, abs=30) and rec.meta["clock"]["banks"][a_seat] == a_bank
    # her weekends (Saturday and Sunday in Tokyo) are not charged: her deadline is when her bank
    # has run that long outside them, two days later than her bank alone for each weekend
    assert rec.deadline == pytest.approx(deadline_at(since, a_bank, tokyo_weekends), abs=1e-3)
    assert running(since, rec.deadline, tokyo_weekends) == pytest.approx(a_bank, abs=1e-3)
    assert rec.deadline - since >= a_bank + 2 * DAY
    board = await twin.wait_for(lambda: board_saying(table, match_id, f"Time runs out <t:{int(rec.deadline)}:R>"),
                                what="the board with Alice's deadline")
    assert f"Time banks: Alice: {words(a_bank)}, Bob: {words(rec.meta['clock']['banks'][b_seat])}." in board, board

    # -- Monday of week 2, 10:00 in Tokyo: Alice goes on vacation for two days
    await move_to(twin, vacation_at)
    ix = await twin.slash(alice, "vacation start", days=2)
    (start, end, how), = db_rows(bot, "SELECT start_at, end_at, how FROM vacations WHERE user_id = ?", table.uid(alice))
    assert how == "asked" and start == pytest.approx(vacation_at, abs=30) and end == start + 2 * DAY
    assert ix.ephemeral and ix.text.startswith(f"Vacation started for 2 days, until <t:{int(end)}:f>."), ix.text
    before = rec.deadline
    rec, _ = db_match(bot, match_id)
    assert rec.deadline == pytest.approx(deadline_at(since, a_bank, tokyo_weekends + [(start, end)]), abs=1e-3)
    assert rec.deadline >= before + 2 * DAY       # her deadline moved: two days, more across a weekend
    deadline = rec.deadline
    away = f"Alice is on vacation until <t:{int(end)}:f>."
    await twin.wait_for(lambda: board_saying(table, match_id, away), what="the board timed again")
    retimed = table.latest_board(match_id)
    # Bob's board says why: she is away, and when her time runs out now; she is not pinged
    assert f"Time runs out <t:{int(deadline)}:R>. {away}" in message_text(retimed)
    assert alice["id"] not in pinged(retimed)

    # -- /turns: every game waiting on Alice, across servers; a server she is no member of (any
    # more) is not named, and its match has no link
    second, third = servers["second"], servers["third"]
    third["members"] = {table.uid(bob), table.uid(carol)}
    in_second = await squares_waiting_on(table, carol, alice, second)
    in_third = await squares_waiting_on(table, bob, alice, third)
    ix = await twin.slash(alice, "turns")
    lines = ix.text.splitlines()
    assert ix.ephemeral and lines[0] == "3 games are waiting on you:", ix.text
    assert lines[1] == (f"1. Project Maken [#{match_id}](https://discord.com/channels/{twin.guild_id}/{thread_id}) "
                        f"vs Bob · turn {rec.n_commands + 1} · time runs out <t:{int(deadline)}:R> · in Twin Guild"), ix.text
    assert lines[2] == (f"2. SQUARES [#{in_second}](https://discord.com/channels/{second['id']}/"
                        f"{table.thread_of(in_second)}) vs Carol · turn 1 · no time limit · in Second Guild"), ix.text
    assert lines[3] == f"3. SQUARES #{in_third} vs Bob · turn 1 · no time limit · a match in another server", ix.text
    assert "Third Guild" not in ix.text and str(third["id"]) not in ix.text
    ix = await twin.slash(alice, "turns", locale="ja")       # read in Japanese
    assert ix.text.startswith("あなたの番の対戦：3件\n1. プロジェクト魔剣") and "（別のサーバーの対戦）" in ix.text, ix.text
    assert "Third Guild" not in ix.text
    ix = await twin.slash(alice, "vacation status")
    assert ix.text.splitlines()[:2] == [f"On vacation until <t:{int(end)}:f> (<t:{int(end)}:R>).",
                                        "2 vacation days left, of 4 per 365 days."], ix.text

    # -- Tuesday 14:00 in Tokyo: her vacation ends within a day; she is reminded in the thread
    await move_to(twin, end - 20 * HOUR)
    told = await twin.wait_for(lambda: [m for m in twin.posts(thread_id) if "your vacation ends" in m["content"]],
                               what="the reminder that the vacation ends")
    assert told[0]["content"] == (f"<@{alice['id']}> Project Maken #{match_id} is waiting on you: your vacation ends "
                                  f"<t:{int(end)}:R> (<t:{int(end)}:f>), and your clock runs again from then.")
    assert pinged(told[0]) == [alice["id"]]

    # -- 12 hours before her deadline it is night in Tokyo: the reminder is on the board, Alice is
    # not pinged; the ping waits until 07:00 her time
    remind = deadline - 12 * HOUR
    assert 0 <= local(remind, TOKYO).hour < 6
    await move_to(twin, remind + 600)
    reminder = (await twin.wait_for(lambda: [m for m in twin.posts(thread_id) if "your turn clock runs out" in message_text(m)],
                                    what="the reminder"))[0]
    assert re.search(r"^Alice: your turn clock runs out in 11 h \d+ min\.", message_text(reminder), re.M), \
        message_text(reminder)
    assert pinged(reminder) == [] and away not in message_text(reminder)     # (her vacation is over)
    morning = at_local(local(remind, TOKYO).date(), 7, 0, TOKYO)
    (uid, deliver_at, payload), = db_rows(bot, "SELECT user_id, deliver_at, payload FROM notice_queue")
    assert uid == table.uid(alice) and deliver_at == morning and '"kind":"remind"' in payload
    await move_to(twin, morning - 600)
    await twin.settle(quiet=2.0)
    assert not [m for m in twin.posts(thread_id) if m["content"].startswith(f"<@{alice['id']}> Project Maken")
                and "your time runs out" in m["content"]]
    await move_to(twin, morning + 60)
    ping = (await twin.wait_for(lambda: [m for m in twin.posts(thread_id) if "your time runs out" in m["content"]],
                                what="the held reminder"))[0]
    assert ping["content"] == (f"<@{alice['id']}> Project Maken #{match_id}: your time runs out "
                               f"<t:{int(deadline)}:R> (<t:{int(deadline)}:f>).")
    assert pinged(ping) == [alice["id"]] and local(posted_at(ping), TOKYO).hour == 7

    # -- her bank runs out: a vacation day is used automatically, then the next, until none is left
    for n, left in ((1, 1), (2, 0)):
        rec, _ = db_match(bot, match_id)
        ran_out = rec.deadline
        await move_to(twin, ran_out + 60)
        said = f"Alice's time ran out: one vacation day was used automatically, until <t:{int(ran_out + DAY)}:f>. " \
               f"Vacation days left: {left}."
        auto = (await twin.wait_for(lambda: [m for m in twin.posts(thread_id) if said in message_text(m)],
                                    what="a vacation day used automatically"))[0]
        assert alice["id"] in pinged(auto)
        days = db_rows(bot, "SELECT start_at, end_at, how FROM vacations WHERE user_id = ? AND how = 'auto' ORDER BY seq",
                       table.uid(alice))
        assert len(days) == n and days[-1] == (ran_out, ran_out + DAY, "auto")
        rec, _ = db_match(bot, match_id)
        assert rec.deadline == ran_out + DAY      # (a weekday: no weekend after the day)
        assert f"Time runs out <t:{int(rec.deadline)}:R>. Alice is on vacation until <t:{int(rec.deadline)}:f>." \
            in message_text(auto)
    await move_to(twin, rec.deadline + 60)
    out = (await twin.wait_for(lambda: [m for m in twin.posts(thread_id) if "Alice ran out of time." in message_text(m)],
                               what="the time-out"))[0]
    assert re.search(r"^Alice ran out of time\. Bob may now claim the win with /match claim\.", message_text(out), re.M)
    assert pinged(out) == [bob["id"]] and "on vacation" not in message_text(out)
    ix = await twin.slash(bob, "match claim", channel_id=thread_id)
    assert ix.text == f"You claimed the win on time in match #{match_id}.", ix.text
    await twin.wait_for(lambda: board_saying(table, match_id, "Bob won: time ran out."), what="the result")

    # -- the thread, top to bottom, as the players read it
    thread = [message_text(m) for m in thread_read(twin, thread_id)]
    in_order(thread, [
        r"Bob accepted\.\nProject Maken begins: Alice, Bob\.",
        re.escape(f"Time runs out <t:{int(deadline)}:R>. {away}"),
        re.escape(f"Project Maken #{match_id} is waiting on you: your vacation ends <t:{int(end)}:R>"),
        r"Alice: your turn clock runs out in 11 h \d+ min\.",
        re.escape(f"Project Maken #{match_id}: your time runs out <t:{int(deadline)}:R>"),
        r"Alice's time ran out: one vacation day was used automatically, until <t:\d+:f>\. Vacation days left: 1\.",
        r"Alice's time ran out: one vacation day was used automatically, until <t:\d+:f>\. Vacation days left: 0\.",
        r"Alice ran out of time\. Bob may now claim the win with /match claim\.",
        r"Bob won: time ran out\.",
    ])
    everything = [message_text(v) for m in twin.messages.values() for v in m["_versions"]]
    # a bank is said in words and a deadline as a Discord timestamp, never as seconds
    assert not [t for t in everything if re.search(r"\b(259200|604800|86400|172800)\b", t)]
    # "on vacation until …" is said only while the vacation lasts
    for m in twin.messages.values():
        for until in re.findall(r"is on vacation until <t:(\d+):f>", m["content"] + message_text(m)):
            assert int(until) > posted_at(m), message_text(m)
    # the DMs: each player's private view (sent again when one is too old to edit) and Bob's one
    # digest, at 08:00 in Paris; the pings were told in the thread, as both chose
    assert [local(posted_at(m), PARIS).hour for m in digests()] == [8]
    for who in (alice, bob):
        for m in twin.dms(table.uid(who)):
            assert m in digests() or board_title(m) == f"Project Maken #{match_id} — your private view", \
                message_text(m)
    assert_every_message_within_limits(twin)


async def test_four_players_of_avalon_a_vacation_stops_only_its_players_own_turns(table, twin, bot):
    """Issue 48: "a 4-player Avalon's Sanctuary match where one player's vacation stops only
    their own turns" — "While on vacation, none of that player's banks run in matches that allow
    vacation … opponents see 'on vacation until …'"."""
    alice, bob, carol = table.alice, table.bob, table.carol
    dave = twin.user("Dave")
    await move_to(twin, next_monday(twin.wall()) + 9 * HOUR)       # a Monday, no weekend pause
    match_id, challenge = await table.challenge("avalon", opponent2=carol, opponent3=dave,
                                                time_control="2d+1h max 7d")   # never at its cap here
    for user in (bob, carol, dave):
        ix = await twin.click(user, table.board_message(match_id), f"m:{match_id}:accept")
        await table.pick_deck(user, ix)
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, rf"^m:{match_id}:act$"),
                        what="the board with an Act button")
    thread_id = table.thread_of(match_id)
    rec, game, state = engine_state(bot, match_id)
    users = {int(u["id"]): u for u in (alice, bob, carol, dave)}
    user_of = {s: users[int(u)] for s, u in enumerate(rec.seats)}
    c_seat = next(s for s, u in user_of.items() if u is carol)

    async def quick_until(done) -> tuple:
        for _ in range(200):
            rec, game, state = engine_state(bot, match_id)
            if done(game.to_act(state)):
                return rec, game, state
            seat = game.to_act(state)[0]
            ix = await twin.slash(user_of[seat], "move", command=game.legal_commands(state, seat)[0],
                                  channel_id=thread_id)
            assert "You played" in ix.text, ix.text
        raise AssertionError("the match never reached the state wanted")

    def waiting() -> dict[int, float]:
        return dict(db_rows(bot, "SELECT user_id, deadline FROM turns_waiting WHERE match_id = ?", match_id))

    # someone else is to act; Carol goes on vacation for a day: nothing changes for them
    rec, game, state = await quick_until(lambda seats: seats and c_seat not in seats)
    other = game.to_act(state)[0]
    before = waiting()
    assert list(before) == [int(user_of[other]["id"])] and before[int(user_of[other]["id"])] == rec.deadline
    ix = await twin.slash(carol, "vacation start", days=1)
    (start, end), = db_rows(bot, "SELECT start_at, end_at FROM vacations WHERE user_id = ?", table.uid(carol))
    assert ix.text.startswith(f"Vacation started for 1 day, until <t:{int(end)}:f>."), ix.text
    again, _ = db_match(bot, match_id)
    assert again.deadline == rec.deadline and waiting() == before and again.meta["clock"] == rec.meta["clock"]
    # three hours later the play comes to Carol, still on vacation: her clock waits for her
    # vacation to end, and the board says why
    await move_to(twin, start + 3 * HOUR)
    rec, game, state = await quick_until(lambda seats: seats == [c_seat])
    mc = rec.meta["clock"]
    since, bank = mc["since"][c_seat], mc["banks"][c_seat]
    assert start < since < end
    assert rec.deadline == pytest.approx(end + bank, abs=1e-3)
    assert waiting() == {table.uid(carol): rec.deadline}
    away = f"Carol is on vacation until <t:{int(end)}:f>."
    board = await twin.wait_for(lambda: board_saying(table, match_id, away), what="the board saying Carol is away")
    assert f"Time runs out <t:{int(rec.deadline)}:R>. {away}" in board, board
    # she plays her turn from her vacation: nothing was spent, the increment is added
    await quick_until(lambda seats: seats and c_seat not in seats)
    rec, game, state = engine_state(bot, match_id)
    mc = rec.meta["clock"]
    assert mc["banks"][c_seat] == bank + HOUR
    # the next player's clock runs as ever, Carol's vacation or not
    nxt = game.to_act(state)[0]
    assert rec.deadline == pytest.approx(mc["since"][nxt] + mc["banks"][nxt], abs=1e-3)
    assert waiting() == {int(user_of[nxt]["id"]): rec.deadline}
    board = await twin.wait_for(lambda: board_saying(table, match_id, f"Time runs out <t:{int(rec.deadline)}:R>"),
                                what="the next player's board")
    assert "on vacation" not in board, board
    assert_every_message_within_limits(twin)


async def test_a_swiss_event_with_three_day_rounds_and_no_vacation(table, twin, bot):
    """Issue 48: "a Swiss event with 3-day rounds and no vacation" — "events choose; a
    no-vacation event says so at sign-up"; "An event round may last days; its games use time
    banks"."""
    alice, bob, carol = table.alice, table.bob, table.carol
    users = {"Alice": alice, "Bob": bob, "Carol": carol}
    await move_to(twin, next_monday(twin.wall()) + 9 * HOUR)
    ix = await twin.slash(alice, "league-admin create", name="Winter Swiss", game="squares", format="swiss",
                          rounds=2, permissions=ADMIN)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    message = await twin.wait_for(lambda: league_message(twin, league_id), what="the event message")
    ix = await twin.slash(alice, "league-admin settings", league=league_id, clock="3d+1d max 7d", vacation=False,
                          round_days=3, permissions=ADMIN)
    for said in ("Clock: Daily: 3 days + 1 day per move, at most 7 days",
                 "Vacation: not allowed (banks run during a vacation)", "Weekend pause: off", "Round length: 3 days"):
        assert f"• {said}" in ix.text, ix.text
    shown = await twin.wait_for(lambda: "No vacation in this event" in message_text(twin.message(message["id"]))
                                and message_text(twin.message(message["id"])), what="the event message's clock")
    assert "No vacation in this event: banks keep running while a player is on vacation." in shown, shown
    assert "3 days to play each round" in shown, shown
    # signing up, each player is told there is no vacation in this event
    for user in (bob, carol):
        ix = await twin.click(user, twin.message(message["id"]), f"lg:{league_id}:join")
        assert f"You joined league #{league_id}" in ix.text, ix.text
        assert ix.text.endswith("This event does not allow vacation: your bank keeps running in its games while "
                                "you are on vacation."), ix.text
    ix = await twin.slash(alice, "league join", league=league_id, locale="ja")
    assert ix.text.endswith("\n" + catalog("events.clock.signup.no_vacation", "ja")), ix.text     # read in Japanese
    ix = await twin.slash(alice, "league-admin start", league=league_id, permissions=ADMIN)
    assert f"League #{league_id} started: 2 rounds" in ix.text, ix.text
    paired_at = twin.wall()
    [paired] = await twin.wait_for(lambda: announcements(twin, league_id, "round 1 is paired"), what="round 1")
    [(pairing, a, b)] = open_pairings(paired["content"])
    # the round's deadline: 3 days after it was paired
    due = re.search(rf"`#{pairing}` {a} vs {b} — to play · play by <t:(\d+):R>", message_text(twin.message(message["id"])))
    assert due and int(due.group(1)) == pytest.approx(paired_at + 3 * DAY, abs=30), message_text(twin.message(message["id"]))

    # the pairing's game carries the event's bank, and says there is no vacation
    ix = await twin.click(users[a], twin.message(message["id"]), f"lg:{league_id}:play")
    match_id = int(re.search(rf"Match #(\d+) for pairing #{pairing}", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the event game's challenge")
    await twin.click(users[b], challenge, f"m:{match_id}:accept")
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$"), what="the board")
    rec, _ = db_match(bot, match_id)
    assert rec.meta["clock"]["control"] == {"initial": 3 * DAY, "increment": DAY, "cap": 7 * DAY}
    assert rec.meta["clock"]["vacation"] is False
    board = message_text(table.latest_board(match_id))
    assert "No vacation: banks keep running while a player is on vacation" in board, board
    assert f"Time banks: {a}: 3 d, {b}: 3 d. Time runs out <t:{int(rec.deadline)}:R>." in board, board
    mover = await table.to_act(match_id, [users[a], users[b]])
    name = next(n for n, u in users.items() if u is mover)
    seat = rec.seats.index(int(mover["id"]))
    since, deadline = rec.meta["clock"]["since"][seat], rec.deadline
    assert deadline == pytest.approx(since + 3 * DAY, abs=1e-3)

    # the player to move goes on vacation: in this event their clock runs all the same
    ix = await twin.slash(mover, "vacation start", days=2)
    (start, end), = db_rows(bot, "SELECT start_at, end_at FROM vacations WHERE user_id = ?", int(mover["id"]))
    assert ix.text.startswith(f"Vacation started for 2 days, until <t:{int(end)}:f>."), ix.text
    again, _ = db_match(bot, match_id)
    assert again.deadline == deadline and again.meta["clock"] == rec.meta["clock"]
    assert db_rows(bot, "SELECT user_id, deadline FROM turns_waiting WHERE match_id = ?", match_id) == \
        [(int(mover["id"]), deadline)]
    ix = await twin.slash(carol, "league schedule", league=league_id)
    assert f"{name} is on vacation until <t:{int(end)}:f>. This event allows no vacation: their bank runs all the same." \
        in ix.text, ix.text
    assert f"Time runs out <t:{int(deadline)}:R>." in ix.text, ix.text
    # a day later they move: the day on vacation was spent from their bank (then the increment)
    await move_to(twin, start + DAY)
    thread_id = table.thread_of(match_id)
    choices = await twin.autocomplete(mover, "move", "command", command="", channel_id=thread_id)
    ix = await twin.slash(mover, "move", command=choices[0]["value"], channel_id=thread_id)
    assert "You played" in ix.text, ix.text
    rec, _ = db_match(bot, match_id)
    spent = rec.updated_at - since
    assert spent > DAY and rec.meta["clock"]["banks"][seat] == pytest.approx(3 * DAY - spent + DAY, abs=1)
    assert_every_message_within_limits(twin)
