# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""What the classes of a schema that asks for no reference's compatibility
(its annotations have no top-level ``reference:``) add to ``Wrapper``: a
keyword constructor, ``repr`` of the fields that are set, equality by value
(``Record``); a base for the enum classes (``ProtoEnum``); and the live,
typed views of repeated and map message fields (``MessageList``,
``MessageMap``), whose items are the generated classes and which validate
what is put in them as the setters do."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, MutableMapping, MutableSequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, overload

from google.protobuf.message import Message

from ._runtime_configs import build_message
from ._runtime_fields import UNSET, Field, field, field_property
from ._runtime_specs import (
    SPECS,
    FieldSpec,
    copy_from,
    descriptor_of,
    is_repeated,
    list_fields,
    strict_value,
    suggest,
)
from ._runtime_wrapper import Wrapper, lock_of

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    try:
        from typing import dataclass_transform
    except ImportError:  # Python < 3.11: the decorator only marks the class for type checkers

        def dataclass_transform(**_: Any) -> Any:
            return lambda cls: cls


_R = TypeVar("_R", bound="Record")
_K = TypeVar("_K")

# message full name -> the generated class wrapping it (the first one made)
_CLASSES: dict[str, type[Record]] = {}


class _RecordType(type):
    """Record's metaclass: a class's one-line ``Field`` declarations become
    its fields' properties before the class is made (``Wrapper`` then finds
    them as any property), and its message slot's declaration
    (``field(init=False)``, which types it) leaves the slot alone."""

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _RecordType:
        declared: dict[str, Field[Any, Any]] = {
            key: value for key, value in namespace.items() if isinstance(value, Field)
        }
        if declared:
            spec = SPECS[kwargs["message"].DESCRIPTOR.full_name]
            renamed: Mapping[str, str] = namespace.get("_renamed", {})
            fields: list[str] = []
            for key, placeholder in declared.items():
                if not placeholder.init:
                    del namespace[key]
                    continue
                field_spec = spec.fields[renamed.get(key, key)]
                namespace[key] = field_property(
                    key,
                    field_spec,
                    kwargs["attribute"],
                    namespace["__module__"],
                    placeholder.enum,
                    _as_record,
                    _view,
                )
                fields.append(key)
            namespace["_fields"] = tuple(fields)
        return super().__new__(mcs, name, bases, namespace, **kwargs)


@dataclass_transform(kw_only_default=True, field_specifiers=(field,))
class _Declared:
    """What makes type checkers read a Record class's ``Field`` declarations
    as its constructor's keywords (PEP 681), as they do a dataclass's."""

    __slots__ = ()


class Record(Wrapper, _Declared, metaclass=_RecordType):
    """Base of the generated classes of a schema without a reference: what
    ``Wrapper`` has, plus a keyword constructor (each generated class types
    its keywords: ``Order(id="1", gift=True)``; a keyword left at ``None``
    leaves its field unset, as protobuf's constructors do), a ``repr``
    showing the fields that are set, and ``==`` by value (same class, equal
    messages; unhashable, as mutable values are).

    Errors name the class and the field (``Order.gift: expected bool, got
    str 'yes'``) in both modes: in compatible mode a value protobuf refuses
    gets strict mode's message."""

    __slots__ = ()
    _named: ClassVar[bool] = True
    _fields: ClassVar[tuple[str, ...]] = ()  # the names a constructor takes (Field declarations)
    if TYPE_CHECKING:  # the constructor's keyword; at run time Wrapper's property
        strict: Field[bool, bool | None] = (  # pyright: ignore[reportIncompatibleMethodOverride]
            field(default=UNSET)
        )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "message" in kwargs:
            _CLASSES.setdefault(cls._binding.spec.full_name, cls)

    def __init__(self, *, strict: bool | None = None, **values: Any) -> None:
        """A new instance with the fields given set, each checked as its
        setter checks it (a keyword left out, or None, leaves its field
        unset); ``strict``: the instance's mode (None: the package's default)."""
        Wrapper.__init__(self, strict=strict)
        fields = self._fields
        for name, value in values.items():
            if name not in fields:
                hint = suggest(name, fields)
                raise TypeError(
                    f"{type(self).__qualname__}() got an unexpected keyword argument {name!r}{hint}"
                )
            if value is not None and value is not UNSET:
                setattr(self, name, value)

    def _construct(self, strict: bool | None, values: Mapping[str, Any]) -> None:
        """What a generated ``__init__`` does: ``values`` is its ``locals()``
        (the keywords, each assigned through its property unless None; the
        instance itself is its first parameter, whatever its name)."""
        Wrapper.__init__(self, strict=strict)
        for name, value in values.items():
            if value is not None and value is not self and name != "strict":
                setattr(self, name, value)

    def __repr__(self) -> str:
        binding = self._binding
        renamed = {field: name for name, field in binding.owner._renamed.items()}
        parts: list[str] = []
        for descriptor, value in list_fields(self._message):
            if descriptor.is_extension:
                continue
            field: str = descriptor.name
            name = renamed.get(field, field)
            shown = getattr(self, name) if hasattr(type(self), name) else value
            if (
                isinstance(shown, dict)
                and descriptor.message_type is not None
                and not is_repeated(descriptor)
            ):
                shown = _as_record(value, self._strict)  # a config's dict view: its class
            parts.append(f"{name}={shown!r}")
        return f"{type(self).__qualname__}({', '.join(parts)})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(self._message == other._message)

    __hash__ = None  # type: ignore[assignment]


