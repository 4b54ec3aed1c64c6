"""Which rules differ between two variants: the cause a regression check names first.

Rules are compared in their JSON form (:meth:`Variant.to_dict`), key by key, so a committed
``summary.json`` (which records the rules it was made from) can be compared with a variant
file as easily as two variants.  The name and description are not rules and are ignored.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from enumerate.core.shapes import shape

_NOT_RULES = {"name", "description"}


@shape("rule_change")
class RuleChangeJSON(TypedDict):
    rule: str
    old: str
    new: str


@dataclass(frozen=True)
class RuleChange:
    """One rule that differs: ``key`` as in the variant file (``raise_pays.full_house``),
    ``old`` and ``new`` as text (``"7"``, ``"Ace/King or better"``; ``"-"`` when absent)."""

    key: str
    old: str
    new: str

    def text(self) -> str:
        return f"{self.key} {self.old} -> {self.new}"

    def to_dict(self) -> RuleChangeJSON:
        return {"rule": self.key, "old": self.old, "new": self.new}


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict) and set(value) == {"exact", "value"}:
        out[prefix] = str(value["exact"])
    elif isinstance(value, dict):
        if prefix == "qualifier":                 # the rule as people state it
            out[prefix] = str(value.get("rule"))
            return
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif value is None:
        pass
    else:
        out[prefix] = str(value).lower() if isinstance(value, bool) else str(value)


def rule_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[RuleChange]:
    """The rules that differ between two variants given as :meth:`Variant.to_dict` objects,
    in the order the variant file lists them."""
    a: dict[str, str] = {}
    b: dict[str, str] = {}
    _flatten("", {k: v for k, v in old.items() if k not in _NOT_RULES}, a)
    _flatten("", {k: v for k, v in new.items() if k not in _NOT_RULES}, b)
    # a side bet one variant lacks entirely is one change, not one per key
    bets_a, bets_b = old.get("side_bets") or {}, new.get("side_bets") or {}
    for name in [n for n in bets_a if n not in bets_b] + [n for n in bets_b if n not in bets_a]:
        prefix = f"side_bets.{name}."
        for d, rules in ((a, old), (b, new)):
            for k in [k for k in d if k.startswith(prefix)]:
                del d[k]
            if name in (rules.get("side_bets") or {}):
                d[f"side_bets.{name}"] = f"{rules['side_bets'][name]['kind']} bet"
    keys = list(a) + [k for k in b if k not in a]
    return [RuleChange(k, a.get(k, "-"), b.get(k, "-")) for k in keys if a.get(k) != b.get(k)]
