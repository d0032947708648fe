"""``python -m data.card_sets``: the card-set tools of the command line.

    python -m data.card_sets check FILE [--game G] [--mode extend|alone] [--name NAME] [--lang en|ja]

``check`` prints exactly the problems ``/cards upload`` would report for a ``.json``, ``.csv``
or ``.zip`` file, offline (:mod:`data.card_sets.check`, which says how and what the exit status
means).  ``--help`` lists the options in the terminal's language: alone, of every tool; after
``check``, of that one.
"""
from __future__ import annotations

import sys

from data import i18n
from data.card_sets import check

COMMANDS = ("check",)


def main(argv: list[str] | None = None) -> int:
    """Run the tool named first in ``argv``; 2 for a missing or unknown one (after saying so)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = i18n.cli_locale(argv, "--lang")
    if argv and argv[0] == "check":
        return check.main(argv[1:])
    usage = i18n.t("cardcheck_cli.top_usage", lang, prog="python -m data.card_sets", commands=", ".join(COMMANDS))
    if argv and argv[0] in ("-h", "--help"):      # every option of every tool, as each one's --help
        print(usage + "\n\n" + check.parser(lang).format_help().rstrip("\n"))
        return 0
    if argv:
        print(i18n.t("cardcheck_cli.unknown_command", lang, command=check.terminal_text(argv[0][:40])),
              file=sys.stderr)
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
