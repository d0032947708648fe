"""Balance runs of servers' card sets (``/cards balance``, issue 36): queued, played in a worker
process, reported with their intervals.  Knows no Discord: a front end registers ``on_update``
to show a run's progress (called at most every :data:`EDIT_EVERY` seconds) and its result.

- **Never on the event loop.**  The matches are played by the computer (level ``normal``) in a
  separate process (``spawn``, ``nice`` +10, a CPU-time limit set with ``RLIMIT_CPU``), in small
  chunks; the bot's loop only awaits each chunk and stores the results.
- **One at a time.**  A process plays one run at a time; the others wait in line and are told
  their place.  A server has at most one run waiting or playing.
- **A cap on CPU time** (:data:`CPU_LIMIT_S`, ``CARD_BALANCE_CPU_SECONDS``): a run that reaches
  it stops and says so, with what it measured up to there.
- **Restarts.**  Every finished match's result is stored with the run (``progress``), and every
  match's seed follows from the run's plan (:mod:`balance.sets`), so after a restart the run goes
  on from the next match and measures exactly what it would have; a run whose set can no longer
  be read is told as stopped.
- **Card values.**  A run of a card game's set also plays the plan's card-values part
  (:data:`balance.sets.VALUE_MATCHES` self-play matches with random decks,
  ``CARD_BALANCE_VALUE_MATCHES``), interleaved with the deck matches in the same worker and under
  the same CPU limit, each result stored in ``progress["values"]``.  When the run ends (done, or
  stopped with what it played) the set's values (:func:`balance.card_values.values_from`,
  labelled with the set's name and version) are stored as ``progress["card_values"]``: the
  computer drafter of that set version drafts by them (host/limited/cards.py).  A set whose cards
  cannot make random decks gives the values up (``progress["values_off"]``) and the deck matches
  go on.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Awaitable, Callable

from data import i18n
from data.store import BalanceRun, CardSetLog, Store
from host import worker_process
from host.shards import owns
from host.types import Result

log = logging.getLogger("host.balance_runs")

EDIT_EVERY = 10.0            # seconds between two edits of a run's progress message, at least
CHUNK = 4                    # matches the worker plays per call
NICE = 10
CPU_LIMIT_S = float(os.environ.get("CARD_BALANCE_CPU_SECONDS") or 30 * 60)


def per_order(default: int) -> int:
    """Matches a run plays per pairing and seat order: ``default`` (20, the least that measures
    a pairing), or ``CARD_BALANCE_PER_ORDER`` (1–100) where a bot is run to try the flow rather
    than to measure — the end-to-end tests, which check the run's messages and picture while the
    unit tests check its figures with 20; a run's result always says its n."""
    raw = os.environ.get("CARD_BALANCE_PER_ORDER", "").strip()
    return max(1, min(100, int(raw))) if raw.isdigit() else default


def value_matches(default: int) -> int:
    """The card values' matches a run plays: ``default`` (40), or ``CARD_BALANCE_VALUE_MATCHES``
    (0–400; 0 measures no card values, fewer than the default only to try the flow — the tests)."""
    raw = os.environ.get("CARD_BALANCE_VALUE_MATCHES", "").strip()
    return max(0, min(400, int(raw))) if raw.isdigit() else default


WAITING, RUNNING, DONE, STOPPED, FAILED = "queued", "running", "done", "stopped", "failed"

Update = Callable[[BalanceRun, str, "bytes | None", bool], Awaitable[None]]


def runs_of(bot: Any) -> "BalanceRuns":
    """The bot's balance runs (one service per bot, made on first use)."""
    runs = getattr(bot, "balance_runs", None)
    if runs is None or runs.store is not bot.store:
        runs = bot.balance_runs = BalanceRuns(bot.store, bot.host.card_sets, now=bot.host.now,
                                              shards=getattr(bot.host, "shards", None))
    return runs


# ---------------------------------------------------------------------------- the worker process
_engines: dict[int, Any] = {}


class CpuBudgetSpent(BaseException):
    """Raised inside the worker when the operating system says its CPU time is spent (the soft
    ``RLIMIT_CPU`` sends ``SIGXCPU``): the chunk ends, and the run is told why, even when that
    happens in its very first chunk, before any of its own count could see it.  A BaseException,
    like KeyboardInterrupt, so no ``except Exception`` of the game or the computer swallows it."""


_playing = False              # the worker is inside _play (a chunk), where the limit may end it


