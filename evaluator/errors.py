"""The project's one error type.

Every problem with what a user gave -- a bad card, an unreadable or invalid variant file, an
impossible option -- raises :class:`StudoddsError` with a message that names what, where and
why.  The command line turns exactly this type (and nothing else) into a one-line message and
exit code 2; any other exception is a bug and is reported as an internal error.

It lives in the lowest package so that card parsing can raise it too; ``studodds.StudoddsError``
is the same class.
"""


class StudoddsError(ValueError):
    """Bad input or an unusable file: the message names what, where and why.

    A subclass of :class:`ValueError`, so code that catches ``ValueError`` keeps working.
    """


class ParameterError(StudoddsError):
    """A bad argument of a public function: ``parameter`` names it as the function spells it
    (``raise_at_least``, ``shares``, ``threads``), ``reason`` says what is wrong.

    ``str(error)`` is ``"parameter: reason"``.  The command line maps the parameter to its option
    (``--raise-at-least``) and prints ``studodds: error: --raise-at-least: reason``.

    >>> str(ParameterError("samples", "must be at least 2, got 1"))
    'samples: must be at least 2, got 1'
    """

    def __init__(self, parameter: str, reason: str) -> None:
        self.parameter = parameter
        self.reason = reason
        super().__init__(f"{parameter}: {reason}")
