"""The store ``python -m bench --clock`` measures (:mod:`bench.clock`): many unfinished matches
on time banks, as the host keeps them, in a SQLite file or a PostgreSQL database.

**The matches.**  A few unfinished matches of every game are played through the real host
(:func:`bench.workload.play_templates`: challenged, accepted, cut at a random point of a random
match).  Each stored match is a copy of one of them with its own id, players, server and
channel, on a time bank made by the host's own code (``host/clocks/match.py``: ``new``,
``start``, ``advance`` — the deadline of each player to act from their bank on their own
calendar — and ``host/clock.py``'s ``waiting_rows`` for the list of games waiting on each
player).  The mix: ``daily`` (3 d + 1 d, at most 7 d) 55 %, ``slow`` (7 d + 2 d) 30 %,
``fast`` (1 h + 10 min) 15 %; the weekend pause in 40 % of matches; vacation not allowed in
10 %; each bank between a quarter of the cap and the cap; each decision begun at a random
moment of its bank.  Matches spread over :data:`GUILDS` servers, some with 7 or 30 vacation
days instead of 14.

**The players.**  ``stored // 2`` players (each seated in about four matches): 40 % with their
own settings (a time zone, quiet hours for most of them, how they are told, a digest hour),
4 % on vacation now, 12 % with a vacation earlier in the year.

**What the clock finds at each tick** (steady state): every reminder whose time has come
before the measured ticks was sent, every bank that ran out before them has its notice
(``expired``: listed by the store at every tick until someone claims it, :data:`BACKLOG` of
the matches), and secret response windows near their end are listed at every tick as in the
bot (their reminder is never public).  Due at each measured tick ``k`` (at ``NOW0 + 30 s × k``,
the bot ticking every 30 s): per 100,000 stored matches :data:`DUE` — reminders whose time
came in the last 30 s, banks that ran out in the last 30 s of players with vacation days left
(one taken automatically, their other matches timed again), of players with none left, and
in matches that allow no vacation.  Why these numbers: at about one decision per match a
day, with a reminder in a quarter of decisions (a player who answers with more than the
reminder's lead left gets none) and a bank run out in some 3 %, 100,000 matches give on
average 9 reminders and 1 bank run out per 30-second tick; the bench takes a busy tick, more
than twice that.

The rows are the store's own (:func:`data.rows.prepare`, the tables' own columns), written in
one transaction per table on SQLite (``synchronous=OFF``) and by ``COPY`` on PostgreSQL:
set-up, not what is measured.
"""
from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

from bench.workload import USER_BASE, Template

NOW0 = 1797019200.0           # Friday 2026-12-11 20:00 UTC: Saturday 05:00 in Tokyo, 21:00 in Paris
TICK_GAP = 30.0               # the bot's clock loop (cogs/delivery.py)
DAY, HOUR = 86400.0, 3600.0
GUILDS = 50
CHANNEL_BASE = 2_000_000
TURNS_USER = 9_000_001        # the player of /turns, waited on in ``turns`` matches
TURNS_GUILDS = (1, 2, 3)      # ... across three servers
ZONES = ("Asia/Tokyo", "Europe/Paris", "America/New_York", "Europe/London", "America/Los_Angeles",
         "Australia/Sydney", "Asia/Seoul", "UTC", "Europe/Berlin", "America/Sao_Paulo")
CONTROLS = (("daily", 0.55), ("slow", 0.30), ("fast", 0.15))
WEEKEND_SHARE = 0.40
NO_VACATION_SHARE = 0.10
SETTINGS_SHARE, QUIET_SHARE = 0.40, 0.75        # players with settings; of them, with quiet hours
ON_VACATION_SHARE, PAST_VACATION_SHARE = 0.04, 0.12
BACKLOG = 0.01                # matches whose bank ran out earlier, waiting for a claim
# due at each measured tick, per 100,000 stored matches
DUE = {"reminder": 20, "auto_vacation": 2, "timeout": 1, "no_vacation": 1}
ALLOWANCES = {3: 7, 7: 30}    # guild id % 10 -> its vacation days (else the default 14)
COMMAND_COLS = ("match_id", "seq", "seat", "command", "at")


