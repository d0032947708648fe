"""The twin's modals (interaction response type 9) and modal submits (interaction type 5): it
refuses the modals Discord refuses, keeps the one it accepted on the interaction (what its user
sees), and :meth:`Twin.submit_modal` plays the user filling in the form and sending it, checked as
Discord's client checks it.  Plain HTTP requests at the twin, and one discord.py client in this
process (no bot process, no network: only 127.0.0.1)."""
from __future__ import annotations

import asyncio
import copy
import time

import aiohttp
import pytest

from .twin import TOKEN, Interaction, Twin, check_modal

AUTH = {"Authorization": f"Bot {TOKEN}"}


def text_input(cid="what", label="What happened?", **extra):
    return {"type": 4, "custom_id": cid, "style": extra.pop("style", 2), "label": label, "required": True, **extra}


def row(item):
    return {"type": 1, "components": [item]}


def labelled(cid="reason", text="Reason", description=None, **extra):
    """A label component (type 18) wrapping a text input, as discord.py sends ``ui.Label``
    (the text input's own label is null there)."""
    out = {"type": 18, "label": text, "component": dict(text_input(cid, None, style=1), **extra)}
    if description is not None:
        out["description"] = description
    return out


def modal(*components, custom_id="judge:call", title="Call a judge"):
    return {"custom_id": custom_id, "title": title, "components": list(components) or [row(text_input())]}


async def _post(http, url, body, headers=None):
    async with http.post(url, json=body, headers=headers or {}) as r:
        return r.status, (await r.json() if r.content_type == "application/json" else None)


def _interaction(twin, kind, user, *, message=None, data=None):
    """An interaction of type ``kind`` the twin has just delivered (no gateway needed here)."""
    if data is None:
        data = {"id": "1", "name": "judge", "type": 1} if kind in (2, 4) else {"custom_id": "b", "component_type": 2}
    p = twin.interaction_payload(kind, user, data, message=message)
    ix = Interaction(p, int(user["id"]), sent_at=time.monotonic())
    twin.interactions[p["token"]] = ix
    return ix


def _callback_url(twin, ix, with_response=False):
    return (f"{twin.api_base}/interactions/{ix.payload['id']}/{ix.token}/callback"
            + ("?with_response=1" if with_response else ""))


async def _board(twin, http):
    """A message of the bot's with a button, as stored by the twin."""
    status, msg = await _post(http, f"{twin.api_base}/channels/{twin.channel['id']}/messages",
                              {"content": "board", "components": [{"type": 1, "components": [
                                  {"type": 2, "style": 1, "custom_id": "judge:call", "label": "Call a judge"}]}]},
                              AUTH)
    assert status == 200
    return twin.message(msg["id"])


def _last_event(twin):
    return next(e for e in reversed(twin.events) if e["t"] == "INTERACTION_CREATE")["d"]


# ---------------------------------------------------------------------------- what discord.py sends
def test_discord_py_modals_both_shapes_pass_the_twins_checks():
    """discord.py (in .venv) sends ``{"custom_id", "title", "components"}`` where each text input
    sits in an action row with its own label, or (``ui.Label``) in a label component (type 18)
    whose text input's label is null: the twin accepts both shapes as they are sent."""
    import discord

    class CallForm(discord.ui.Modal, title="Call a judge"):
        what = discord.ui.TextInput(label="What happened?", style=discord.TextStyle.paragraph, max_length=1000,
                                    placeholder="describe it", custom_id="what")
        note = discord.ui.TextInput(label="Note", required=False, default="none", custom_id="note")

    class Reason(discord.ui.Modal, title="Reason"):
        reason = discord.ui.Label(text="Reason", description="shown to both players",
                                  component=discord.ui.TextInput(custom_id="reason", max_length=200))

    call, reason = CallForm(custom_id="judge:call").to_dict(), Reason(custom_id="judge:reason").to_dict()
    assert call == {"custom_id": "judge:call", "title": "Call a judge", "components": [
        {"type": 1, "components": [{"type": 4, "style": 2, "label": "What happened?", "custom_id": "what",
                                    "required": True, "placeholder": "describe it", "max_length": 1000}]},
        {"type": 1, "components": [{"type": 4, "style": 1, "label": "Note", "custom_id": "note",
                                    "required": False, "value": "none"}]}]}
    assert reason == {"custom_id": "judge:reason", "title": "Reason", "components": [
        {"type": 18, "label": "Reason", "description": "shown to both players",
         "component": {"type": 4, "style": 1, "label": None, "custom_id": "reason", "required": True,
                       "max_length": 200}}]}
    assert check_modal(call) == [] and check_modal(reason) == []


