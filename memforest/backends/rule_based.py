"""The built-in rule-based extractor: deterministic heuristics, no model.

It splits turns into sentences, drops content-free ones (greetings, thanks, bare questions),
rewrites first/second person to speaker names, resolves relative dates against the turn time,
and tags entities, topics, a fact kind and, where a simple pattern matches, a supersession slot
(residence, employer, relationship status, favourites, age, pets). It is a fallback for
deployments without a model server and for tests; it is not equivalent to an LLM extractor.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from memforest.backends.base import UsageLedger
from memforest.backends.dates import MONTH_NAMES, WEEKDAY_NAMES, TimeMention, rewrite_relative
from memforest.domain import Candidate, CellTurn, CellView, FactKind

__all__ = ["RuleBasedExtractor", "extract_cell", "rewrite_persons", "split_sentences"]

MAX_PER_TURN = 6
_SHORT_WORDS = 5  # sentences shorter than this are merged with a neighbour of the same turn
_MAX_MERGED_WORDS = 40

# ------------------------------------------------------------------ vocabularies


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _wordset_ordered(words: str) -> list[str]:
    return words.split()


_STOPWORDS: frozenset[str] = _wordset(
    """
    a about above after again against all almost along already also although always am among an and
    another any anybody anyone anything anyway are aren't around as at away back be became because become
    been before being below best better between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't done down during each either else enough even ever every everyone everything
    few for from further get gets getting got gotta had hadn't has hasn't have haven't having he he'd he'll
    he's her here hers herself him himself his how however i i'd i'll i'm i've if in into is isn't it it's
    its itself just least less let let's like likely lot lots made make makes many may maybe me might mine
    more most much must my myself near need never new next no nor not nothing now of off often oh ok okay
    on once one only onto or other others our ours ourselves out over own per perhaps please pretty quite
    rather really right same see seem seemed seems shall she she'd she'll she's should shouldn't since so
    some somebody someone something sometimes somewhat soon still such sure than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've thing things this
    those though through thus till to too toward towards under until up upon us very via was wasn't way we
    we'd we'll we're we've well were weren't what what's whatever when where whether which while who who's
    whole whom whose why will with within without won't would wouldn't yet you you'd you'll you're you've
    your yours yourself yourselves yeah yes yep nope gonna wanna kinda sorta lol haha hahaha hey hi hello
    wow omg cool awesome great nice thanks thank thx ty dear mr mrs ms dr prof st the"""
)

_FILLER: frozenset[str] = _wordset(
    """
    amazing awesome beautiful bet congrats congratulations cool cute dear definitely exactly fantastic
    fun glad good great happy hear heard hearing hello hey hi hope incredible interesting know lovely
    love loved lucky nice okay proud really right share sharing sounds sound super sure sweet thank thanks
    totally true wonderful wow yay yes agree absolutely appreciate appreciated tell telling talk talking
    chat chatting catch care take wish luck keep going awesome inspiring inspiration excited glad touched
    means mean meant support supportive brave strong stunning gorgeous impressive neat welcome bye
    goodbye later soon see morning evening night day guess believe think feel feeling look looks
    check here pic pics picture photo adorable gosh"""
)

_TIME_WORDS: frozenset[str] = frozenset(
    {m.lower() for m in MONTH_NAMES}
    | {w.lower() for w in WEEKDAY_NAMES}
    | {
        "today",
        "yesterday",
        "tomorrow",
        "tonight",
        "last",
        "next",
        "this",
        "ago",
        "week",
        "weeks",
        "weekend",
        "month",
        "months",
        "year",
        "years",
        "day",
        "days",
        "morning",
        "afternoon",
        "evening",
        "night",
        "spring",
        "summer",
        "winter",
        "autumn",
        "fall",
    }
)

_ENTITY_EXCLUDE: frozenset[str] = (
    (_STOPWORDS - {"new"})
    | _TIME_WORDS
    | _wordset(
        """
    i i'm i've i'd i'll hey hi hello wow omg lol haha thanks thank congrats congratulations yes yeah no
    ok okay oh ah aw awesome cool great nice amazing sure wait well so and but or then also anyway btw
    sorry please good bad love oops yay hmm um jan feb mar apr jun jul aug sep sept oct nov dec"""
    )
)

_IRREGULAR_PAST: frozenset[str] = _wordset(
    """
    was were went did had got saw made took came gave found felt thought told said left met bought
    brought began ran wrote heard knew kept lost sent spent won built taught caught fell held sat stood
    understood wore drove ate drank swam sang flew grew threw chose spoke broke woke forgot became paid
    led meant shot slept sold stuck struck swore tore won hung rode rose shook sought fed fought dug drew
    hid bit lit lay laid bent blew"""
)

_MODALS: frozenset[str] = _wordset("can could will would should shall might must may ought used need dare cannot")

_NOT_VERBS: frozenset[str] = _wordset(
    "and or but too also as than to of in on at for with from so if when because myself"
)

_ADVERBS = (
    r"really|also|just|never|always|still|often|usually|sometimes|even|only|actually|finally|recently|"
    r"already|definitely|totally|truly|absolutely|personally|mostly|currently|now|honestly|seriously|"
    r"sometimes|rarely|occasionally|genuinely|literally|kinda|sort\s+of|kind\s+of"
)

_COMMON_VERBS: frozenset[str] = _wordset(
    """
    love like enjoy want need know think feel go get make take see look seem keep help start try use
    have do say tell come give find work live play read watch hope wish miss remember believe prefer hate
    plan mean look deserve sound seem"""
)

_PET_ANIMALS = r"dog|cat|puppy|kitten|pup|hamster|rabbit|bunny|parrot|bird|fish|turtle|horse|snake|lizard|guinea\s+pig"
_PET_CANON: dict[str, str] = {
    "puppy": "dog",
    "pup": "dog",
    "kitten": "cat",
    "bunny": "rabbit",
    "guinea pig": "guinea_pig",
}

_NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        _wordset_ordered(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty"
        )
    )
}

# ------------------------------------------------------------------ regexes

_EMOJI_CLASS = "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\u2190-\u21ff\u2300-\u23ff"
_EMOJI_RE = re.compile(f"[{_EMOJI_CLASS}]+")
_CAPTION_RE = re.compile(r"\s*\[(?:image|photo|picture|img)\s*:\s*(?P<cap>[^\]]*)\]", re.IGNORECASE)
_BOUNDARY_RE = re.compile(rf"(?P<p>[.!?…]+|[{_EMOJI_CLASS}]+)(?P<q>[\"'”’)\]]*)(?=\s|$)")
_ABBREVIATIONS: frozenset[str] = _wordset(
    """
    mr mrs ms dr prof st jr sr vs etc e.g i.e eg ie a.m p.m am pm u.s u.k no mt ft approx inc ltd co
    dept est fig jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun"""
)
_LEAD_INTERJECTION_RE = re.compile(
    r"^(?:(?i:hey|hi|hello|oh|ohh|ah|aw+|wow|well|so|yeah|yes|yep|yup|no|nope|ok|okay|haha+|hah|lol|omg|"
    r"um+|hmm+|great|cool|nice|sure|thanks|thank\s+you|awesome|amazing|congrats|congratulations|ooh|"
    r"right|true|totally|absolutely|definitely|honestly|anyway|anyways|btw|also|and|but|dear)"
    r"(?:\s+[A-Z][a-z]+)?\s*[,!.:;\-]+\s*)+"
)
_YOU_KNOW_RE = re.compile(r",?\s*\byou know\b,?", re.IGNORECASE)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*")
_FIRST_PERSON_RE = re.compile(r"\b(?:I|i(?![.'’]\w))\b|\b(?:me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)
_QUESTION_START_RE = re.compile(
    r"^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|have|has|had|can|could|"
    r"will|would|should|shall|may|might|any)\b",
    re.IGNORECASE,
)

_PLAN_RE = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|plan(?:s|ning)?\s+(?:to|on)|planning|intend(?:s|ing)?\s+to|"
    r"hop(?:e|ing)\s+to|want(?:s)?\s+to|wanna|about\s+to|looking\s+forward|can't\s+wait|cannot\s+wait|"
    r"next\s+(?:week|weekend|month|year|time|summer|spring|fall|winter|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|tomorrow|thinking\s+(?:of|about)\s+\w+ing)\b|['’]ll\b",
    re.IGNORECASE,
)
_PREFERENCE_RE = re.compile(
    r"\b(?:i|we|really|also|just|totally|absolutely|do|still|always|truly|so)\s+"
    r"(?:love|like|enjoy|prefer|hate|adore|dislike|can't\s+stand)\b|\bfavou?rite\b|\bfan\s+of\b|"
    r"\bpassionate\s+about\b|\b(?:i'm|i\s+am|we're)\s+(?:really\s+|so\s+)?into\b",
    re.IGNORECASE,
)
_OPINION_LEAD_RE = re.compile(
    r"^(?:i|we)\s+(?:really\s+|honestly\s+|personally\s+|do\s+)?(?:think|believe|feel|guess|reckon|suppose)\b|"
    r"^in\s+my\s+opinion\b",
    re.IGNORECASE,
)
_OPINION_RE = re.compile(
    r"\b(?:think|believe|feel|guess|reckon|suppose)\b|\bin\s+my\s+opinion\b|\bseems?\s+(?:like|to)\b",
    re.IGNORECASE,
)
_STATE_STRONG_RE = re.compile(
    r"\b(?:lives?|lived|living)\s+in\b|\b(?:works?|worked|working)\s+(?:at|for|as)\b|\bused\s+to\b|"
    r"\b(?:single|married|engaged|divorced|widowed)\b|\byears?\s+old\b|\b(?:is|am|was|are)\s+from\b|"
    r"\bhave\s+been\s+(?:living|working)\b|\b(?:has|have|own|owns)\s+(?:a|an|two|three|four|\d+)\b|"
    r"\b(?:named|called)\s+[A-Z]",
    re.IGNORECASE,
)
_STATE_WEAK_RE = re.compile(
    r"\b(?:i\s+am|i'm|we\s+are|we're|i\s+have|i've\s+got|we\s+have|has|have|is|are|am|own|owns)\b",
    re.IGNORECASE,
)
_EVENT_RE = re.compile(r"\b(?:" + "|".join(sorted(_IRREGULAR_PAST)) + r"|[a-z]{3,}ed)\b", re.IGNORECASE)
_ADJECTIVE_ED: frozenset[str] = _wordset(
    """
    excited interested tired named called bored scared worried stressed obsessed amazed pleased surprised
    inspired motivated related based used supposed married engaged divorced talented blessed relaxed
    determined overwhelmed exhausted thrilled delighted concerned confused embarrassed frustrated annoyed
    disappointed impressed involved committed dedicated focused organized detailed red bed need"""
)
_SELF_CONTAINED_RE = re.compile(r"^(?:I|I'm|I've|I'd|I'll|My|We|We're|Our)\b")
_OPEN_BOUND_RE = re.compile(r"\b(?:since|from|after|starting|as\s+of)\s+$", re.IGNORECASE)

# slots work on the person-rewritten text, where the subject is a capitalised name
_SUBJ = r"(?P<subj>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
_ADV = (
    r"(?:\s+(?:just|recently|finally|now|still|currently|also|actually|originally|officially|happily|"
    r"already))*"
)
_VAL = (
    r"(?P<val>[^,.;!?()\[\]]+?)(?=\s+(?:in|on|at|since|last|this|next|with|and|but|because|for|when|after|"
    r"before|from|ago|about|to|now|recently|yesterday|today|around|during|so|which|who|where|while|as|"
    r"near|by)\b|[,.;!?()\[\]]|$)"
)
_NAME_VAL = r"(?P<val>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
_SLOT_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:lives|lived|has\s+lived|has\s+been\s+living|is\s+living|was\s+living|"
            r"had\s+lived|is\s+based|has\s+been\s+based|resides)\s+in\s+" + _VAL
        ),
        "residence",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:moved|relocated|has\s+moved|has\s+relocated|had\s+moved)\s+(?:back\s+|over\s+)?"
            r"(?:to|into)\s+" + _VAL
        ),
        "residence",
    ),
    (re.compile(_SUBJ + _ADV + r"\s+(?:is|was|comes|came)\s+(?:originally\s+)?from\s+" + _VAL), "origin"),
    (re.compile(_SUBJ + _ADV + r"\s+grew\s+up\s+in\s+" + _VAL), "origin"),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:works|worked|has\s+worked|has\s+been\s+working|is\s+working|is\s+now\s+working|"
            r"started\s+working|began\s+working|is\s+employed|got\s+hired|was\s+hired|got\s+a\s+(?:new\s+)?job|"
            r"started\s+a\s+(?:new\s+)?job|found\s+a\s+(?:new\s+)?job|landed\s+a\s+(?:new\s+)?job)\s+as\s+"
            r"(?:an?\s+)?" + _VAL
        ),
        "job",
    ),
    (re.compile(_SUBJ + r"'s\s+(?:new\s+)?job\s+as\s+(?:an?\s+)?" + _VAL), "job"),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:works|worked|has\s+worked|has\s+been\s+working|is\s+working|is\s+now\s+working|"
            r"started\s+working|began\s+working|is\s+employed|got\s+hired|was\s+hired|got\s+a\s+(?:new\s+)?job|"
            r"started\s+a\s+(?:new\s+)?job|found\s+a\s+(?:new\s+)?job|landed\s+a\s+(?:new\s+)?job)\s+"
            r"(?:at|for|with|by)\s+" + _VAL
        ),
        "employer",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:is|was|got|has\s+been|just\s+got|became|is\s+now|got\s+recently)\s+"
            r"(?:now\s+|happily\s+|recently\s+)?(?P<val>single|married|engaged|divorced|widowed|separated)\b"
        ),
        "relationship_status",
    ),
    (
        re.compile(
            _SUBJ + r"'s\s+(?:all-time\s+|absolute\s+|very\s+)?favou?rite\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+"
            r"(?:is|was|has\s+to\s+be|would\s+be|are)\s+" + _VAL
        ),
        "favorite",
    ),
    (
        re.compile(
            _SUBJ
            + _ADV
            + r"\s+(?:is|just\s+turned|turned|has\s+turned)\s+(?P<val>\d{1,3}|"
            + "|".join(_NUMBER_WORDS)
            + r")\s+(?:years?\s+old|yrs?\s+old)\b"
        ),
        "age",
    ),
    (
        re.compile(_SUBJ + _ADV + r"\s+(?:just\s+)?turned\s+(?P<val>\d{1,3})\b(?!\s*(?:%|percent|minutes|hours))"),
        "age",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:has|had|got|adopted|owns|has\s+got|rescued|brought\s+home)\s+"
            r"(?:a|an|another|a\s+new|one)\s+(?:[a-z]+\s+){0,2}?(?P<animal>" + _PET_ANIMALS + r")\s+"
            r"(?:named|called)\s+" + _NAME_VAL
        ),
        "pet",
    ),
    (
        re.compile(
            _SUBJ + r"'s\s+(?:new\s+|little\s+)?(?P<animal>" + _PET_ANIMALS + r")(?:'s\s+name)?\s+"
            r"(?:is\s+)?(?:named|called|is)\s+" + _NAME_VAL
        ),
        "pet",
    ),
)


# ------------------------------------------------------------------ sentence splitting


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; abbreviations ("Dr.", "e.g."), decimals and "..." stay intact."""
    text = text.strip()
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _BOUNDARY_RE.finditer(text):
        punct = m["p"]
        end = m.end()
        rest = text[end:].lstrip()
        if rest:
            nxt = rest[0]
            if punct[0] in ".…" and nxt.islower():
                continue
            if punct[0] not in ".!?…" and not (nxt.isupper() or nxt.isdigit()):
                continue  # emoji mid-sentence
            if punct == ".":
                before = re.search(r"(\S+)$", text[start : m.start()])
                word = before.group(1).lower().lstrip("(\"'") if before else ""
                if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or "." in word:
                    continue
        sentence = text[start:end].strip()
        if sentence:
            out.append(sentence)
        start = end
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


