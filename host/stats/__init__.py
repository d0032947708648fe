"""Per-server statistics of decks, characters and cards (issue 37), from the public facts of the
stored matches only: :mod:`host.stats.facts` turns one finished match into its facts,
:mod:`host.stats.played` says, per game, which public steps mean a card was played, and
:mod:`host.stats.aggregate` adds the facts up.  What stayed hidden never counts."""
