"""Named SQL statements of the store, read whole from ``<aggregate>.sql`` files beside this module
(ADR 0037).

A file holds blocks, each a statement under a ``-- name: <name> --`` line and a one-line ``--``
description, which more ``--`` lines (notes on the statement's shape) may follow, then its text,
ended by ``;`` (left out of the text); text before the first block is the file's own comment. A
statement is sent to PostgreSQL as written, except for the few integer placeholders of
:data:`PLACEHOLDERS` that :func:`fill` writes in (values a bind parameter cannot carry: a type
modifier, a literal that a partial index's predicate must match under a generic plan, a ``SET``
value). A module takes its statements by name once, at import (:meth:`Statements.__getitem__`),
so a name that no file defines fails the import with ``KeyError``; :meth:`Statements.unused`
lists the names that no module took.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

# ``{dim}``: the vectors' dimension (``halfvec(dim)``, the key of a forest's node graphs);
# ``{f}``: the forest's id as a literal (an indexed forest's vector channels: their generic plan
# must prove the forest's partial indexes apply), or the ``:f`` parameter when none is given;
# ``{ef_search}``: the HNSW candidate list of ``SET LOCAL``
PLACEHOLDERS = ("dim", "f", "ef_search")
_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
_HEADER = re.compile(r"^-- name: ([a-z][a-z0-9_]*) --$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Statement:
    """One named statement: its name, its one-line description and its text."""

    name: str
    description: str
    text: str


def parse(source: str, origin: str) -> dict[str, Statement]:
    """The statements of an ``.sql`` file's text, by name; ValueError for a block without its
    description or text, or a name used twice (``origin`` names the file in the message)."""
    parts = _HEADER.split(source)
    out: dict[str, Statement] = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        lines = body.strip("\n").split("\n")
        first = next((i for i, line in enumerate(lines) if not line.startswith("--")), len(lines))
        text = "\n".join(lines[first:]).strip().removesuffix(";").rstrip()
        if not lines[0].startswith("-- ") or not text:
            raise ValueError(f"{origin}: statement {name!r} needs a '-- ' description line, then its text")
        if name in out:
            raise ValueError(f"{origin}: statement {name!r} is defined twice")
        out[name] = Statement(name, lines[0][3:].strip(), text)
    return out


class Statements(Mapping[str, str]):
    """The statements of one ``<aggregate>.sql`` file: their text by name."""

    def __init__(self, aggregate: str, statements: Mapping[str, Statement]) -> None:
        self.aggregate = aggregate
        self.statements = dict(statements)
        self._taken: set[str] = set()

    def __getitem__(self, name: str) -> str:
        try:
            statement = self.statements[name]
        except KeyError:
            raise KeyError(f"no statement named {name!r} in memforest/store/queries/{self.aggregate}.sql") from None
        self._taken.add(name)
        return statement.text

    def __iter__(self) -> Iterator[str]:
        return iter(self.statements)

    def __len__(self) -> int:
        return len(self.statements)

    def unused(self) -> set[str]:
        """The names of the file that no module has taken."""
        return set(self.statements) - self._taken


@cache
def load(aggregate: str) -> Statements:
    """The statements of ``memforest/store/queries/<aggregate>.sql``, read and parsed once."""
    source = files(__name__).joinpath(f"{aggregate}.sql").read_text(encoding="utf-8")
    return Statements(aggregate, parse(source, f"{aggregate}.sql"))


def placeholders(sql: str) -> set[str]:
    """The placeholders written in ``sql``."""
    return set(_PLACEHOLDER.findall(sql))


def fill(sql: str, *, dim: int | None = None, f: int | None = None, ef_search: int | None = None) -> str:
    """``sql`` with its placeholders written in as integers; ``{f}`` without a value is the ``:f``
    parameter. ValueError for a placeholder ``{dim}`` or ``{ef_search}`` without a value."""
    values = {"dim": dim, "f": f, "ef_search": ef_search}

    def written(m: re.Match[str]) -> str:
        value = values[m.group(1)]
        if value is None:
            if m.group(1) == "f":
                return ":f"
            raise ValueError(f"the statement needs a value for {{{m.group(1)}}}")
        return str(int(value))

    return _PLACEHOLDER.sub(written, sql)
