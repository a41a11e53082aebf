"""The project's error types.

* :class:`SpecError` -- bad input: the spec file is wrong. The CLI prints one line and exits with status 2.
* :class:`SpecErrors` -- several independent faults, found in one reading (a SpecError too): one line each.
* :class:`ResourceError` -- the spec asks for more than the limits allow (a SpecError too).
* :class:`EvalError` -- the mathematics cannot be evaluated at one instance (division by zero, v2(0),
  a function outside its domain); a checker turns it into the verdict ``ill-defined`` at that instance.

>>> str(SpecError("unknown name 'fo'", file="a.toml", item="claim 'c'", field="grundy", line=7))
"a.toml:7: claim 'c', field 'grundy': unknown name 'fo'"
"""
from __future__ import annotations


class NimjosError(Exception):
    """Base of every error nimjos raises on purpose."""


class SpecError(NimjosError):
    """A fault in the spec (bad input). Carries where it is: file, item (claim or game), field, line."""

    def __init__(self, message: str, *, file: str | None = None, item: str | None = None,
                 field: str | None = None, line: int | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.item = item
        self.field = field
        self.line = line
        self.hint = hint

    def located(self, *, file: str | None = None, item: str | None = None, field: str | None = None,
                line: int | None = None) -> "SpecError":
        """Fill in location details that are still missing, and return self.

        >>> e = SpecError("bad").located(file="f.toml", field="where")
        >>> (e.file, e.field)
        ('f.toml', 'where')
        """
        self.file = self.file or file
        self.item = self.item or item
        self.field = self.field or field
        self.line = self.line or line
        return self

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        parts = []
        if self.item:
            parts.append(self.item)
        if self.field:
            parts.append(f"field '{self.field}'")
        prefix = where + (", ".join(parts) + ": " if parts else "")
        text = prefix + self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class SpecErrors(SpecError):
    """Several independent faults of the spec files, each a :class:`SpecError`, found in one reading: its text is
    one line per fault; its location is the first fault's.

    >>> str(SpecErrors([SpecError("bad", file="a.toml", line=2), SpecError("worse", file="b.toml")]))
    'a.toml:2: bad\\nb.toml: worse'
    """

    def __init__(self, errors: list[SpecError]):
        first = errors[0]
        super().__init__(first.message, file=first.file, item=first.item, field=first.field, line=first.line,
                         hint=first.hint)
        self.errors = [one for error in errors for one in each_error(error)]

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


def each_error(error: SpecError) -> list[SpecError]:
    """The faults a SpecError stands for: those of a :class:`SpecErrors`, or the error itself.

    >>> [e.message for e in each_error(SpecErrors([SpecError("a"), SpecError("b")]))], each_error(SpecError("c"))[0].message
    (['a', 'b'], 'c')
    """
    return list(error.errors) if isinstance(error, SpecErrors) else [error]


def raise_all(errors: list[SpecError]) -> None:
    """Raise the faults found: nothing when there is none, the fault itself when there is one, else a
    :class:`SpecErrors` of them all.

    >>> raise_all([])
    >>> raise_all([SpecError("one", file="a.toml")])
    Traceback (most recent call last):
    nimjos.lang.errors.SpecError: a.toml: one
    """
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise SpecErrors(errors)


class ResourceError(SpecError):
    """The spec asks for more work or memory than the limits allow."""


class StepLimitError(ResourceError):
    """One evaluation took more steps than its limit allows (:func:`nimjos.lang.runtime.step_limit`)."""


class PositionLimitError(ResourceError):
    """More positions of a game are reachable than one table may hold (the engine's ``max_positions``): the engine
    explored that many before it stopped."""


class EvalError(NimjosError, ArithmeticError):
    """The statement cannot be evaluated at an instance (the mathematics is undefined there)."""
