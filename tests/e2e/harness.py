"""Run the real ``bot.py`` (a subprocess, started as users start it) against a :class:`Twin`.

``BotProcess(twin, tmp_path)`` starts ``python bot.py`` with the twin's environment
(``DISCORD_TOKEN`` a dummy token, ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` on loopback,
``DATABASE_URL`` in ``tmp_path``) and waits until the bot logged ``ready as``.  ``kill()`` sends
SIGKILL (no clean shutdown); ``start()`` again runs a new process on the same database.
"""
from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from .twin import Twin, find_component
from .twin_v2 import is_v2, texts

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 45.0


def _die_with_parent() -> None:
    """In the child, before exec: on Linux, SIGKILL the bot if the test process dies, so no bot
    outlives a crashed test run (elsewhere the fixtures' teardown stops it)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except Exception:
        pass


class BotProcess:
    def __init__(self, twin: Twin, tmp_path: Path, *, plugins: str = "tests.e2e.loopback_only,tests.e2e.shown_log",
                 extra_env: dict | None = None) -> None:
        self.twin = twin
        self.db = tmp_path / "bot.sqlite3"
        self.log_path = tmp_path / "bot.log"
        self.plugins = plugins
        self.extra_env = dict(extra_env or {})
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._log_offset = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOT_TEST_"))}
        env.update(self.twin.env())
        env.update({"DATABASE_URL": f"sqlite:///{self.db}", "LOG_LEVEL": "INFO", "SHARD_COUNT": "",
                    "DEV_GUILD_ID": "", "SYNC_COMMANDS": "1", "BOT_TEST_PLUGINS": self.plugins,
                    "BOT_TEST_GUILD_READY": "0.1",
                    "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)})
        env.update(self.extra_env)
        return env

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    async def start(self) -> None:
        assert self.proc is None or self.proc.returncode is not None, "already running"
        self.starts += 1
        self._log_offset = len(self.log())
        identifies = self.twin.identifies
        with open(self.log_path, "ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "bot.py", cwd=str(ROOT), env=self.env(), stdin=asyncio.subprocess.DEVNULL,
                stdout=out, stderr=out, preexec_fn=_die_with_parent)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT
        while loop.time() < deadline:
            if self.proc.returncode is not None:
                raise AssertionError(f"bot.py exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            if self.twin.identifies > identifies and "ready as" in self.log()[self._log_offset:]:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"bot.py did not become ready in {START_TIMEOUT} s:\n{self.log()[-3000:]}")

    async def kill(self) -> None:
        """SIGKILL: the process gets no chance to clean up."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.proc.wait(), 10)

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except asyncio.TimeoutError:
            self.proc.kill()
            await asyncio.wait_for(self.proc.wait(), 10)

    def errors(self) -> list[str]:
        """Tracebacks and ERROR lines the bot logged."""
        return [line for line in self.log().splitlines() if " ERROR " in line or line.startswith("Traceback")]

    def warnings(self) -> list[str]:
        return [line for line in self.log().splitlines() if " WARNING " in line and "TESTING ONLY" not in line]

    def shown(self, match_id: int) -> int:
        """The newest version of match ``match_id`` the bot has finished showing — its board and
        every DM sent (logged by tests/e2e/shown_log.py); 0 before the first."""
        found = re.findall(rf"TESTING: match {int(match_id)} shown at version (\d+)\b", self.log())
        return max((int(v) for v in found), default=0)


# ---------------------------------------------------------------------------- match helpers
def played_or_refused(ix: Any) -> bool:
    """The Act menu's confirm is a deferred update: done once its edit says how it went."""
    return "You played" in ix.text or "⚠️" in ix.text



def board_title(m: dict) -> str:
    """A board's title — the heading that opens its layout ("## SQUARES #12"; a legacy board: its
    embed's title) — or "" for any other message (a retired board keeps only its words)."""
    if is_v2(m):
        heading = next((t for t in texts(m.get("components")) if t.startswith("## ")), "")
        return heading[3:].split("\n", 1)[0].strip()
    embeds = m.get("embeds") or []
    return (embeds[0].get("title") or "") if embeds else ""


