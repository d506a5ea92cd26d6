"""The ``eval`` split of ``bench.temporal_v2``: HELD OUT.

If you change MemForest's write or read path, do not read this file, do not copy its sentences,
values or attributes into tests or word lists, and do not run ``--split eval`` while tuning: the
``tune`` split (``bench/temporal_v2_tune.py``) is for that. The evaluation is run at most once per
milestone and only its aggregate is looked at (the result file's ``history`` counts the looks).

Its templates, values and attributes share nothing with the tune split; several attributes here
(and their nouns) appear in no tune template. A benchmark fixture, not real data.
"""

from __future__ import annotations

from bench.temporal_v2_spec import Attribute, Split, TimePhrase, words

ATTRIBUTES = (
    # ---- named (MemForest knows these 14 names: these 2 of them) --------------------------
    Attribute(
        "employer", "group", "employer", "work for {x}",
        indirect=(
            "{my} first paycheck from {v} just landed.",
            "The {v} all-hands ran two hours over, {I} nearly fell asleep.",
        ),
        values=words("Brightwater Freight, Calloway Software, Peregrine Care, Ostrander Media, Quarrystone Energy, "
                     "Marlowe and Finch, Tessellate Design, Harrowgate Bakeries, Vireo Robotics, Stonebridge Legal, "
                     "Orchard Lane Games, Kestrel Aerospace, Wyvern Textiles"),
    ),
    Attribute(
        "vehicle", "thing", "car", "get behind the wheel of a {x}",
        indirect=(
            "Filled up the {v} on the way home, prices are absurd.",
            "The {v} failed its inspection over a brake light.",
        ),
        values=words("Lancia Ypsilon, Alfa Romeo Giulia, Citroen C3, Opel Corsa, Suzuki Jimny, Mitsubishi Outlander, "
                     "Cupra Born, Polestar 2, Lexus UX, Genesis GV60, BYD Dolphin, MG4, Chevrolet Bolt"),
    ),
    # ---- open-ended ---------------------------------------------------------------------
    Attribute(
        "doctor", "provider", "family doctor", "be seen by {x}",
        indirect=(
            "{v} renewed {my} prescription without a fuss.",
            "Waited forty minutes at the surgery of {v} for a two-minute chat.",
        ),
        values=words("Dr. Ashworth, Dr. Oduya, Dr. Varga, Dr. Sandoval, Dr. Whitcombe, Dr. Ekstrom, Dr. Pellegrini, "
                     "Dr. Quist, Dr. Rahimi, Dr. Thorne, Dr. Abiodun, Dr. Marchetti"),
    ),
    Attribute(
        "vet", "provider", "vet", "take the animals to {x}",
        indirect=(
            "{v} filed down the rabbit's teeth and charged a fortune.",
            "Picked up the flea drops from {v} after work.",
        ),
        values=words("Paws and Claws Clinic, Hollybrook Veterinary, Fernhill Animal Hospital, Wagtail Vets, "
                     "Greenhollow Vet Centre, Forgeside Veterinary, Tailwind Animal Care, Mistral Vets, "
                     "Cedarline Animal Clinic, Barkley Square Vets, Whisker Lane Veterinary, Sunnybank Vets"),
    ),
    Attribute(
        "bank", "provider", "bank", "keep {my} savings with {x}",
        indirect=(
            "{v} froze {my} card over a sandwich bought abroad.",
            "The mortgage adviser at {v} called back at last.",
        ),
        values=words("Meridian Savings, Copperleaf Savings, Anchorpoint Credit Union, Hearthstone Credit, "
                     "Silverbirch Trust, Pinecrest Lending, Tollgate Savings, Beacon Row Deposits, "
                     "Greywater Credit Union, Oakhaven Trust, Starling Yard Savings, Millrace Savings"),
    ),
    Attribute(
        "football_team", "group", "five-a-side team", "play for {x}",
        indirect=(
            "Scored twice for {v} last night, still buzzing.",
            "{v} lost seven-two, {I} blame the keeper.",
        ),
        values=words("Dockside Rovers, Ashgrove Albion, Midweek United, Kingsmead Wanderers, Boiler House FC, "
                     "Northcote Rangers, Sunday Stragglers, Gasworks Athletic, Hollow Lane FC, Brickfield Town, "
                     "Quayside Celtic, Vicarage XI"),
    ),
    Attribute(
        "book_club", "group", "book club", "read along with {x}",
        indirect=(
            "{v} picked a nine-hundred-page novel this month, {I'm} doomed.",
            "Hosted {v} at {my} place, we mostly talked about the wine.",
        ),
        values=words("Chapter and Verse, The Well-Thumbed Readers, Spines and Wines, Marginalia Circle, "
                     "Last Page Gang, Bookmark Brigade, The Unread Pile, Plot Twist Circle, Foxed Pages, "
                     "Midweek Tomes, Binding Agents, Footnotes and Friends"),
    ),
    Attribute(
        "instrument", "practice", "instrument", "learn the {x}",
        indirect=(
            "Practised scales on the {v} until the neighbours knocked.",
            "{my} {v} teacher says {my} posture is improving.",
        ),
        values=words("cello, trumpet, banjo, oboe, ukulele, harp, accordion, clarinet, bass guitar, mandolin, "
                     "saxophone, drum kit"),
    ),
    Attribute(
        "gym", "venue", "gym", "train at {x}",
        indirect=(
            "Deadlifts at {v} wrecked {my} back.",
            "{v} changed the locker codes again, {I} was stuck outside in a towel.",
        ),
        values=words("Ironclad Fitness, Pulse Studio, Forge Athletic, Core Assembly, Kinetic Loft, Lift Republic, "
                     "Steel Yard Gym, Motion Yard, Barbell District, Sweat Shed, Tempo Fitness, Stronghold Gym"),
    ),
    Attribute(
        "lunch_spot", "venue", "lunch spot", "eat lunch at {x}",
        indirect=(
            "Queued twenty minutes at {v} again, worth it.",
            "{v} remembered {my} usual order today.",
        ),
        values=words("Ramen Republic, Falafel Frank's, The Soup Kitchen on Elm, Banh Mi Brothers, Taco Libre, "
                     "Green Bowl, Crust and Rye, Dumpling Dynasty, Curry Cabin, Salad Days, Pho Real, Bagel Hut"),
    ),
)  # fmt: skip

