"""Events (tournaments), pure and synchronous: scoring and tiebreakers (:mod:`.scoring`),
elimination brackets (:mod:`.bracket`), Swiss pairing by score groups (:mod:`.swiss`), a
league's trail of every change (:mod:`.trail`), its CSV exports (:mod:`.exports`) and the words
of its pairings (:mod:`.words`).

No I/O here: the host stores an event as data and calls these functions; the cogs only
translate Discord to host calls and back (docs/tournaments.md)."""
