"""The table: starts matches, applies commands under a per-match lock, persists the command log,
runs clocks and decides who is told what.  It knows no Discord; the cogs and the local console
are its two front ends.

API (all coroutines return a :class:`host.types.Result` unless noted)::

    host = Host(store, now=time.time, render=True)
    await host.resume()                                   # -> int: unfinished matches found at start-up
    await host.challenge(game, creator, creator_name, opponents=[(uid, name)], open_seats=0,
                         options={}, turn_seconds=None, guild_id=None, channel_id=None, seed=None)
    await host.accept(match_id, user_id)                  # a challenged player accepts; starts when all have
    await host.decline(match_id, user_id)                 # a challenged player declines / the creator withdraws
    await host.join(match_id, user_id, name, deck=None)   # take an open seat (starts when full for fixed-size games),
                                                          #   or join / rejoin a running match that allows it
    await host.join_check(match_id, user_id)              # ok, or the refusal join would give (changes nothing)
    await host.start(match_id, user_id)                   # the creator starts an open match with enough players
    await host.command(match_id, user_id, text)           # a move in the game's notation
    await host.resign(match_id, user_id)                  # free-for-all games with resign(): only that player is out
    await host.abort(match_id, user_id, moderator_guild=None)  # all players must ask, or one moderator
                                                          #   of the match's own server (its guild id)
    await host.claim_timeout(match_id, user_id)           # after the clock ran out on the seats to act (plays the
                                                          #   game's default when it has one, else ends the match)
    await host.spectate(match_id, user_id)
    await host.rematch(match_id, user_id)                 # a new challenge between the same players
    await host.status(match_id, viewer=None)              # public update (+ viewer's private one if seated)
    await host.hand(match_id, user_id)                    # the caller's private update
    await host.log(match_id)                              # data["log"]: [{"seq", "seat", "name", "command"}]
    await host.legal(match_id, user_id)                   # -> list[str] (empty when not to act)
    await host.set_channel(match_id, channel_id)          # the front end moved the match (e.g. into a thread)
    await host.match_for(user_id, channel_id)             # -> MatchRecord | None: the match a bare command means
    await host.tick()                                     # -> list[Result]: clock reminders and expiries
    host.on_finish.append(coro)                           # awaited with the MatchRecord after a result is committed

``Result.public.joinable`` tells a front end to offer Join on a running match.

A Result is handed over as soon as its public picture is drawn; private pictures may still be
drawing: ``await result.ready()`` (or ``await update.ready()``) before reading
``PrivateUpdate.picture``.
"""
from host.options import describe_options, option_problem, parse_options, read_options
from host.table import Host
from host.types import Msg, PrivateUpdate, Prompt, PublicUpdate, Result, msg

__all__ = ["Host", "describe_options", "option_problem", "parse_options", "read_options", "Msg", "PrivateUpdate", "Prompt", "PublicUpdate", "Result", "msg"]