# ------------------------------------------------------------------ person rewriting


def _third_person(verb: str) -> str:
    low = verb.lower()
    special = {
        "am": "is",
        "are": "is",
        "were": "was",
        "have": "has",
        "do": "does",
        "go": "goes",
        "don't": "doesn't",
        "haven't": "hasn't",
        "aren't": "isn't",
        "weren't": "wasn't",
        "ain't": "isn't",
        "dont": "doesn't",
    }
    if low in special:
        return special[low]
    if (
        "'" in low
        or low in _MODALS
        or low in _IRREGULAR_PAST
        or low in _NOT_VERBS
        or low.endswith(("ed", "ing", "ly"))
        or not low.isalpha()
        or len(low) < 2
    ):
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _possessive(name: str) -> str:
    return name + "'s"


def _expand_contractions(text: str) -> str:
    def had_or_would(m: re.Match[str]) -> str:
        nxt = (m["next"] or "").lower()
        aux = (
            "had"
            if nxt in ("been", "gone", "seen", "done", "never", "already", "just") or nxt.endswith("ed")
            else "would"
        )
        return f"{m['pro']} {aux}{m['sp'] or ''}{m['next'] or ''}"

    text = re.sub(r"\b(?P<pro>[Ii]|[Ww]e|[Yy]ou)'d\b(?P<sp>\s+)?(?P<next>[A-Za-z]+)?", had_or_would, text)
    text = re.sub(r"\b([Ii])'m\b", r"\1 am", text)
    text = re.sub(r"\bIm\b", "I am", text)
    text = re.sub(r"\b([Ii]|[Ww]e|[Yy]ou)'ve\b", r"\1 have", text)
    text = re.sub(r"\b([Ii]|[Ww]e|[Yy]ou)'ll\b", r"\1 will", text)
    text = re.sub(r"\b([Ww]e|[Yy]ou)'re\b", r"\1 are", text)
    return text


