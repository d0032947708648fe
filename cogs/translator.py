"""Command-name/description localization from the ja/en catalog.

Every ``locale_str`` used in a command definition carries ``key=`` (e.g. ``cmd.play.name``);
the default text is English and Japanese comes from ``data/i18n/ja``.  Strings without a key,
or keys missing in the Japanese catalog, stay untranslated (Discord shows the default).
"""
from __future__ import annotations

import discord
from discord import app_commands

from data import i18n


class CatalogTranslator(app_commands.Translator):
    async def load(self) -> None:
        # Fail early (at start-up, not at sync) if a catalog file is broken.
        for locale in i18n.LOCALES:
            i18n.catalog(locale)

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        if locale is not discord.Locale.japanese:
            return None
        return i18n.catalog("ja").get(key)
