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

from .twin_v2 import check_row, check_v2, controls, is_v2, texts

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
                  create: bool = True, current: dict | None = None) -> list[str]:
    """Every reason Discord would refuse this message payload (empty list: fine).  ``create``:
    a new message (else an edit); ``current``: for an edit, the stored message it applies to —
    a Components V2 message (flag ``IS_COMPONENTS_V2``, tests/e2e/twin_v2.py) is checked as one
    when the payload or the message carries the flag (an edit cannot remove it, and one that adds
    it must reset the message's content and embeds).  Without ``current`` an edit is checked from
    its payload alone (what it keeps of the message is not known)."""
    p = payload or {}
    errors: list[str] = []
    v2, v2_errors = check_v2(p, files, create=create, current=current)
    errors += v2_errors
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
    if not v2:
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
    """A legacy message's components (no IS_COMPONENTS_V2 flag): at most 5 action rows and
    nothing else at the top level, each row checked as tests/e2e/twin_v2.py's ``check_row``."""
    errors: list[str] = []
    if len(rows) > 5:
        errors.append(f"components: {len(rows)} action rows > 5")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            errors.append(f"components[{r}]: top-level component is not an action row")
            continue
        errors += check_row(f"components[{r}]", row, seen)
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
    from .twin_user_app import check_installs   # integration_types and contexts (a user's own install)

    return errors + check_installs(commands)


MODAL_TEXT_MAX = 4000   # a text input's value, min_length and max_length


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def modal_inputs(modal: dict) -> list[dict]:
    """The text inputs of a modal (an interaction response type 9's ``data``), in order, whether
    each sits in an action row (type 1) or in a label (type 18)."""
    out = []
    for top in modal.get("components") or []:
        if top.get("type") == 1:
            out += [c for c in top.get("components") or [] if c.get("type") == 4]
        elif top.get("type") == 18 and (top.get("component") or {}).get("type") == 4:
            out.append(top["component"])
    return out


