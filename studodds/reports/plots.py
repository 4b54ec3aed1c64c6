"""Pictures (PNG) for reports; needs the optional extra ``plots`` (matplotlib)."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from enumerate.analysis.strategies import rank_pattern
from enumerate.core.atomic import atomic_write_bytes
from enumerate.raise_value import RaiseValue
from enumerate.rules.qualifier import parse_qualifier
from evaluator.cards import RANKS
from evaluator.errors import StudoddsError
from evaluator.ranking import CATEGORY_BY_STRENGTH, Category

INSTALL_HINT = 'pictures need matplotlib: pip install "studodds[plots]" (or pip install matplotlib)'


def pyplot() -> Any:
    """matplotlib.pyplot with the Agg backend, or StudoddsError saying what to install."""
    try:
        import matplotlib  # optional heavy dependency: the plots extra
    except ImportError:
        raise StudoddsError(INSTALL_HINT) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # optional heavy dependency: the plots extra
    plt.rcParams["svg.hashsalt"] = "studodds"
    return plt


def _save(fig, path: Path) -> None:

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    atomic_write_bytes(path, [buf.getvalue()])


def ak_heatmap(table, variant, path: Path) -> None:
    """EV(raise) + 1 (the value of raising over folding, antes) of every Ace/King rank pattern
    against each up-card rank, averaged over suits."""
    plt = pyplot()
    value = RaiseValue.of(variant)
    ev = value.ev_numerators(table) / value.denominator + 1.0
    ak = parse_qualifier("AK").threshold
    sel = (CATEGORY_BY_STRENGTH[table.strength] == Category.HIGH_CARD) & (table.strength >= ak)
    strengths = np.unique(table.strength[sel])[::-1]
    grid = np.zeros((len(strengths), 13))
    weight = np.zeros((len(strengths), 13))
    pos = {int(s): i for i, s in enumerate(strengths)}
    rows = np.flatnonzero(sel)
    for i in rows:
        r = pos[int(table.strength[i])]
        up_rank = table.up[i].astype(np.int64) >> 2
        np.add.at(grid[r], 12 - up_rank, ev[i] * table.weight[i])
        np.add.at(weight[r], 12 - up_rank, table.weight[i])
    grid = grid / np.maximum(weight, 1)
    fig, ax = plt.subplots(figsize=(6.5, 16))
    lim = float(np.abs(grid).max())
    im = ax.imshow(grid, aspect="auto", cmap="RdYlGn", vmin=-lim, vmax=lim)
    ax.set_xticks(range(13), [RANKS[r] for r in range(12, -1, -1)])
    ax.set_yticks(range(len(strengths)), [rank_pattern(int(s)) for s in strengths], fontsize=5)
    ax.set_xlabel("dealer up card")
    ax.set_title(f"{variant.name}: EV(raise) + 1, Ace/King hands\n(green: raise, red: fold)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.04, label="antes")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def return_bars(analysis, path: Path) -> None:
    plt = pyplot()
    rows = analysis.rows
    fig, ax = plt.subplots(figsize=(8, 4.5))
    values = [float(r.contribution) for r in rows]
    ax.barh(range(len(rows)), values, color=["tab:green" if v >= 0 else "tab:red" for v in values])
    ax.set_yticks(range(len(rows)), [r.event for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("contribution to the return (antes per hand)")
    ax.set_title(f"{analysis.variant.name}: return table, total {float(analysis.expected_return):+.4%}", fontsize=9)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def ev_by_category(table, variant, path: Path) -> None:
    """Weighted mean and range of EV(raise) by player hand category."""
    plt = pyplot()
    value = RaiseValue.of(variant)
    ev = value.ev_numerators(table) / value.denominator
    cats = CATEGORY_BY_STRENGTH[table.strength]
    fig, ax = plt.subplots(figsize=(8, 4))
    labels, means, lows, highs = [], [], [], []
    for c in Category:
        sel = cats == c
        w = np.broadcast_to(table.weight[sel][:, None], ev[sel].shape)
        labels.append(c.label)
        means.append(float((ev[sel] * w).sum() / w.sum()))
        lows.append(float(ev[sel].min()))
        highs.append(float(ev[sel].max()))
    x = np.arange(len(labels))
    ax.bar(x, means, color="tab:blue", label="mean")
    ax.vlines(x, lows, highs, color="black", label="min..max")
    ax.axhline(-1, color="tab:red", linestyle="--", label="EV(fold) = -1")
    ax.set_xticks(x, labels, rotation=35, ha="right", fontsize=7)
    ax.set_yscale("symlog")
    ax.set_ylabel("EV(raise), antes")
    ax.set_title(f"{variant.name}: EV(raise) by player hand", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


#: The pictures of a variant and their captions, in the order pictures.md shows them.
PICTURES = (("strategy_ak.png", "Ace/King strategy: EV(raise) + 1 by rank pattern and up card"),
            ("return_table.png", "Return table"),
            ("ev_by_category.png", "EV(raise) by player hand category"))


def pictures(table: Any, variant: Any, analysis: Any, out: Path) -> list[Path]:
    """Every picture of a variant in the folder ``out``, with ``pictures.md`` showing them;
    the paths written."""
    ak_heatmap(table, variant, out / "strategy_ak.png")
    return_bars(analysis, out / "return_table.png")
    ev_by_category(table, variant, out / "ev_by_category.png")
    lines = [f"# Pictures: {variant.name}", ""]
    for name, caption in PICTURES:
        lines += [f"![{caption}]({name})", ""]
    atomic_write_bytes(out / "pictures.md", ["\n".join(lines).encode()])
    return [out / name for name, _ in PICTURES] + [out / "pictures.md"]
