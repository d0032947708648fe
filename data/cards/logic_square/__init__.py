"""Battle Logic Square card data: the JSON files in this folder (format: docs/cards.md).

A package only so the JSON files ship with the project; ``data.cards.load_logic_square()`` reads
them.
"""
