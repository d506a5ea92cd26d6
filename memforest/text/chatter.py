"""Chatter: sentences a speaker says without stating anything (courtesy, reactions, requests).

Only what a speaker states becomes a fact. A reply such as "That sounds great!", "Let me know if
you need anything else", "I can imagine." or "Give her a scratch behind the ears from me." states
nothing about anyone; as facts they read as claims about the speaker ("Alice can imagine.") and,
being alike, near-duplicate merging folds dozens of them into one fact citing every turn.

Each test here is narrow on purpose: a sentence that also names something of the speaker's own
("Say hi to our new rescue, a tabby called Miso") or leaves a content word once its formula is
taken out ("I can imagine how hard the move to Davis was") is kept.
"""

from __future__ import annotations

import re

from memforest.text.cleaning import content_tokens, is_known_name
from memforest.text.lexicon import CAPITALS, words
from memforest.text.sentences import EMOJI_CLASS

__all__ = ["is_chatter", "split_asked_tail"]

# Set phrases of courtesy and reaction; a sentence made only of these (and filler) is chatter.
_FORMULA_RE = re.compile(
    r"\b(?:"
    r"feel\s+free\s+to\s+(?:reach\s+out|ask|contact\s+me|let\s+me\s+know)|reach\s+out|"
    r"if\s+you\s+(?:have|need)\s+any\s+(?:other\s+|more\s+|further\s+)?(?:questions?|help|advice)|"
    r"(?:i\s+)?hope\s+(?:this|that|it)\s+helps|"
    r"(?:good|best\s+of)\s+luck|fingers\s+crossed|way\s+to\s+go|no\s+(?:worries|problem|prob)|"
    r"long\s+time\s+no\s+(?:see|talk|chat|speak)|(?:so\s+)?sorry\s+to\s+hear(?:\s+about)?|"
    r"can(?:no|')?t\s+wait\s+to\s+(?:hear|see)(?:\s+more)?|of\s+course|certainly|great\s+question|"
    r"(?:i'd|i\s+would|i'm|i\s+am)\s+(?:be\s+)?(?:more\s+than\s+)?(?:happy|glad)\s+to\s+help|"
    r"(?:that|it|this)\s+makes\s+(?:total\s+|perfect\s+|complete\s+|a\s+lot\s+of\s+|so\s+much\s+)?sense|"
    r"means?\s+(?:so\s+much|a\s+lot|the\s+world)|kind\s+words|keep\s+(?:me|us)\s+posted|"
    r"keep\s+(?:it|that)\s+up|take\s+care|have\s+fun|(?:you\s+)?got\s+this|"
    r"(?:you\s+)?(?:totally\s+|really\s+|so\s+)?deserved?s?\s+(?:it|this|that|all\s+of\s+it|every\s+bit(?:\s+of\s+it)?)|"
    r"can\s+(?:totally\s+|only\s+|just\s+)?imagine|(?:you're|you\s+are)\s+welcome|"
    r"thanks?\s+(?:you\s+)?(?:so\s+much|a\s+(?:ton|bunch|lot|million))|see\s+(?:you|ya)(?:\s+(?:soon|later|then|there))?|"
    r"thanks?\s+(?:you\s+)?(?:so\s+much\s+)?for\s+(?:asking|askin'?|sharing|listening|everything|being\s+there|"
    r"(?:the|your|all\s+the)\s+(?:advice|tips?|help|support|encouragement|kind\s+words|suggestions?|recommendations?))"
    r")\b",
    re.IGNORECASE,
)
# Words that add nothing to a formula's remainder ("Poor Pepper." keeps "Pepper").
_REACTION_WORDS = words(
    """
    imagine imagined deserve deserves deserved understand understandable relate poor ha hah aww whoa
    woah woohoo yea yeah wish wishing perfect excellent fab fabulous brilliant lovely helps help
    hopefully sorry worries appreciate appreciated kind words posted oof ooh man huh ya encouragement
    kindness backing"""
)
# "That/This ... is/sounds/looks ...": the speaker judging what the other just said.
_REACTION_HEAD_RE = re.compile(
    r"^(?:(?:that|this)\s*(?:'s|is|sounds|looks|seems|must\s+be|must(?:'ve|\s+have)\s+been|feels)|what\s+an?|"
    r"it\s+(?:sounds|looks|seems)|sounds|looks|seems|it\s+has\s+been\s+(?:ages|a\s+while|forever|so\s+long|too\s+long))\b",
    re.IGNORECASE,
)
_REACTION_MAX_WORDS = 12
# An echo of the other's news: "I'm glad to hear that your new job is going well!"
_ECHO_HEAD_RE = re.compile(
    r"^(?:(?:i'm|i\s+am|we're|we\s+are)\s+)?(?:so\s+|really\s+|very\s+|truly\s+)?"
    r"(?:glad|happy|sorry|thrilled|excited|pleased|delighted|relieved|proud|stoked)\s+"
    r"(?:to\s+(?:hear|see)|for\s+you|that\s+you|you|of\s+you|about\s+your|about\s+that)\b|"
    r"^sorry\s+(?:about|that|for\s+your)\b|"
    r"^(?:congrats|congratulations|good\s+luck|best\s+of\s+luck)\s+(?:on|with|for)\b|"
    r"^(?:it\s+)?sounds\s+like\s+you\b",
    re.IGNORECASE,
)
# A request to the listener: "Give her a scratch from me.", "Keep me posted.", "Have a great day."
_IMPERATIVE_RE = re.compile(
    r"^(?:please\s+)?(?:give|eat|keep|let(?!'s)|tell|send|say|enjoy|take|feel|wish|wishing|stay|hang|hug|pet|"
    r"drop|push|tackle|rock|chase|believe|"
    r"have\s+(?:a\s+|an\s+)?(?:\w+\s+)?(?:day|time|trip|weekend|night|evening|one|fun|blast|flight|journey))\b",
    re.IGNORECASE,
)
# The speaker's own things: a sentence with these states something of the speaker's.
_OWN_RE = re.compile(r"\b(?:i|my|mine|we|our|ours|let's)\b", re.IGNORECASE)
_ENTITY_RE = re.compile(rf"(?<!^)(?<![.!?]\s)\b[{CAPITALS}][a-z]+")
_DIGIT_RE = re.compile(r"\d")


