"""Where users meet each field of an API surface (``Class.prop['key']``):
worked out from a surface when a change is reported rather than stored per
field (a field nested n messages deep has a path of length n, so storing
them made the record grow with the square of a chain of nested messages)."""

from __future__ import annotations

import heapq

from .surface import Surface


class _Route:
    """A way to reach a message: its parent's route and one more segment
    (``Class.prop`` at the top, then ``['key']`` or ``.attr``). Routes share
    their parents, so the routes of every message take linear space; the text
    is joined only for a path that is reported (or to order two routes of the
    same length that do not hang off parents of one length)."""

    __slots__ = ("parent", "segment", "length", "rank")

    def __init__(self, parent: _Route | None, segment: str) -> None:
        self.parent, self.segment = parent, segment
        self.length: int = len(segment) + (parent.length if parent else 0)
        self.rank = -1  # the order its message was reached in (set when walked)

    def text(self) -> str:
        parts: list[str] = []
        route: _Route | None = self
        while route is not None:
            parts.append(route.segment)
            route = route.parent
        return "".join(reversed(parts))

    def __lt__(self, other: _Route) -> bool:
        """Shorter first, then in text order, as the paths' (length, text)."""
        if self.length != other.length:
            return self.length < other.length
        a, b = self.parent, other.parent
        if a is not None and b is not None and a.length == b.length:
            # both parents were walked, in (length, text) order, so rank is text order
            return (a.rank, self.segment) < (b.rank, other.segment)
        return self.text() < other.text()


class FieldPaths:
    """(message, field) -> the shortest way users reach it in one API surface:
    ``Class.prop``, ``Class.prop['key']``, ``Class.prop['key']['nested']``,
    ``Class.prop.attr``; among paths of one length, the first in text order.

    Messages are walked from every property outward, shortest route first
    (each message once, at its shortest route), on the first path asked for:
    the work is linear in the surface however deep messages nest or however
    often one is reused."""

    def __init__(self, surface: Surface) -> None:
        self.surface = surface
        # the property paths of the classes' fields
        self._roots: dict[tuple[str, str], str] | None = None
        self._walked: dict[str, tuple[_Route, bool]] = (
            {}
        )  # message -> (route, dict view)

    def __call__(self, message: str, field: str) -> str | None:
        if self._roots is None:
            self._roots = self._walk()
        best = self._roots.get((message, field))
        walked = self._walked.get(message)
        if walked is not None:
            route, dict_view = walked
            segment = f"[{field!r}]" if dict_view else f".{field}"
            # else the property's is shorter
            if best is None or route.length + len(segment) <= len(best):
                path = route.text() + segment
                if best is None or (len(path), path) < (len(best), best):
                    best = path
        return best

    def _walk(self) -> dict[tuple[str, str], str]:
        messages = self.surface.messages
        roots: dict[tuple[str, str], str] = {}
        # (route, message, dict view), shortest route first
        frontier: list[tuple[_Route, str, bool]] = []
        for cls_name, cls in self.surface.classes.items():
            record = messages.get(cls.message)
            fields = record.fields if record is not None else {}
            for prop_name, prop in cls.properties.items():
                field = prop.field
                if field is None or field not in fields:
                    continue
                path, key = f"{cls_name}.{prop_name}", (cls.message, field)
                if key not in roots or (len(path), path) < (
                    len(roots[key]),
                    roots[key],
                ):
                    roots[key] = path
                target = fields[field].message_type
                if prop.kind in ("config", "message") and target:
                    heapq.heappush(
                        frontier, (_Route(None, path), target, prop.kind == "config")
                    )
        while frontier:
            route, name, dict_view = heapq.heappop(frontier)
            if name in self._walked or name not in messages:
                continue  # walked already, or an imported (well-known) type: not this API's
            route.rank = len(self._walked)
            self._walked[name] = (route, dict_view)
            for field, fact in messages[name].fields.items():
                target = fact.message_type
                if target and target not in self._walked:
                    segment = f"[{field!r}]" if dict_view else f".{field}"
                    heapq.heappush(
                        frontier, (_Route(route, segment), target, dict_view)
                    )
        return roots
