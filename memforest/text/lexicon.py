"""Word lists: the one stop-word list and the vocabularies the rule-based extractor uses."""

from __future__ import annotations

import unicodedata

__all__ = [
    "ADJECTIVE_ED",
    "ADVERBS",
    "CHAT_STOPWORDS",
    "COMMON_VERBS",
    "ENTITY_EXCLUDE",
    "FILLER",
    "IRREGULAR_PAST",
    "MODALS",
    "MONTH_NAMES",
    "NOT_VERBS",
    "NUMBER_WORDS",
    "PET_ANIMALS",
    "PET_CANON",
    "STOPWORDS",
    "TIME_WORDS",
    "TITLES",
    "TOPIC_SKIP",
    "WEEKDAY_NAMES",
    "folded",
    "words",
]

# letters NFKD leaves whole, as people type them without their marks
_BARE_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"})


# titles before a person's name, whose period ends no sentence nor name ("Dr. Okafor", "Sra. Vidal")
TITLES = r"(?:Dr|Dra|Mr|Mrs|Ms|Mx|Prof|Sra|Mme|Mlle|Rev)"


def folded(text: str) -> str:
    """``text`` in lower case without accents or other marks, as people type names who leave them
    out ("Ciarán", "Łucja", "Þórhildur" -> "ciaran", "lucja", "thorhildur")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_BARE_LETTERS)


def words(text: str) -> frozenset[str]:
    """Whitespace-separated word list -> frozenset (keeps the long lists readable)."""
    return frozenset(text.split())


# The stop-word list of search: query terms, the hashed embedder, the summariser's name test.
STOPWORDS: frozenset[str] = words(
    """
    a about above after again against all almost also am among an and any are aren't around as at
    be because been before being below between both but by can can't cannot could couldn't did
    didn't do does doesn't doing don't done down during each either else ever every few for from
    further get gets got had hadn't has hasn't have haven't having he he'd he'll he's her here
    here's hers herself him himself his how how's however i i'd i'll i'm i've if in into is isn't
    it it'd it'll it's its itself just let let's like ll may maybe me might mine more most much
    must mustn't my myself neither no nor not now of off oh ok okay on once one only or other
    ought our ours ourselves out over own per quite rather re really s same shall shan't she she'd
    she'll she's should shouldn't since so some such t than that that's the their theirs them
    themselves then there there's these they they'd they'll they're they've this those though
    through thus to too toward towards um under until up upon us ve very via was wasn't we we'd
    we'll we're we've well were weren't what what's whatever when when's where where's whether
    which while who who's whoever whom whose why why's will with within without won't would
    wouldn't yeah yes yet you you'd you'll you're you've your yours yourself yourselves
    """
)

# The extractor's stop words are the search list plus chat words (greetings, intensifiers, vague
# nouns), less a few words the extractor has always counted as content ("neither", "um", "here's").
CHAT_STOPWORDS: frozenset[str] = (
    STOPWORDS
    - words(
        """
        here's how's it'd it'll ll mustn't neither ought re s shan't t um ve when's where's whoever
        why's"""
    )
) | words(
    """
    along already although always another anybody anyone anything anyway away awesome back became
    become best better cool dear dr enough even everyone everything getting gonna gotta great haha
    hahaha hello hey hi kinda least less likely lol lot lots made make makes many mr mrs ms near need
    never new next nice nope nothing often omg onto others perhaps please pretty prof right see seem
    seemed seems somebody someone something sometimes somewhat soon sorta st still sure thank thanks
    thing things thx till ty wanna way whole wow yep"""
)

# Words that carry no fact in a chat turn ("Wow, that sounds amazing!").
FILLER: frozenset[str] = words(
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

MONTH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAY_NAMES: tuple[str, ...] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)

TIME_WORDS: frozenset[str] = frozenset(
    {m.lower() for m in MONTH_NAMES}
    | {w.lower() for w in WEEKDAY_NAMES}
    | {w.lower() + "s" for w in WEEKDAY_NAMES}  # ("moved practice to Wednesdays": every Wednesday)
    | words(
        """
        today yesterday tomorrow tonight last next this ago week weeks weekend month months year years
        day days morning afternoon evening night spring summer winter autumn fall"""
    )
)

