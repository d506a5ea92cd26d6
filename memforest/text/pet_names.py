"""The name of a pet a sentence introduces (``pet_value``): after "named", "called" or "name is",
brought home, met, introduced or pointed at, in apposition to an animal word, or walked and fed; the
names of several told by number ("two kittens, Pip and Mabel"); with no name told, the animal got
or one's new one ("got a rescue cat", "Ana's new puppy chewed the sofa")."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import ANIMALS, INTRODUCING, POINTING

__all__ = ["deed_owner", "pet_value"]

_ANIMALS = r"(?i:" + ANIMALS + r")"
_NAME = rf"(?P<v>[{CAPITALS}][a-z][\w'-]*(?:\s+[{CAPITALS}][a-z][\w'-]*)?)"
_OWNER = r"(?:\w+'s|our|my|the|a|an|this|that)"
_PET_RES = (
    re.compile(
        r"\b(?:named|called|name\s+is|name's|goes\s+by|answers\s+to|(?:we|I)\s+call(?:ed)?|the\s+name|"
        r"call(?:s|ed)?(?=\s+(?:him|her|it|them)\b))\s+"
        r"(?:(?:him|her|it|them)\s+)?" + _NAME
    ),
    re.compile(r"\b(?i:brought|bring|bringing|take|took|taking|carried|drove)\s+" + _NAME + r"\s+home\b"),
    # an opening of introducing names the one it introduces: "Meet X", "This is X", "Say hi to X"
    re.compile(r"^(?i:" + INTRODUCING + r")\s+" + _NAME),
    # an opening of looking or pointing ("Look at X", "Here is X") shows anything: it names a pet only
    # when an animal stands in apposition to the name; its holder is the possessor there ("my", "Y's")
    # or the subject of a relative clause after it ("the <animal> Y bought")
    re.compile(
        r"^(?i:"
        + POINTING
        + r")\s+"
        + _NAME
        + rf",\s+(?:(?i:the|my|our)|[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*)?(?:'s\s+[a-z]+)*'s)"
        + r"\s+(?:[\w-]+\s+){0,2}?(?:"
        + _ANIMALS
        + r")\b"
    ),
    re.compile(
        r"^"
        + _NAME
        + r"\s+(?:is|has\s+been)\s+(?:\w+'s|our|my|the|an?)\s+(?:new\s+)?(?:[\w-]+\s+){0,2}?(?:"
        + _ANIMALS
        + r")\b"
    ),
    re.compile(
        r"^" + _NAME + r"(?:,\s+" + _OWNER + r"|\s+(?:\w+'s|our|my|the))\s+(?:[\w-]+\s+){0,2}?(?:" + _ANIMALS + r")\b"
    ),
    re.compile(r"^" + _NAME + r"\s+(?:came|comes|arrived|moved\s+in)\s+(?:home|with|to\s+live)\b"),
    re.compile(
        r"\b(?i:adopted|adopting|rescued|brought\s+home|welcomed|fostering|fostered|got|picked\s+up|collected)\s+"
        + _NAME
        + r"\b"
    ),
    re.compile(r"\b(?:family|household|home|pack|crew),\s+" + _NAME + r"\b"),
    re.compile(r"\b(?:" + _ANIMALS + r")s?,?\s+" + _NAME),
    re.compile(
        r"\b(?i:walked|walking|walk|fed|feeding|groomed|brushed|bathed|cuddled|cuddling|trained|training)\s+"
        + _NAME
        + r"\b(?!\s+(?:home|to|back|over|across|through|down|up|out|into|in)\b)"
    ),
    # a named being taken to or fetched from an animal's carer: "took Juniper to the vet"
    re.compile(
        r"\b(?i:take|takes|took|taking|taken|bring|brought|drove|drive|dropped|drop|picked|collected)\s+"
        + _NAME
        + r"\s+(?:(?:off|up)\s+)?(?:to|for|at|from)\s+(?:the|a|an|\w+'s|his|her|its|their)\s+(?:[\w-]+\s+)?"
        r"(?:vet|vets|groomer|groomers|kennels?)\b"
    ),
    # a name doing what only an animal does, opening its sentence: "X chewed up my slippers again",
    # "X barked at the postman", "X destroyed a rope toy and went for my slippers" (issue 48's
    # indirect statements: the first mention of a pet the speaker evidently has)
    re.compile(
        r"^(?:(?i:and|so|also|ugh|oh|well|honestly|lol)\W+)?"
        + _NAME
        + r"\s+(?:(?i:has|had|just|finally|keeps|kept|again|always|now|also|literally)\s+)*"
        r"(?i:barked|barks|barking|meowed|meows|purred|purrs|wagged|wags|howled|howls|growled|growls|pooped|poops|"
        r"peed|pees|peeing|pooping|(?:chewed|chews|chewing)\s+(?:up|through)|"
        r"destroyed\s+(?:a|another|the|his|her|its)\s+(?:[\w-]+\s+)?toy|went\s+for\s+\w+'s\s+(?:slippers|shoes|socks))\b"
    ),
    # what one feeds or buys for a pet, for a name: "hay for Mochi", "a new litter tray for Biscuit"
    re.compile(
        r"\b(?i:hay|kibble|litter(?:\s+tray)?|treats|cat\s+food|dog\s+food|chew\s+toys?|bird\s*seed|pellets|catnip|"
        r"flea\s+treatment|worming\s+tablets|harness|collar|lead|leash)\s+for\s+" + _NAME + r"\b"
    ),
    # in apposition to a pet word, closing its clause: "got a rescue parrot now, Mr. Oduya."
    re.compile(
        r"\b(?i:"
        + ANIMALS
        + r"|kitten|puppy)(?:\s+now)?,\s+(?:(?:Mr|Mrs|Ms|Sir|Lady|Dr)\.?\s+)?"
        + _NAME
        + r"(?=\s*(?:[.,;!?)]|$))"
    ),
    # no name told: the animal got, or one's new one, is the pet ("got a rescue cat", "Ana's new
    # puppy chewed the sofa", a sentence opening with "The new puppy")
    re.compile(
        r"\b(?i:got|adopted|rescued|brought\s+home|welcomed)\s+(?i:an?)\s+(?:(?i:rescue|little|tiny|baby|new)\s+)?"
        r"(?P<v>(?i:" + ANIMALS + r"|kitten|puppy))(?=\s*(?:[.,;:!?)]|$)|\s+(?:and|but|from|at|to|for|in|on|last|this|"
        r"yesterday|today|who|that|which|so|because|when|with|recently|now)\b)"
    ),
    re.compile(
        r"(?:(?<![\w'])\w++'s|^(?i:the)|^(?i:our))\s+(?i:new)\s+(?P<v>(?i:" + ANIMALS + r"|kitten|puppy))(?![\w'-])"
    ),
)


# animals told by number before their names ("two kittens, Pip and Mabel"): the names are one value
_SEVERAL = re.compile(r"\b(?i:two|three|four|2|3|4|a\s+pair\s+of|both)\s+(?:[\w-]+\s+){0,2}?[a-z-]+s\b")
_AND_NAME = re.compile(rf"(?<!\s)\s++and\s++(?P<v>[{CAPITALS}][a-z][\w'-]*+)(?![\w'-])")


def pet_value(text: str, _m: re.Match[str]) -> str | None:
    """The name of the pet the sentence introduces; the names of several told by number ("Pip and
    Mabel": one chain holds a person's pets, so the pair is its value)."""
    for regex in _PET_RES:
        m = regex.search(text)
        if m:
            several = _SEVERAL.search(text, max(0, m.start("v") - 40), m.start("v"))
            more = _AND_NAME.match(text, m.end("v")) if several is not None else None
            return f"{m['v']} and {more['v']}" if more is not None else m["v"]
    return None


# the one whose things a pet's deed touched: "Tansy chewed through Bernd's laces" (Bernd's pet)
_DEED_OWNER = (
    r"\s+(?:(?i:has|had|keeps|kept|just|again|also)\s+)*(?i:chewed|chews|chewing|destroyed|went\s+for|peed\s+on|"
    rf"pooped\s+on|scratched)\s+(?:(?i:up|through|on|at)\s+)?(?P<owner>[{CAPITALS}][\w-]*)'s\b"
)


def deed_owner(text: str, pet: str) -> str | None:
    """Whose things the deed of ``pet`` the sentence tells touched ("Bernd" of "Tansy chewed through
    Bernd's laces"), None when it names no one's."""
    m = re.search(re.escape(pet) + _DEED_OWNER, text)
    return m["owner"] if m is not None else None
