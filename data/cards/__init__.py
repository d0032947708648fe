"""The games' shipped card files: JSON under ``data/cards/<game>/`` (format: ``docs/cards.md``),
package data of this package.  Each engine reads its own (``rules/<game>/files.py``), so the
rules never import ``data``; the card-set code reads the packaged sets through the same
functions.
"""