# ------------------------------------------------------------------ statements, by class
START = {
    "group": (
        "{I} signed on with {v} this week.",
        "As of Monday {I'm} part of {v}.",
    ),
    "thing": (
        "{I} became the owner of a {v} today.",
        "A {v} is parked outside {my} door as of this morning.",
    ),
    "provider": (
        "{v} is looking after {me} from now on.",
        "{I} signed up with {v} as {my} {noun}.",
    ),
    "venue": (
        "{v} has become {my} regular {noun}.",
        "{I} keep{s} ending up at {v}, it's {my} {noun} now.",
    ),
    "practice": (
        "{I} took up the {v}, {my} fingers hurt.",
        "Lessons on the {v} every Wednesday for {me} now.",
    ),
}
SWITCH = {
    "group": (
        "Said farewell to {prev}; {I'm} with {v} from now on.",
        "Out with {prev}, in with {v}: {I} signed the papers today.",
    ),
    "thing": (
        "Swapped the {prev} for a {v}, what a difference.",
        "The {prev} is gone; {I} drive{s} a {v} these days.",
    ),
    "provider": (
        "{I've} taken {my} business from {prev} to {v}.",
        "{prev} is out; {I} transferred everything to {v}.",
    ),
    "venue": (
        "{I} abandoned {prev} for {v}.",
        "{v} replaced {prev} as {my} {noun}.",
    ),
    "practice": (
        "{I} dropped the {prev} and started on the {v}.",
        "Put the {prev} in the loft; the {v} is {my} thing now.",
    ),
}
LEAVE = {
    "group": ("{I} walked away from {prev} on Friday.",),
    "thing": ("{I} got rid of the {prev}, taking the bus for now.",),
    "provider": ("{I} closed things off with {prev}.",),
    "venue": ("{prev} and {I} are done; not worth the trip.",),
    "practice": ("{I} gave up the {prev}, no time to practise.",),
}

