"""The Discord twin's side of apps installed to a user's own account (a mixin of
:class:`tests.e2e.twin.Twin`), as Discord documents it (Application → Installation context;
Interactions → Receiving and responding, Application commands → Contexts).

* **Commands** carry ``integration_types`` (0 ``GUILD_INSTALL``, 1 ``USER_INSTALL``) and
  ``contexts`` (0 ``GUILD``, 1 ``BOT_DM``, 2 ``PRIVATE_CHANNEL``): :func:`check_installs`
  refuses a sync with anything else (called by ``check_commands``).  A command is *offered*
  (:meth:`TwinUserApp.offered`) in the bot's server when it is installable to servers (or to
  users, for a user who installed the app); in the bot's own DM likewise, when its contexts allow
  DMs; in a group DM (:meth:`TwinUserApp.group_dm`) and in a server that never added the bot
  (:meth:`TwinUserApp.foreign_guild`) only when it is installable to users and the user
  installed the app (:meth:`TwinUserApp.install`).  :meth:`Twin.slash` and
  :meth:`Twin.autocomplete` refuse to run a command where Discord's client would not offer it,
  unless ``stale=True`` (a client whose command list is out of date).
* **Interactions** there carry ``context`` and ``authorizing_integration_owners`` — ``{"0":
  guild id}`` in the bot's server, ``{"0": "0"}`` in its DM for a server-installable command,
  ``{"1": user id}`` for the user's own install — and a component's interaction the owners of
  the interaction whose message it is on.  In a group DM or a foreign server ``app_permissions``
  are Discord's fixed ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE.
* **Where the bot is no member** (a group DM, a foreign server's channel) every channel route is
  refused 403/50001 Missing Access — a post, an edit, a read — and counted as a violation: the
  bot may answer there only through the interaction (response, ``@original``, follow-ups).
* **Follow-ups**: an interaction authorized by the user's install alone (its owners hold no
  ``"0"``) takes at most :data:`FOLLOWUP_MAX` follow-up messages; the sixth is refused
  400/40094 (a violation).  A follow-up that only replaces a "thinking" answer is no new message
  and is not counted, as Discord documents.
"""
from __future__ import annotations

import copy
import re
from typing import Any

from .twin_limits import ATTACH_FILES, EMBED_LINKS, Reject, now_iso

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
FOLLOWUP_MAX = 5
MENTION_EVERYONE = 1 << 17
# app_permissions in a DM or group DM with other users (Discord's fixed set)
PRIVATE_PERMISSIONS = str(ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE)


def check_installs(commands: list[dict]) -> list[str]:
    """Every reason Discord would refuse the commands' ``integration_types`` and ``contexts``:
    lists of distinct known values, not empty, and only on top-level commands."""
    errors: list[str] = []
    for c in commands:
        where = f"/{c.get('name')}"
        for key, allowed in (("integration_types", (GUILD_INSTALL, USER_INSTALL)),
                             ("contexts", (GUILD, BOT_DM, PRIVATE_CHANNEL))):
            value = c.get(key)
            if value is None:
                continue
            if not isinstance(value, list) or not value:
                errors.append(f"{where}.{key}: {value!r} is not a non-empty list")
                continue
            if any(not isinstance(v, int) or isinstance(v, bool) or v not in allowed for v in value):
                errors.append(f"{where}.{key}: {value!r} (each one of {list(allowed)})")
            if len(set(value)) != len(value):
                errors.append(f"{where}.{key}: {value!r} repeats a value")
        for opt in c.get("options") or []:
            if "integration_types" in opt or "contexts" in opt:
                errors.append(f"{where} {opt.get('name')}: integration_types and contexts belong to the command")
    return errors