def rewrite_persons(text: str, speaker: str, other: str | None) -> str:
    """Rewrite first person to ``speaker`` and (when known) second person to ``other``.

    "I love my dog" by Priya -> "Priya loves Priya's dog"; "we" -> "Priya and others".
    """
    text = _expand_contractions(text.replace("’", "'"))

    def subject(name: str, known_verbs_only: bool) -> Callable[[re.Match[str]], str]:
        def repl(m: re.Match[str]) -> str:
            verb = m["verb"]
            adv = m["adv"] or ""
            if verb is None:
                return name + adv
            low = verb.lower()
            conj = verb
            if (
                not known_verbs_only
                or low in _COMMON_VERBS
                or low in ("am", "are", "were", "have", "do", "don't", "haven't", "aren't", "weren't")
            ):
                conj = _third_person(verb)
            return f"{name}{adv} {conj}"

        return repl

    adv_group = rf"(?P<adv>(?:\s+(?:{_ADVERBS}))*)"
    text = re.sub(
        rf"\b(?:I|i(?![.'’]\w))\b{adv_group}(?:\s+(?P<verb>[A-Za-z]+(?:n't)?))?",
        subject(speaker, known_verbs_only=False),
        text,
    )
    we_sub = f"{speaker} and others"
    replacements: list[tuple[str, str]] = [
        (r"\b(?:[Mm]yself)\b", "themself"),
        (r"\b(?:[Mm]ine)\b", _possessive(speaker)),
        (r"\b(?:[Mm]y)\b", _possessive(speaker)),
        (r"\b(?:[Mm]e)\b", speaker),
        (r"\b(?:[Oo]urselves)\b", "themselves"),
        (r"\b(?:[Oo]urs)\b", _possessive(speaker)),
        (r"\b(?:[Oo]ur)\b", _possessive(speaker)),
        (r"\b(?:[Ww]e)\b", we_sub),
        (r"\b(?:us|Us)\b", we_sub),
    ]
    if other:
        replacements += [
            (r"\b(?:[Yy]ourself)\b", "themself"),
            (r"\b(?:[Yy]ours)\b", _possessive(other)),
            (r"\b(?:[Yy]our)\b", _possessive(other)),
        ]
    for pattern, repl in replacements:
        text = re.sub(pattern, repl, text)
    if other:
        text = re.sub(
            rf"\b[Yy]ou\b(?!\s+guys){adv_group}(?:\s+(?P<verb>[A-Za-z]+(?:n't)?))?",
            subject(other, known_verbs_only=True),
            text,
        )
    return text


