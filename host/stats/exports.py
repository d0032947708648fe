"""A server's records as CSV for organisers and analysts (``/stats export:true``, Manage Server):
``matches.csv`` (every counted finished match: date, game, players, ready-made deck or "own
deck", first player, result, length), ``ratings.csv`` (the server's ratings table) and
``stats.csv`` (the figures of ``/stats``, every split: decks, identities and cards with their
counts, win rates and 95 % intervals).  Written with the project's CSV helper
(:mod:`data.csv_export`: UTF-8 with a byte-order mark, formula-looking cells escaped); the headers
in the reader's language.  Practice matches and matches against the computer are left out, as
in ``/stats``.
"""
from __future__ import annotations

import time
from typing import Any

from data import i18n
from data.csv_export import to_csv
from host.stats import aggregate as A
from host.stats.service import opening_words


def _pct(x: float | None) -> Any:
    return None if x is None else round(100 * x, 1)


async def export_files(store: Any, stats: Any, guild_id: int, game: str | None, locale: Any) -> dict[str, bytes]:
    loc = i18n.locale_of(locale)
    t = lambda key, **p: i18n.t(key, loc, **p)  # noqa: E731
    games = [game] if game else None
    facts = [f for f in await store.stats_facts(int(guild_id), game) if not f.get("skipped") and not f.get("practice")]
    # matches
    # a column in the exported game's words (SQUARES: 先番 for the first player), when it is one game
    in_game = lambda key: t(i18n.game_key(key, game))  # noqa: E731
    header = [in_game(f"stats.csv.{k}") for k in ("date", "match", "game", "edition", "cards", "player", "deck", "first",
                                                "result", "length", "league")]
    rows = []
    names_by_split: dict[tuple[str, str], tuple[dict, dict, str | None]] = {}
    for f in facts:
        split = A.split_of(f)
        key = (f["game"], split)
        if key not in names_by_split:
            names_by_split[key] = await stats.names(f["game"], split, loc)
        decks, _cards, set_name = names_by_split[key]
        winners = f.get("winners") or []
        for s, seat in enumerate(f.get("seats") or []):
            result = t("stats.csv.draw") if not winners else t("stats.csv.win") if s in winners else t("stats.csv.loss")
            deck = seat.get("deck")
            rows.append([time.strftime("%Y-%m-%d %H:%M", time.gmtime(float(f.get("finished_at") or 0))), f.get("match"),
                         i18n.t(f"game.{f['game']}", loc), f.get("edition"), set_name or "",
                         (f.get("names") or [None] * 9)[s] if s < len(f.get("names") or []) else seat.get("user"),
                         "" if deck is None else decks.get(deck, deck) if deck != A.OWN else t("stats.own_deck"),
                         t("core.yes") if f.get("first") == s else "", result, f.get("length"), f.get("league") or ""])
    files = {"matches.csv": to_csv(header, rows)}
    # ratings
    from host.records import guild_scope

    header = [t(f"stats.csv.{k}") for k in ("game", "player", "user_id", "rating", "games", "wins", "losses", "draws")]
    rows = []
    from host import ratings as R
    from rules import registry

    known: dict[int, str] = {}          # a player by the name their latest match showed
    for f in facts:
        for s, seat in enumerate(f.get("seats") or []):
            if isinstance(seat.get("user"), int) and s < len(f.get("names") or []):
                known[seat["user"]] = str(f["names"][s])
    for g in games or registry.names():
        board, _total = await store.leaderboard(guild_scope(int(guild_id)), g, 0, 10_000)
        for r in board:
            rows.append([i18n.t(f"game.{g}", loc), known.get(r.user_id, ""), str(r.user_id), R.label(r.mu, r.games),
                         r.games, r.wins, r.losses, r.draws])
    files["ratings.csv"] = to_csv(header, rows)
    # statistics
    header = [t(f"stats.csv.{k}") for k in ("game", "edition", "cards", "what", "name", "deck", "n", "win_pct",
                                          "ci_low", "ci_high", "not_n", "not_win_pct")]
    rows = []
    for g in games or registry.names():
        for split, _n in await stats.splits(int(guild_id), g, ["all"]):
            decks, cards, set_name = await stats.names(g, split, loc)
            res = await stats.report(int(guild_id), g, split=split)
            fig = res.data.get("figures")
            if not fig:
                continue
            edition = split.split("|")[0]
            base = [i18n.t(f"game.{g}", loc), edition if edition != "-" else "", set_name or ""]
            for d, s in sorted(fig["decks"].items(), key=lambda kv: -kv[1]["n"]):
                rows.append(base + [t("stats.csv.deck"), decks.get(d, d), "", s["n"], _pct(s["share"]),
                                    _pct(s["ci95"][0]), _pct(s["ci95"][1]), None, None])
            for i, s in sorted(fig["identities"].items(), key=lambda kv: -kv[1]["n"]):
                rows.append(base + [t(f"stats.csv.identity.{g}"), cards.get(i, i), "", s["n"], _pct(s["share"]),
                                    _pct(s["ci95"][0]), _pct(s["ci95"][1]), None, None])
            for d, by_card in fig["cards"].items():
                for c, f in sorted(by_card.items(), key=lambda kv: -kv[1]["played"]["n"]):
                    p, q = f["played"], f["not_played"]
                    rows.append(base + [t("stats.csv.card"), cards.get(c, c), decks.get(d, d), p["n"], _pct(p["share"]),
                                        _pct(p["ci95"][0]), _pct(p["ci95"][1]), q["n"], _pct(q["share"])])
            for o, s in sorted(fig.get("openings", {}).items(), key=lambda kv: -kv[1]["n"]):
                rows.append(base + [t("stats.csv.opening"), opening_words(o, loc), "", s["n"], _pct(s["share"]),
                                    _pct(s["ci95"][0]), _pct(s["ci95"][1]), None, None])
            if fig["first"]["n"]:
                s = fig["first"]
                rows.append(base + [t(i18n.game_key("stats.csv.first", g)), "", "", s["n"], _pct(s["share"]),
                                    _pct(s["ci95"][0]), _pct(s["ci95"][1]), None, None])
    files["stats.csv"] = to_csv(header, rows)
    return files


__all__ = ["export_files"]