# ---------------------------------------------------- mood sentences: NOT states
MOODS = {
    "plan": ("Down the line {I} intend{s} to {vp}.", "There's talk of {me} deciding to {vp} in the autumn."),
    "wish": ("Honestly {I} would give anything to {vp}.",),
    "hypothetical": ("Suppose {I} won the lottery: {I} would {vp} straight away.",),
    "considered": ("{x} was on {my} shortlist for a bit.",),
    "turned_down": ("{I} passed on {x} in the end.", "{x} made an offer, {I} declined it."),
    "suggestion": ("{my} mum reckons {I} should {vp}.",),
    "negation": ("People assume {I} went with {x}, but no.",),
    "nostalgia": ("Thinking back fondly on {my} {x} era today.", "Nothing beats the old days with {x}, honestly."),
}

# ------------------------------------------------------------------ questions, by operator
QUESTIONS = {
    "before": ("Prior to {x}, who or what served as {my} {noun}?", "Which {noun} preceded {x} for {me}?"),
    "after": ("Which {noun} followed {x} for {me}?", "Once {x} was over, what did {I} turn to as {noun}?"),
    "as_of": ("Who or what serves as {my} {noun}?",),
    "now": ("Which {noun} {do} {I} rely on currently?", "Remind me of {my} current {noun}?"),
    "when": ("On what date did {I} take up with {x}?", "At which point did {x} enter the picture as {my} {noun}?"),
    "how_long": ("For what stretch of time did {I} stick with {x}?", "How many months did {x} last as {my} {noun}?"),
    "in_month": ("Remind me who or what {my} {noun} was {t}.",),
    "relative": ("{t}, which {noun} was {I} using?", "Remind me who or what {my} {noun} was {t}."),
    "during": ("{a}, which {noun} was part of {my} life?",),
}
TIME_PHRASES = (
    TimePhrase("in the month of {month} {year}", "month"),
    TimePhrase("a year and a half back", "ago", months=18),
    TimePhrase("four years back", "ago", months=48),
    TimePhrase("last summer", "last_season", months=6, length=3),
    TimePhrase("during the autumn of {year}", "season", months=9, length=3),
)
ANCHOR_PHRASES = ("during {my} time at {y}", "while {I} was employed by {y}")

# ------------------------------------------------------------------ chatter around the states
FILLERS = (
    "The boiler made that clanking noise again overnight.",
    "Spent the evening sorting old receipts, thrilling stuff.",
    "{I} tried a new curry recipe, too much chilli.",
    "Our street is being dug up for the third time this year.",
    "Saw a heron by the river on the way back.",
    "{my} sleep has been all over the place lately.",
    "Somebody left a sofa on the pavement outside.",
    "The quiz at the pub was impossible this week.",
    "Bought tulip bulbs, no idea where they will go.",
    "The printer jammed right before the deadline.",
)
REPLIES = (
    "Wonderful!",
    "Oh no, poor you.",
    "Understood.",
    "Fingers crossed for you.",
    "What a day.",
    "Keep me posted.",
    "Right, makes sense.",
    "That sounds lovely.",
)

SPLIT = Split(
    name="eval",
    users=words("Beatrix, Caspian, Dagny, Emeka, Fenna, Gideon, Hallie, Ignatius"),
    others=(("Wilhelmina", "she"), ("Bartholomew", "he"), ("Zofia", "she"), ("Thaddeus", "he"),
            ("Perpetua", "she"), ("Lorcan", "he"), ("Roswitha", "she"), ("Cyprian", "he")),
    relations=(("brother", "he"), ("flatmate", "any"), ("oldest friend", "any"), ("aunt", "she")),
    attributes=ATTRIBUTES,
    start=START,
    switch=SWITCH,
    leave=LEAVE,
    moods=MOODS,
    questions=QUESTIONS,
    time_phrases=TIME_PHRASES,
    anchor_attribute="employer",
    anchor_phrases=ANCHOR_PHRASES,
    fillers=FILLERS,
    replies=REPLIES,
)  # fmt: skip
