"""The ``tune`` split of ``bench.temporal_v2``: look at it, test against it, tune on it.

Its templates, values and attributes share nothing with the ``eval`` split
(``bench/temporal_v2_eval.py``, which nobody tuning the product should read); a unit test
(``tests/unit/test_temporal_v2_split.py``) enforces it. Each template family is one field below.
A benchmark fixture, not real data.
"""

from __future__ import annotations

from bench.temporal_v2_spec import Attribute, Split, TimePhrase, words

ATTRIBUTES = (
    # ---- named (MemForest knows these 14 names: these 3 of them) --------------------------
    Attribute(
        "residence", "home", "home city", "move to {x}",
        indirect=(
            "The landlord in {v} finally fixed {my} boiler.",
            "Winters in {v} are brutal, {I} bought a second coat.",
            "Cycled along the canal in {v} to work, best part of {my} day.",
        ),
        values=words("Tampere, Ghent, Bilbao, Brno, Aarhus, Halifax, Dunedin, Cork, Utrecht, Graz, Lyon, Bergen, "
                     "Trieste, Savannah"),
    ),
    Attribute(
        "pet", "animal", "pet", "get a {k} called {x}",
        indirect=(
            "{v} chewed through {my} phone charger again.",
            "{I} had to leave the party early because {v} needed a walk.",
            "Took {v} to the park at dawn, the {k} would not stop sniffing.",
        ),
        values=words("Pumpkin, Gizmo, Basil, Truffle, Maple, Churro, Domino, Figaro, Kiwi, Peanut, Socks, Waldo, "
                     "Jasper, Poppy"),
        kinds=words("dog, cat, ferret, tortoise"),
    ),
    Attribute(
        "device", "thing", "laptop", "buy a {x}",
        indirect=(
            "The fan on {my} {v} is so loud during calls.",
            "Spilled tea on {my} {v}, somehow it survived.",
        ),
        values=words("ThinkPad X1, MacBook Air, Dell XPS 13, Framework 13, Surface Laptop, Asus Zenbook, HP Spectre, "
                     "Acer Swift, LG Gram, Razer Blade, Huawei MateBook, Samsung Galaxy Book"),
    ),
    # ---- open-ended ---------------------------------------------------------------------
    Attribute(
        "dentist", "provider", "dentist", "see {x} for {my} teeth",
        indirect=(
            "{v} said {my} fillings look fine at the check-up.",
            "Had a cleaning with {v}, {my} gums are sore.",
        ),
        values=words("Dr. Halvorsen, Dr. Mbeki, Dr. Castellano, Dr. Novak, Dr. Ferreira, Dr. Lindgren, Dr. Achebe, "
                     "Dr. Kowalczyk, Dr. Moreau, Dr. Tanaka, Dr. Oyelaran, Dr. Brennan"),
    ),
    Attribute(
        "hairdresser", "provider", "hairdresser", "get {my} hair cut at {x}",
        indirect=(
            "{v} gave {me} the shortest fringe of {my} life.",
            "Booked {my} usual trim at {v} for Friday.",
        ),
        values=words("Snip Theory, Mane Street, The Parlour on Quay, Shear Genius, Fringe Benefits, Curl Up and Dye, "
                     "Comb Together, Headcase Salon, Blowout Bar, Clip Joint, Tangle Room, Bob's Barbers"),
    ),
    Attribute(
        "insurer", "provider", "insurer", "insure the flat with {x}",
        indirect=(
            "{v} paid out for the broken window within a week.",
            "The renewal letter from {v} came, premiums up again.",
        ),
        values=words("Harbourline Mutual, Keystone Cover, Bluefern Insurance, Quillon Assurance, Ridgeback Mutual, "
                     "Solace Cover, Tidewater Insurance, Northgate Assurance, Evenkeel Mutual, Larchmont Cover, "
                     "Brightmoor Insurance, Cobalt Shield"),
    ),
    Attribute(
        "running_club", "group", "running club", "run with {x}",
        indirect=(
            "Did the Thursday hill reps with {v}, {my} legs are jelly.",
            "{v} is doing a relay in May and {I'm} on the second leg.",
        ),
        values=words("Riverside Striders, Hill Harriers, Dawn Patrol Runners, Parkside Pacers, Canal Road Runners, "
                     "Red Kite Harriers, Saltmarsh Joggers, Northbank Milers, Lantern Runners, Quarry Trail Club, "
                     "Old Mill Striders, Fenland Flyers"),
    ),
    Attribute(
        "choir", "group", "choir", "sing with {x}",
        indirect=(
            "Rehearsal with {v} ran late, {my} voice is gone.",
            "{v} is singing at the town hall and {I'm} in the alto row.",
        ),
        values=words("Harmony Hall Singers, Bridgetown Chorale, Tuesday Night Voices, Cathedral Close Choir, "
                     "Lark Rise Chorus, Southgate Community Choir, Open Throat Collective, Willow Street Singers, "
                     "Evensong Ensemble, Tin Roof Chorus, Meadowlark Voices, Canticle Crew"),
    ),
    Attribute(
        "coffee_place", "venue", "coffee place", "get {my} coffee at {x}",
        indirect=(
            "The barista at {v} knows {my} order by heart now.",
            "Grabbed {my} usual flat white at {v} on the way in.",
        ),
        values=words("Bean There, Grindhouse, The Daily Grind, Percolate, Steam and Stone, Little Roast, Crema Corner, "
                     "Kettle Black, Drip Society, Morning Ritual, Brew Lab, Foxglove Coffee"),
    ),
    Attribute(
        "climbing_wall", "venue", "climbing wall", "climb at {x}",
        indirect=(
            "Finally sent the purple route at {v}, {my} forearms are toast.",
            "The setters at {v} changed every problem overnight.",
        ),
        values=words("The Boulder Barn, Crux Climbing, Gravity Works, Overhang Central, Chalk Up, The Arete, "
                     "Pinch Grip Wall, High Point Climbing, Crimp Factory, Blocfest Hall, Vertical Garden, Dyno Den"),
    ),
    Attribute(
        "bike", "thing", "bike", "ride a {x}",
        indirect=(
            "Got a flat on {my} {v} in the rain, of course.",
            "Rode the {v} to the coast and back on Sunday.",
        ),
        values=words("Brompton, Trek Domane, Specialized Sirrus, Cannondale Topstone, Giant Escape, Cube Nature, "
                     "Bianchi Via Nirone, Raleigh Pioneer, Orbea Carpe, Canyon Grail, Surly Cross-Check, Kona Dew"),
    ),
)  # fmt: skip

