"""Strict reading of a YAML document: every error names the file and the field's dotted path.

A profile is hand-written data; a typo in a key or a value of the wrong type must stop the
run with one line that says where (``profile.yaml: memory.ports.rdata: ...``), not surface
later as a KeyError or a wrong wrapper. :class:`Node` wraps one mapping and hands out its
values by type, refusing unknown keys, so each section of the loader reads like the format.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")


class ProfileError(ValueError):
    """A profile that breaks a rule; the message is one line naming the file and the field."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice (PyYAML keeps the last one silently)."""


def _mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            raise ProfileError(f"line {key_node.start_mark.line + 1}: key {key!r} given twice")
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def read_yaml(path: Path) -> Any:
    """Parse a YAML file; an unreadable file, a syntax error or a duplicate key is a
    ProfileError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except IsADirectoryError:
        raise ProfileError(f"{path}: is a directory, expected a profile YAML file") from None
    except UnicodeDecodeError as exc:
        raise ProfileError(f"{path}: not UTF-8 text (byte offset {exc.start})") from None
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except ProfileError as exc:
        raise ProfileError(f"{path}: not a valid profile: {exc}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ProfileError(f"{path}: not valid YAML: {where}{exc.problem}") from None
    except yaml.YAMLError as exc:
        raise ProfileError(f"{path}: not valid YAML: {exc}") from None


def type_name(value: object) -> str:
    """How a YAML value's type reads in a message."""
    names = {bool: "a boolean", int: "an integer", str: "a string", list: "a list",
             dict: "a mapping", float: "a number with a fraction", type(None): "empty"}
    return names.get(type(value), type(value).__name__)


class Node:
    """One mapping of the document at a dotted ``field`` path, read key by key.

    Every value taken through :meth:`get` is checked for type; :meth:`done` then refuses any
    key that was not taken, so an unknown (misspelt) key is always an error.
    """

    def __init__(self, path: Path, field: str, value: object) -> None:
        self.path = path
        self.field = field
        if not isinstance(value, dict):
            raise self.error(f"must be a mapping, got {type_name(value)}")
        self.value: dict[Any, Any] = value
        self.taken: set[str] = set()

    def at(self, key: str | int) -> str:
        """The dotted path of a key (or list index) below this node."""
        if isinstance(key, int):
            return f"{self.field}[{key}]"
        return f"{self.field}.{key}" if self.field else key

    def error(self, message: str, key: str | int | None = None) -> ProfileError:
        field = self.field if key is None else self.at(key)
        return ProfileError(f"{self.path}: {field or '(top level)'}: {message}")

    def get(self, key: str, kind: type[T], default: T | None = None) -> T:
        """The value of ``key``, which must be of ``kind`` (bool is not an int); a missing
        key is an error unless a default is given."""
        self.taken.add(key)
        if key not in self.value:
            if default is None:
                raise self.error("required key missing", key)
            return default
        value = self.value[key]
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            raise self.error(f"must be {type_name(kind())}, got {type_name(value)}", key)
        return value

    def child(self, key: str, default: dict[Any, Any] | None = None) -> Node:
        """The mapping under ``key`` as a Node."""
        return Node(self.path, self.at(key), self.get(key, dict, default))

    def strings(self, key: str, default: list[str] | None = None) -> list[str]:
        """A list of strings under ``key``."""
        items = self.get(key, list, default)
        for n, item in enumerate(items):
            if not isinstance(item, str):
                raise ProfileError(f"{self.path}: {self.at(key)}[{n}]: must be a string, "
                                   f"got {type_name(item)}")
        return items

    def done(self) -> None:
        """Refuse the keys nobody asked for."""
        for key in self.value:
            if key not in self.taken:
                known = ", ".join(sorted(self.taken))
                raise self.error(f"unknown key (known: {known})", str(key))