def _on_xcpu(_signum: int, _frame: Any) -> None:
    """The soft limit's signal: once only (later ones are ignored — the kernel repeats it every
    CPU second, and a second raise could land in the middle of sending the first one's answer
    back through the pipe, leaving the parent waiting for the rest of it); raised only inside a
    chunk (outside, the next chunk is refused at once)."""
    import signal

    signal.signal(signal.SIGXCPU, signal.SIG_IGN)
    global _spent
    _spent = True
    if _playing:
        raise CpuBudgetSpent()


_spent = False


def _worker_start(cpu_seconds: float) -> None:
    """The worker's initializer: a lower priority, and the run's CPU time as a limit — soft
    (``SIGXCPU``: :class:`CpuBudgetSpent` ends the chunk) and, 5 s later, hard (the kernel ends
    the process); it ends with the bot (:mod:`host.worker_process`)."""
    worker_process.start(NICE)
    try:
        import resource
        import signal

        limit = max(1, int(cpu_seconds) + 2)
        signal.signal(signal.SIGXCPU, _on_xcpu)
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
    except (ImportError, AttributeError, ValueError, OSError):   # no RLIMIT_CPU here: the run's own count stops it
        pass


def _died_of_cpu(pool: ProcessPoolExecutor) -> bool:
    """Did the pool's worker end by the CPU limit (``SIGXCPU`` unhandled, or ``SIGKILL`` at the
    hard limit)?"""
    import signal

    dead = {-getattr(signal, "SIGXCPU", 24), -signal.SIGKILL}
    procs = getattr(pool, "_processes", None) or {}
    return any(getattr(p, "exitcode", None) in dead for p in list(procs.values()))


def _play(row_fields: dict, game_name: str, plan: dict, matches: list, kind: str = "decks") -> tuple[list, float]:
    """The worker's entry point: play ``matches`` of ``plan`` with the set version's engine —
    planned deck matches, or (``kind`` "values") match numbers of the card values' part."""
    from balance import card_values
    from balance.sets import play_chunk
    from data.store import CardSetRow
    from host.engines import build

    global _playing
    if _spent:
        raise CpuBudgetSpent()
    _playing = True
    try:
        set_id = int(row_fields["id"])
        if set_id not in _engines:
            _engines.clear()
            _engines[set_id] = build(CardSetRow(**row_fields)).engine
        if kind == "values":
            return card_values.play_chunk(game_name, matches, seed=int(plan["values"]["seed"]),
                                          engine=_engines[set_id])
        return play_chunk(game_name, _engines[set_id], plan, matches)
    finally:
        _playing = False