# ---------------------------------------------------------------------------- accepted
async def test_a_modal_answering_a_command_is_accepted_and_stored_on_the_interaction():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        ix = _interaction(twin, 2, alice)
        data = modal(row(text_input(max_length=4000, min_length=0, placeholder="p" * 100, value="v" * 4000)),
                     labelled(description="d" * 100, text="l" * 45), row(text_input("c" * 100, "x" * 45)),
                     custom_id="m" * 100, title="t" * 45)
        status, body = await _post(http, _callback_url(twin, ix, with_response=True), {"type": 9, "data": data})
        assert status == 200, body
        assert body["resource"] == {"type": 9} and body["interaction"]["response_message_id"] is None
        assert ix.response_type == 9 and ix.modal == data and ix.acked_at is not None
        assert ix.original_id is None and ix.replies == [] and twin.messages == {}
        # answered once: a second answer is refused as any other is
        status, body = await _post(http, _callback_url(twin, ix), {"type": 4, "data": {"content": "x"}})
        assert status == 400 and body["code"] == 40060
    assert len(twin.violations) == 1 and "40060" in twin.violations[0]


async def test_a_modal_opened_by_a_button_neither_edits_nor_creates_a_message():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        board = await _board(twin, http)
        versions = copy.deepcopy(board["_versions"])
        ix = _interaction(twin, 3, alice, message=board)
        status, _ = await _post(http, _callback_url(twin, ix), {"type": 9, "data": modal()})
        assert status == 204 and ix.response_type == 9 and ix.modal["custom_id"] == "judge:call"
        assert list(twin.messages) == [int(board["id"])] and board["_versions"] == versions
        assert ix.original_id is None and ix.replies == []
    assert twin.violations == []


# ---------------------------------------------------------------------------- refused
LIMITS = {
    "title over 45": (modal(title="t" * 46), "data.title: 46 (1..45)"),
    "no title": ({"custom_id": "m", "components": [row(text_input())]}, "data.title"),
    "custom_id over 100": (modal(custom_id="m" * 101), "data.custom_id: 101 (1..100)"),
    "6 rows": (modal(*[row(text_input(f"t{i}")) for i in range(6)]), "6 components (1..5)"),
    "no component": (modal() | {"components": []}, "0 components (1..5)"),
    "text input label over 45": (modal(row(text_input(label="l" * 46))), "label: 46 (1..45)"),
    "text input without a label in a row": (modal(row(text_input(label=None))), "label: None (1..45)"),
    "label component text over 45": (modal(labelled(text="l" * 46)), "components[0].label: 46 (1..45)"),
    "label description over 100": (modal(labelled(description="d" * 101)), "description: > 100"),
    "text input label inside a label": (modal(labelled(label="Reason")), "no label of its own"),
    "max_length 4001": (modal(row(text_input(max_length=4001))), "max_length: 4001 (1..4000)"),
    "max_length 0": (modal(row(text_input(max_length=0))), "max_length: 0 (1..4000)"),
    "min_length 4001": (modal(row(text_input(min_length=4001))), "min_length: 4001 (0..4000)"),
    "min over max": (modal(row(text_input(min_length=10, max_length=5))), "min_length 10 > max_length 5"),
    "placeholder over 100": (modal(row(text_input(placeholder="p" * 101))), "placeholder: 101 > 100"),
    "value over 4000": (modal(row(text_input(value="v" * 4001))), "value: 4001 > 4000"),
    "value shorter than min_length": (modal(row(text_input(value="ab", min_length=3))), "outside min/max 3..4000"),
    "style 3": (modal(row(text_input(style=3))), "style: 3"),
    "required not a bool": (modal(row(text_input(required="yes"))), "required: 'yes'"),
    "text input custom_id over 100": (modal(row(text_input("c" * 101))), "custom_id: 101 (1..100)"),
    "duplicate text input custom_id": (modal(row(text_input("same")), labelled("same")), "duplicated 'same'"),
    "two text inputs in a row": (modal({"type": 1, "components": [text_input("a"), text_input("b")]}),
                                 "exactly one text input, not 2"),
    "a button in a modal": (modal(row({"type": 2, "style": 1, "custom_id": "b", "label": "b"})),
                            "component type 2 is not a text input"),
    "a bare text input at the top": (modal(text_input()), "top-level component type 4"),
}


