"""What every command shares: the parser, the common options, the one variant convention, the
output-file rule, printing, and the mapping from the API's parameter names to the options.

The conventions, the same on every command:

* **The variant** is the positional ``VARIANT`` (a built-in name or a ``.toml`` file, default
  ``us-common``) wherever a command takes one variant (``hand`` takes it after the cards);
  ``--variant NAME`` is an alias kept for older scripts.
* **Common options**: ``--json`` (print the returned object's ``to_dict()``, the convention of
  :mod:`enumerate.core.jsonform`), ``--quiet`` (no progress bar), ``--threads N``, ``--no-cache``
  (neither read nor write the on-disk caches), ``--debug``.
* **Output files** are named by an option (``--out``, ``--write``, ``--csv``, ``--plot``); each
  is checked before any work (its suffix, and that its folder exists and is writable) and
  written atomically.
* **Errors** of the API name their parameter (:class:`~evaluator.errors.ParameterError`); the
  message printed names the option instead (``samples`` -> ``--samples``).
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from enumerate.core.interrupts import RECEIVED
from evaluator.errors import ParameterError, StudoddsError

EXIT_DIFFERENCES = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
DEFAULT_VARIANT = "us-common"

#: API parameter -> the option (or positional) that gives it, where the two names differ by
#: more than ``--`` and dashes for underscores.
OPTION_OF = {"variant": "VARIANT", "cards": "CARDS", "folder": "FOLDER", "bounds": "--bound", "shares": "--share",
             "burn_cards": "--burn", "variants": "VARIANTS",
             "a": "A", "b": "B"}


def option_name(parameter: str) -> str:
    """The option of an API parameter: ``raise_at_least`` -> ``--raise-at-least``."""
    return OPTION_OF.get(parameter, "--" + parameter.replace("_", "-"))


def one_line(message: object) -> str:
    """Error messages are one line whatever the input echoed in them holds."""
    return str(message).replace("\r", "\\r").replace("\n", "\\n")


def error_text(exc: StudoddsError) -> str:
    """The one line printed for bad input: a parameter error names the option."""
    if isinstance(exc, ParameterError):
        return f"studodds: error: {option_name(exc.parameter)}: {one_line(exc.reason)}"
    return f"studodds: error: {one_line(exc)}"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``studodds: error: ...`` and exit code 2), and options and
    positionals in any order: a command's parser reads its arguments intermixed
    (``studodds hand "As Kd Jh 8c 3s" --up 7d oasis-one-card``), as ``parse_intermixed_args``
    does; a parser of subcommands dispatches as usual."""

    _intermixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._intermixing = True            # parse_known_intermixed_args calls back here
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False

    def error(self, message: str) -> NoReturn:
        where = f"studodds {self.prog.split()[-1]} --help" if " " in self.prog else "studodds --help"
        self.exit(EXIT_BAD_INPUT, f"studodds: error: {one_line(message)} (see {where})\n")


def common(p: argparse.ArgumentParser, json_help: str = "print JSON (exact values as fractions)") -> None:
    """The options every command takes."""
    p.add_argument("--json", action="store_true", help=json_help)
    p.add_argument("--quiet", action="store_true", help="no progress bar and no projected-time line of a long count")
    p.add_argument("--threads", type=threads_option, default=None,
                   help="threads for every parallel step (default: the CPUs available)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the on-disk caches")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="show the traceback of an internal error")


def threads_option(text: str) -> int:
    """``--threads``: a whole number from 1 to 256 (checked by every command, even one that
    does not count)."""
    from enumerate.core.parallel import MAX_THREADS  # lazy: start-up time (numpy)
    text = text.strip()
    if not text.isdigit() or len(text) > 6:
        raise argparse.ArgumentTypeError(f"{text!r:.40} is not a whole number of threads from 1 to {MAX_THREADS}")
    value = int(text)
    if not 1 <= value <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_THREADS}, got {value}")
    return value


def variant_argument(p: argparse.ArgumentParser, default: str = DEFAULT_VARIANT) -> None:
    """The positional VARIANT and its alias ``--variant`` (see :func:`variant_of`)."""
    p.add_argument("variant", nargs="?", default=None, metavar="VARIANT",
                   help=f"built-in variant name or variant .toml file (default {default})")
    p.add_argument("--variant", dest="variant_option", default=None, metavar="VARIANT",
                   help="the same as the positional VARIANT (an alias for older scripts)")
    p.set_defaults(default_variant=default)


def variant_of(args: argparse.Namespace) -> str:
    """The variant the command line names, positionally or with ``--variant``."""
    if args.variant is not None and args.variant_option is not None and args.variant != args.variant_option:
        raise ParameterError("variant", f"given twice: {args.variant!r} and --variant {args.variant_option!r}")
    return str(args.variant or args.variant_option or args.default_variant)


