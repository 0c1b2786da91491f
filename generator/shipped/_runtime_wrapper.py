# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""The base of the generated classes (``Wrapper``): construction, the
attribute lock and its fast path for plain scalar options, copies and
pickling, ``strict``, and ``_set``, which every generated setter calls."""

from __future__ import annotations

import copy
from _thread import RLock  # (threading.RLock: a Python function around it)
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple, TypeVar, cast

from google.protobuf.message import Message

from ._runtime_configs import assign_config, replace_repeated, warn_deprecated
from ._runtime_specs import (
    FAST_TYPES,
    KEEP,
    MESSAGE,
    SPECS,
    MessageSpec,
    Mode,
    check_scalar,
    copy_message,
    named_error,
    parse_from,
    restore_slots,
    serialize,
    unknown_attribute,
)

if TYPE_CHECKING:
    from ._runtime_io import EnvField

# -- the base of the generated classes ---------------------------------------

_W = TypeVar("_W", bound="Wrapper")


class _Binding(NamedTuple):
    """What a generated class is bound to (its class keywords)."""

    cls: type[Message]
    attribute: str  # the slot holding the message
    spec: MessageSpec
    init: Callable[[Any], None] | None
    empty_config_sets: bool
    owner: type[Wrapper]  # the generated class (its _direct properties are the plain ones)
    env: tuple[EnvField, ...]  # its environment-backed fields


class Wrapper:
    """Base of the generated classes: construction, the attribute lock with
    its fast path for plain scalar options, copies and pickling, ``strict``,
    and ``_set``, what every generated setter calls.

    A generated class names its message class and slot as class keywords
    (``message=``, ``attribute=``, and ``init=`` a hook run by ``__init__``,
    ``empty_config_sets=False`` where ``{}`` leaves a config unset, ``env=``
    its environment-backed fields, which ``env_fields`` returns), and lists
    in ``_direct`` the scalar options whose setter does nothing but ``_set``,
    and in ``_renamed`` the properties not named as their fields.
    """

    __slots__ = ("_mutex",)

    _binding: ClassVar[_Binding]
    _direct: ClassVar[tuple[str, ...]] = ()
    _renamed: ClassVar[Mapping[str, str]] = {}
    # errors name the class too ("Order.gift: ..."), and a value protobuf
    # refuses in compatible mode gets strict mode's message (Record's)
    _named: ClassVar[bool] = False
    _message: Message  # the message's slot under a fixed name (set by __init_subclass__)
    _strict: bool
    _mutex: RLock  # the lock's slot, unset until the lock is first needed

    @property
    def _lock(self) -> RLock:
        """Serializes what is more than one protobuf operation: a config,
        list or map assignment (built aside, then swapped in under it) and
        the reads of the dict, list and map views. Plain scalar options are
        one protobuf operation each and never take it (their fast path stays
        lock-free). Made on first use: construction and copies make none."""
        try:
            return self._mutex
        except AttributeError:
            return _first_lock(self)

    def __init_subclass__(
        cls,
        *,
        message: type[Message] | None = None,
        attribute: str = "",
        init: Callable[[Any], None] | None = None,
        empty_config_sets: bool = True,
        env: tuple[EnvField, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if message is not None:
            spec = SPECS[message.DESCRIPTOR.full_name]
            cls._binding = _Binding(message, attribute, spec, init, empty_config_sets, cls, env)
            setattr(cls, "_message", cls.__dict__[attribute])  # the slot's descriptor
        binding = getattr(cls, "_binding", None)
        if binding is None:  # a base of the generated classes (Record): bound to no message
            return
        settable = {
            name
            for klass in cls.__mro__
            for name, member in vars(klass).items()
            if isinstance(member, property) and member.fset is not None
        }
        for klass in cls.__mro__:
            slots = vars(klass).get("__slots__", ())
            settable.update((slots,) if isinstance(slots, str) else slots)
        settable.discard("_strict")  # through `strict` only
        settable.discard("_mutex")
        # A subclass that redefines one of the options gets its own setter called.
        direct = {
            name: (FAST_TYPES[field.kind], field.name)
            for name in binding.owner._direct
            if getattr(cls, name) is vars(binding.owner)[name]
            for field in [binding.spec.fields[binding.owner._renamed.get(name, name)]]
        }
        locked = frozenset(settable)

        def __setattr__(self: Wrapper, name: str, value: Any) -> None:
            entry = direct.get(name)
            if entry is not None and value.__class__ is entry[0] and not self._strict:
                # what the option's setter would do, without the property call
                setattr(self._message, entry[1], value)
                return
            # The attribute lock: a misspelt option must not silently become a
            # new attribute that configures nothing.
            if name in locked:
                object.__setattr__(self, name, value)
                return
            raise TypeError(unknown_attribute(self, name, locked))

        setattr(cls, "__setattr__", __setattr__)
        layout = _LAYOUTS[cls] = _layout(cls, binding)
        setattr(cls, "__copy__", _copy_function(cls, layout))

    def __init__(self, *, strict: bool | None = None) -> None:
        if strict is not None and type(strict) is not bool:
            raise TypeError(f"strict must be a bool or None, got {type(strict).__name__}")
        binding = self._binding
        object.__setattr__(self, binding.attribute, binding.cls())
        object.__setattr__(self, "_strict", Mode.strict if strict is None else strict)
        if binding.init is not None:
            binding.init(self)

    @property
    def strict(self) -> bool:
        """Whether this instance validates strictly (see ``set_default_strict``).

        Type:
            ``bool``
        """
        return self._strict

    @strict.setter
    def strict(self, value: bool) -> None:
        if type(value) is not bool:
            raise TypeError(f"strict: expected bool, got {type(value).__name__}")
        object.__setattr__(self, "_strict", value)

    # Copies and pickles are built here, slot by slot, not by the copy
    # module's generic protocol (a state dict, deep-copied item by item):
    # fleet deep-copies the strategy on every fleet.init and
    # distributed_optimizer. (``__copy__`` is made per class, by
    # __init_subclass__: _copy_function.)

    def __deepcopy__(self: _W, memo: dict[int, Any]) -> _W:
        layout = _LAYOUTS[self.__class__]
        clone: _W = layout.new(self.__class__)
        memo[id(self)] = clone
        layout.set_message(clone, copy_message(self._message, None))
        layout.set_strict(clone, self._strict)
        for name, put in zip(layout.names, layout.setters):
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:
                put(clone, _deep_copy(value, memo))
        return clone

    def __getstate__(self) -> tuple[bytes, bool, tuple[str, ...], tuple[Any, ...]]:
        # What pickle stores: the message in its wire form, which keeps
        # everything (unknown fields too) and pickles even where the message
        # class cannot be found by name (another project's), strict, and the
        # plain attributes (names, values); the class is the only name a
        # pickle holds.
        layout = _LAYOUTS[self.__class__]
        try:
            values = layout.read(self)  # (message, strict, *plain)
        except AttributeError:  # a plain attribute was deleted: the others
            names = tuple(name for name in layout.names if hasattr(self, name))
            plain = tuple(getattr(self, name) for name in names)
            return serialize(self._message), self._strict, names, plain
        return serialize(values[0]), values[1], layout.names, values[2:]

    def __setstate__(self, state: Any) -> None:
        layout = _LAYOUTS[self.__class__]
        if isinstance(state, dict):  # a pickle an earlier runtime made: every slot by name
            restore_slots(
                self, cast("dict[str, Any]", state), layout.attribute, layout.message_class
            )
            return
        wire, strict, names, values = state
        message = layout.message_class()
        parse_from(message, wire)
        layout.set_message(self, message)
        layout.set_strict(self, strict)
        setter_of = layout.setter_of
        for name, value in zip(names, values):
            put = setter_of.get(name)
            if put is None:
                raise AttributeError(
                    f"cannot unpickle: {type(self).__name__} has no attribute {name!r} (pickled by another version?)"
                )
            put(self, value)

    def _set(self, name: str, value: Any) -> None:
        """Assign ``value`` to the option ``name`` (the property's name) as its
        field's kind and the mode say: a scalar checked, a config dict applied
        all-or-nothing, a list or dict replacing a repeated field or map."""
        binding = self._binding
        field = binding.spec.fields[binding.owner._renamed.get(name, name)]
        where = f"{type(self).__qualname__}.{name}" if self._named else name
        if field.deprecated:
            warn_deprecated(where, 4)
        if field.map_key is not None or field.repeated:
            replace_repeated(self._message, field, value, where, self._strict, self._lock)
        elif field.kind == MESSAGE:
            assign_config(
                getattr(self._message, field.name),
                value,
                SPECS[field.message],  # type: ignore[index]
                where,
                self._strict,
                binding.empty_config_sets,
                self._lock,
            )
        else:
            if (
                value.__class__ is not FAST_TYPES.get(field.kind)
                or self._strict
                or field.constraint_always
            ):
                value = check_scalar(self._strict, field, value, where)
                if value is KEEP:
                    return
            try:
                setattr(self._message, field.name, value)
            except (TypeError, ValueError) as exc:
                if self._named:  # protobuf's words name neither field nor value
                    raise named_error(field, value, where, exc) from None
                raise


class _Layout(NamedTuple):
    """How copies and pickles build an instance of a wrapper class: its slots'
    setters (member descriptors, past the attribute lock), worked out once."""

    new: Callable[[type[Any]], Any]
    attribute: str  # the message's slot
    message_class: type[Message]
    set_message: Callable[[Any, Any], None]
    set_strict: Callable[[Any, Any], None]
    names: tuple[str, ...]  # the other slots: the plain attributes
    setters: tuple[Callable[[Any, Any], None], ...]
    setter_of: dict[str, Callable[[Any, Any], None]]
    # (message, strict, *plain values) in one call; AttributeError when one is unset
    read: Callable[[Any], Any]


_LAYOUTS: dict[type, _Layout] = {}
_UNSET: Final = object()
_IMMUTABLE: Final = frozenset({str, int, float, bool, bytes, type(None)})
_CONTAINERS: Final = frozenset({list, dict, set})


def _layout(cls: type[Wrapper], binding: _Binding) -> _Layout:
    own = {binding.attribute, "_strict", "_mutex"}
    declared: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        declared.extend((slots,) if isinstance(slots, str) else slots)
    names = tuple(name for name in declared if name not in own)

    def setter(name: str) -> Callable[[Any, Any], None]:
        return cast("Callable[[Any, Any], None]", getattr(cls, name).__set__)

    setters = tuple(setter(name) for name in names)
    return _Layout(
        cls.__new__,
        binding.attribute,
        binding.cls,
        setter(binding.attribute),
        setter("_strict"),
        names,
        setters,
        dict(zip(names, setters)),
        attrgetter(binding.attribute, "_strict", *names),
    )


def _copy_function(cls: type[_W], layout: _Layout) -> Callable[[_W], _W]:
    """``cls.__copy__``: a copy owning its message and its lists (changing the
    copy must not change the original: fleet copies the strategy it is
    given); other plain values are shared, as ``copy.copy`` shares them.

    Made per class, unrolled for a class with two plain attributes (the
    usual case): a loop over them costs a fifth of the copy, which is to be
    no slower than the shallow copy of the class it replaces."""
    new, set_message, set_strict = layout.new, layout.set_message, layout.set_strict
    attribute, names, setters, read = layout.attribute, layout.names, layout.setters, layout.read
    containers = _CONTAINERS

    def copy_each(source: _W) -> _W:
        clone: _W = new(cls)
        set_message(clone, copy_message(getattr(source, attribute), None))
        set_strict(clone, getattr(source, "_strict"))
        for name, put in zip(names, setters):
            value: Any = getattr(source, name, _UNSET)
            if value is not _UNSET:
                put(clone, value.copy() if value.__class__ in containers else value)
        return clone

    if len(names) != 2:
        return copy_each
    first, second = setters

    def copy_two(source: _W) -> _W:
        try:
            message, strict, one, two = read(source)
        except AttributeError:  # a plain attribute was deleted: the other
            return copy_each(source)
        clone: _W = new(cls)
        set_message(clone, copy_message(message, None))
        set_strict(clone, strict)
        first(clone, one.copy() if one.__class__ in containers else one)
        second(clone, two.copy() if two.__class__ in containers else two)
        return clone

    return copy_two


def _deep_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a plain attribute's value; a list of immutable items
    (the usual: a list of names) is copied without the copy module."""
    if value.__class__ is list:
        for item in value:
            if item.__class__ not in _IMMUTABLE:
                break
        else:
            copied = memo.get(id(value))
            if copied is None:
                copied = memo[id(value)] = value[:]
            return copied
    if value.__class__ in _IMMUTABLE:
        return value
    return copy.deepcopy(value, memo)


def lock_of(instance: object) -> RLock:
    """The lock of a generated class's instance (re-entrant). A hook holds it
    around whatever it changes or reads in more than one protobuf operation
    (``apply_config`` of a ``stage_config``, ``merge_keyed``, several fields
    read together), so other threads see all of it or none; the checks and
    the building go before, outside it."""
    return cast(RLock, getattr(instance, "_lock"))  # (private to the class: read by name)


def env_fields(wrapper: Wrapper | type[Wrapper]) -> tuple[EnvField, ...]:
    """The environment-backed fields of a generated class (or of its
    instance's class), as its annotations declare them (``env:``), in their
    order: those with ``read`` set are read when an instance is created."""
    cls = wrapper if isinstance(wrapper, type) else type(wrapper)
    binding: _Binding | None = getattr(cls, "_binding", None)
    if binding is None:
        raise TypeError(f"env_fields: {cls.__name__} is not a generated class")
    return binding.env


_FIRST_LOCKS: Final = RLock()  # taken once per instance, when it first needs its lock


def _first_lock(instance: Wrapper) -> RLock:
    with _FIRST_LOCKS:  # two threads must not each make one
        try:
            return cast(RLock, getattr(instance, "_mutex"))
        except AttributeError:
            lock = RLock()
            object.__setattr__(instance, "_mutex", lock)
            return lock
