"""Limited play — sealed pools and drafts of a card set — as pure, deterministic logic: dealing
pools and packs from a recorded seed, the booster and Winston drafts as state machines, and the
pick timer.  No I/O: the host's services store what these modules decide."""
