"""What the Discord twin (tests/e2e/twin.py) checks in what the bot sends — Discord's documented
limits on messages, components and commands — its protocol pieces (error answers, the
constants the rules use) and helpers that read a message as a user sees it."""
from __future__ import annotations

import asyncio
import datetime as dt
import json
import re

from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

TOKEN = "twin-token-not-a-secret"
QUIET = 0.3      # seconds without a request from the bot after which it is taken to be done
POLL = 0.05      # seconds between checks of what a REST call does not signal (the bot's log, a file)
UPLOAD_LIMIT = 10 * 1024 * 1024
ACK_DEADLINE = 3.0
EPHEMERAL = 64
LOADING = 128

ALL_PERMISSIONS = str((1 << 53) - 1)
ADMINISTRATOR, VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 3, 1 << 10, 1 << 11, 1 << 14, 1 << 15
READ_HISTORY, USE_COMMANDS, MANAGE_THREADS, CREATE_PUBLIC_THREADS = 1 << 16, 1 << 31, 1 << 34, 1 << 35
SEND_IN_THREADS = 1 << 38
# @everyone: view channel, send messages, embed links, attach files, read history, use app
# commands, send in threads
MEMBER_PERMISSIONS = str(VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | USE_COMMANDS
                         | SEND_IN_THREADS)
# the bot's own (managed) role, as its invite link asks: also threads
BOT_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | MANAGE_THREADS
                   | CREATE_PUBLIC_THREADS | SEND_IN_THREADS)



