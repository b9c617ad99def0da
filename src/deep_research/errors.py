"""Errors that reach the user."""


class UserError(Exception):
    """Bad input from the user: reported as a clear message with exit code 2."""

    exit_code = 2