# ---------------------------------------------------------------------------- the service
class BalanceRuns:
    def __init__(self, store: Store, card_sets: Any, *, now: Callable[[], float] = time.time,
                 shards: Any = None) -> None:
        self.store = store
        self.card_sets = card_sets
        self.now = now
        self.shards = shards
        self.on_update: list[Update] = []
        # how the set's deck names are made safe for a front end's message (cogs: safe_text)
        self.words: Callable[[Any], str] = str
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.cpu_limit = CPU_LIMIT_S
        self.chunk = CHUNK
        self.current: int | None = None

    # -------------------------------------------------------------- asking
    async def request(self, guild_id: int | None, user_id: int, game: str, name: str, version: int | None = None,
                      *, channel_id: int | None = None, locale: str = "en") -> Result:
        """Queue a run of the set's newest version (or ``version``): ``data["run"]``, ``data["place"]``."""
        from balance.card_values import GAMES
        from balance.sets import PER_ORDER, VALUE_MATCHES, make_plan

        row, err = await self.card_sets.version(guild_id, game, name, version)
        if err:
            return err
        loaded, err = await self.card_sets.loaded(row)
        if err:
            return err
        from data.card_sets import games

        decks = games.adapter(game).deck_ids(loaded.opened.cardset, loaded.opened.own)
        if len(decks) < 2:
            return Result.fail("cards.err.balance_decks", name=f"{row.name} v{row.version}", count=len(decks))
        waiting = await self.store.balance_runs((WAITING, RUNNING), int(guild_id))
        if waiting:
            return Result.fail("cards.err.balance_busy", run=waiting[0].id)
        run = BalanceRun(int(guild_id), int(row.id), game, int(user_id), i18n.locale_of(locale), WAITING,
                         plan=make_plan(decks, per_order=per_order(PER_ORDER), seed=int(row.id),
                                        values=value_matches(VALUE_MATCHES) if game in GAMES else 0),
                         channel_id=channel_id,
                         created_at=self.now(), updated_at=self.now())
        run = await self.store.create_balance_run(run)
        await self.store.log_card_set(CardSetLog(int(guild_id), int(user_id), "balance", game, row.name,
                                                 row.version, {"run": run.id}, at=self.now()))
        self.ensure_started()
        self._wake.set()
        return Result(ok=True, data={"run": run, "place": await self.place(run)})

    async def attach(self, run: BalanceRun, channel_id: int, message_id: int) -> None:
        """The message that shows the run's progress."""
        fresh = await self.store.get_balance_run(run.id) or run
        fresh.channel_id, fresh.message_id = int(channel_id), int(message_id)
        await self.store.update_balance_run(fresh)

    async def place(self, run: BalanceRun) -> int:
        """1 while it plays (or is next), else its place in the line."""
        line = [r for r in await self.store.balance_runs((RUNNING, WAITING)) if owns(self.shards, r.guild_id)]
        line.sort(key=lambda r: (r.status != RUNNING, r.id))
        for i, r in enumerate(line, 1):
            if r.id == run.id:
                return i
        return 1

    # -------------------------------------------------------------- words
    def _deck_names(self, run: BalanceRun, locale: str) -> dict[str, str]:
        from host import engines

        loaded = engines.cached(run.set_id)
        ready = loaded.engine.decks.ready() if loaded is not None else {}
        loc = i18n.locale_of(locale)
        return {d: ((ready.get(d) or {}).get("name") or {}).get(loc) or ((ready.get(d) or {}).get("name") or {}).get("en")
                or d for d in run.plan.get("decks", [])}

    def _card_names(self, run: BalanceRun, locale: str) -> dict[str, str]:
        """The set's own cards' names (its entries, made on the run's end), card id → name."""
        from host import engines

        loaded = engines.cached(run.set_id)
        loc = i18n.locale_of(locale)
        out = {}
        for e in getattr(loaded, "entries", None) or []:
            name = (e.name or {}).get(loc) or (e.name or {}).get("en")
            if e.own and not e.deck and name:
                out[e.id] = str(name)
        return out

    @staticmethod
    def _values_planned(run: BalanceRun) -> int:
        """The card values' matches the run plays (those it played, once it gave them up)."""
        from balance.sets import value_matches as planned

        return len(run.progress.get("values", [])) if run.progress.get("values_off") else planned(run.plan)

    def progress_text(self, run: BalanceRun, locale: str, place: int | None = None) -> str:
        plan = run.plan
        decks_total = len(plan.get("matches", []))
        values_total = self._values_planned(run)
        total = decks_total + values_total
        values_done = len(run.progress.get("values", []))
        done = len(run.progress.get("results", [])) + values_done
        if run.status == WAITING:
            return i18n.t("cards.balance.waiting_values" if values_total else "cards.balance.waiting", locale,
                          run=run.id, place=place or 1, total=total, decks=len(plan.get("decks", [])),
                          per=plan.get("per_order", 0), values=values_total)
        return i18n.t("cards.balance.progress_values" if values_total else "cards.balance.progress", locale,
                      run=run.id, done=done, total=total, percent=int(100 * done / total) if total else 0,
                      vdone=values_done, vtotal=values_total, cpu=_minutes(run.cpu_s, locale),
                      limit=_minutes(self.cpu_limit, locale))

    def _values_line(self, run: BalanceRun, locale: str) -> str | None:
        """What the run measured of the set's card values: from how many matches, and its three
        most valuable own cards by name (None: the run measures none, or it failed)."""
        from balance.card_values import CardValues
        from balance.sets import value_matches as planned

        total = planned(run.plan)
        if not total or run.status not in (DONE, STOPPED):
            return None
        if run.progress.get("values_off"):
            return i18n.t("cards.balance.values_off", locale)
        stored = run.progress.get("card_values")
        if stored is None:
            return i18n.t("cards.balance.values_none", locale) if not run.progress.get("values") else None
        try:
            values = CardValues.from_json(stored)
        except ValueError as exc:
            log.warning("balance run %s: its card values cannot be read (%s)", run.id, exc)
            return None
        names = self._card_names(run, locale)
        best = [names[c] for c, _v in values.ranked() if c in names and values.games.get(c)][:3]
        cards = i18n.t("core.list_sep", locale).join(i18n.t("cards.balance.values_card", locale, name=self.words(n))
                                                     for n in best)
        top = i18n.t("cards.balance.values_top", locale, cards=cards) if best else \
            i18n.t("cards.balance.values_unheld", locale)
        return i18n.t("cards.balance.values" if values.matches >= total else "cards.balance.values_partial", locale,
                      n=values.matches, total=total, top=top)

    def result_text(self, run: BalanceRun, locale: str) -> str:
        from balance.sets import figures

        f = figures(run.plan, run.progress.get("results", []))
        names = self._deck_names(run, locale)
        lines = [i18n.t(f"cards.balance.head_{run.status}", locale, run=run.id, done=f["played"], total=f["planned"],
                        reason=i18n.t(f"cards.balance.reason.{run.reason or 'none'}", locale))]
        for p in f["pairings"]:
            if p["n"]:
                lines.append(i18n.t("cards.balance.pairing", locale, a=self.words(names[p["a"]]),
                                    b=self.words(names[p["b"]]),
                                    share=_pct(p["share"]), low=_pct(p["ci95"][0]), high=_pct(p["ci95"][1]), n=p["n"],
                                    verdict=i18n.t(f"cards.balance.verdict.{p['verdict']}", locale)))
        for key in ("first", "caps"):
            x = f[key]
            if x["n"]:
                lines.append(i18n.t(f"cards.balance.{key}", locale, share=_pct(x["share"]), low=_pct(x["ci95"][0]),
                                    high=_pct(x["ci95"][1]), n=x["n"],
                                    verdict=i18n.t(f"cards.balance.verdict.{x['verdict']}", locale)))
        d = f["draws"]
        if d["count"]:
            lines.append(i18n.t("cards.balance.draws", locale, share=_pct(d["share"]), low=_pct(d["ci95"][0]),
                                high=_pct(d["ci95"][1]), n=d["n"], count=d["count"]))
        lines.append(i18n.t("cards.balance.targets", locale))
        values = self._values_line(run, locale)
        if values:
            lines.append(values)
        return "\n".join(lines)

    # -------------------------------------------------------------- the worker loop
    def ensure_started(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._loop())

    async def start(self) -> None:
        """Resume the runs this process was playing or had waiting (after a restart)."""
        self.ensure_started()
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    async def _next(self) -> BalanceRun | None:
        line = [r for r in await self.store.balance_runs((RUNNING, WAITING)) if owns(self.shards, r.guild_id)]
        line.sort(key=lambda r: (r.status != RUNNING, r.id))
        return line[0] if line else None

    async def _loop(self) -> None:
        while True:
            try:
                run = await self._next()
            except Exception:          # the database failed for a moment: look again later
                log.warning("balance runs: the queue could not be read", exc_info=True)
                run = None
                await asyncio.sleep(5)
            if run is None:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=60)
                except asyncio.TimeoutError:
                    pass
                continue
            try:
                await self._work(run)
                await self._tell_places()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("balance run %s failed", run.id)
                run.status, run.reason, run.updated_at = FAILED, "error", self.now()
                try:
                    await self.store.update_balance_run(run)
                    await self._tell(run, final=True)
                except Exception:
                    log.warning("balance run %s: could not record its failure (%s)", run.id, exc)
                    await asyncio.sleep(5)

    async def _tell_places(self) -> None:
        """The runs still waiting are told their new place in line."""
        line = [r for r in await self.store.balance_runs((WAITING,)) if owns(self.shards, r.guild_id)]
        for place, run in enumerate(sorted(line, key=lambda r: r.id), 1):
            text = self.progress_text(run, run.locale, place=place)
            for cb in list(self.on_update):
                try:
                    await cb(run, text, None, False)
                except Exception:
                    log.exception("balance run %s: telling its place failed", run.id)

    async def _tell(self, run: BalanceRun, *, final: bool = False) -> None:
        text = self.result_text(run, run.locale) if final else self.progress_text(run, run.locale)
        picture = None
        if final and run.progress.get("results"):
            from balance.sets import figures
            from render.balance_chart import chart_png

            picture = await asyncio.to_thread(chart_png, run.game, run.plan, figures(run.plan, run.progress["results"]),
                                              self._deck_names(run, run.locale), locale=run.locale,
                                              title=self._title(run))
        for cb in list(self.on_update):
            try:
                await cb(run, text, picture, final)
            except Exception:
                log.exception("balance run %s: telling its progress failed", run.id)

    def _title(self, run: BalanceRun) -> str:
        from host import engines

        loaded = engines.cached(run.set_id)
        return f"{loaded.row.name} v{loaded.row.version}" if loaded is not None else f"#{run.set_id}"

    async def _work(self, run: BalanceRun) -> None:
        from balance.sets import next_chunk
        from host import engines

        self.current = run.id
        try:
            loaded = await engines.load(self.store, run.set_id, game=run.game)
        except engines.CardSetUnusable:
            run.status, run.reason, run.updated_at = STOPPED, "unreadable", self.now()
            await self.store.update_balance_run(run)
            await self._tell(run, final=True)
            return
        run.status, run.updated_at = RUNNING, self.now()
        run.progress.setdefault("results", [])
        run.progress.setdefault("values", [])
        await self.store.update_balance_run(run)
        await self._tell(run)
        last_told = time.monotonic()
        fields = {f.name: getattr(loaded.row, f.name) for f in dataclasses.fields(loaded.row)}
        loop = asyncio.get_running_loop()
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(max(1.0, self.cpu_limit - run.cpu_s),))
        try:
            while (step := next_chunk(run.plan, len(run.progress["results"]), len(run.progress["values"]),
                                      self.chunk, values=not run.progress.get("values_off"))) is not None:
                if run.cpu_s >= self.cpu_limit:
                    run.status, run.reason = STOPPED, "cpu"
                    break
                kind, chunk = step
                try:
                    results, cpu = await loop.run_in_executor(pool, _play, fields, run.game, run.plan, chunk, kind)
                except CpuBudgetSpent:        # the operating system's limit, inside a chunk
                    run.status, run.reason, run.cpu_s = STOPPED, "cpu", max(run.cpu_s, self.cpu_limit)
                    break
                except BrokenProcessPool:     # the worker died: the CPU limit, or killed
                    cpu_out = _died_of_cpu(pool) or run.cpu_s >= self.cpu_limit * 0.9
                    run.status, run.reason = STOPPED, "cpu" if cpu_out else "worker"
                    if cpu_out:
                        run.cpu_s = max(run.cpu_s, self.cpu_limit)
                    break
                except Exception as exc:      # a values match the set cannot make (random decks): given up
                    if kind != "values":
                        raise
                    log.warning("balance run %s: the card values are given up: %s", run.id, exc)
                    run.progress["values_off"] = "unplayable"
                    await self.store.update_balance_run(run)
                    continue
                run.progress["results" if kind == "decks" else "values"].extend(results)
                run.cpu_s += cpu
                run.updated_at = self.now()
                await self.store.update_balance_run(run)
                if time.monotonic() - last_told >= EDIT_EVERY:
                    last_told = time.monotonic()
                    await self._tell(run)
            else:
                run.status = DONE
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
            self.current = None
        await self._keep_values(run, loaded)
        run.updated_at = self.now()
        await self.store.update_balance_run(run)
        await self._tell(run, final=True)

    async def _keep_values(self, run: BalanceRun, loaded: Any) -> None:
        """The run's card values from the matches it played (``progress["card_values"]``; none
        once they were given up: a set whose random decks fail measures nothing of them), and the
        set's entries made ready for the result's card names; a failure of either is logged and
        the run's result told without them."""
        from balance.card_values import values_from

        played = run.progress.get("values") or []
        if played and run.status in (DONE, STOPPED) and not run.progress.get("values_off"):
            label = f"{loaded.row.name} v{loaded.row.version}"
            try:
                values = await asyncio.to_thread(values_from, run.game, loaded.engine.decks.cards(), played,
                                                 seed=int(run.plan["values"]["seed"]), label=label)
                run.progress["card_values"] = values.to_json()
            except Exception:
                log.exception("balance run %s: its card values could not be worked out", run.id)
        if played and self.card_sets is not None:
            try:
                await self.card_sets.entries(loaded)
            except Exception:
                log.warning("balance run %s: the set's card names could not be read", run.id, exc_info=True)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _minutes(seconds: float, locale: str) -> str:
    s = int(seconds)
    return i18n.t("cards.balance.minutes", locale, m=s // 60, s=f"{s % 60:02d}")


__all__ = ["BalanceRuns", "runs_of", "CPU_LIMIT_S", "EDIT_EVERY", "WAITING", "RUNNING", "DONE", "STOPPED", "FAILED"]