# ------------------------------------------------------------------ per-sentence analysis


@dataclass(slots=True)
class _Unit:
    """One or more adjacent kept sentences of a turn that become one candidate."""

    sentences: list[str]
    entities: list[str] = field(default_factory=list)
    caption: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.sentences)

    @property
    def words(self) -> int:
        return sum(len(s.split()) for s in self.sentences)


def _strip_emoji(text: str) -> str:
    return re.sub(r"\s{2,}", " ", _EMOJI_RE.sub(" ", text)).strip()


def _is_known_name(word: str, names: dict[str, str]) -> bool:
    low = word.lower()
    return low in names or any(len(low) >= 3 and n.startswith(low) for n in names)


def _clean_sentence(sentence: str, names: dict[str, str]) -> str:
    s = _strip_emoji(sentence.replace("’", "'"))
    s = _LEAD_INTERJECTION_RE.sub("", s)
    s = _YOU_KNOW_RE.sub("", s)
    trailing = re.search(r",\s*([A-Z][a-z]+)\s*([.!?]*)$", s)
    if trailing and _is_known_name(trailing.group(1), names):
        s = s[: trailing.start()] + trailing.group(2)
    s = s.strip(" ,;:-")
    if s and not s.endswith((".", "!", "?", '"', "'", ")", "…")):
        s += "."
    return s[:1].upper() + s[1:] if s else s