class Table:
    """Two players and the bot: the steps every scenario uses."""

    def __init__(self, twin: Twin, bot: BotProcess, *, channel_id: int | None = None) -> None:
        self.twin, self.bot = twin, bot
        self.channel_id = channel_id          # where /play is used (None: the twin's first channel)
        self.alice = twin.user("Alice")
        self.bob = twin.user("Bob")
        self.carol = twin.user("Carol")

    def uid(self, user: dict) -> int:
        return int(user["id"])

    async def challenge(self, game: str = "squares", options: str | None = None, **kw: Any) -> tuple[int, dict]:
        """Alice challenges Bob with /play; returns (match id, the challenge message)."""
        opts: dict[str, Any] = {"game": game, "opponent": self.bob}
        if options:
            opts["options"] = options
        opts.update(kw)
        opts.setdefault("channel_id", self.channel_id)      # a scenario may name another channel
        ix = await self.twin.slash(self.alice, "play", **opts)
        assert ix.ephemeral, ix.text
        m = re.search(r"#(\d+)", ix.text)
        assert m, f"/play answered: {ix.text!r}"
        match_id = int(m.group(1))
        board = await self.twin.wait_for(lambda: self.board_message(match_id), what="the challenge message")
        return match_id, board

    async def pick_deck(self, user: dict, ix: Any, pick: Any = None) -> Any:
        """Card games ask for a deck on Accept/Join (an ephemeral select): take the first offered
        (or ``pick(options)``).  Returns the interaction that accepted."""
        select = find_component(ix.last or {}, r":deck:(accept|join)$")
        if select is None:
            return ix
        assert ix.ephemeral, "the deck picker must be ephemeral"
        option = pick(select["options"]) if pick else select["options"][0]
        # a deferred update, then (after the host dealt the cards) a follow-up naming the deck
        return await self.twin.click(user, ix.last, select["custom_id"], values=[option["value"]],
                                     until=lambda done: done.replies)

    def board_message(self, match_id: int) -> dict | None:
        """The newest message carrying the Act (or Accept/Join) buttons of ``match_id`` in the
        server (a player's DM carries Act too while their decision is awaited)."""
        dms = {id(m) for m in self.twin.all_dms()}
        found = [m for m in self.twin.posts() if id(m) not in dms
                 and find_component(m, rf"^m:{match_id}:(act|accept|join)$")]
        return found[-1] if found else None

    def latest_board(self, match_id: int) -> dict | None:
        """The newest board of ``match_id`` in the server — the one a player sees, with its
        picture (a retired board keeps only its words; a finished match's last board has the
        result and no buttons)."""
        dms = {id(m) for m in self.twin.all_dms()}
        found = [m for m in self.twin.posts() if id(m) not in dms and board_title(m).endswith(f"#{match_id}")]
        return found[-1] if found else None

    def thread_of(self, match_id: int) -> int | None:
        board = self.board_message(match_id)
        return int(board["channel_id"]) if board else None

    async def start(self, game: str = "squares", options: str | None = None, **kw: Any) -> int:
        """/play, Bob accepts: an active match in its own thread."""
        match_id, challenge = await self.challenge(game, options, **kw)
        ix = await self.twin.click(self.bob, challenge, f"m:{match_id}:accept")
        ix = await self.pick_deck(self.bob, ix)
        assert ix.response_type == 6, ix.text
        await self.twin.wait_for(lambda: find_component(self.board_message(match_id) or {}, rf"^m:{match_id}:act$"),
                                 what="the board with an Act button")
        return match_id

    async def to_act(self, match_id: int, users: Any = None) -> dict | None:
        """The player (of ``users``, default Alice and Bob) whose legal commands are offered
        (autocomplete is the only oracle a user has)."""
        for user in users or (self.alice, self.bob):
            choices = await self.twin.autocomplete(user, "move", "command", command="",
                                                   channel_id=self.thread_of(match_id))
            if choices:
                return user
        return None

    async def play_first_offered(self, match_id: int, moves: int) -> None:
        """Whoever is to act plays the first command autocomplete offers, ``moves`` times (or
        until nobody can act)."""
        thread_id = self.thread_of(match_id)
        for _ in range(moves):
            actor = await self.to_act(match_id)
            if actor is None:
                break
            choices = await self.twin.autocomplete(actor, "move", "command", command="", channel_id=thread_id)
            if not choices:
                break
            ix = await self.twin.slash(actor, "move", command=choices[0]["value"], channel_id=thread_id)
            assert "You played" in ix.text or "⚠️" not in ix.text, ix.text

    async def move(self, user: dict, match_id: int, command: str, **kw: Any):
        return await self.twin.slash(user, "move", command=command, channel_id=self.thread_of(match_id), **kw)

    async def act_by_menu(self, user: dict, match_id: int, pick: Any = None, *,
                          message: dict | None = None) -> tuple[str, Any]:
        """Play through the Act menu: Act → (the piece or card →) the move, which is played at
        once.  ``pick(options)`` chooses a select option (default: the first); ``message``: the
        message whose Act is pressed (default: the board; e.g. the player's DM).  Returns (the
        command played, the last interaction)."""
        board = message or self.board_message(match_id)
        ix = await self.twin.click(user, board, f"m:{match_id}:act")
        for _ in range(4):
            menu = ix.last
            assert menu is not None and menu["flags"] & 64, f"the Act menu is not ephemeral: {ix.text}"
            select = find_component(menu, r":c:")
            if select is None:      # every move on offer is one of a batch (e.g. the discards)
                batch = find_component(menu, r":b:")
                assert batch is not None, f"menu without a select: {menu}"
                values = [o["value"] for o in batch["options"][:batch.get("min_values") or 1]]
                ix = await self.twin.click(user, menu, batch["custom_id"], values=values, until=played_or_refused)
                played = re.search(r"You played .*?`([^`]+)`", ix.text)
                assert played, f"the batch answered: {ix.text!r}"
                return played.group(1), ix
            options = [o for o in select["options"] if not o["value"].startswith("p:")]
            option = pick(options) if pick else options[0]
            if option["value"].startswith("c:"):
                ix = await self.twin.click(user, menu, select["custom_id"], values=[option["value"]],
                                           until=played_or_refused)
                played = re.search(r"You played .*?`([^`]+)`", ix.text)
                assert played, f"the move answered: {ix.text!r}"
                return played.group(1), ix
            ix = await self.twin.click(user, menu, select["custom_id"], values=[option["value"]])
        raise AssertionError("the Act menu did not play a move in 4 picks")
