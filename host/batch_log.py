"""How a batch is written in a match's log (issue 33): several commands played together are ONE
entry, ``__batch__ c1 ; c2 ; …``, replayed step by step.  What a batch may hold and how it is
checked is :mod:`host.batch`; the replay (:mod:`host.replay`) and the words of a log entry
(:mod:`host.texts`) read the entry here.

>>> entry(["discard ac01", "discard ac02"])
'__batch__ discard ac01 ; discard ac02'
>>> steps_of(entry(["discard ac01", "discard ac02"])), steps_of("pass")
(['discard ac01', 'discard ac02'], None)
"""
from __future__ import annotations

BATCH = "__batch__"        # the log entry of a batch: "__batch__ discard ac01 ; discard ac02"
SEP = " ; "


def entry(commands: list[str]) -> str:
    """The log entry of ``commands`` played together: the command itself for one."""
    return commands[0] if len(commands) == 1 else BATCH + " " + SEP.join(commands)


def steps_of(entry_text: str) -> list[str] | None:
    """The commands of a batch entry of the log, or None for any other entry."""
    if not entry_text.startswith(BATCH + " "):
        return None
    return [c.strip() for c in entry_text[len(BATCH) + 1:].split(SEP.strip()) if c.strip()]
