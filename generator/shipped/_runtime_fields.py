# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""The one-line field declarations of a ``Record`` class (a schema that asks
for no reference's compatibility): ``name: Field[str, str] = field(default=UNSET)``.

``Field[G, S]`` is what type checkers see: reading the attribute on an
instance gives ``G``, assigning takes ``S``, and (``Record`` being a PEP 681
``dataclass_transform``) the keyword constructor takes ``S`` too. At run time
``Record.__init_subclass__`` replaces each placeholder ``field()`` returns by
a property built from the field's spec (``field_property``)."""

from __future__ import annotations

import enum
import sys
from operator import attrgetter
from typing import Any, Callable, Generic, TypeVar, overload

from ._runtime_specs import FieldSpec

_G = TypeVar("_G")
_S = TypeVar("_S")


class _Unset(enum.Enum):
    """The default of every field of a Record: the keyword left out leaves
    the field unset (at its protobuf default)."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset.UNSET


class Field(Generic[_G, _S]):
    """A field's declaration in a Record class body; the class replaces it by
    its property when it is created, so an instance never sees it."""

    __slots__ = ("enum", "init")

    def __init__(self, enum: str | None = None, init: bool = True) -> None:
        # an enum field: the class its getter returns members of, by its path in
        # the module (looked up on first use: the class may hold it, or be it)
        self.enum = enum
        self.init = init  # False: the message's slot, declared for its type only

    @overload
    def __get__(self, instance: None, owner: Any) -> Field[_G, _S]: ...
    @overload
    def __get__(self, instance: object, owner: Any) -> _G: ...
    def __get__(self, instance: object, owner: Any) -> Any:
        if instance is None:
            return self
        raise TypeError(f"{type(instance).__qualname__}: a field of a class that is not a Record")

    def __set__(self, instance: object, value: _S) -> None:
        raise TypeError(f"{type(instance).__qualname__}: a field of a class that is not a Record")


def field(*, default: Any = UNSET, enum: str | None = None, init: bool = True) -> Any:
    """A field of a Record class (PEP 681's field specifier): ``default`` is
    ``UNSET`` (a field left out of the constructor keeps protobuf's default);
    ``enum``: the path in its module (``"Order.Status"``) of the enum class
    an enum field's getter returns members of;
    ``init=False``: the message's slot (its annotation types it; no keyword)."""
    if default is not UNSET:
        raise ValueError("a Record field's default is UNSET: protobuf's own default")
    return Field[Any, Any](enum, init)


def field_property(
    name: str,
    spec: FieldSpec,
    attribute: str,
    module: str,
    enum_path: str | None,
    record_of: Callable[[Any, Any], Any],
    view: Callable[[Any, str, FieldSpec], Any],
) -> property:
    """The property of the field ``spec`` named ``name`` of a class whose message
    is in the slot ``attribute``: a scalar read at C speed (``attrgetter``),
    an enum as a member of the class at ``enum_path`` in ``module``, a
    message as its class's instance (``record_of``, live), a repeated or map
    field as ``view`` returns it;
    assigning goes through ``_set``, which checks it."""

    def fset(self: Any, value: Any) -> None:
        self._set(name, value)

    get_value: Callable[[Any], Any] = attrgetter(f"{attribute}.{spec.name}")
    fget: Callable[[Any], Any] = get_value
    found: list[Any] = []

    def enum_class() -> Any:
        """The enum class, looked up on first read (a class may hold the enum it reads)."""
        if not found:
            cls: Any = sys.modules[module]
            for part in (enum_path or "").split("."):
                cls = getattr(cls, part)
            found.append(cls)
        return found[0]

    if spec.map_key is not None or (spec.repeated and enum_path is None):
        fget = lambda self: view(self, name, spec)  # noqa: E731
    elif enum_path is not None and spec.repeated:  # a list of members (a copy, as the view's)
        fget = lambda self: [enum_class()(n) for n in view(self, name, spec)]  # noqa: E731
    elif enum_path is not None:
        fget = lambda self: enum_class()(get_value(self))  # noqa: E731
    elif spec.message is not None:
        fget = lambda self: record_of(get_value(self), self._strict)  # noqa: E731
    # (its docs are the docstring under its declaration, which editors show)
    return property(fget, fset, doc=f"The ``{spec.name}`` field: documented at its declaration.")
