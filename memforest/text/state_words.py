"""General vocabulary of the state attributes: kinds and breeds of pets, car makes and models,
words for dwellings and the cues of being employed. Regex alternations (lower case unless a name
is capitalised by nature, e.g. a car model), shared by the write path's state reader
(``memforest.text.states``) and the read path's fallback classifier. Ordinary English
vocabulary, not phrasings of any benchmark.
"""

from __future__ import annotations

import re
from typing import Final

from memforest.text.lexicon import CAPITALS, words

__all__ = [
    "ANIMALS",
    "ANIMAL_WORDS",
    "CAR_MAKES",
    "CAR_MODELS",
    "CAR_WORDS",
    "COMPANION_BEFORE",
    "DISPOSAL",
    "DWELLINGS",
    "GROUP_HEADS",
    "INSTRUMENTS",
    "INTRODUCING",
    "JOB_CUES",
    "KIN",
    "MEMBER_HEADS",
    "PARTNER_NOUNS",
    "POINTING",
    "PRODUCT_PLAN",
    "PROVIDER_HEADS",
    "alternation",
    "same_kin",
]


def alternation(words: str) -> str:
    """A regex alternation of the whitespace-separated entries of ``words`` ('_' stands for a
    space inside an entry), longest first so that "border collie" wins over "collie"."""
    entries = sorted({re.escape(w).replace("_", r"\s+") for w in words.split()}, key=lambda w: (-len(w), w))
    return "|".join(entries)


# kinds of pet, their young and pet-talk words, and common breeds (lower case)
_ANIMAL_WORDS = """
    dog dogs doggo doggy pupper puppy pup pups cat cats kitten kitty kittens moggy tomcat furball fur_baby
    rescue rescue_dog rescue_cat hamster rabbit bunny parrot bird birdie budgie budgerigar canary cockatiel
    cockatoo parakeet lovebird macaw finch fish goldfish betta guppy turtle tortoise terrapin horse pony
    donkey snake python corn_snake lizard gecko leopard_gecko iguana chameleon bearded_dragon axolotl frog
    guinea_pig ferret chinchilla gerbil mouse rat hedgehog hen chicken chickens duck goat pig mini_pig
    sugar_glider tarantula mutt pooch hound stray
    retriever golden_retriever labrador lab lab_mix labradoodle goldendoodle doodle cockapoo cavapoo
    cavoodle maltipoo schnoodle beagle terrier jack_russell westie yorkie staffie pit_bull pitbull
    spaniel cocker_spaniel springer_spaniel cavalier poodle toy_poodle collie border_collie sheepdog
    husky malamute corgi dachshund sausage_dog pug greyhound whippet lurcher shepherd german_shepherd
    alsatian bulldog french_bulldog frenchie boxer rottweiler dalmatian schnauzer mastiff great_dane
    setter pointer weimaraner vizsla shiba shiba_inu akita samoyed chihuahua pomeranian shih_tzu maltese
    bichon havanese papillon basset_hound bloodhound newfoundland saint_bernard bernese doberman
    tabby ginger_tom tortie tortoiseshell calico siamese persian ragdoll maine_coon bengal sphynx
    british_shorthair russian_blue burmese birman abyssinian scottish_fold norwegian_forest_cat
    lop holland_lop angora
"""
ANIMALS: Final = alternation(_ANIMAL_WORDS)
# words that also name something else ("a lab", "python", "chicken" for dinner): kept out of the
# plain word lists, which are matched without the context the regexes require
_AMBIGUOUS = frozenset(
    str.split(
        """lab pointer boxer setter python chicken chickens duck hen pig mouse rat stray fish frog unit room pad crib
    mini seat smart alpine lotus triumph genesis mix baby tom fold blue bull martin enfield dragon glider bernard
    russell dane persian bengal maltese burmese siamese newfoundland romeo cavalier rolls-royce"""
    )
)


def _plain(words: str) -> str:
    """The entries' head words ("border_collie" -> "collie"), ambiguous ones left out."""
    heads = (w.split("_")[-1] for w in words.split())
    return " ".join(dict.fromkeys(h for h in heads if h.casefold() not in _AMBIGUOUS))


ANIMAL_WORDS: Final = _plain(_ANIMAL_WORDS)

# car makes, as written (capitalised)
_MAKES = """Honda Kia Toyota Subaru Ford Volvo Mazda Tesla Skoda Škoda Nissan Jeep Fiat Hyundai Renault Audi Mini
    MINI Peugeot Volkswagen VW Seat SEAT Dacia BMW Mercedes Mercedes-Benz Chevrolet Chevy Porsche Lexus
    Citroen Citroën Opel Vauxhall Mitsubishi Suzuki Dodge Jaguar Land_Rover Range_Rover Alfa_Romeo
    Polestar Rivian Cupra GMC Buick Cadillac Chrysler Acura Infiniti Genesis Lucid BYD MG Saab Lancia
    Alpine Lotus Ferrari Lamborghini Maserati Bentley Aston_Martin Rolls-Royce McLaren Lada Tata
    Mahindra Proton Perodua Holden Harley Harley-Davidson Ducati Yamaha Kawasaki Vespa Triumph
    Royal_Enfield KTM Aprilia Piaggio"""