def _content_tokens(sentence: str, names: dict[str, str]) -> list[str]:
    out = []
    for word in _WORD_RE.findall(sentence):
        low = word.lower().strip("'-")
        if low in _STOPWORDS or low in _FILLER or _is_known_name(low, names) or len(low) < 2:
            continue
        out.append(low)
    return out


def _informative(sentence: str, names: dict[str, str]) -> bool:
    words = _WORD_RE.findall(sentence)
    if len(words) < 2:
        return False
    if not _content_tokens(sentence, names):
        return False
    if sentence.rstrip().endswith("?") or (
        _QUESTION_START_RE.match(sentence) and not sentence.rstrip().endswith((".", "!"))
    ):
        if _QUESTION_START_RE.match(sentence):
            return False  # an inverted question asks, it does not state
        return bool(_FIRST_PERSON_RE.search(sentence)) and len(_content_tokens(sentence, names)) >= 2
    return True


def _split_entity_run(words: list[str]) -> list[list[str]]:
    runs: list[list[str]] = [[]]
    for w in words:
        if w.lower() in _ENTITY_EXCLUDE and w.lower() not in ("of", "de", "la", "del", "da", "van", "von"):
            runs.append([])
        else:
            runs[-1].append(w)
    connectors = {"of", "de", "la", "del", "da", "van", "von", "the"}
    cleaned = []
    for run in runs:
        while run and run[0].lower() in connectors:
            run.pop(0)
        while run and run[-1].lower() in connectors:
            run.pop()
        if run:
            cleaned.append(run)
    return cleaned