# ------------------------------------------------------------------ statements, by class
START = {
    "home": (
        "{I} moved to {v}, still living out of boxes.",
        "{I} found a flat in {v} and signed for a year.",
        "{I} live{s} in {v} now.",
    ),
    "animal": (
        "{I} adopted a {k} called {v} from the shelter.",
        "Meet {v}, the {k} {I} brought home on Saturday.",
    ),
    "thing": (
        "{I} just bought a {v}.",
        "{I} picked up a second-hand {v}.",
    ),
    "provider": (
        "{my} new {noun} is {v}.",
        "{I} started going to {v}, {my} new {noun}.",
    ),
    "group": (
        "{I} joined {v}, the first session was great.",
        "{I'm} a member of {v} now.",
    ),
    "venue": (
        "{my} go-to {noun} these days is {v}.",
        "{I} found a new {noun}: {v}.",
    ),
}
SWITCH = {
    "home": (
        "{I} left {prev} behind and moved to {v}.",
        "Goodbye {prev}, hello {v}: {I} moved this weekend.",
    ),
    "animal": (
        "After {prev} passed away, {I} got a {k} named {v}.",
        "{prev} went to live with {my} parents, and {I} took in a {k} called {v}.",
    ),
    "thing": (
        "{I} sold the {prev} and got a {v}.",
        "Traded in {my} {prev} for a {v}.",
    ),
    "provider": (
        "{I} switched {noun}s, from {prev} to {v}.",
        "Done with {prev}; {v} is {my} {noun} now.",
    ),
    "group": (
        "{I} quit {prev} and joined {v}.",
        "{I} moved over from {prev} to {v}.",
    ),
    "venue": (
        "{I} gave up on {prev}; {v} is {my} {noun} now.",
        "Swapped {prev} for {v} as {my} {noun}.",
    ),
}
LEAVE = {
    "animal": ("{I} had to rehome {prev}, the flat was too small.",),
    "thing": ("{I} sold {my} {prev}, doing without for now.",),
    "provider": ("{I} stopped going to {prev}.", "{I} cancelled with {prev}."),
    "group": ("{I} left {prev}, not enough time.",),
    "venue": ("{I} no longer go{es} to {prev}.",),
}