@pytest.mark.parametrize("limit", list(LIMITS))
async def test_a_modal_discord_would_refuse_is_refused_whole_with_invalid_form_body(limit):
    """Each limit: 400/50035 "Invalid Form Body" naming the error, a violation, nothing stored;
    the interaction is still unanswered (a good modal may follow within the 3 s)."""
    data, problem = LIMITS[limit]
    assert any(problem in e for e in check_modal(data)), check_modal(data)
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        ix = _interaction(twin, 2, alice)
        status, body = await _post(http, _callback_url(twin, ix), {"type": 9, "data": data})
        assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body", body
        assert any(problem in e["message"] for e in body["errors"]["_errors"]), body
        assert ix.response_type is None and ix.modal is None and twin.messages == {}
        assert len(twin.violations) == 1 and problem in twin.violations[0]
        status, _ = await _post(http, _callback_url(twin, ix), {"type": 9, "data": modal()})
        assert status == 204 and ix.response_type == 9


@pytest.mark.parametrize("kind", [5, 4])
async def test_a_modal_cannot_answer_a_modal_submit_or_an_autocomplete(kind):
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        data = {"custom_id": "judge:call", "components": []} if kind == 5 else None
        ix = _interaction(twin, kind, alice, data=data)
        status, body = await _post(http, _callback_url(twin, ix), {"type": 9, "data": modal()})
        assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
        assert f"interaction of type {kind}" in body["errors"]["_errors"][0]["message"]
        assert ix.response_type is None and ix.modal is None
    assert len(twin.violations) == 1


# ---------------------------------------------------------------------------- the user sends the form
async def test_submit_modal_sends_a_modal_submit_in_the_shape_opened_with_the_message_of_the_button():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        board = await _board(twin, http)
        opened = _interaction(twin, 3, alice, message=board)
        data = modal(row(text_input("what")), labelled("reason", description="why"),
                     row(text_input("note", "Note", style=1, required=False, value="none")))
        status, _ = await _post(http, _callback_url(twin, opened), {"type": 9, "data": data})
        assert status == 204
        sent = await twin.submit_modal(alice, opened, {"what": "he moved twice\non move 12", "reason": "a slip"},
                                       locale="ja", settle=False)
        assert sent is twin.interactions[sent.token] and opened.modal_submit is sent and sent.user_id == opened.user_id
        event = _last_event(twin)
        assert event == sent.payload
        assert (event["type"], event["channel_id"], event["locale"]) == (5, twin.channel["id"], "ja")
        assert event["member"]["user"] == alice and event["guild_id"] == str(twin.guild_id)
        assert event["message"]["id"] == board["id"] and event["message"]["components"] == board["components"]
        assert event["data"] == {"custom_id": "judge:call", "components": [
            {"type": 1, "id": 1, "components": [{"type": 4, "id": 2, "custom_id": "what",
                                                 "value": "he moved twice\non move 12"}]},
            {"type": 18, "id": 3, "component": {"type": 4, "id": 4, "custom_id": "reason", "value": "a slip"}},
            # an input left alone keeps its pre-filled value
            {"type": 1, "id": 5, "components": [{"type": 4, "id": 6, "custom_id": "note", "value": "none"}]}]}
        # a submit from a button's modal may update that message (7), and is answered once
        status, _ = await _post(http, _callback_url(twin, sent), {"type": 7, "data": {"content": "judge called"}})
        assert status == 204 and sent.response_type == 7 and sent.original_id == int(board["id"])
        assert twin.message(board["id"])["content"] == "judge called" and sent.text == "judge called"
        # the client closed the modal once its submit was answered
        with pytest.raises(AssertionError, match="closed"):
            await twin.submit_modal(alice, opened, {"what": "again"}, settle=False)
    assert twin.violations == []


