"""Someone one has in a role, told by a verb of having: "Mateo now has Señorita Paula as his maths
tutor", "Ana has Dr. Obi as her GP now", or with the role first and the name beside it: "Ana's got
a childminder, Bukola, doing the pickups", "Finally found a dentist that takes my insurance — Dr.
Kaczmarek". The role's noun is the slot (an open-ended kind, as in ``role_named``: a new tutor
supersedes the last), the one named its value, the one who has them its holder (the speaker when
the sentence opens with the verb). A former one ("as her old tutor") and one named in a sentence of
mood are none.
"""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS, TITLES
from memforest.text.mood import mood_near
from memforest.text.role_named import LISTED_ROLES, ROLES, role_slot
from memforest.text.state_words import HOLDER

__all__ = ["find_held_as"]

_NAME = rf"[{CAPITALS}][\w'-]*"
# a holder is someone: no pronoun or quantifier ("Nobody has Tom as their coach", "She has ...":
# whose it is goes unsaid here)
_SOMEONE = r"(?!(?:Nobody|Everyone|Everybody|Someone|Somebody|Anyone|Anybody|No|None|She|He|They|It|We|You)\b)"
# (a run of spaces is entered at its start only and read whole: linear on long runs)
_HELD_AS = re.compile(
    _SOMEONE + HOLDER + r"\s++(?:(?:now|also|finally|just|still)\s++)?(?:has\s++got|have\s++got|has|have|got)\s++"
    rf"(?P<val>(?:{TITLES}\.?\s++)?{_NAME}(?:\s++{_NAME}){{0,2}})\s++as\s++"
    rf"(?:his|her|their|{_NAME}'s)\s++(?:(?i:new|current|regular|usual)\s++)?"
    rf"(?!(?i:old|former|previous|ex)\b)(?P<role>(?i:{ROLES}))(?![\w'-])"
)


# ... the role first, with an article, and the name beside it: after a comma or a dash, or "called";
# a short relative clause may come between ("a dentist that takes NFZ — Dr. K"); a role named by a
# noun of its own only ("found a buyer — Tom —" is a one-off)
_GOT_A = re.compile(
    rf"(?:^(?:(?i:just|recently|finally|also|so)\s++)?|{_SOMEONE}{HOLDER}\s++(?:(?:now|also|finally|just)\s++)?)"
    r"(?:has\s++got|have\s++got|has|have|got|found|hired)\s++(?:a|an)\s++(?:(?i:new|great|good|lovely)\s++)?"
    rf"(?P<role>(?i:{LISTED_ROLES}))(?:\s++(?:that|who)\s++[^,.;!?\u2013\u2014]{{1,40}}?)?"
    rf"(?:,\s++|\s++(?:called|named)\s++|\s++[-\u2013\u2014]\s++)(?P<val>(?:{TITLES}\.?\s++)?{_NAME}(?:\s++{_NAME})?)(?![\w'-])"
)


def find_held_as(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(holder, slot, person) where a person-rewritten sentence says someone has a person in a role
    (see the module doc); None otherwise."""
    m = _HELD_AS.search(text) or _GOT_A.search(text)
    if m is None or mood_near(text[: m.end()], m.start("val")) is not None:
        return None
    return m["subj"] or speaker, role_slot(m["role"]), m["val"]
