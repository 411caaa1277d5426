"""Scored search (seed 002): `search` and `search_preview` results with 0..1 scores, reasons, previews and context.

`search.py` runs a call; the other modules each answer one question about a hit (see docs/scored-search.md).
"""