async def test_a_commands_modal_submit_carries_no_message_and_may_not_update_one():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        opened = _interaction(twin, 2, alice)
        status, _ = await _post(http, _callback_url(twin, opened), {"type": 9, "data": modal(labelled())})
        assert status == 204
        sent = await twin.submit_modal(alice, opened, {"reason": "ok"}, settle=False)
        assert "message" not in sent.payload and sent.payload["type"] == 5
        assert sent.payload["data"]["components"] == [
            {"type": 18, "id": 1, "component": {"type": 4, "id": 2, "custom_id": "reason", "value": "ok"}}]
        for t in (6, 7):
            status, body = await _post(http, _callback_url(twin, sent), {"type": t, "data": {"content": "x"}})
            assert status == 400 and body["code"] == 50035
        status, _ = await _post(http, _callback_url(twin, sent), {"type": 4, "data": {"content": "noted",
                                                                                      "flags": 64}})
        assert status == 204 and sent.text == "noted" and sent.ephemeral
        # and a deferred answer (5) to another submit is followed up as any other
        again = _interaction(twin, 2, alice)
        await _post(http, _callback_url(twin, again), {"type": 9, "data": modal(labelled())})
        later = await twin.submit_modal(alice, again, {"reason": "later"}, settle=False)
        status, _ = await _post(http, _callback_url(twin, later), {"type": 5, "data": {"flags": 64}})
        assert status == 204
        status, _ = await _post(http, f"{twin.api_base}/webhooks/{twin.app_id}/{later.token}", {"content": "done"})
        assert status == 200 and later.text == "done"
    assert len(twin.violations) == 2


async def test_a_button_modal_submit_may_be_deferred_as_an_update():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        board = await _board(twin, http)
        opened = _interaction(twin, 3, alice, message=board)
        await _post(http, _callback_url(twin, opened), {"type": 9, "data": modal()})
        sent = await twin.submit_modal(alice, opened, {"what": "x"}, settle=False)
        status, _ = await _post(http, _callback_url(twin, sent), {"type": 6})
        assert status == 204 and sent.response_type == 6 and sent.original_id == int(board["id"])
        status, _ = await _post(http, f"{twin.api_base}/webhooks/{twin.app_id}/{sent.token}/messages/@original",
                                {"content": "under review"})
        assert status == 200 and twin.message(board["id"])["content"] == "under review"
    assert twin.violations == []