_CAPS_RE = re.compile(r"\b[A-Z][\w&'-]*(?:(?:\s+(?:of|de|la|del|da|van|von)(?:\s+the)?)?\s+[A-Z][\w&'-]*)*")


def _sentence_entities(sentence: str, names: dict[str, str]) -> list[str]:
    found: list[str] = []
    for m in _CAPS_RE.finditer(sentence):
        words = [re.sub(r"'s$|'$", "", w) for w in m.group(0).split()]
        offset = m.start()
        for run in _split_entity_run(words):
            label = " ".join(run)
            at_start = offset == 0 and run[0] == words[0]
            if at_start and len(run) == 1 and not _is_known_name(run[0], names):
                continue
            if len(label) < 2 or label.isdigit():
                continue
            if label.lower() in names:
                label = names[label.lower()]
            found.append(label)
    return found


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def _verbish(word: str) -> bool:
    if word.endswith("ing") and (word[:-3] in _COMMON_VERBS or word[:-3] + "e" in _COMMON_VERBS):
        return True
    return (
        word in _IRREGULAR_PAST
        or word in _COMMON_VERBS
        or (len(word) > 4 and word.endswith("ed"))
        or word.endswith("ly")
        or word in _MODALS
    )


_TOPIC_SKIP: frozenset[str] = frozenset({"others", "themself", "favorite", "favourite", "old", "lot", "bit"})


