"""Message components for the Discord twin (tests/e2e/twin.py): the checks of an action row and its
buttons and selects (both message forms share them), the Components V2 layout as Discord defines
it, what Discord fills in when it stores such a message, and walkers that read a component tree
as a user sees it (its text, its controls, its pictures).

Sources, cited by each limit below:

* [ref]  Discord's "Component Reference" (discord-api-docs, developers/components/reference.mdx):
  component types, what each holds, "Messages allow up to 40 total components", "Once a message
  has been sent with this flag, it can't be removed from that message", ids "unique within the
  message ... generated sequentially if left empty", custom_id 1-100 and unique, media items,
  "The File component only supports using the attachment:// protocol".
* [msg]  Discord's message resource (developers/resources/message.mdx): "When the flag
  IS_COMPONENTS_V2 is set, the message can only contain components. Providing content, embeds,
  sticker_ids, poll ... will fail with a 400"; on edit "the IS_COMPONENTS_V2 flag can only be
  set. When [it] is set, any of the used content, embeds, sticker_ids, or poll fields must have
  their values reset to empty. For content and poll this is null. For embeds and sticker_ids this
  is []".
* [log]  Discord's change log, 29 April 2025 "Raised Component Limits": 40 components in all, no
  limit on top-level components nor on a container's children.
* [4k]   the discord-api-docs pull request "Document that text display components allows 4k
  characters" ("The character count of all text display components in a message may total up
  to 4000 characters", not yet in the published docs) and discord.py 2.7's
  ``LayoutView.content_length`` ("A view is allowed to have a maximum of 4000 display characters
  across all its items": the TextDisplay contents, nothing else).
* [djs]  discord.js's builders, which mirror what the API validates
  (packages/builders/src/components/v2/Assertions.ts): a text display 1..4,000 characters, alt text
  1..1,024, a container holds at least one component, accent colour 0..0xFFFFFF, separator spacing
  1 or 2, media URLs http(s) or attachment://, an id a 32-bit integer >= 0.
* [err]  The error Discord answers a legacy field beside the flag with, as bots report it:
  ``content[MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]``.

Not documented, so modelled strictly: ``content: ""`` beside the flag is refused like any
content (the docs ask for null); an ``attachment://`` naming no file of the message is refused
(an embed's is only shown broken, but a V2 message shows files through components alone).
Not modelled: premium buttons (sku_id), polls and stickers beyond their being refused beside
the flag, media the twin cannot measure (width/height of an upload), the error codes Discord
gives inside ``errors`` other than the one above (the twin names the field and the rule).
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

IS_COMPONENTS_V2 = 1 << 15            # [msg] message flags table

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
SELECTS = (3, 5, 6, 7, 8)             # [ref] string, user, role, mentionable, channel select
INTERACTIVE = (BUTTON, *SELECTS)
# [ref] "Usage: Message" layout/content components a V2 message may hold at its top level (a
# thumbnail only as a section's accessory, a button only in a row or as an accessory)
TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})  # [ref]
SECTION_CHILDREN = frozenset({TEXT_DISPLAY})                                                    # [ref]
SECTION_ACCESSORY = frozenset({BUTTON, THUMBNAIL})                                              # [ref]
MAX_COMPONENTS = 40                   # [ref] [log], nested components included
MAX_TEXT = 4000                       # [4k] across every text display of the message
SECTION_TEXTS = (1, 3)                # [ref] "One to three child components"
GALLERY_ITEMS = (1, 10)               # [ref] "1 to 10 media gallery items"
ALT_TEXT_MAX = 1024                   # [ref] thumbnail / gallery item description
ID_MAX = 2 ** 31 - 1                  # [ref] "32 bit integer"; [djs] 0..2_147_483_647
ACCENT_MAX = 0xFFFFFF                 # [ref] "RGB from 0x000000 to 0xFFFFFF"
LEGACY = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"   # [err]
NAMES = {1: "action row", 2: "button", 3: "string select", 4: "text input", 5: "user select",
         6: "role select", 7: "mentionable select", 8: "channel select", 9: "section",
         10: "text display", 11: "thumbnail", 12: "media gallery", 13: "file", 14: "separator",
         17: "container", 18: "label"}


def is_v2(m: dict | None) -> bool:
    """Whether a message (stored, or a payload) carries the IS_COMPONENTS_V2 flag."""
    return bool(int((m or {}).get("flags") or 0) & IS_COMPONENTS_V2)


def _name(kind: Any) -> str:
    return f"{kind} ({NAMES[kind]})" if kind in NAMES else repr(kind)


# ---------------------------------------------------------------------------- rows (both forms)
def check_item(where: str, item: Any, seen: set[str]) -> list[str]:
    """A button or select in a row (or a button as a section's accessory): [ref] non-link
    buttons and selects need a custom_id of 1..100 characters, unique in the message (``seen``);
    a link button has none; a button label <= 80 and a label or an emoji; a string select 1..25
    options, option label/value/description <= 100, unique values, placeholder <= 150,
    min_values 0..25, max_values 1..25, min <= max <= options."""
    if not isinstance(item, dict):
        return [f"{where}: {item!r} is not a component"]
    errors: list[str] = []
    cid = item.get("custom_id")
    if item.get("type") == BUTTON and item.get("style") == 5:
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
    if item.get("type") == BUTTON:
        label = item.get("label") or ""
        if len(label) > 80:
            errors.append(f"{where}.label: {len(label)} > 80")
        if not label and not item.get("emoji"):
            errors.append(f"{where}: a button needs a label or an emoji")
    if item.get("type") == STRING_SELECT:
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


def check_row(where: str, row: dict, seen: set[str]) -> list[str]:
    """An action row: [ref] "Up to 5 ... buttons or a single select", not empty; what it holds
    is a button or a select (a text input is a modal's)."""
    errors: list[str] = []
    items = row.get("components") or []
    if not items:
        errors.append(f"{where}: empty action row")
    selects = [c for c in items if isinstance(c, dict) and c.get("type") in SELECTS]
    if selects and len(items) > 1:
        errors.append(f"{where}: a select must be alone in its row")
    if len(items) > 5:
        errors.append(f"{where}: {len(items)} items > 5")
    for c, item in enumerate(items):
        kind = item.get("type") if isinstance(item, dict) else None
        if kind not in INTERACTIVE:
            errors.append(f"{where}[{c}].type: {_name(kind)} cannot be in an action row (buttons or one select)")
            continue
        errors += check_item(f"{where}[{c}]", item, seen)
    return errors


# ---------------------------------------------------------------------------- the V2 layout
def legacy_fields(payload: dict, current: dict | None = None) -> list[str]:
    """What stands beside the flag that must not ([msg], [err]): ``content`` (not null),
    ``embeds`` or ``sticker_ids`` (not []), ``poll`` (not null).  For an edit (``current``: the
    stored message) the message's own content and embeds count too unless the edit resets them:
    a message becoming V2 must clear them in the same request ([msg])."""
    errors = []
    for key, empty in (("content", "null"), ("poll", "null"), ("embeds", "[]"), ("sticker_ids", "[]")):
        if key in payload:
            # content and poll must be null (even "" is a content); embeds and sticker_ids may be []
            used = payload[key] is not None if empty == "null" else bool(payload[key])
            if used:
                errors.append(f"{key}[{LEGACY}]: the '{key}' field cannot be used when using "
                              f"MessageFlags.IS_COMPONENTS_V2")
        elif current is not None and current.get(key):
            errors.append(f"{key}[{LEGACY}]: the message's {key} must be reset to {empty} when it becomes "
                          f"a Components V2 message")
    return errors


class _Layout:
    """One walk over a V2 component tree, collecting every problem and the totals Discord limits."""

    def __init__(self, files: set[str] | None) -> None:
        self.files = files                # names the message's attachment:// may point at (None: unknown)
        self.errors: list[str] = []
        self.count = 0
        self.text = 0
        self.ids: set[int] = set()
        self.custom_ids: set[str] = set()

    def node(self, where: str, c: Any, allowed: frozenset, inside: str) -> None:
        kind = c.get("type") if isinstance(c, dict) else None
        if kind not in allowed:
            self.errors.append(f"{where}.type[UNION_TYPE_CHOICES]: {_name(kind)} cannot be {inside}; "
                               f"allowed: {sorted(allowed)}")
            return
        self.count += 1
        self.check_id(where, c)
        if kind == ACTION_ROW:
            items = c.get("components") or []
            self.count += len(items)
            for i, item in enumerate(items):
                if isinstance(item, dict):
                    self.check_id(f"{where}[{i}]", item)
            self.errors += check_row(where, c, self.custom_ids)
        elif kind == BUTTON:
            self.errors += check_item(where, c, self.custom_ids)
        elif kind == SECTION:
            texts = c.get("components")
            if not isinstance(texts, list) or not SECTION_TEXTS[0] <= len(texts) <= SECTION_TEXTS[1]:
                n = len(texts) if isinstance(texts, list) else texts
                self.errors.append(f"{where}.components: {n!r} (a section holds 1..3 text displays)")
            for i, t in enumerate(texts if isinstance(texts, list) else []):
                self.node(f"{where}.components[{i}]", t, SECTION_CHILDREN, "in a section")
            if c.get("accessory") is None:
                self.errors.append(f"{where}.accessory: a section needs an accessory (a thumbnail or a button)")
            else:
                self.node(f"{where}.accessory", c["accessory"], SECTION_ACCESSORY, "a section's accessory")
        elif kind == TEXT_DISPLAY:
            content = c.get("content")
            if not isinstance(content, str) or not 1 <= len(content) <= MAX_TEXT:
                n = len(content) if isinstance(content, str) else content
                self.errors.append(f"{where}.content: {n!r} (1..{MAX_TEXT} characters)")
            else:
                self.text += len(content)
        elif kind == THUMBNAIL:
            self.media(f"{where}.media", c.get("media"))
            self.alt_text(where, c)
        elif kind == MEDIA_GALLERY:
            items = c.get("items")
            if not isinstance(items, list) or not GALLERY_ITEMS[0] <= len(items) <= GALLERY_ITEMS[1]:
                n = len(items) if isinstance(items, list) else items
                self.errors.append(f"{where}.items: {n!r} (a media gallery holds 1..10 items)")
            for i, item in enumerate(items if isinstance(items, list) else []):
                if not isinstance(item, dict):
                    self.errors.append(f"{where}.items[{i}]: {item!r} is not a media gallery item")
                    continue
                self.media(f"{where}.items[{i}].media", item.get("media"))
                self.alt_text(f"{where}.items[{i}]", item)
        elif kind == FILE:
            url = (c.get("file") or {}).get("url") if isinstance(c.get("file"), dict) else None
            if not isinstance(url, str) or not url.startswith("attachment://"):
                self.errors.append(f"{where}.file.url: {url!r} — a file component takes only attachment://<filename>")
            else:
                self.media(f"{where}.file", c["file"])
        elif kind == SEPARATOR:
            if "divider" in c and not isinstance(c["divider"], bool):
                self.errors.append(f"{where}.divider: {c['divider']!r} is not a boolean")
            if c.get("spacing") is not None and c["spacing"] not in (1, 2):
                self.errors.append(f"{where}.spacing: {c['spacing']!r} (1 small, 2 large)")
        elif kind == CONTAINER:
            children = c.get("components")
            if not isinstance(children, list) or not children:
                self.errors.append(f"{where}.components: a container holds at least one component")
            for i, child in enumerate(children if isinstance(children, list) else []):
                self.node(f"{where}.components[{i}]", child, IN_CONTAINER, "in a container")
            accent = c.get("accent_color")
            if accent is not None and not (isinstance(accent, int) and not isinstance(accent, bool)
                                           and 0 <= accent <= ACCENT_MAX):
                self.errors.append(f"{where}.accent_color: {accent!r} (0..0xFFFFFF or null)")
        if "spoiler" in c and not isinstance(c["spoiler"], bool):
            self.errors.append(f"{where}.spoiler: {c['spoiler']!r} is not a boolean")

    def check_id(self, where: str, c: dict) -> None:
        """[ref] an optional 32-bit id, unique in the message; 0 counts as none (Discord numbers it)."""
        cid = c.get("id")
        if cid is None:
            return
        if not isinstance(cid, int) or isinstance(cid, bool) or not 0 <= cid <= ID_MAX:
            self.errors.append(f"{where}.id: {cid!r} (a 32-bit integer, 0..{ID_MAX})")
        elif cid:
            if cid in self.ids:
                self.errors.append(f"{where}.id: duplicated {cid} (an id is unique within the message)")
            self.ids.add(cid)

    def media(self, where: str, media: Any) -> None:
        """An unfurled media item: [ref] only ``url`` is the app's, http(s) or attachment://NAME,
        and NAME a file of the message (uploaded with it, or kept by an edit)."""
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            self.errors.append(f"{where}.url: a media item needs a url")
        elif url.startswith("attachment://"):
            name = url[len("attachment://"):]
            if self.files is not None and name not in self.files:
                self.errors.append(f"{where}.url: {url} names no file of the message (has {sorted(self.files)})")
        elif not url.startswith(("https://", "http://")):
            self.errors.append(f"{where}.url: {url!r} is neither http(s):// nor attachment://")

    def alt_text(self, where: str, c: dict) -> None:
        text = c.get("description")
        if text is not None and (not isinstance(text, str) or not 1 <= len(text) <= ALT_TEXT_MAX):
            n = len(text) if isinstance(text, str) else text
            self.errors.append(f"{where}.description: {n!r} (alt text 1..{ALT_TEXT_MAX} characters, or null)")


def check_layout(components: Any, files: set[str] | None = None) -> list[str]:
    """Every reason Discord would refuse ``components`` in a message flagged IS_COMPONENTS_V2.
    ``files``: the names ``attachment://`` may name (None: not known, not checked)."""
    if not isinstance(components, list):
        return [f"components: {components!r} is not a list"]
    walk = _Layout(files)
    for i, c in enumerate(components):
        walk.node(f"components[{i}]", c, TOP_LEVEL, "a top-level component")
    if walk.count > MAX_COMPONENTS:
        walk.errors.append(f"components: {walk.count} components > {MAX_COMPONENTS} (nested ones counted)")
    if walk.text > MAX_TEXT:
        walk.errors.append(f"components: {walk.text} characters of text display > {MAX_TEXT} in all")
    return walk.errors


def file_names(payload: dict, files: list[tuple[str, bytes]], *, create: bool,
               current: dict | None) -> set[str] | None:
    """The names a message's ``attachment://`` may point at once this request is applied: the
    files uploaded with it, and on an edit the attachments it keeps — those its ``attachments``
    list names (API v10: the list is every attachment to keep), or all of them when the edit
    sends neither that list nor files.  None when unknown (an edit checked without its message)."""
    names = {n for n, _ in files}
    if create:
        return names
    listed = payload.get("attachments")
    if listed is not None or files:
        listed = [a for a in listed or [] if isinstance(a, dict)]
        if current is not None:
            keep = {str(a.get("id")) for a in listed}
            return names | {a["filename"] for a in current.get("attachments") or [] if str(a["id"]) in keep}
        if any("filename" not in a for a in listed):
            return None
        return names | {a["filename"] for a in listed}
    if current is not None:
        return names | {a["filename"] for a in current.get("attachments") or []}
    return None


def check_v2(payload: dict, files: list[tuple[str, bytes]], *, create: bool,
             current: dict | None = None) -> tuple[bool, list[str]]:
    """(whether the message is V2 once this request is applied, every reason Discord would refuse
    it as such).  ``current``: the stored message an edit applies to (None: a new message, or an
    edit checked from its payload alone).  An edit that sends no ``flags`` keeps the message's."""
    flags = payload.get("flags")
    was = current is not None and is_v2(current)
    v2 = is_v2(payload) or (flags is None and was)
    errors: list[str] = []
    if was and flags is not None and not is_v2(payload):
        errors.append("flags: IS_COMPONENTS_V2 cannot be removed from a message sent with it")
    if not v2 and not was:
        return False, errors
    errors += legacy_fields(payload, current if not create and current is not None and not was else None)
    if "components" in payload or create:
        components = payload.get("components") or []
    else:
        components = (current or {}).get("components") or []     # kept; legacy rows are valid V2 too
    if "components" in payload or create or (current is not None and not was):
        errors += check_layout(components, file_names(payload, files, create=create, current=current))
    return True, errors


# ---------------------------------------------------------------------------- as Discord stores it
def _tree(components: list) -> Iterator[dict]:
    """Every component of a tree, depth first in document order (a section: itself, its texts,
    then its accessory; a row: itself, then its items)."""
    for c in components or []:
        if not isinstance(c, dict):
            continue
        yield c
        yield from _tree(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            yield from _tree([c["accessory"]])


def _media(c: dict) -> Iterator[dict]:
    """The unfurled media items of one component."""
    if c.get("type") == THUMBNAIL and isinstance(c.get("media"), dict):
        yield c["media"]
    elif c.get("type") == MEDIA_GALLERY:
        yield from (i["media"] for i in c.get("items") or [] if isinstance(i, dict) and isinstance(i.get("media"), dict))
    elif c.get("type") == FILE and isinstance(c.get("file"), dict):
        yield c["file"]


def store_v2(msg: dict) -> list[str]:
    """Fill in a stored V2 message as Discord returns it, and name what it would show broken.
    [ref] each component without an id (or with 0) is numbered in order, skipping the ids the
    message uses; an ``attachment://NAME`` media item becomes the attachment's (its CDN url,
    proxy_url, content_type and attachment_id) and a file component gets the file's name and
    size.  Returns (as the twin's violations, not Discord's refusals) every attachment no
    component shows: [ref] in a V2 message "Attachments won't show by default - they must be
    exposed through components", so such a file is uploaded for nobody to see.  A legacy message
    is left as it is."""
    if not is_v2(msg):
        return []
    msg["components"] = copy.deepcopy(msg.get("components") or [])   # not the request's own objects
    nodes = list(_tree(msg["components"]))
    taken = {c["id"] for c in nodes if isinstance(c.get("id"), int) and c["id"]}
    number = 0
    for c in nodes:
        if not c.get("id"):
            number += 1
            while number in taken:
                number += 1
            c["id"] = number
    by_name = {a["filename"]: a for a in msg.get("attachments") or []}
    by_id = {str(a["id"]): a for a in msg.get("attachments") or []}
    shown: set[str] = set()
    for c in nodes:
        for media in _media(c):
            url = media.get("url") or ""
            att = by_name.get(url[len("attachment://"):]) if url.startswith("attachment://") else \
                by_id.get(str(media.get("attachment_id"))) or next(
                    (a for a in by_name.values() if a["url"] == url), None)
            if att is None:
                continue
            shown.add(att["id"])
            media.update(url=att["url"], proxy_url=att["proxy_url"], content_type=att.get("content_type"),
                         attachment_id=att["id"])
            if c.get("type") == FILE:
                c.update(name=att["filename"], size=att["size"])
    return [f"message {msg['id']}: attachment {a['filename']} is shown by no component (a Components V2 "
            f"message shows a file only through a media gallery, thumbnail or file component)"
            for a in msg.get("attachments") or [] if a["id"] not in shown]


# ---------------------------------------------------------------------------- reading, as a user
def texts(components: list | None) -> list[str]:
    """The text displays of a tree (in containers and sections too), in reading order."""
    return [c["content"] for c in _tree(components or []) if c.get("type") == TEXT_DISPLAY
            and isinstance(c.get("content"), str)]


def controls(components: list | None) -> list[dict]:
    """The buttons and selects of a tree, in reading order: a row's items (at the top level or
    in a container) and a section's button accessory.  For a legacy message: its rows' items."""
    out: list[dict] = []
    for c in components or []:
        if not isinstance(c, dict):
            continue
        kind = c.get("type")
        if kind == ACTION_ROW:
            out += [i for i in c.get("components") or [] if isinstance(i, dict)]
        elif kind == CONTAINER:
            out += controls(c.get("components"))
        elif kind == SECTION and isinstance(c.get("accessory"), dict) and c["accessory"].get("type") in INTERACTIVE:
            out.append(c["accessory"])
    return out


def pictures_of(m: dict | None) -> list[str]:
    """The pictures a user sees in a message, in order, each as its file name (an external one as
    its url): a V2 message's media gallery items and thumbnails; a legacy message's attachments."""
    if not m:
        return []
    attachments = m.get("attachments") or []
    if not is_v2(m):
        return [a["filename"] for a in attachments]
    by_id = {str(a["id"]): a["filename"] for a in attachments}
    by_url = {a["url"]: a["filename"] for a in attachments}
    out = []
    for c in _tree(m.get("components") or []):
        if c.get("type") not in (THUMBNAIL, MEDIA_GALLERY):
            continue
        for media in _media(c):
            url = media.get("url") or ""
            out.append(by_id.get(str(media.get("attachment_id"))) or by_url.get(url)
                       or (url[len("attachment://"):] if url.startswith("attachment://") else url))
    return out
