"""A person's other names in a forest: the relation or name a statement joins to theirs ("Ana's
sister Mia"), else the one of the other form whose states continue theirs (``partners``)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence

from memforest.retrieval.temporal.partners import partner_values, value_partner
from memforest.store import temporal as store
from memforest.store.sql import Conn
from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN

__all__ = ["ALIAS_TEXTS", "aliases"]

ALIAS_TEXTS = 200  # facts naming a person read for their other names
PARTNER_ROWS = 64  # the states naming a person's values read for a person they may be (``partners``)
_NAME = rf"[{CAPITALS}][\w-]*"
_FULL_NAME = rf"(?-i:{_NAME}(?:\s+{_NAME}){{0,2}})"  # ("Ana's sister Mia Rossi": Mia Rossi, or Mia)


async def aliases(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    person: str,
    texts: Sequence[str] | None = None,
    *,
    partnered: bool = False,
) -> list[str]:
    """``person`` and the other names the forest's facts give them: "Ana's sister" and "Mia" when a
    fact says "Ana's sister Mia" (read from at most :data:`ALIAS_TEXTS` facts naming ``person``;
    ``texts``: those facts' texts read already); when none does and ``partnered`` (the person is
    not the asker), the one of the other form whose states continue theirs (``partners``)."""
    if texts is None:
        texts = await store.texts_naming(conn, tenant_id, forest_id, person, ALIAS_TEXTS)
    out = [person]
    if "'s " in person:
        owner, kin = person.split("'s ", 1)
        named = re.compile(rf"(?<![\w']){re.escape(owner)}'s\s+{re.escape(kin)}\s+({_FULL_NAME})", re.IGNORECASE)
        out += [n for t in texts for m in named.finditer(t) for n in (m.group(1), m.group(1).split()[0])]
    else:
        related = re.compile(rf"(?<![\w'])({_NAME})'s\s+({KIN})\s+{re.escape(person)}(?![\w-])", re.IGNORECASE)
        out += [f"{m.group(1)}'s {m.group(2).lower()}" for t in texts for m in related.finditer(t)]
    if len(set(out)) == 1 and partnered:
        rows = await store.states_naming(conn, tenant_id, forest_id, partner_values(person, texts), PARTNER_ROWS)
        other = value_partner(person, rows)
        out += [other] if other is not None else []
    return list(dict.fromkeys(out))
