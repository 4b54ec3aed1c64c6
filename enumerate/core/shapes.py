"""The JSON shape of a result, declared once: a TypedDict that is both the return type of the
result's ``to_dict`` (mypy checks that the method builds exactly that shape) and what the JSON
schema's definition of it is generated from (:func:`json_schema`; ``studodds/schema.json``,
compared with the generation by the tests).

A shape is a ``TypedDict`` registered under its schema name with :func:`shape`.  Keys are the
JSON keys, in the order ``to_dict`` writes them; a key that may be absent is ``NotRequired``.
Types map to JSON Schema as

* ``str``, ``int``, ``float``, ``bool`` -> string, integer, number, boolean; ``Literal["x"]`` ->
  a constant, ``Literal["x", "y"]`` -> an enumeration; ``list[X]`` -> an array of X;
  ``dict[str, X]`` -> an object whose every value is X; ``X | None`` -> X or null; ``Any`` -> any
  value;
* another registered shape -> a reference to its definition; a TypedDict not registered -> its
  object written in place;
* ``Annotated[T, ...]`` adds constraints: :class:`Pattern`, :class:`Minimum`, :class:`Maximum`,
  :class:`MinItems`, :class:`MaxItems`, :class:`MinProperties`, :class:`PropertyNames`,
  :class:`OneOf`, :class:`Doc` (the property's description), and :class:`Def` names a shared
  definition the type stands for (``Count``: ``{"$ref": "#/$defs/count"}``).

A definition that is not an object with keys (a mapping with constraints) is an annotated type
with a :class:`Def`, registered with :func:`shared`.  A rule between an object's keys goes in
``shape(name, extra=...)``.  An exact rational is :class:`Exact` (``{"exact": "p/q", "value":
float}``), a count :data:`Count`.
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints

from evaluator.ranking import Category

#: Every registered shape by its schema name.
SHAPES: dict[str, type] = {}


@dataclass(frozen=True)
class _Keyword:
    """A JSON Schema keyword with its value, added to the type it annotates."""

    keyword: ClassVar[str]
    value: Any


class Pattern(_Keyword):
    """A string matches this regular expression."""

    keyword = "pattern"


class Minimum(_Keyword):
    """A number is at least this."""

    keyword = "minimum"


class Maximum(_Keyword):
    """A number is at most this."""

    keyword = "maximum"


class MinItems(_Keyword):
    """An array has at least this many items."""

    keyword = "minItems"


class MaxItems(_Keyword):
    """An array has at most this many items."""

    keyword = "maxItems"


class MinProperties(_Keyword):
    """An object has at least this many keys."""

    keyword = "minProperties"


class PropertyNames(_Keyword):
    """An object's keys match this schema (a ``pattern`` or an ``enum``)."""

    keyword = "propertyNames"


class OneOf(_Keyword):
    """A value is one of these (JSON Schema's ``enum``, for a type whose values are listed at
    run time, such as a registry's names; a fixed list is a ``Literal``)."""

    keyword = "enum"


class Doc(_Keyword):
    """The property's description in the schema."""

    keyword = "description"


@dataclass(frozen=True)
class Def:
    """The type stands for the schema's shared definition of this name."""

    name: str


def shape(name: str, extra: dict[str, Any] | None = None, document: bool = False) -> Any:
    """Register a TypedDict as the shape called ``name`` in the schema; ``extra`` holds keywords
    its definition has besides its keys (a rule between keys: ``allOf``, ``if``/``then``);
    ``document``: the object stands alone -- a command prints it or a results file holds it,
    told apart by its ``kind`` -- and is one of those the schema accepts."""
    def register(cls: type) -> type:
        if name in SHAPES and SHAPES[name] is not cls:
            raise ValueError(f"shape {name!r} is declared twice")
        SHAPES[name] = cls
        cls.__shape_name__ = name          # type: ignore[attr-defined]
        cls.__shape_extra__ = dict(extra or {})   # type: ignore[attr-defined]
        cls.__shape_document__ = document         # type: ignore[attr-defined]
        return cls
    return register