def _topics(text: str, names: dict[str, str]) -> tuple[str, ...]:
    nouns: Counter[str] = Counter()
    verbs: Counter[str] = Counter()
    first: dict[str, int] = {}
    for i, word in enumerate(_WORD_RE.findall(text)):
        low = word.lower().strip("'-")
        if "'" in low or len(low) < 3 or low in _STOPWORDS or low in _TIME_WORDS or low in _FILLER:
            continue
        if _is_known_name(low, names) or low in _TOPIC_SKIP or low in _NUMBER_WORDS:
            continue
        stem = _stem(low)
        first.setdefault(stem, i)
        (verbs if _verbish(low) else nouns)[stem] += 1
    ranked = sorted(nouns, key=lambda w: (-nouns[w], first[w]))
    if not ranked:
        ranked = sorted(verbs, key=lambda w: (-verbs[w], first[w]))
    return tuple(ranked[:5])


def _kind(original: str, mentions: list[TimeMention], turn_time: datetime) -> FactKind:
    low = original.replace("’", "'")
    day_start = turn_time.replace(hour=0, minute=0, second=0, microsecond=0)
    future_mention = any(m.start >= day_start + timedelta(days=1) for m in mentions)
    past_mention = any((m.end or m.start + timedelta(days=1)) <= day_start for m in mentions)
    if _PLAN_RE.search(low) or (future_mention and not past_mention):
        return FactKind.PLAN
    if _PREFERENCE_RE.search(low):
        return FactKind.PREFERENCE
    if _OPINION_LEAD_RE.search(low):
        return FactKind.OPINION
    if _STATE_STRONG_RE.search(low):
        return FactKind.STATE
    if past_mention or any(m.group(0).lower() not in _ADJECTIVE_ED for m in _EVENT_RE.finditer(low)):
        return FactKind.EVENT
    if _STATE_WEAK_RE.search(low):
        return FactKind.STATE
    if _OPINION_RE.search(low):
        return FactKind.OPINION
    return FactKind.OTHER


def _normalise_value(value: str) -> str:
    value = re.sub(r"\s+", " ", value).strip().rstrip(".,;:!?'\" ")
    value = re.sub(r"^(?:the|a|an)\s+", "", value, flags=re.IGNORECASE)
    return value.strip()


def _clean_subject(subject: str) -> str | None:
    words = subject.split()
    while words and words[0].lower() in _ENTITY_EXCLUDE:
        words.pop(0)
    return " ".join(words) or None


def _slot(text: str) -> tuple[str, str, str] | None:
    """(subject, attribute, value) from a person-rewritten sentence, when a slot pattern matches."""
    for pattern, attribute in _SLOT_PATTERNS:
        m = pattern.search(text)
        if m is None:
            continue
        subject = _clean_subject(m["subj"])
        value = _normalise_value(m["val"])
        if not subject or not value:
            continue
        attr = attribute
        groups = m.groupdict()
        if attribute == "favorite":
            thing = "_".join(_stem(w) for w in m["thing"].lower().split())
            attr = f"favorite_{thing}"
        elif attribute == "pet":
            animal = re.sub(r"\s+", " ", (groups.get("animal") or "pet").lower())
            attr = "pet_" + _PET_CANON.get(animal, animal)
        elif attribute == "age" and value.lower() in _NUMBER_WORDS:
            value = str(_NUMBER_WORDS[value.lower()])
        elif attribute == "relationship_status":
            value = value.lower()
        return subject, attr, value
    return None


def _finish_text(text: str) -> str:
    text = re.sub(r"\s{2,}", " ", text).strip()
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    if text.endswith("!"):
        text = text.rstrip("!") + "."
    if not text.endswith((".", "?", '"', "'", ")")):
        text += "."
    return text


# ------------------------------------------------------------------ the extractor