async def test_the_client_refuses_to_send_a_form_discord_would_not_let_a_user_send():
    """A required input left empty, a value outside min/max, a newline in a short input, an
    unknown custom_id, another user's modal, or an interaction answered with no modal: the
    helper raises (Discord's client would not send it), and nothing reaches the bot."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice, bob = twin.user("Alice"), twin.user("Bob")
        opened = _interaction(twin, 2, alice)
        data = modal(row(text_input("what", min_length=5, max_length=10)),
                     row(text_input("short", "Short", style=1, required=False, max_length=20)))
        await _post(http, _callback_url(twin, opened), {"type": 9, "data": data})
        events = len(twin.events)
        for values, problem in (({}, "'what' is required"), ({"what": ""}, "'what' is required"),
                                ({"what": "abcd"}, "4 characters where 5..10"),
                                ({"what": "a" * 11}, "11 characters where 5..10"),
                                ({"what": "fine!", "short": "one\ntwo"}, "one line"),
                                ({"what": "fine!", "other": "x"}, r"\['other'\] are not text inputs")):
            with pytest.raises(AssertionError, match=problem):
                await twin.submit_modal(alice, opened, values, settle=False)
        with pytest.raises(AssertionError, match="only the user"):
            await twin.submit_modal(bob, opened, {"what": "fine!"}, settle=False)
        plain = _interaction(twin, 2, alice)
        await _post(http, _callback_url(twin, plain), {"type": 4, "data": {"content": "hi"}})
        with pytest.raises(AssertionError, match="not a modal"):
            await twin.submit_modal(alice, plain, {}, settle=False)
        assert len(twin.events) == events and opened.modal_submit is None
        # an optional input may be left empty; a submit the bot never answered may be sent again
        first = await twin.submit_modal(alice, opened, {"what": "fine!"}, settle=False)
        assert first.payload["data"]["components"][1]["components"][0]["value"] == ""
        second = await twin.submit_modal(alice, opened, {"what": "fine!!"}, settle=False)
        assert second is not first and opened.modal_submit is second
    assert twin.violations == []


# ---------------------------------------------------------------------------- a real discord.py client
async def test_a_discord_py_client_opens_modals_from_buttons_and_reads_what_was_submitted(monkeypatch):
    """discord.py itself against the twin (in this process, pointed at it as bot.py's testing
    overrides point the bot): a button opens a ``ui.Modal`` (action-row shape) and another a
    ``ui.Label`` modal; the user submits them; the modals' ``on_submit`` see the values and
    answer (a reply, then an update of the button's message)."""
    import discord
    import discord.gateway
    import discord.http
    import yarl

    async with Twin() as twin:
        monkeypatch.setattr(discord.http.Route, "BASE", twin.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(twin.gateway_url))
        seen: dict[str, str] = {}

        class CallForm(discord.ui.Modal, title="Call a judge"):
            what = discord.ui.TextInput(label="What happened?", style=discord.TextStyle.paragraph,
                                        max_length=1000, custom_id="what")

            async def on_submit(self, interaction: discord.Interaction) -> None:
                seen["what"] = self.what.value
                await interaction.response.send_message(f"judge called: {self.what.value}", ephemeral=True)

        class Reason(discord.ui.Modal, title="Ruling"):
            reason = discord.ui.Label(text="Reason", component=discord.ui.TextInput(custom_id="reason", max_length=200))

            async def on_submit(self, interaction: discord.Interaction) -> None:
                seen["reason"] = self.reason.component.value
                await interaction.response.edit_message(content=f"ruled: {seen['reason']}", view=None)

        class Buttons(discord.ui.View):
            @discord.ui.button(label="Call a judge", custom_id="judge:call")
            async def call(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
                await interaction.response.send_modal(CallForm(custom_id="judge:call:form"))

            @discord.ui.button(label="Rule", custom_id="judge:rule")
            async def rule(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
                await interaction.response.send_modal(Reason(custom_id="judge:rule:form"))

        client = discord.Client(intents=discord.Intents.default())
        runner = asyncio.create_task(client.start(TOKEN))
        try:
            await asyncio.wait_for(client.wait_until_ready(), 30)
            channel = client.get_channel(int(twin.channel["id"]))
            sent = await channel.send("a judge?", view=Buttons(timeout=None))
            board = twin.message(sent.id)
            alice = twin.user("Alice")
            opened = await twin.click(alice, board, "judge:call")
            assert opened.response_type == 9 and opened.modal["title"] == "Call a judge"
            assert opened.modal["components"][0]["type"] == 1
            answered = await twin.submit_modal(alice, opened, {"what": "he moved twice"})
            assert seen["what"] == "he moved twice"
            assert answered.response_type == 4 and answered.text == "judge called: he moved twice" and answered.ephemeral
            opened = await twin.click(alice, board, "judge:rule")
            assert opened.modal["components"][0]["type"] == 18
            ruled = await twin.submit_modal(alice, opened, {"reason": "a warning"})
            assert seen["reason"] == "a warning" and ruled.response_type == 7
            assert twin.message(sent.id)["content"] == "ruled: a warning" and twin.message(sent.id)["components"] == []
        finally:
            await client.close()
            await asyncio.wait_for(asyncio.gather(runner, return_exceptions=True), 10)
    assert twin.violations == [], twin.violations