@shape("exact")
class Exact(TypedDict):
    """An exact rational and its nearest double."""

    exact: Annotated[str, Pattern("^-?[0-9]+(/[0-9]+)?$"), Doc("the exact rational, reduced")]
    value: Annotated[float, Doc("nearest double, for reading only")]


#: A whole count of combinations, situations or hands.
Count = Annotated[int, Minimum(0), Def("count")]
#: An exact rational, or null where there is none.
ExactOrNull = Annotated[Union[Exact, None], Def("exact_or_null")]

#: A sampled figure's 95% interval, [low, high].
Interval = Annotated[list[float], MinItems(2), MaxItems(2)]

#: The hand categories' keys, from the strongest down.
CATEGORY_KEYS = [c.key for c in reversed(Category)]
#: A hand category's key (``"royal_flush"`` ... ``"high_card"``).
CategoryKey = Annotated[str, OneOf(CATEGORY_KEYS)]
#: An object keyed by hand categories.
BY_CATEGORY = PropertyNames({"enum": CATEGORY_KEYS})

#: The shared definitions: the annotated types that stand for them.
SHARED: dict[str, Any] = {"count": Count, "exact_or_null": ExactOrNull}


def shared(tp: Any) -> None:
    """Register a type that is not an object with keys (a mapping, a union) as a definition of
    the schema: ``tp`` is ``Annotated[..., Def(name)]``, which stands for the definition wherever
    it is used."""
    name = next(e.name for e in get_args(tp)[1:] if isinstance(e, Def))
    if name in SHARED or name in SHAPES:
        raise ValueError(f"shape {name!r} is declared twice")
    SHARED[name] = tp


def json_schema(tp: Any, refer: bool = True) -> dict[str, Any]:
    """The JSON Schema of a type (see the module docstring); a registered shape or a type with a
    :class:`Def` is a reference to its definition (unless ``refer`` is False: the definition)."""
    if get_origin(tp) is Annotated:
        base, *extras = get_args(tp)
        if refer and (name := next((e.name for e in extras if isinstance(e, Def)), None)) is not None:
            return {"$ref": f"#/$defs/{name}"}
        out = dict(json_schema(base))
        out.update({e.keyword: e.value for e in extras if isinstance(e, _Keyword)})
        return out
    name = getattr(tp, "__shape_name__", None)
    if name is not None:
        return {"$ref": f"#/$defs/{name}"}
    if hasattr(tp, "__required_keys__"):          # a TypedDict not registered: written in place
        return definition(tp)
    origin = get_origin(tp)
    if origin is Literal:
        values = list(get_args(tp))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin is list:
        return {"type": "array", "items": json_schema(get_args(tp)[0])}
    if origin is dict:
        return {"type": "object", "additionalProperties": json_schema(get_args(tp)[1])}
    if origin in (Union, types.UnionType):
        return {"oneOf": [json_schema(a) for a in get_args(tp)]}
    if origin is NotRequired:
        return json_schema(get_args(tp)[0])
    if tp is Any:                                 # any JSON value
        return {}
    simple = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
    if tp in simple:
        return {"type": simple[tp]}
    raise TypeError(f"no JSON schema for {tp!r}")


def definition(cls: type) -> dict[str, Any]:
    """The schema definition of a registered shape: an object with exactly its keys."""
    hints = get_type_hints(cls, include_extras=True)
    # NotRequired read from the hints: with postponed annotations Python 3.11's __required_keys__
    # counts every key as required
    required = [k for k, t in hints.items() if get_origin(t) is not NotRequired]
    out: dict[str, Any] = {"type": "object", "properties": {k: json_schema(t) for k, t in hints.items()}}
    if cls.__doc__ and cls.__doc__.startswith("Schema: "):
        out["description"] = cls.__doc__.removeprefix("Schema: ")
    out["required"] = required
    out["additionalProperties"] = False
    out.update(getattr(cls, "__shape_extra__", {}))
    return out


def definitions() -> dict[str, dict[str, Any]]:
    """Every generated definition by name: the registered shapes and the shared types."""
    out = {name: definition(cls) for name, cls in SHAPES.items()}
    out.update({name: json_schema(tp, refer=False) for name, tp in SHARED.items()})
    return out