# Capitalised words that never start or extend an entity name.
ENTITY_EXCLUDE: frozenset[str] = (
    (CHAT_STOPWORDS - {"new"})
    | TIME_WORDS
    | words(
        """
    i i'm i've i'd i'll hey hi hello wow omg lol haha thanks thank congrats congratulations yes yeah no
    ok okay oh ah aw awesome cool great nice amazing sure wait well so and but or then also anyway btw
    sorry please good bad love oops yay hmm um jan feb mar apr jun jul aug sep sept oct nov dec
    meanwhile besides otherwise however instead plus incidentally anyhow yo hiya heya ugh argh ahh welp
    lmao rofl ooh whoa yikes meh phew"""
    )
)

IRREGULAR_PAST: frozenset[str] = words(
    """
    was were went did had got saw made took came gave found felt thought told said left met bought
    brought began ran wrote heard knew kept lost sent spent won built taught caught fell held sat stood
    understood wore drove ate drank swam sang flew grew threw chose spoke broke woke forgot became paid
    led meant shot slept sold stuck struck swore tore won hung rode rose shook sought fed fought dug drew
    hid bit lit lay laid bent blew"""
)

MODALS: frozenset[str] = words("can could will would should shall might must may ought used need dare cannot")

NOT_VERBS: frozenset[str] = words("and or but too also as than to of in on at for with from so if when because myself")

# A regex alternation of adverbs that may sit between a subject and its verb.
ADVERBS = (
    r"really|also|just|never|always|still|often|usually|sometimes|even|only|actually|finally|recently|"
    r"already|definitely|totally|truly|absolutely|personally|mostly|currently|now|honestly|seriously|"
    r"sometimes|rarely|occasionally|genuinely|literally|kinda|sort\s+of|kind\s+of|almost|nearly|no\s+longer|"
    # the speaker's comment on what they tell ("Apparently Tariq moved to X": no "Apparently Tariq")
    r"apparently|sadly|luckily|fortunately|unfortunately|thankfully|hopefully|obviously|clearly|evidently|"
    r"reportedly|supposedly|allegedly|surprisingly|predictably|unsurprisingly|happily|oddly|funnily|weirdly|"
    r"strangely|ironically|interestingly|basically|naturally|understandably|annoyingly|frankly"
)

COMMON_VERBS: frozenset[str] = words(
    """
    love like enjoy want need know think feel go get make take see look seem keep help start try use
    have do say tell come give find work live play read watch hope wish miss remember believe prefer hate
    plan mean look deserve sound seem"""
)

# "-ed" words that describe a state rather than an event.
ADJECTIVE_ED: frozenset[str] = words(
    """
    excited interested tired named called bored scared worried stressed obsessed amazed pleased surprised
    inspired motivated related based used supposed married engaged divorced talented blessed relaxed
    determined overwhelmed exhausted thrilled delighted concerned confused embarrassed frustrated annoyed
    disappointed impressed involved committed dedicated focused organized detailed red bed need"""
)

# A regex alternation of pet animals, and the canonical name of some of them.
PET_ANIMALS = r"dog|cat|puppy|kitten|pup|hamster|rabbit|bunny|parrot|bird|fish|turtle|horse|snake|lizard|guinea\s+pig"
PET_CANON: dict[str, str] = {
    "puppy": "dog",
    "pup": "dog",
    "kitten": "cat",
    "bunny": "rabbit",
    "guinea pig": "guinea_pig",
}

# the capital letters of the Latin, Greek and Cyrillic scripts, as the body of a regex character
# class: a name opens with any of them ("Evora" and "Évora", "Łucja", "Ốc Hương", "Ömer")
CAPITALS = "A-Z" + "".join(
    c for lo, hi in ((0xC0, 0x530), (0x1E00, 0x1F00)) for c in map(chr, range(lo, hi)) if c.isupper()
)

# where a word starts, for a pattern that searches a whole text: after no word character, apostrophe
# or hyphen; or right after an opening quote or a lone hyphen ("'Little Acorns'", "-Ana moved"); or
# after one short hyphenated prefix at a word's start ("al-Hassan", "half-sister", "T-shirt"). No
# other letter of a hyphenated run starts a match, so no search re-scans a long run from each of them.
WORD_START = (
    r"(?:(?<![\w'-])|(?<=(?<![\w'-])['-])" + "".join(rf"|(?<=(?<![\w'-])\w{{{n}}}-)" for n in range(1, 6)) + ")"
)

# words whose "'s" is "is" or "has", never a possessive ("what's", "it's", "she's"), as a regex
# alternation
CONTRACTED_S = "what|who|where|when|how|that|it|there|here|he|she|let"
NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}

TOPIC_SKIP: frozenset[str] = frozenset({"others", "themself", "favorite", "favourite", "old", "lot", "bit"})
