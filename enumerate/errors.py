"""The one exception type the CLI turns into a one-line message and exit code 2."""


class StudoddsError(ValueError):
    """Bad input or an unusable file: the message names what, where and why."""