# ---------------------------------------------------- mood sentences: NOT states
MOODS = {
    "plan": ("{I'm} planning to {vp} next spring.", "Next year {I} might {vp}, nothing is decided."),
    "wish": ("{I} wish{es} {I} could {vp}.", "One day {I} would love to {vp}."),
    "hypothetical": ("If money were no object, {I} would {vp}.",),
    "considered": ("{I} looked into {x} but it wasn't right.", "{I} thought about {x} for a while, then let it go."),
    "turned_down": ("{x} had a place for {me}, but {I} said no.",),
    "suggestion": ("A friend keeps telling {me} to {vp}.",),
    "negation": ("Just to be clear, {I} never went with {x}.", "{x} is not and never was {my} {noun}."),
    "nostalgia": ("{I} still miss{es} {x} sometimes, those were good days.",
                  "Found an old photo from {my} {x} days, it made {me} smile."),
}  # fmt: skip

# ------------------------------------------------------------------ questions, by operator
QUESTIONS = {
    "before": ("What was {my} {noun} before {x}?", "Before {x}, what did {I} have as {my} {noun}?"),
    "after": ("What was {my} {noun} after {x}?", "What came after {x} as {my} {noun}?"),
    "as_of": ("What is {my} {noun}?", "Which {noun} {do} {I} have?"),
    "now": ("What is {my} {noun} now?", "Which {noun} {do} {I} have at the moment?"),
    "when": ("When did {x} become {my} {noun}?", "When did {I} start with {x}?"),
    "how_long": ("How long was {x} {my} {noun}?", "For how long did {I} have {x} as {my} {noun}?"),
    "in_month": ("What was {my} {noun} {t}?", "Which {noun} did {I} have {t}?"),
    "relative": ("What was {my} {noun} {t}?", "Which {noun} did {I} have {t}?"),
    "during": ("What was {my} {noun} {a}?",),
}
TIME_PHRASES = (
    TimePhrase("in {month} {year}", "month"),
    TimePhrase("two years ago", "ago", months=24),
    TimePhrase("three years ago", "ago", months=36),
    TimePhrase("last spring", "last_season", months=3, length=3),
    TimePhrase("in the spring of {year}", "season", months=3, length=3),
)
ANCHOR_PHRASES = ("back when {I} lived in {y}",)

# ------------------------------------------------------------------ chatter around the states
FILLERS = (
    "Made a huge lasagne tonight, there's enough for a week.",
    "The heating in the office is broken again.",
    "Watched a documentary about deep sea fish, so strange.",
    "{I} can't decide what to cook on Sunday.",
    "Finished the crossword for once.",
    "The trains were late again this morning.",
    "Trying to read more before bed instead of scrolling.",
    "It rained all weekend, we played cards.",
    "{my} knee is sore after the long walk.",
    "Thinking of painting the kitchen a lighter colour.",
)
REPLIES = (
    "That's good to hear!",
    "Oh, how exciting.",
    "Noted, thanks for telling me.",
    "Sounds like quite a week.",
    "I hope it goes well.",
    "Ha, that made me smile.",
    "Got it.",
    "Tell me how it turns out.",
)

SPLIT = Split(
    name="tune",
    users=words("Maren, Tobias, Ines, Rafael, Yuki, Odile, Kwame, Saskia"),
    others=(("Ilse", "she"), ("Jonas", "he"), ("Priti", "she"), ("Matteo", "he"), ("Freya", "she"),
            ("Desmond", "he"), ("Lotte", "she"), ("Aurelio", "he")),
    relations=(("sister", "she"), ("coworker", "any"), ("neighbour", "any"), ("cousin", "any")),
    attributes=ATTRIBUTES,
    start=START,
    switch=SWITCH,
    leave=LEAVE,
    moods=MOODS,
    questions=QUESTIONS,
    time_phrases=TIME_PHRASES,
    anchor_attribute="residence",
    anchor_phrases=ANCHOR_PHRASES,
    fillers=FILLERS,
    replies=REPLIES,
)  # fmt: skip