def _view(owner: Record, name: str, spec: FieldSpec) -> Any:
    """A repeated or map field of a Record as its getter returns it: a live
    view of a message field's class, else a copy (taken under the lock)."""
    item = spec.map_value if spec.map_value is not None else spec
    cls: type[Record] | None = _CLASSES.get(item.message or "")
    if cls is not None:
        if spec.map_key is not None:
            return MessageMap[Any, Record](owner, name, cls)
        return MessageList[Record](owner, name, cls)
    with lock_of(owner):
        stored = getattr(getattr(owner, "_message"), spec.name)
        return dict(stored) if spec.map_key is not None else list(stored)


def _as_record(message: Message, strict: bool) -> Any:
    cls = _CLASSES.get(descriptor_of(message).full_name)
    return message if cls is None else wrap(cls, message, strict)


def wrap(cls: type[_R], message: Message, strict: bool) -> _R:
    """An instance of ``cls`` over ``message`` itself (live: changing one
    changes the other), as the items of the list and map views are."""
    instance: _R = cls.__new__(cls)
    binding: Any = getattr(cls, "_binding")  # (private to the classes: read by name)
    object.__setattr__(instance, binding.attribute, message)
    object.__setattr__(instance, "_strict", strict)
    return instance


def _message_of(owner: Wrapper, field: FieldSpec, value: Any, where: str) -> Message:
    """``value`` (an instance of a generated class, a message of the type or
    a dict of its keys) as a new message, checked as a setter checks it."""
    binding: Any = getattr(value.__class__, "_binding", None)
    if binding is not None:
        value = getattr(value, binding.attribute)
    return build_message(value, SPECS[field.message], where, owner.strict)  # type: ignore[index]