def strict(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strict", action="store_true",
                   help="treat sanity warnings (player edge, pay below a weaker hand's, vacuous qualifier) as errors")


def whole_game_checkpoint(p: argparse.ArgumentParser) -> None:
    p.add_argument("--checkpoint", metavar="FOLDER",
                   help="keep the shards of a whole game counted in shards (draws by rank patterns, two boxes) in "
                        "FOLDER instead of the user cache: the folder of a 'draws-exact --checkpoint' run of the "
                        "whole game is read, verified and completed (one table)")


def api_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments every API call takes, from the common options."""
    return {"threads": args.threads, "use_cache": not args.no_cache, "progress": not args.quiet}


def emit(args: argparse.Namespace, obj: Any, text: Callable[[Any], str]) -> None:
    """Print ``obj.to_dict()`` as JSON with --json, else its text rendering."""
    if args.json:
        print(json.dumps(obj if isinstance(obj, dict) else obj.to_dict(), indent=2))
    else:
        print(text(obj))


def warn(name: str, found: list[str]) -> None:
    """Print each sanity warning of variant ``name`` on stderr."""
    for w in found:
        print(f"studodds: warning: {name}: {one_line(w)}", file=sys.stderr)


def output_file(option: str, value: str, *suffixes: str) -> Path:
    """A file the command will write, checked before any work: its suffix is one of
    ``suffixes``, its folder exists and is writable."""
    out = Path(value)
    parameter = option.lstrip("-").replace("-", "_")
    if out.suffix not in suffixes:
        raise ParameterError(parameter, f"{out}: the output must end in {' or '.join(suffixes)}")
    if not out.parent.exists():
        raise ParameterError(parameter, f"{out.parent}: no such folder")
    from studodds.certify import writable_folder  # lazy: start-up time
    writable_folder(out.parent, parameter, named=out)
    return out


def output_folder(option: str, value: str) -> Path:
    """A folder the command will write files into: made if missing, checked writable."""
    out = Path(value)
    parameter = option.lstrip("-").replace("-", "_")
    if out.exists() and not out.is_dir():
        raise ParameterError(parameter, f"{out}: exists and is not a folder")
    from studodds.certify import writable_folder  # lazy: start-up time
    writable_folder(out, parameter, make=True)
    return out


def whole_numbers(parameter: str, text: str) -> list[int]:
    """Comma-separated whole numbers."""
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ParameterError(parameter, f"{text!r} is not a list of whole numbers such as 1,10,100") from None


def exposure_levels(parameter: str, text: str) -> tuple[int, ...]:
    """"none,0,1" -> (-1, 0, 1): none is no dealer card visible, k is up card + k hole cards."""
    levels: list[int] = []
    for word in text.split(","):
        word = word.strip().lower()
        if word == "none":
            levels.append(-1)
        elif word:
            values = whole_numbers(parameter, word)
            if any(k not in range(5) for k in values):
                raise ParameterError(parameter, f"values must be none or 0..4, got {text!r}")
            levels += values
    if not levels:
        raise ParameterError(parameter, "give levels such as none,0,1,2,3,4")
    return tuple(sorted(set(levels)))


def load_strategy(spec: str) -> tuple[Callable[..., Any], str]:
    """``module:function`` or ``path/to/file.py:function``.  The user's module is imported without
    writing its bytecode (no ``__pycache__`` beside it: a command that refuses its input writes
    nothing, whatever the interpreter's settings)."""
    module_name, _, func = spec.rpartition(":")
    if not module_name or not func:
        raise ParameterError("strategy", f"expected MODULE:FUNCTION, got {spec!r}")
    writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            loader_spec = importlib.util.spec_from_file_location(path.stem, path)
            if loader_spec is None or loader_spec.loader is None or not path.is_file():
                raise ParameterError("strategy", f"no such file {module_name}")
            module = importlib.util.module_from_spec(loader_spec)
            loader_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except (ParameterError, *RECEIVED):      # (a Ctrl-C during the import stops the command)
        raise
    except BaseException as exc:     # the user's module failed to import (even by sys.exit): name it
        raise ParameterError("strategy", f"cannot import {module_name}: {one_line(exc)}") from None
    finally:
        sys.dont_write_bytecode = writes_bytecode
    f = getattr(module, func, None)
    if not callable(f):
        raise ParameterError("strategy", f"{module_name} has no function {func!r}")
    return f, func


def games_number(text: str) -> int:
    """A number of games: ``100000000``, ``100_000_000`` or ``1e8`` (a whole number)."""
    t = text.strip().replace("_", "").replace(",", "")
    try:
        if "e" in t.lower():
            mantissa, _, exponent = t.lower().partition("e")
            if not exponent.isdigit() or len(exponent) > 2:
                raise ValueError
            value = float(mantissa) * 10 ** int(exponent)
            if value != int(value):
                raise ValueError
            return int(value)
        return int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of games (e.g. 100000000 or 1e8)") from None