def check_modal(data: Any) -> list[str]:
    """Every reason Discord would refuse this modal (interaction response type 9's ``data``):
    custom_id 1..100, title 1..45, 1..5 top-level components, each an action row holding exactly
    one text input, or a label (type 18, label 1..45, description <= 100) wrapping one; a text
    input's custom_id 1..100 and unique in the modal, style 1 or 2, label 1..45 in a row (none in
    a label), min_length 0..4000, max_length 1..4000, min <= max, placeholder <= 100, value <=
    4000 and within min/max, required a bool.  Other components Discord allows in a modal today
    (text displays, selects in a label) are not modelled: refused, so a new kind gets noticed."""
    if not isinstance(data, dict):
        return ["data: a modal is an object"]
    errors: list[str] = []
    cid = data.get("custom_id")
    if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
        errors.append(f"data.custom_id: {len(cid) if isinstance(cid, str) else cid!r} (1..100)")
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        errors.append(f"data.title: {len(title) if isinstance(title, str) else title!r} (1..45)")
    tops = data.get("components")
    if not isinstance(tops, list) or not 1 <= len(tops) <= 5:
        errors.append(f"data.components: {len(tops) if isinstance(tops, list) else tops!r} components (1..5)")
        tops = tops if isinstance(tops, list) else []
    seen: set[str] = set()

    def text_input(where: str, item: Any, *, in_label: bool) -> None:
        if not isinstance(item, dict) or item.get("type") != 4:
            kind = item.get("type") if isinstance(item, dict) else item
            errors.append(f"{where}: component type {kind!r} is not a text input (the twin models only "
                          f"text inputs in modals)")
            return
        icid = item.get("custom_id")
        if not isinstance(icid, str) or not 1 <= len(icid) <= 100:
            errors.append(f"{where}.custom_id: {len(icid) if isinstance(icid, str) else icid!r} (1..100)")
        elif icid in seen:
            errors.append(f"{where}.custom_id: duplicated {icid!r}")
        else:
            seen.add(icid)
        if item.get("style") not in (1, 2):
            errors.append(f"{where}.style: {item.get('style')!r} (1 short, 2 paragraph)")
        label = item.get("label")
        if in_label:
            if label is not None:
                errors.append(f"{where}.label: a text input in a label component has no label of its own")
        elif not isinstance(label, str) or not 1 <= len(label) <= 45:
            errors.append(f"{where}.label: {len(label) if isinstance(label, str) else label!r} (1..45)")
        lo, hi = item.get("min_length"), item.get("max_length")
        if lo is not None and not (_is_int(lo) and 0 <= lo <= MODAL_TEXT_MAX):
            errors.append(f"{where}.min_length: {lo!r} (0..{MODAL_TEXT_MAX})")
            lo = None
        if hi is not None and not (_is_int(hi) and 1 <= hi <= MODAL_TEXT_MAX):
            errors.append(f"{where}.max_length: {hi!r} (1..{MODAL_TEXT_MAX})")
            hi = None
        lo_, hi_ = lo if lo is not None else 0, hi if hi is not None else MODAL_TEXT_MAX
        if lo_ > hi_:
            errors.append(f"{where}: min_length {lo_} > max_length {hi_}")
        placeholder = item.get("placeholder")
        if placeholder is not None and (not isinstance(placeholder, str) or len(placeholder) > 100):
            errors.append(f"{where}.placeholder: {len(placeholder) if isinstance(placeholder, str) else placeholder!r}"
                          f" > 100")
        value = item.get("value")
        if value is not None:
            if not isinstance(value, str) or len(value) > MODAL_TEXT_MAX:
                errors.append(f"{where}.value: {len(value) if isinstance(value, str) else value!r} > {MODAL_TEXT_MAX}")
            elif value and not lo_ <= len(value) <= hi_:
                errors.append(f"{where}.value: {len(value)} characters outside min/max {lo_}..{hi_}")
        if "required" in item and not isinstance(item["required"], bool):
            errors.append(f"{where}.required: {item['required']!r} is not a boolean")

    for t, top in enumerate(tops):
        where = f"data.components[{t}]"
        kind = top.get("type") if isinstance(top, dict) else None
        if kind == 1:
            items = top.get("components") or []
            if len(items) != 1:
                errors.append(f"{where}: an action row in a modal holds exactly one text input, not {len(items)}")
            for c, item in enumerate(items):
                text_input(f"{where}.components[{c}]", item, in_label=False)
        elif kind == 18:
            label = top.get("label")
            if not isinstance(label, str) or not 1 <= len(label) <= 45:
                errors.append(f"{where}.label: {len(label) if isinstance(label, str) else label!r} (1..45)")
            description = top.get("description")
            if description is not None and (not isinstance(description, str) or len(description) > 100):
                errors.append(f"{where}.description: > 100")
            text_input(f"{where}.component", top.get("component"), in_label=True)
        else:
            errors.append(f"{where}: top-level component type {kind!r} (the twin models action rows (1) and "
                          f"labels (18) holding a text input)")
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
    modal: dict | None = None      # the modal it was answered with (response type 9): what its user sees
    modal_submit: Interaction | None = None   # the (last) submission of that modal (Twin.submit_modal)
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
    """Content plus every embed's visible text, plus (a Components V2 message) the text of its
    text displays, in containers and sections too."""
    if not m:
        return ""
    parts = [m.get("content") or ""]
    for e in m.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
        parts.append((e.get("author") or {}).get("name") or "")
    if is_v2(m):
        parts += texts(m.get("components"))
    return "\n".join(p for p in parts if p)


def components_of(m: dict) -> list[dict]:
    """The buttons and selects a user sees on a message: its rows' items, and in a Components V2
    message those in containers and a section's button accessory too."""
    return controls(m.get("components"))


def find_component(m: dict, pattern: str) -> dict | None:
    rx = re.compile(pattern)
    return next((c for c in components_of(m) if c.get("custom_id") and rx.search(c["custom_id"])), None)
