"""Write a synthetic proto2 schema of a chosen size, for the scaling benchmark.

    python tests/benchmarks/make_schema.py --messages 450 --out /tmp/synth_450.proto
    python tests/benchmarks/make_schema.py --shape chain --messages 4500 --out /tmp/chain_4500.proto
    python tests/benchmarks/make_schema.py --shape wide --fields 8000 --out /tmp/wide_8000.proto

Every schema is deterministic (same size, same bytes) and always compiles
(``--check`` runs protoc). Shapes:

* ``mixed`` (the default) is shaped like ``proto/distributed_strategy.proto``:
  about 7 fields per message, a mix of every scalar type, declared defaults on
  most optional fields, repeated scalars, references to other messages (single
  and repeated), enums (top-level and nested) and nested message types.
  ``--messages`` counts every message, nested ones included.
* ``chain``: ``--messages`` messages of the same ~7 fields where each holds the
  next (``optional Msg00001 next``): one root class, and a config key nested as
  deep as the schema is long (the worst case for anything stored per access path).
* ``wide``: one message of ``--fields`` small scalar fields (bool, int32,
  float; the worst case for a lookup by name that scans a message's fields).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# (proto type, a declared default for it); cycled through by field position.
SCALARS: tuple[tuple[str, str], ...] = (
    ("int32", "-1"),
    ("bool", "true"),
    ("string", '"segment_broadcast_MB"'),
    ("float", "0.25"),
    ("int64", "1000"),
    ("double", "1e-08"),
    ("uint32", "16"),
    ("bool", "false"),
    ("uint64", "18446744073709551615"),
    ("sint32", "-7"),
    ("fixed32", "3"),
    ("sfixed64", "-9"),
    ("bytes", '"\\001\\002"'),
    ("sint64", "42"),
    ("fixed64", "5"),
    ("sfixed32", "-3"),
)
# The wide shape's types: small ones, so 20,000 fields stay under upb's limit of
# 65,535 bytes for one message's storage.
WIDE_SCALARS: tuple[tuple[str, str], ...] = (("bool", "true"), ("int32", "-1"), ("bool", "false"), ("float", "0.25"))
NESTED_EVERY = 5  # every 5th top-level message declares a nested message
ENUM_EVERY = 10  # one top-level enum per 10 messages (at least one)


def _layout(total: int) -> list[bool]:
    """Per top-level message: does it declare a nested message? Sums to ``total``."""
    has_nested: list[bool] = []
    count = 0
    while count < total:
        nested = len(has_nested) % NESTED_EVERY == NESTED_EVERY - 1 and count + 2 <= total
        has_nested.append(nested)
        count += 2 if nested else 1
    return has_nested


def _enum(name: str, prefix: str, indent: str) -> list[str]:
    values = ["UNSPECIFIED", "ALPHA", "BETA", "GAMMA"]
    lines = [f"{indent}enum {name} {{"]
    lines += [f"{indent}  {prefix}_{v} = {i};" for i, v in enumerate(values)]
    lines.append(f"{indent}}}")
    return lines


def _scalar_fields(index: int, start: int, count: int, indent: str, prefix: str = "") -> list[str]:
    lines = []
    for k in range(count):
        kind, default = SCALARS[(index + k) % len(SCALARS)]
        number = start + k
        lines.append(f"{indent}// Synthetic field {number} ({kind}).")
        if k % 4 == 3:  # one in four is repeated (no default allowed)
            lines.append(f"{indent}repeated {kind} {prefix}values_{number} = {number};")
        elif k % 5 == 4:  # some optional fields keep the implicit default
            lines.append(f"{indent}optional {kind} {prefix}plain_{number} = {number};")
        else:
            lines.append(f"{indent}optional {kind} {prefix}{kind}_opt_{number} = {number} [default = {default}];")
    return lines


# Words of long real-world names (cloud API style), combined per message by --long-names.
WORDS = (
    "Cluster", "Autoscaling", "Resource", "Limit", "Policy", "Network", "Endpoint", "Configuration",
    "Replication", "Instance", "Maintenance", "Window", "Encryption", "Key", "Reference", "Deployment",
)


def _long_name(i: int) -> str:
    """A CamelCase name of four words (30-50 characters), unique by its number."""
    words = [WORDS[(i * 7 + k * 5 + i // 16) % len(WORDS)] for k in range(4)]
    return "".join(words) + f"{i:04d}"


def make_schema(total: int, package: str = "bench.synth", long_names: bool = False) -> str:
    """The text of a proto2 file holding ``total`` messages (nested included);
    ``long_names``: messages, enums and the package named as long as in large
    real-world API sets (40-odd characters), fields too."""
    if total < 1:
        raise ValueError("--messages must be at least 1")
    layout = _layout(total)
    names = [_long_name(i) if long_names else f"Msg{i:05d}" for i in range(len(layout))]
    enums = [f"{_long_name(i + 5000)}Kind" if long_names else f"Kind{i:04d}" for i in range(max(1, len(layout) // ENUM_EVERY))]
    prefix = "maximum_replication_window_" if long_names else ""
    if long_names:
        package = "example.cloud.infrastructure.management.v1beta1"
    out = [
        "// Synthetic schema written by tests/benchmarks/make_schema.py; do not edit.",
        f"// {total} messages, {len(enums)} top-level enums.",
        'syntax = "proto2";',
        "",
        f"package {package};",
        "",
    ]
    for e, name in enumerate(enums):
        out += _enum(name, f"K{e:04d}", "")
        out.append("")
    for i, (name, nested) in enumerate(zip(names, layout)):
        out.append(f"// {name}: synthetic message number {i}.")
        out.append(f"message {name} {{")
        if i % 3 == 0:
            out += _enum("Level", f"{name.upper()}_LEVEL", "  ")
        if nested:
            out.append("  message Detail {")
            out += _scalar_fields(i + 1, 1, 3, "    ", prefix)
            out.append("    // The kind of this detail.")
            out.append(f"    optional {enums[i % len(enums)]} kind = 4 [default = K{i % len(enums):04d}_BETA];")
            out.append("  }")
        # ~7 fields: 5 scalars (+1 with nested detail), an enum, message refs.
        out += _scalar_fields(i, 1, 5, "  ", prefix)
        enum = enums[i % len(enums)]
        out.append(f"  // The kind of {name}.")
        out.append(f"  optional {enum} kind = 6 [default = K{i % len(enums):04d}_ALPHA];")
        if i > 0:
            out.append("  // A reference to an earlier message.")
            out.append(f"  optional {names[i // 2]} parent = 7;")
        if i > 1:
            out.append("  // Repeated references to the previous message.")
            out.append(f"  repeated {names[i - 1]} siblings = 8;")
        if nested:
            out.append("  // The nested detail message.")
            out.append("  optional Detail detail = 9;")
        if i % 3 == 0:
            out.append("  // The nested enum.")
            out.append(f"  optional Level level = 10 [default = {name.upper()}_LEVEL_GAMMA];")
        out.append("}")
        out.append("")
    return "\n".join(out)


def make_chain(total: int, package: str = "bench.chain") -> str:
    """``total`` messages, each holding the next: Msg00000.next.next...; ~7 fields each."""
    if total < 1:
        raise ValueError("--messages must be at least 1")
    out = [
        "// Synthetic schema written by tests/benchmarks/make_schema.py (chain); do not edit.",
        f"// {total} messages, each holding the next.",
        'syntax = "proto2";',
        "",
        f"package {package};",
        "",
    ]
    for i in range(total):
        out.append(f"// Msg{i:05d}: link number {i} of the chain.")
        out.append(f"message Msg{i:05d} {{")
        out += _scalar_fields(i, 1, 6, "  ")
        if i + 1 < total:
            out.append("  // The next link.")
            out.append(f"  optional Msg{i + 1:05d} next = 7;")
        out.append("}")
        out.append("")
    return "\n".join(out)


def _wide_fields(count: int) -> list[str]:
    """Small scalars, most with a declared default, one in 16 repeated (a
    repeated field takes a pointer's 8 bytes)."""
    lines = []
    for k in range(count):
        kind, default = WIDE_SCALARS[k % len(WIDE_SCALARS)]
        number = k + 1 if k + 1 < 19000 else k + 1001  # 19000-19999 are reserved for protobuf itself
        lines.append(f"  // Synthetic field {number} ({kind}).")
        if k % 16 == 15:
            lines.append(f"  repeated {kind} values_{number} = {number};")
        elif k % 5 == 4:
            lines.append(f"  optional {kind} plain_{number} = {number};")
        else:
            lines.append(f"  optional {kind} {kind}_opt_{number} = {number} [default = {default}];")
    return lines


def make_wide(fields: int, package: str = "bench.wide") -> str:
    """One message of ``fields`` scalar fields."""
    if fields < 1:
        raise ValueError("--fields must be at least 1")
    out = [
        "// Synthetic schema written by tests/benchmarks/make_schema.py (wide); do not edit.",
        f"// One message of {fields} fields.",
        'syntax = "proto2";',
        "",
        f"package {package};",
        "",
        "// One message holding every field.",
        "message Wide {",
        *_wide_fields(fields),
        "}",
        "",
    ]
    return "\n".join(out)


SHAPES = ("mixed", "chain", "wide")


def count_messages(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.lstrip().startswith("message "))


def count_fields(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.lstrip().startswith(("optional ", "repeated ")))


def _check(path: Path) -> None:
    import tempfile

    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as tmp:
        code = protoc.main(["protoc", f"-I{path.parent}", f"--descriptor_set_out={tmp}/set.bin", path.name])
    if code != 0:
        raise SystemExit(f"protoc rejected {path} (exit {code})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", choices=SHAPES, default="mixed", help="see the module's docstring (default: mixed)")
    parser.add_argument("--messages", type=int, help="number of messages, nested included (mixed, chain)")
    parser.add_argument("--fields", type=int, help="number of fields of the one message (wide)")
    parser.add_argument("--out", type=Path, required=True, help="the .proto file to write")
    parser.add_argument("--long-names", action="store_true", help="mixed: names as long as large real-world sets")
    parser.add_argument("--check", action="store_true", help="compile the result with protoc")
    args = parser.parse_args(argv)
    size, flag = (args.fields, "--fields") if args.shape == "wide" else (args.messages, "--messages")
    if size is None:
        parser.error(f"--shape {args.shape} needs {flag}")
    if args.long_names and args.shape != "mixed":
        parser.error("--long-names is for --shape mixed")
    text = make_schema(size, long_names=args.long_names) if args.shape == "mixed" else {"chain": make_chain, "wide": make_wide}[args.shape](size)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    if args.check:
        _check(args.out)
    print(f"wrote {args.out}: {count_messages(text)} messages, {count_fields(text)} fields")
    return 0


if __name__ == "__main__":
    sys.exit(main())