class TwinUserApp:
    """Group DMs, foreign servers, a user's own install, and the limits that come with them."""

    def init_user_app(self) -> None:
        self.installed: set[int] = set()            # users who added the app to their own account
        self.unreachable: set[int] = set()          # channels the bot may not touch (group DMs, foreign servers)
        self.foreign_guilds: dict[int, str] = {}    # servers that never added the bot
        self.followups: dict[str, int] = {}         # interaction token -> follow-up messages made

    # ------------------------------------------------------------------ places
    def install(self, user: dict) -> None:
        """``user`` adds the app to their own account (an install link's "add to my apps")."""
        self.installed.add(int(user["id"]))

    def installed_by(self, user_id: int) -> bool:
        return int(user_id) in self.installed

    def group_dm(self, *users: dict, name: str = "game night") -> dict:
        """A group DM of ``users`` (the bot is not one of them)."""
        cid = self.snowflake()
        ch = {"id": str(cid), "type": 3, "name": name, "icon": None, "owner_id": users[0]["id"],
              "recipients": [copy.deepcopy(u) for u in users], "last_message_id": None, "flags": 0}
        self.channels[cid] = ch
        self.unreachable.add(cid)
        return ch

    def foreign_guild(self, name: str = "Elsewhere") -> dict:
        """A text channel of a server that never added the bot (no GUILD_CREATE, no member)."""
        gid = self.snowflake()
        cid = self.snowflake()
        ch = {"id": str(cid), "type": 0, "guild_id": str(gid), "name": "lounge", "position": 0,
              "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
              "last_message_id": None, "rate_limit_per_user": 0}
        self.channels[cid] = ch
        self.unreachable.add(cid)
        self.foreign_guilds[gid] = name
        return ch

    def bot_dm(self, user: dict) -> dict:
        """The DM channel between ``user`` and the bot (made if there is none yet)."""
        cid = self.dm_channel_of(int(user["id"]))
        if cid is None:
            cid = self.snowflake()
            self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [copy.deepcopy(user)],
                                  "last_message_id": None}
        return self.channels[cid]

    def is_foreign(self, ch: dict) -> bool:
        return ch.get("type") == 0 and int(ch.get("guild_id") or 0) in self.foreign_guilds

    # ------------------------------------------------------------------ commands offered
    def offered(self, cmd: dict, ch: dict, user_id: int) -> str | None:
        """None when Discord's client offers ``cmd`` to ``user_id`` in channel ``ch``, else why not."""
        types = cmd.get("integration_types") or [GUILD_INSTALL]
        contexts = cmd.get("contexts")
        mine = USER_INSTALL in types and self.installed_by(user_id)
        kind = ch.get("type")
        if kind == 3 or self.is_foreign(ch):
            context = PRIVATE_CHANNEL if kind == 3 else GUILD
            if contexts is not None and context not in contexts:
                return f"contexts {contexts} lack {context}"
            return None if mine else "not installable to the user (or the user did not install the app)"
        if kind == 1:
            if contexts is not None and BOT_DM not in contexts:
                return f"contexts {contexts} lack BOT_DM"
            if contexts is None and cmd.get("dm_permission") is False:
                return "dm_permission is false"
            return None if GUILD_INSTALL in types or mine else "not installable here"
        if contexts is not None and GUILD not in contexts:
            return f"contexts {contexts} lack GUILD"
        return None if GUILD_INSTALL in types or mine else "not installable to servers"

    def check_offered(self, payload: dict, stale: bool) -> None:
        """Called by :meth:`Twin.slash` / :meth:`Twin.autocomplete`: a command the client would
        not offer here is an error of the test (``stale``: an old command list sends it anyway)."""
        cmd = next((c for c in self.commands if c["name"] == (payload.get("data") or {}).get("name")), None)
        ch = self.channels.get(int(payload["channel_id"])) or {}
        why = self.offered(cmd, ch, int(self._user_of(payload)["id"])) if cmd is not None else None
        if why is not None and not stale:
            raise AssertionError(f"/{cmd['name']} is not offered in channel {ch.get('id')} (type {ch.get('type')}): "
                                 f"{why}; pass stale=True for a client with an old command list")

    @staticmethod
    def _user_of(payload: dict) -> dict:
        return payload.get("user") or (payload.get("member") or {}).get("user") or {}

    # ------------------------------------------------------------------ interactions
    def place_payload(self, payload: dict, ch: dict, user: dict, data: dict, message: dict | None,
                      permissions: str) -> bool:
        """Fill ``payload`` for a DM, a group DM or a foreign server (False: the bot's own
        server, which :meth:`Twin.interaction_payload` fills)."""
        kind = ch.get("type")
        if kind not in (1, 3) and not self.is_foreign(ch):
            return False
        uid = str(user["id"])
        cmd = next((c for c in self.commands if c["name"] == data.get("name")), None) if "name" in data else None
        types = (cmd.get("integration_types") or [GUILD_INSTALL]) if cmd is not None else [GUILD_INSTALL, USER_INSTALL]
        if message is not None and self.messages.get(int(message["id"]), {}).get("_owners") is not None:
            owners = dict(self.messages[int(message["id"])]["_owners"])     # the interaction that made it
        else:
            owners = {}
            if kind == 1 and GUILD_INSTALL in types:
                owners["0"] = "0"
            if USER_INSTALL in types and self.installed_by(int(uid)):
                owners["1"] = uid
        payload["authorizing_integration_owners"] = owners
        if kind in (1, 3):
            payload.update(channel_id=ch["id"], channel=copy.deepcopy(ch), user=user,
                           context=BOT_DM if kind == 1 else PRIVATE_CHANNEL)
            if kind == 3:
                payload["app_permissions"] = PRIVATE_PERMISSIONS
            return True
        gid = ch["guild_id"]
        payload.update(guild_id=gid, guild={"id": gid, "locale": "en-US", "features": []},
                       guild_locale="en-US", channel_id=ch["id"], channel=copy.deepcopy(ch), context=GUILD,
                       app_permissions=PRIVATE_PERMISSIONS,
                       member={"user": user, "roles": [], "joined_at": now_iso(),
                               "deaf": False, "mute": False, "flags": 0, "permissions": permissions})
        return True

    def remember_owners(self, message: dict, ix: Any) -> None:
        """A message an interaction made carries that interaction's owners to its components."""
        message["_owners"] = dict(ix.payload.get("authorizing_integration_owners") or {})

    # ------------------------------------------------------------------ REST limits
    def check_reach(self, method: str, path: str) -> None:
        """A channel route where the bot is no member: 403/50001, a violation."""
        m = re.match(r"/channels/(\d+)(/|$)", path)
        if m and int(m.group(1)) in self.unreachable:
            raise Reject(403, 50001, f"Missing Access (the bot is no member of channel {m.group(1)})")

    def count_followup(self, ix: Any) -> None:
        """One more follow-up message of ``ix``: refused past :data:`FOLLOWUP_MAX` when only the
        user's install authorized it."""
        n = self.followups.get(ix.token, 0)
        owners = ix.payload.get("authorizing_integration_owners") or {}
        if "0" not in owners and n >= FOLLOWUP_MAX:
            raise Reject(400, 40094, "This interaction has hit the maximum number of follow up messages")
        self.followups[ix.token] = n + 1

    def followups_of(self, ix: Any) -> int:
        """The follow-up messages ``ix``'s token has made."""
        return self.followups.get(ix.token, 0)