def _formula_only(sentence: str, names: dict[str, str]) -> bool:
    rest = _FORMULA_RE.sub(" ", sentence)
    if rest == sentence:
        return False
    return not [w for w in content_tokens(rest, names) if w not in _REACTION_WORDS]


def _reaction(sentence: str, names: dict[str, str]) -> bool:
    if not _REACTION_HEAD_RE.match(sentence) or len(sentence.split()) > _REACTION_MAX_WORDS:
        return False
    if _OWN_RE.search(sentence) or _DIGIT_RE.search(sentence):
        return False
    return all(is_known_name(m.group(0), names) for m in _ENTITY_RE.finditer(sentence))


def _echo(sentence: str) -> bool:
    m = _ECHO_HEAD_RE.match(sentence)
    return m is not None and not _OWN_RE.search(sentence, m.end())


def _request(sentence: str) -> bool:
    return bool(_IMPERATIVE_RE.match(sentence)) and not _OWN_RE.search(sentence)


def is_chatter(sentence: str, names: dict[str, str]) -> bool:
    """Whether a cleaned sentence states nothing: a courtesy formula, a reaction to the other's
    words, an echo of their news or a request to them. ``names`` maps speaker keys to names."""
    s = sentence.replace("’", "'").strip()
    return _formula_only(s, names) or _reaction(s, names) or _echo(s) or _request(s)


# a statement that runs on into a question or a request to the listener ("I work at X, can you
# help me ...?", "Now that I live in Y, what's the quickest way ...?", "..., so can you ...?"): where
# the asking begins; an emoji ends the statement whatever word follows it ("... the Cold Toes Club 🥶
# is a hot shower bad?", "... at 6am 🙃 cheap ways to soundproof a room?")
_ASKING_TAIL = re.compile(
    rf"(?:[,;:]|\s[-\u2013\u2014])\s+(?:(?i:so|and|but|then)\s+)?"
    r"(?=(?i:can|could|would|will|do|does|is|are|should|shall|what|what's|whats|how|"
    r"any|which|who|where|when|why|ideas|tips|thoughts|suggestions|advice|help|recommendations|got\s+any|please|pls|"
    r"(?:give|walk|tell|show|teach|suggest|recommend|list|write|draft|find|talk)\s+(?:me|us)|explain)\b)"
    rf"|(?<!\s)\s?[{EMOJI_CLASS}]++\s+(?=\w)"
)
# a sentence that itself opens as a question keeps its tail ("Where did I leave it, do you know?")
_ASKS_FIRST = re.compile(
    r"^\W*(?i:what|what's|where|when|why|who|which|how|do|does|did|is|are|was|were|can|could|should|would|"
    r"will|have|has|any)\b"
)


_SUPPOSED = re.compile(r"^\W*(?i:say|suppose|supposing|imagine|if|what\s+if|assuming|let's\s+say|hypothetically)\b")


def split_asked_tail(sentence: str) -> list[str]:
    """``sentence`` as its statement and the question it runs on into, when it states something of
    three words or more before asking ("I work at X as an engineer, can you help me explain it?":
    "I work at X as an engineer." and the question); else ``[sentence]``."""
    if not sentence.rstrip().endswith("?") or _ASKS_FIRST.match(sentence):
        return [sentence]
    for m in reversed([*_ASKING_TAIL.finditer(sentence)]):  # (the last: "X, our nanny, is ill — any tips?")
        stated = sentence[: m.start()].strip()
        if len(stated.split()) >= 3:
            # (a supposition keeps the question that makes it one: "Say I got a corgi, would ...?")
            return [sentence] if _SUPPOSED.match(stated) else [f"{stated}.", sentence[m.end() :].strip()]
    return [sentence]