def due_counts(stored: int) -> dict[str, int]:
    """What is due at each measured tick for ``stored`` matches (at least one of each kind)."""
    return {k: max(1, round(v * stored / 100_000)) for k, v in DUE.items()}


@dataclass(frozen=True)
class Shape:
    """A template and the decision it stands at: the seats to act, those everyone sees acting,
    and whether a secret decision is pending."""

    template: Template
    to_act: tuple[int, ...]
    public: tuple[int, ...]
    hidden: bool


def shapes(templates: dict[str, list[Template]]) -> list[Shape]:
    """Each template's decision, replayed through its engine (as the host does)."""
    from host.engines import engine_of
    from host.replay import _hidden, _initial_state, _public_to_act, _step

    out = []
    for pool in templates.values():
        for t in pool:
            game = engine_of(t.record)
            state = _initial_state(game, t.record)
            for c in t.commands:
                state = _step(game, state, c.seat, c.command)
            to_act = tuple(game.to_act(state))
            if to_act:
                out.append(Shape(t, to_act, tuple(_public_to_act(game, state)), bool(_hidden(game, state))))
    return out


@dataclass
class World:
    """The players: their settings and vacations, and the calendars made from them (cached:
    most players share a zone and have no vacation)."""

    users: list[int]
    settings: dict[int, dict] = field(default_factory=dict)
    vacations: dict[int, list[tuple[float, float, str]]] = field(default_factory=dict)
    _cals: dict = field(default_factory=dict)

    def calendar(self, mc: Any, uid: int) -> Any:
        from host.clocks import match as bank_clock

        zone = (self.settings.get(uid) or {}).get("zone") if mc.weekend else None
        spans = tuple((a, b) for a, b, _ in self.vacations.get(uid, ()) if b > a) if mc.vacation else ()
        key = (mc.weekend, mc.vacation, zone, spans)
        cal = self._cals.get(key)
        if cal is None:
            cal = self._cals[key] = bank_clock.calendar_for(mc, zone, spans)
        return cal


def world(n_users: int, rng: random.Random, reserved: set[int]) -> World:
    """``n_users`` players (their ids from :data:`bench.workload.USER_BASE`) with the shares of
    settings and vacations of the module doc; ``reserved`` players get neither (the due
    matches decide theirs)."""
    from host.clocks import notify

    w = World(users=[USER_BASE + i for i in range(n_users)])
    quiet = ("23:00-07:00", "22:30-07:30", "00:00-08:00", "01:00-09:00", "23:00-06:30")
    for uid in w.users:
        if uid in reserved:
            continue
        if rng.random() < SETTINGS_SHARE:
            s = notify.NotifySettings(zone=rng.choice(ZONES),
                                      quiet=notify.parse_quiet(rng.choice(quiet)) if rng.random() < QUIET_SHARE else None,
                                      how=rng.choice(notify.HOWS),
                                      digest_hour=rng.choice((None, 7, 8, 9, 20, 21)))
            w.settings[uid] = s.to_json()
        r = rng.random()
        if r < ON_VACATION_SHARE:
            start = NOW0 - rng.uniform(0.1, 5) * DAY
            w.vacations[uid] = [(start, max(NOW0 + DAY, start + rng.randint(2, 10) * DAY), "asked")]
        elif r < ON_VACATION_SHARE + PAST_VACATION_SHARE:
            start = NOW0 - rng.uniform(20, 300) * DAY
            w.vacations[uid] = [(start, start + rng.randint(1, 7) * DAY, "asked")]
    return w


def _control(rng: random.Random) -> Any:
    from host.clocks import control

    r, acc = rng.random(), 0.0
    for name, share in CONTROLS:
        acc += share
        if r < acc:
            return control.PRESETS[name]
    return control.PRESETS[CONTROLS[-1][0]]


@dataclass
class Plan:
    """One stored match before its rows are made: its template, players, server, control,
    banks, when the decision began, and what it is (``kind``) — ``bulk``, ``backlog``,
    ``turns``, or due at tick ``round`` as ``reminder``/``auto_vacation``/``timeout``/
    ``no_vacation``."""

    shape: Shape
    users: list[int]
    guild: int
    tc: Any
    weekend: bool
    vacation: bool
    banks: tuple[float, ...]
    kind: str = "bulk"
    round: int | None = None
    since: float = NOW0
    mc: Any = None
    deadlines: dict = field(default_factory=dict)

    @property
    def deadline(self) -> float | None:
        return min(self.deadlines.values()) if self.deadlines else None

    @property
    def lead(self) -> float:
        """How long before the deadline its reminder comes (host/clock.py)."""
        from host.clock import REMIND_CAP, REMIND_SHARE

        return min(REMIND_SHARE * self.tc.start, REMIND_CAP)