CAR_MAKES: Final = alternation(_MAKES)

# common models that name a car without its make ("the Civic", "my Outback"), capitalised
_MODELS = """Civic Accord CR-V HR-V Corolla Camry Prius Yaris RAV4 Aygo Auris Hilux Tacoma Tundra Highlander
    Outback Forester Impreza Crosstrek Fiesta Focus Mondeo Kuga Puma Mustang F-150 Ranger Bronco
    Golf Polo Passat Tiguan Touran Jetta Beetle ID.3 ID.4 Clio Megane Mégane Twingo Zoe
    Captur Kadjar Qashqai Juke Micra Leaf Navara Sentra Altima Wrangler Cherokee Renegade
    Panda Punto Tipo Octavia Fabia Kodiaq Karoq Enyaq Kona Tucson Ioniq i10 i20 i30 Santa_Fe
    Niro Sportage Sorento Ceed Picanto Stinger EV6 Corsa Astra Insignia Mokka Duster Sandero
    Ibiza Arona Ateca Vitara Jimny Outlander Lancer Countryman Model_3 Model_S
    Model_X Model_Y Cybertruck Miata MX-5 CX-5 CX-30 Mazda3 Mazda2 Tahoe Silverado Malibu Camaro
    Corvette Bolt Volt Equinox Odyssey Sienna Challenger Durango XC40 XC60 XC90 V40 V60
    V90 S60 Cayenne Macan Taycan Boxster Evoque Polestar_2 Smart_Fortwo"""
CAR_MODELS: Final = alternation(_MODELS)
CAR_WORDS: Final = _plain(_MAKES)

# words for a dwelling (lower case)
DWELLINGS: Final = alternation(
    """flat apartment apt house home place condo studio bungalow townhouse townhome terrace terraced_house
    semi loft cottage cabin duplex maisonette penthouse houseboat dorm bedsit room digs pad crib
    mobile_home tiny_house farmhouse villa unit"""
)

# words of being employed somewhere (lower case): they tie a capitalised organisation to a job
JOB_CUES: Final = alternation(
    """payroll paycheck paycheque payslip salary onboarding orientation induction probation badge
    employee employees staffer staff hire new_hire intern internship apprentice apprenticeship
    colleagues colleague coworkers coworker co-workers teammates team manager boss office offer contract
    job gig position role shift shifts"""
)

# a preposition whose object is a companion or a source, never the one whose state a sentence tells
# ("Eero moved back in with Mia's parents", "bought the bike from Mia's neighbour")
COMPANION_BEFORE: Final = re.compile(r"\b(?i:with|from|near|beside|alongside|by)\s+$")

# instruments one plays, by their common names (lower case)
INSTRUMENTS: Final = (
    r"(?:piano|keyboard|keys|organ|guitar|bass|bass\s+guitar|double\s+bass|drums|violin|viola|cello|harp|flute|"
    r"clarinet|oboe|bassoon|saxophone|sax|trumpet|trombone|tuba|french\s+horn|horn|cornet|euphonium|ukulele|banjo|"
    r"mandolin|accordion|harmonica|recorder|tabla|sitar|setar|shamisen|koto|oud|bouzouki|djembe|cajon|bagpipes|"
    r"fiddle|harpsichord|marimba|xylophone|timpani|percussion)"
)
# words for one's partner, as a regex alternation (lower case)
PARTNER_NOUNS: Final = r"girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?|spouse"

# words for a person the speaker knows by their relation ("my sister", "Ana's coworker"), lower case
KIN: Final = alternation(
    """sister brother mom mum mother dad father parent parents cousin friend son daughter kid aunt uncle
    grandma grandmother grandpa grandfather granddaughter grandson niece nephew boss colleague coworker co-worker
    neighbour neighbor roommate flatmate housemate sibling wife husband partner girlfriend boyfriend fiance
    fiancee stepmother stepfather stepsister stepbrother stepson stepdaughter godson goddaughter mentor manager
    teammate classmate landlord landlady grandad granddad granny stepdad stepmum stepmom pal mate buddy
    mother-in-law father-in-law sister-in-law brother-in-law son-in-law daughter-in-law"""
)
# words for a person that are no relation ("the old couple upstairs", "the guy next door"), lower case
PERSON_NOUNS: Final = (
    r"man|men|woman|women|lady|ladies|guy|guys|gent|couple|people|folk|boy|boys|girl|girls|fellow|chap|bloke"
)
# relatives named as a group, in a plural that is not a relation word and "s" ("my folks", "her twins",
# "my in-laws")
KIN_PLURALS: Final = r"children|twins|folks|in-laws"
# a person, or a person's relative, holding a state in a person-rewritten sentence ("Ana", "Ana's
# dad"), read from a word's start only (linear on long runs)
# a word of age, rank or closeness before a relation ("Ana's best friend Mia", "Ana's little brother")
KIN_ADJ: Final = (
    r"(?:(?i:best|older|oldest|younger|youngest|little|big|baby|twin|elder|eldest|closest|dear|new|teenage|teen|"
    r"grown-up)\s++)?"
)
HOLDER: Final = rf"(?<![\w'-])(?P<subj>[{CAPITALS}][\w-]*+(?:'s\s++{KIN_ADJ}(?i:{KIN}))?)"