def _turn_units(turn: CellTurn, names: dict[str, str]) -> list[_Unit]:
    captions = [c.strip() for c in (m["cap"] for m in _CAPTION_RE.finditer(turn.text)) if c.strip()]
    body = _CAPTION_RE.sub(" ", turn.text)
    units: list[_Unit] = []
    for raw in split_sentences(body):
        sentence = _clean_sentence(raw, names)
        if not sentence or not _informative(sentence, names):
            continue
        ents = _sentence_entities(sentence, names)
        words = len(sentence.split())
        if (
            units
            and words < _SHORT_WORDS
            and not _SELF_CONTAINED_RE.match(sentence)
            and units[-1].words + words <= _MAX_MERGED_WORDS
        ):
            units[-1].sentences.append(sentence)
            units[-1].entities.extend(ents)
        else:
            units.append(_Unit([sentence], ents))
    limit = max(1, MAX_PER_TURN - len(captions))
    while len(units) > limit:
        i = min(range(len(units) - 1), key=lambda j: (units[j].words + units[j + 1].words, j))
        units[i] = _Unit(units[i].sentences + units[i + 1].sentences, units[i].entities + units[i + 1].entities)
        del units[i + 1]
    for caption in captions[:MAX_PER_TURN]:
        cap = _strip_emoji(caption).rstrip(". ")
        cap = re.sub(r"^(?:a|an)\s+(?:photo|picture|image|pic)\s+of\s+", "", cap, flags=re.IGNORECASE)
        units.append(_Unit([f"{turn.speaker} shared a photo of {cap}."], [], caption=True))
    return units


def _candidate(unit: _Unit, turn: CellTurn, other: str | None, names: dict[str, str]) -> Candidate:
    original = unit.text
    mentions: list[TimeMention] = []
    if unit.caption:
        text, kind = original, FactKind.EVENT
    else:
        timed, mentions = rewrite_relative(original, turn.time)
        text = rewrite_persons(timed, turn.speaker, other)
        kind = _kind(original, mentions, turn.time)
    text = _finish_text(text)
    valid_from = mentions[0].start if mentions else turn.time
    valid_to = None
    time_text = mentions[0].text if mentions else None
    if (
        mentions
        and kind is FactKind.STATE
        and mentions[0].end is not None
        and not _OPEN_BOUND_RE.search(original, 0, mentions[0].span_start)
    ):
        valid_to = mentions[0].end
    entities: list[str] = [turn.speaker]
    for display in names.values():
        if display != turn.speaker and re.search(rf"\b{re.escape(display)}\b", text):
            entities.append(display)
    entities.extend(unit.entities)
    seen: set[str] = set()
    unique: list[str] = []
    for ent in entities:
        ent = re.sub(r"\s+", " ", ent).strip()
        if ent and ent.lower() not in seen:
            seen.add(ent.lower())
            unique.append(ent)
    slot = None
    if kind is not FactKind.PLAN and not unit.caption and not original.rstrip().endswith("?"):
        slot = _slot(text)
    topic_source = original if unit.caption else _strip_spans(original, mentions)
    return Candidate(
        text=text,
        kind=kind,
        source_turn_seqs=(turn.seq,),
        valid_from=valid_from,
        valid_to=valid_to,
        time_text=time_text,
        entities=tuple(unique),
        topics=_topics(topic_source, names),
        speaker=turn.speaker,
        subject=slot[0] if slot else None,
        attribute=slot[1] if slot else None,
        value=slot[2] if slot else None,
    )


def _strip_spans(text: str, mentions: list[TimeMention]) -> str:
    for m in reversed(mentions):
        text = text[: m.span_start] + " " + text[m.span_end :]
    return text


def extract_cell(cell: CellView) -> list[Candidate]:
    """Extract memory candidates from one cell, deterministically, in turn then sentence order."""
    names: dict[str, str] = {}
    for turn in cell.turns:
        if turn.speaker.strip():
            names.setdefault(turn.speaker.strip().lower(), turn.speaker.strip())
    out: list[Candidate] = []
    for turn in sorted(cell.turns, key=lambda t: t.seq):
        others = [n for n in names.values() if n.lower() != turn.speaker.strip().lower()]
        other = others[0] if len(others) == 1 else None
        for unit in _turn_units(turn, names):
            candidate = _candidate(unit, turn, other, names)
            if candidate.text:
                out.append(candidate)
    return out


class RuleBasedExtractor:
    """The built-in extractor (rule-based heuristics, not a model); implements ``Extractor``."""

    name = "rule-based"

    async def extract(self, cell: CellView, *, ledger: UsageLedger | None = None) -> list[Candidate]:
        """Return the candidates of ``cell`` (see ``extract_cell``); records one zero-token call."""
        started = time.perf_counter()
        result = extract_cell(cell)
        if ledger is not None:
            ledger.record("extract", latency_s=time.perf_counter() - started)
        return result