def _timed(p: Plan, since: float, w: World) -> None:
    """The clock as the host sets it when the decision began at ``since`` (``advance``)."""
    from host.clocks import calendar as cal_mod
    from host.clocks import match as bank_clock

    mc = bank_clock.start(bank_clock.new(p.tc, p.weekend, vacation=p.vacation), len(p.users))
    mc = replace(mc, banks=p.banks)
    cals = [w.calendar(mc, u) for u in p.users]
    mc, p.deadlines = bank_clock.advance(
        mc, since, cals, actor=None, responded=False, after=list(p.shape.to_act),
        public_after=list(p.shape.public), hidden_after=p.shape.hidden, old_deadline=None)
    # who is on vacation as of now: a vacation that started since was followed by the match
    # being timed again (host/away.py), which says so
    away = ((s, cal_mod.vacation_end(cals[s], NOW0)) for s in sorted(set(p.shape.public)))
    p.mc = replace(mc, away=tuple((s, until) for s, until in away if until is not None))
    p.since = since


def _aim(p: Plan, w: World, lo: float, hi: float) -> bool:
    """Begin the decision so that its deadline falls in ``(lo, hi]`` (bisection: the deadline
    never comes sooner when the decision begins later); False when no beginning gives one
    there (the window lies in a pause of the player's clock)."""
    a, b = hi - max(p.banks) - 90 * DAY, hi
    for _ in range(80):
        mid = (a + b) / 2
        _timed(p, mid, w)
        d = p.deadline
        if lo < d <= hi:
            return True
        if d <= lo:
            a = mid
        else:
            b = mid
    return False


def _new_plan(shape: Shape, users: list[int], guild: int, rng: random.Random, *, vacation: bool | None = None) -> Plan:
    tc = _control(rng)
    return Plan(shape=shape, users=users, guild=guild, tc=tc, weekend=rng.random() < WEEKEND_SHARE,
                vacation=(rng.random() >= NO_VACATION_SHARE) if vacation is None else vacation,
                banks=tuple(float(int(rng.uniform(0.25, 1.0) * tc.cap)) for _ in users))