# openings that show someone or something to the listener, as regex alternations (read case-blind):
# of introducing ("Meet X", "This is X", "Say hi to X") and of looking or pointing ("Look at X", "Here is X")
INTRODUCING: Final = r"(?:do\s+)?(?:meet|say\s+(?:hi|hello)\s+to)|this\s+is|introducing|welcome"
POINTING: Final = r"look\s+at|(?:have|take)\s+a\s+look\s+at|here\s+(?:is|are)|here's"

# verbs of disposal, past tense: one no longer has what one sold, gave away, threw out or scrapped
# ("got rid of X after ..." leaves X; it names no successor). Lower case, '_' a space.
DISPOSAL: Final = alternation(
    """sold gave_away given_away donated threw_out threw_away thrown_out thrown_away binned dumped ditched
    scrapped got_rid_of offloaded parted_with rehomed"""
)

# "her phone plan to X", "the data plan on Y": a plan that is a product, not an intention
# (fixed-width look-behinds, one per compound head)
PRODUCT_PLAN: Final = "".join(
    rf"(?<!{w}\s)"
    for w in ("phone", "data", "mobile", "tariff", "payment", "pension", "insurance", "health", "meal", "cell")
)


# words for one relative that people use interchangeably ("my mum", "my mother"), each group's
# first word its plain name
_KIN_GROUPS = (
    "mother mum mom mam ma mummy mommy",
    "father dad daddy pa papa",
    "grandmother grandma granny gran nan nana",
    "grandfather grandpa granddad grandad gramps",
    "children kids",
    "parents folks",
)
_SAME_KIN = {w: tuple(g.split()) for g in _KIN_GROUPS for w in g.split()}


def same_kin(word: str) -> tuple[str, ...]:
    """The words for the relative ``word`` names, ``word`` first ("mum": mum, mother, mom, ...);
    ``(word,)`` for a word with no other."""
    others = _SAME_KIN.get(word.lower(), ())
    return (word, *(w for w in others if w != word.lower()))


# the last word of a service provider's name ("Ashgrove Insurance", "Copperline Bank", "Castle Dental")
PROVIDER_HEADS: Final = frozenset(
    str.split(
        """insurance assurance mutual bank dental dentistry clinic surgery pharmacy vets veterinary opticians
        salon barbers practice physio physiotherapy osteopathy chiropractic podiatry"""
    )
)
# the last word of the name of a group one belongs to ("the Eastmere Chamber Orchestra", "Tidewater Big Band")
GROUP_HEADS: Final = frozenset(
    str.split(
        """choir chorus chorale singers orchestra band ensemble quartet club league team squad harriers
        striders runners"""
    )
)
# heads of the names of places one trains, plays or sings at ("started at Ironbark Boxing": a member)
MEMBER_HEADS: Final = frozenset(
    str.split(
        """boxing yoga pilates fitness gym crossfit climbing bouldering dojo karate judo swimming tennis rowing
        harriers striders runners athletics dance ballet choir chorus chorale singers orchestra ensemble"""
    )
)

# an audition or application that succeeded, as told right after it ("... and got in", "... and was
# accepted"): the getting in, the being let in, and what makes "got in" no getting in ("got in
# touch", "got in trouble"); lower case, for patterns that match it ignoring case
GOT_IN: Final = r"got\s+(?:in|accepted|a\s+place)"
LET_IN: Final = r"(?:was|were|got|(?:has|have)\s+been)\s+(?:accepted|taken\s+on|offered\s+a\s+place)"
NOT_GETTING_IN: Final = r"(?!\s+(?:touch|trouble|line|on|to|with|the|a|an)\b)"

# verbs by which a relative clause's subject comes to hold the thing or holds it ("adopted", "owns"); a verb
# of liking, using or founding says nothing of whose it is ("the city Ana loves", "the firm Tom founded")
HOLDING_VERBS: Final = words(
    """adopted adopts rescued rescues found finds bought buys got gets fostered fosters inherited inherits
    received receives won wins chose chooses purchased purchases acquired acquires rehomed rehomes owns
    keeps kept"""
)
# verbs that say holding only with the word after them ("brought home", "picked up")
HOLDING_WITH: Final[dict[str, tuple[str, ...]]] = {
    "brought": ("home",),
    "brings": ("home",),
    "took": ("home", "in"),
    "takes": ("home", "in"),
    "picked": ("up",),
    "picks": ("up",),
}
