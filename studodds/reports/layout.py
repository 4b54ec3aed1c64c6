"""The layout every text report shares: aligned columns of cells."""
from __future__ import annotations


def columns(rows: list[list[str]]) -> str:
    """Rows of text cells as aligned columns: the first left-aligned, the others right-aligned
    (each column as wide as its widest cell, so a long label never pushes the others out of line)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                     for r in rows)