def plans(shapes_: list[Shape], stored: int, rounds: int, turns: int, rng: random.Random) -> tuple[list[Plan], World]:
    """Every stored match (module doc), in the order of their ids, and the players."""
    due = due_counts(stored)
    n_users = max(20, stored // 2)
    users = [USER_BASE + i for i in range(n_users)]
    pool = rng.sample(users, min(n_users, rounds * (due["auto_vacation"] + due["timeout"])))
    fresh = pool[:rounds * due["auto_vacation"]]      # no vacation yet: a day is taken for them
    spent = pool[rounds * due["auto_vacation"]:]      # every day used: the time-out stands
    w = world(n_users, rng, set(pool))
    for uid in spent:
        start = NOW0 - 45 * DAY
        w.vacations[uid] = [(start, start + 14 * DAY, "asked")]
    public = [s for s in shapes_ if not s.hidden]
    single = [s for s in public if len(s.to_act) == 1] or public
    last = NOW0 + (rounds - 1) * TICK_GAP
    kinds: list[tuple[str, int | None]] = [(k, r) for r in range(rounds) for k, n in due.items() for _ in range(n)]
    kinds += [("turns", None)] * turns
    kinds += [("bulk", None)] * max(0, stored - len(kinds))
    rng.shuffle(kinds)
    out: list[Plan] = []
    fresh_i = spent_i = 0
    for kind, rnd in kinds[:stored]:
        for _attempt in range(50):
            # a vacation day is taken for the one player whose bank ran out, in public (never in a
            # secret window: host/away.py); what falls due is announced in public; the rest any
            shape = rng.choice(single if kind in ("auto_vacation", "timeout") else
                               shapes_ if kind in ("bulk", "turns") else public)
            seated = rng.sample(users, len(shape.template.record.seats))
            guild = rng.randint(1, GUILDS)
            vac = None
            if kind == "auto_vacation":
                seated[shape.to_act[0]] = fresh[fresh_i]
                vac = True
            elif kind == "timeout":
                seated[shape.to_act[0]] = spent[spent_i]
                vac = True
                guild = rng.choice([g for g in range(1, GUILDS + 1) if ALLOWANCES.get(g % 10, 14) <= 14])
            elif kind == "no_vacation":
                vac = False
            elif kind == "turns":
                seated[shape.to_act[0]] = TURNS_USER
                guild = TURNS_GUILDS[len(out) % len(TURNS_GUILDS)]
            if len(set(seated)) != len(seated):
                continue
            p = _new_plan(shape, seated, guild, rng, vacation=vac)
            p.kind, p.round = kind, rnd
            if kind == "reminder":
                now = NOW0 + rnd * TICK_GAP
                ok = _aim(p, w, now + p.lead - TICK_GAP, now + p.lead - 1)
            elif kind in ("auto_vacation", "timeout", "no_vacation"):
                now = NOW0 + rnd * TICK_GAP
                ok = _aim(p, w, now - TICK_GAP + 1, now)
            else:
                b = min(p.banks[s] for s in shape.to_act)
                backlog = kind == "bulk" and rng.random() < BACKLOG
                since = NOW0 - b - rng.uniform(HOUR, 3 * DAY) if backlog else NOW0 - rng.uniform(0, 0.9) * b
                _timed(p, since, w)
                d = p.deadline
                # nothing but the planned matches falls due while the ticks are measured
                ok = d is not None and not (NOW0 - 2 * TICK_GAP < d <= last + 2 * TICK_GAP)
                ok = ok and not (NOW0 - TICK_GAP < d - p.lead <= last + 2 * TICK_GAP and not shape.hidden
                                 and d > NOW0)
                if ok and d <= NOW0:
                    p.kind = "backlog"
            if ok:
                break
        else:
            raise RuntimeError(f"no stored match of kind {kind} could be made")
        fresh_i += kind == "auto_vacation"
        spent_i += kind == "timeout"
        out.append(p)
    return out, w


def rows(plans_: list[Plan], first_id: int = 1) -> Iterator[tuple[list, list, list, list]]:
    """Each planned match's rows, in chunks: (match rows with their ids, seat index rows,
    command rows, ``turns_waiting`` rows).  A match is the template's record as the store
    holds it with what differs in another match (ids, players, server, channel) and its clock;
    its command log is the template's."""
    from data.rows import players, prepare
    from host.clock import waiting_rows

    chunk: tuple[list, list, list, list] = ([], [], [], [])
    for i, p in enumerate(plans_):
        mid = first_id + i
        t = p.shape.template
        old = t.record
        user = dict(zip(old.seats, p.users))
        d = p.deadline
        meta = {**old.meta, "clock": p.mc.to_json()}
        if p.kind == "backlog":
            meta["expired"] = True
        if p.kind in ("auto_vacation", "timeout", "no_vacation", "backlog"):
            reminded = True             # its reminder came before its bank ran out
        elif p.kind == "reminder" or p.shape.hidden:
            reminded = False            # (a secret window's reminder is never sent: host/clock.py)
        else:                           # sent if its time came before the measured ticks
            reminded = d is not None and d - p.lead <= NOW0
        rec = replace(old, id=mid, seats=list(p.users), creator=user[old.creator],
                      accepted=[user[u] for u in old.accepted], abort_votes=[user[u] for u in old.abort_votes],
                      spectators=[], guild_id=p.guild, channel_id=CHANNEL_BASE + mid, turn_seconds=int(p.tc.start),
                      deadline=d, reminded=reminded, meta=meta, created_at=min(old.created_at, p.since),
                      updated_at=p.since)
        row, out = prepare(rec)
        chunk[0].append(row)
        chunk[1].extend(players(mid, out.seats))
        chunk[2].extend((mid, c.seq, c.seat, c.command, c.at) for c in t.commands)
        chunk[3].extend((mid, uid, p.guild, since, dl, bank)
                        for uid, since, dl, bank in waiting_rows(out, list(p.shape.to_act), p.since, p.deadlines, p.mc))
        if len(chunk[0]) >= 2000:
            yield chunk
            chunk = ([], [], [], [])
    if chunk[0]:
        yield chunk


def _settings_rows(w: World) -> list[tuple]:
    return [(uid, json.dumps(s, separators=(",", ":"))) for uid, s in w.settings.items()]


def _vacation_rows(w: World) -> list[tuple]:
    return [(uid, seq, a, b, how) for uid, recs in w.vacations.items() for seq, (a, b, how) in enumerate(recs, 1)]


def _guild_rows() -> list[tuple]:
    return [(g, "vacation_days", json.dumps(ALLOWANCES[g % 10])) for g in range(1, GUILDS + 1) if g % 10 in ALLOWANCES]


def write_sqlite(path: str, plans_: list[Plan], w: World, log: Callable[[str], None] = lambda s: None) -> int:
    """The rows into the SQLite file ``path`` (its schema made by the store); the matches stored."""
    from data.rows import COLS

    db = sqlite3.connect(path, isolation_level=None)
    n = 0
    try:
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        insert = f"INSERT INTO matches ({', '.join(COLS)}) VALUES ({', '.join('?' * len(COLS))})"
        for matches, seats, commands, waiting in rows(plans_):
            db.executemany(insert, matches)
            db.executemany("INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)", seats)
            db.executemany(f"INSERT INTO commands ({', '.join(COMMAND_COLS)}) VALUES (?, ?, ?, ?, ?)", commands)
            db.executemany("INSERT INTO turns_waiting (match_id, user_id, guild_id, since, deadline, bank_left) "
                           "VALUES (?, ?, ?, ?, ?, ?)", waiting)
            n += len(matches)
            if n % 20_000 < len(matches):
                log(f"clock: {n} matches written")
        db.executemany("INSERT INTO player_settings (user_id, settings) VALUES (?, ?)", _settings_rows(w))
        db.executemany("INSERT INTO vacations (user_id, seq, start_at, end_at, how) VALUES (?, ?, ?, ?, ?)",
                       _vacation_rows(w))
        db.executemany("INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)", _guild_rows())
        db.execute("COMMIT")
        db.execute("ANALYZE")
    finally:
        db.close()
    return n


async def write_postgres(url: str, plans_: list[Plan], w: World, log: Callable[[str], None] = lambda s: None) -> int:
    """The rows into the PostgreSQL database at ``url`` (its schema made by the store) by
    ``COPY``; the matches stored."""
    import asyncpg

    from data.postgres_store import PgUrl, _pg_row
    from data.rows import COLS

    conn = await asyncpg.connect(PgUrl(url).dsn)
    n = 0
    try:
        async with conn.transaction():
            for matches, seats, commands, waiting in rows(plans_):
                await conn.copy_records_to_table("matches", records=[_pg_row(r) for r in matches], columns=list(COLS))
                await conn.copy_records_to_table("match_players", records=seats,
                                                 columns=["match_id", "seat", "user_id"])
                await conn.copy_records_to_table("commands", records=commands, columns=list(COMMAND_COLS))
                await conn.copy_records_to_table("turns_waiting", records=waiting,
                                                 columns=["match_id", "user_id", "guild_id", "since", "deadline",
                                                          "bank_left"])
                n += len(matches)
                if n % 20_000 < len(matches):
                    log(f"clock: {n} matches written")
            await conn.copy_records_to_table("player_settings", records=_settings_rows(w),
                                             columns=["user_id", "settings"])
            await conn.copy_records_to_table("vacations", records=_vacation_rows(w),
                                             columns=["user_id", "seq", "start_at", "end_at", "how"])
            await conn.copy_records_to_table("guild_settings", records=_guild_rows(),
                                             columns=["guild_id", "key", "value"])
            await conn.execute("SELECT setval(pg_get_serial_sequence('matches', 'id'), "
                               "(SELECT MAX(id) FROM matches))")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()
    return n


__all__ = ["NOW0", "TICK_GAP", "TURNS_USER", "DUE", "Plan", "Shape", "World", "due_counts", "plans", "rows",
           "shapes", "world", "write_postgres", "write_sqlite"]