class MessageList(MutableSequence[_R]):
    """A repeated message field, live: its items are instances of the
    generated class over the stored messages; ``append``, ``insert``,
    ``extend`` and item assignment take instances, messages or dicts of their
    keys, each checked as the field's setter checks it (all of ``extend``'s
    before any is added). Equal to a list of equal items."""

    __slots__ = ("_owner", "_field", "_cls", "_where")

    def __init__(self, owner: Wrapper, name: str, cls: type[_R]) -> None:
        binding: Any = getattr(owner, "_binding")  # (private to the classes: read by name)
        self._owner = owner
        self._field: FieldSpec = binding.spec.fields[binding.owner._renamed.get(name, name)]
        self._cls = cls
        self._where = f"{type(owner).__qualname__}.{name}"

    def _items(self) -> Any:
        return getattr(getattr(self._owner, "_message"), self._field.name)

    def __len__(self) -> int:
        return len(self._items())

    @overload
    def __getitem__(self, index: int) -> _R: ...

    @overload
    def __getitem__(self, index: slice) -> list[_R]: ...

    def __getitem__(self, index: int | slice) -> _R | list[_R]:
        items, strict = self._items(), self._owner.strict
        if isinstance(index, slice):
            return [wrap(self._cls, m, strict) for m in items[index]]
        return wrap(self._cls, items[index], strict)

    @overload
    def __setitem__(self, index: int, value: _R | Mapping[str, Any] | Message) -> None: ...

    @overload
    def __setitem__(
        self, index: slice, value: Iterable[_R | Mapping[str, Any] | Message]
    ) -> None: ...

    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            raise TypeError(f"{self._where}: assign the whole list instead of a slice")
        message = _message_of(self._owner, self._field, value, f"{self._where}[{index}]")
        with lock_of(self._owner):
            copy_from(self._items()[index], message)

    def __delitem__(self, index: int | slice) -> None:
        with lock_of(self._owner):
            del self._items()[index]

    def insert(self, index: int, value: _R | Mapping[str, Any] | Message) -> None:
        message = _message_of(self._owner, self._field, value, f"{self._where}[{index}]")
        with lock_of(self._owner):
            self._items().insert(index, message)

    def append(self, value: _R | Mapping[str, Any] | Message) -> None:
        message = _message_of(self._owner, self._field, value, f"{self._where}[{len(self)}]")
        with lock_of(self._owner):
            self._items().append(message)

    def extend(self, values: Iterable[_R | Mapping[str, Any] | Message]) -> None:
        kind: type = type(values)
        if issubclass(kind, (str, bytes, Mapping)):
            raise TypeError(f"{self._where}: expected a list, got {kind.__name__}")
        start = len(self)
        messages = [
            _message_of(self._owner, self._field, value, f"{self._where}[{start + i}]")
            for i, value in enumerate(values)
        ]
        with lock_of(self._owner):
            self._items().extend(messages)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (MessageList, list, tuple)):
            return list(self) == list(cast("Iterable[object]", other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class MessageMap(MutableMapping[_K, _R]):
    """A map field of messages, live: its values are instances of the
    generated class over the stored messages; item assignment takes an
    instance, a message or a dict of its keys, key and value checked as the
    field's setter checks them."""

    __slots__ = ("_owner", "_field", "_cls", "_where")

    def __init__(self, owner: Wrapper, name: str, cls: type[_R]) -> None:
        binding: Any = getattr(owner, "_binding")  # (private to the classes: read by name)
        self._owner = owner
        self._field: FieldSpec = binding.spec.fields[binding.owner._renamed.get(name, name)]
        self._cls = cls
        self._where = f"{type(owner).__qualname__}.{name}"

    def _items(self) -> Any:
        return getattr(getattr(self._owner, "_message"), self._field.name)

    def __getitem__(self, key: _K) -> _R:
        items = self._items()
        if key not in items:  # (indexing would add it)
            raise KeyError(key)
        return wrap(self._cls, items[key], self._owner.strict)

    def __setitem__(self, key: _K, value: _R | Mapping[str, Any] | Message) -> None:
        where = f"{self._where}[{key!r}]"
        key_spec = self._field.map_key
        assert key_spec is not None and self._field.map_value is not None  # a map field
        checked = strict_value(key_spec, key, where)
        message = _message_of(self._owner, self._field.map_value, value, where)
        with lock_of(self._owner):
            copy_from(self._items()[checked], message)

    def __delitem__(self, key: _K) -> None:
        with lock_of(self._owner):
            del self._items()[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(list(self._items()))

    def __len__(self) -> int:
        return len(self._items())

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._items()
        except TypeError:  # a key of another type
            return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(cast("Mapping[object, object]", other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class ProtoEnum(enum.IntEnum):
    """Base of the generated enum classes: an ``IntEnum`` (each member is
    its number, so it compares and stores as one). A number the schema does
    not declare, read from data written with a newer schema (proto3 and
    open enums keep it), is a member of its own named by its number."""

    @classmethod
    def _missing_(cls, value: object) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        member = int.__new__(cls, value)
        member._name_ = str(value)
        member._value_ = value
        return cls._value2member_map_.setdefault(value, member)