def _json(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat()


OLD_EDIT_RETRY = 2.0   # seconds; Discord's real wait is longer
TOKEN_LIFETIME = 15 * 60   # seconds an interaction token may be used for follow-ups and edits


class OldEdit(Exception):
    """An edit of a message older than an hour once the channel's budget is spent: 429/30046."""


class Reject(Exception):
    """An error answer, as Discord would give it."""

    def __init__(self, status: int, code: int, message: str, *, violation: bool = True,
                 errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.violation = status, code, message, violation
        self.errors = errors or []


# ---------------------------------------------------------------------------- limits
def check_message(payload: dict | None, files: list[tuple[str, bytes]], *, upload_limit: int = UPLOAD_LIMIT,
                  create: bool = True) -> list[str]:
    """Every reason Discord would refuse this message payload (empty list: fine)."""
    p = payload or {}
    errors: list[str] = []
    content = p.get("content")
    if content is not None and len(content) > 2000:
        errors.append(f"content: {len(content)} > 2000 characters")
    embeds = p.get("embeds") or []
    if len(embeds) > 10:
        errors.append(f"embeds: {len(embeds)} > 10")
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            n = len(e.get(key) or "")
            total += n
            if n > limit:
                errors.append(f"embeds[{i}].{key}: {n} > {limit}")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds[{i}].fields: {len(fields)} > 25")
        for j, f in enumerate(fields):
            name, value = f.get("name") or "", f.get("value") or ""
            total += len(name) + len(value)
            if len(name) > 256 or not name:
                errors.append(f"embeds[{i}].fields[{j}].name: {len(name)} (1..256)")
            if len(value) > 1024 or not value:
                errors.append(f"embeds[{i}].fields[{j}].value: {len(value)} (1..1024)")
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            errors.append(f"embeds[{i}].footer.text: {len(footer)} > 2048")
        if len(author) > 256:
            errors.append(f"embeds[{i}].author.name: {len(author)} > 256")
    if total > 6000:
        errors.append(f"embeds: {total} > 6000 characters in all")
    errors += check_components(p.get("components") or [])
    if len(files) > 10:
        errors.append(f"files: {len(files)} attachments > 10")
    for name, raw in files:
        if len(raw) > upload_limit:
            errors.append(f"file {name}: {len(raw)} bytes > upload limit {upload_limit}")
    am = p.get("allowed_mentions")
    if isinstance(am, dict):
        parse = am.get("parse") or []
        if "users" in parse and am.get("users"):
            errors.append("allowed_mentions: parse 'users' and a users list are mutually exclusive")
        if len(am.get("users") or []) > 100:
            errors.append("allowed_mentions.users: more than 100")
    if create and not (content or embeds or files or p.get("components") or p.get("sticker_ids")
                       or p.get("poll")):
        errors.append("cannot send an empty message (50006)")
    return errors


def check_components(rows: list[dict]) -> list[str]:
    errors: list[str] = []
    if len(rows) > 5:
        errors.append(f"components: {len(rows)} action rows > 5")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            errors.append(f"components[{r}]: top-level component is not an action row")
            continue
        items = row.get("components") or []
        if not items:
            errors.append(f"components[{r}]: empty action row")
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(items) > 1:
            errors.append(f"components[{r}]: a select must be alone in its row")
        if len(items) > 5:
            errors.append(f"components[{r}]: {len(items)} items > 5")
        for c, item in enumerate(items):
            where = f"components[{r}][{c}]"
            cid = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") == 5:
                if cid:
                    errors.append(f"{where}: a link button has no custom_id")
            else:
                if not cid:
                    errors.append(f"{where}: custom_id is required")
                elif len(cid) > 100:
                    errors.append(f"{where}.custom_id: {len(cid)} > 100")
                elif cid in seen:
                    errors.append(f"{where}.custom_id: duplicated {cid!r}")
                if cid:
                    seen.add(cid)
            if item.get("type") == 2:
                label = item.get("label") or ""
                if len(label) > 80:
                    errors.append(f"{where}.label: {len(label)} > 80")
                if not label and not item.get("emoji"):
                    errors.append(f"{where}: a button needs a label or an emoji")
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= 25:
                    errors.append(f"{where}.options: {len(options)} (1..25)")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    errors.append(f"{where}.options: duplicated values")
                for o, opt in enumerate(options):
                    for key in ("label", "value", "description"):
                        n = len(opt.get(key) or "")
                        if n > 100 or (key != "description" and n == 0):
                            errors.append(f"{where}.options[{o}].{key}: {n} (1..100)")
                if len(item.get("placeholder") or "") > 150:
                    errors.append(f"{where}.placeholder: > 150")
                lo, hi = item.get("min_values", 1), item.get("max_values", 1)
                # Discord: min_values 0..25, max_values 1..25, and never more than the options
                if not (0 <= lo <= 25 and 1 <= hi <= 25 and lo <= hi <= max(1, len(options))):
                    errors.append(f"{where}: min_values/max_values {lo}/{hi}")
    return errors


def check_commands(commands: list[dict]) -> list[str]:
    """Application command payload limits (names, descriptions, options, choices)."""
    errors: list[str] = []
    name_rx = re.compile(r"^[-_\w]{1,32}$")

    def opts(where: str, options: list[dict]) -> None:
        if len(options) > 25:
            errors.append(f"{where}: {len(options)} options > 25")
        for o in options:
            w = f"{where}.{o.get('name')}"
            if not name_rx.match(o.get("name") or "") or (o.get("name") or "") != (o.get("name") or "").lower():
                errors.append(f"{w}: bad name")
            if not 1 <= len(o.get("description") or "") <= 100:
                errors.append(f"{w}: description length")
            for loc, text in (o.get("name_localizations") or {}).items():
                if not name_rx.match(text or ""):
                    errors.append(f"{w}: bad {loc} name {text!r}")
            for loc, text in (o.get("description_localizations") or {}).items():
                if not 1 <= len(text or "") <= 100:
                    errors.append(f"{w}: {loc} description length")
            choices = o.get("choices") or []
            if len(choices) > 25:
                errors.append(f"{w}: {len(choices)} choices > 25")
            for ch in choices:
                if not 1 <= len(ch.get("name") or "") <= 100:
                    errors.append(f"{w}: choice name length")
                for loc, text in (ch.get("name_localizations") or {}).items():
                    if not 1 <= len(text or "") <= 100:
                        errors.append(f"{w}: {loc} choice name length")
            if o.get("type") in (1, 2):
                opts(w, o.get("options") or [])

    if len(commands) > 100:
        errors.append("more than 100 commands")
    for c in commands:
        if not name_rx.match(c.get("name") or ""):
            errors.append(f"/{c.get('name')}: bad name")
        if c.get("type", 1) == 1 and not 1 <= len(c.get("description") or "") <= 100:
            errors.append(f"/{c.get('name')}: description length")
        opts(f"/{c.get('name')}", c.get("options") or [])
    return errors


# ---------------------------------------------------------------------------- records
@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    query: dict = field(default_factory=dict)
    status: int = 0
    at: float = 0.0


@dataclass
class Interaction:
    """One interaction the twin delivered, and everything its user saw in answer."""
    payload: dict
    user_id: int
    sent_at: float | None = None
    acked_at: float | None = None
    response_type: int | None = None
    original_id: int | None = None
    replies: list[dict] = field(default_factory=list)   # message snapshots, in order
    choices: list[dict] | None = None
    shards: list[int] = field(default_factory=list)     # the gateway shard(s) it was delivered on
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def token(self) -> str:
        return self.payload["token"]

    @property
    def last(self) -> dict | None:
        return self.replies[-1] if self.replies else None

    @property
    def text(self) -> str:
        return "\n".join(message_text(m) for m in self.replies)

    @property
    def ephemeral(self) -> bool:
        return bool(self.last and self.last.get("flags", 0) & EPHEMERAL)

    @property
    def files(self) -> list[str]:
        return [a["filename"] for m in self.replies for a in m.get("attachments", [])]


def message_text(m: dict | None) -> str:
    """Content plus every embed's visible text."""
    if not m:
        return ""
    parts = [m.get("content") or ""]
    for e in m.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
        parts.append((e.get("author") or {}).get("name") or "")
    return "\n".join(p for p in parts if p)


def components_of(m: dict) -> list[dict]:
    return [c for row in m.get("components") or [] for c in row.get("components") or []]


def find_component(m: dict, pattern: str) -> dict | None:
    rx = re.compile(pattern)
    return next((c for c in components_of(m) if c.get("custom_id") and rx.search(c["custom_id"])), None)
