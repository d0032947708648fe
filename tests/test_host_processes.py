"""Two real OS processes, each with its own Host and store on one database — an SQLite file, and
a PostgreSQL database (the ``backend`` fixture) — play the same match as fast as they can.  Issue: "two processes sharing one database can never apply two
commands on the same version" — every command either commits on the version it read or is
refused, so the log has no gaps and no duplicates and matches what each process was told."""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from data.store import ACTIVE, open_store
from host import Host
from rules import registry

ROOT = Path(__file__).resolve().parent.parent
ALICE, BOB = 101, 202

CHILD = r"""
import asyncio, json, random, sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
from data.store import ACTIVE, open_store
from host import Host


async def main(db, mid, seed, go, target):
    store = await open_store(db)
    host = Host(store, render=False)
    rng = random.Random(seed)
    while not Path(go).exists():
        await asyncio.sleep(0.001)
    done, refused = [], {}
    try:
        while True:
            rec = await store.get_match(mid)
            if rec.status != ACTIVE or rec.n_commands >= target:
                break
            seat = (await host.to_act(mid))[0]
            legal = await host.legal(mid, rec.seats[seat])
            if not legal:
                continue
            command = rng.choice(legal)
            res = await host.command(mid, rec.seats[seat], command)
            if res.ok:   # the seq of this command, the version written, who, what
                done.append([res.match.n_commands, res.match.version, seat, command])
            else:
                refused[res.error.key] = refused.get(res.error.key, 0) + 1
    finally:
        await store.close()
    print(json.dumps({"done": done, "refused": refused}))


asyncio.run(main(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])))
"""


async def test_two_processes_on_one_database_never_apply_two_commands_on_one_version(tmp_path, backend):
    db, go, target = backend.url, tmp_path / "go", 40
    store = await open_store(db)
    try:
        host = Host(store, render=False)
        res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")],
                                   options={"first": 0})
        mid = res.match.id
        assert (await host.accept(mid, BOB)).ok
        start_version = (await store.get_match(mid)).version

        children = [await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, str(ROOT), db, str(mid), str(seed), str(go), str(target),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE) for seed in (1, 2)]
        go.write_text("go")
        outputs = [await asyncio.wait_for(c.communicate(), 120) for c in children]
        for child, (_, err) in zip(children, outputs):
            assert child.returncode == 0, err.decode()
        reports = [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in outputs]

        done = sorted(d for r in reports for d in r["done"])
        rec = await store.get_match(mid)
        log = await store.commands(mid)
        # every acknowledged command is in the log exactly once, at the position it was told
        assert [d[0] for d in done] == list(range(1, rec.n_commands + 1)) == [c.seq for c in log]
        assert [(d[2], d[3]) for d in done] == [(c.seat, c.command) for c in log]
        # one version per command: the version written is the one read plus one
        assert [d[1] for d in done] == list(range(start_version + 1, start_version + 1 + len(done)))
        assert rec.version == start_version + len(done)
        refused = {k for r in reports for k in r["refused"]}
        assert refused <= {"host.err.conflict", "host.err.not_your_turn", "host.err.not_active"} \
            | {k for k in refused if k.startswith("squares.err.")}
        # the stored log replays to the stored result
        game = registry.get("squares")
        state = game.new_match(players=2, seed=rec.seed, options=rec.options)
        for c in log:
            state = game.apply(state, c.seat, c.command)
        assert game.outcome(state) == rec.result
        assert rec.status == ACTIVE or rec.result is not None
    finally:
        await store.close()
