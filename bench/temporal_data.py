"""The synthetic world of ``bench.temporal``: people whose home, employer, pet and car change over
time, stated among everyday chatter in dated sessions, and questions about those states.

Two DISJOINT sets of phrasing templates exist, for the state statements and for the questions:
``tune`` (look at it while tuning the read or write path) and ``eval`` (only for the reported
score). The eval set differs in wording, not just in names, so the eval figure measures how the
system generalises rather than how well it fits the tuning templates. Several phrasings name
neither the attribute nor the previous value ("the lease on our flat in X starts next week").

A benchmark fixture, not real data. Deterministic for a seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from memforest.domain import SessionInput, TurnInput

ATTRIBUTES = ("residence", "employer", "pet", "vehicle")
OPERATORS = ("before", "after", "as_of", "now", "when", "first", "latest")
TEMPLATE_SETS = ("tune", "eval")

PEOPLE = ("Alice", "Bruno", "Carmen", "Deepak", "Elena", "Farid", "Greta", "Hiro", "Ingrid", "Jamal", "Keiko", "Luca")
FRIENDS = ("Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven")
VALUES: dict[str, tuple[str, ...]] = {
    "residence": (
        "Denver", "Lisbon", "Osaka", "Toronto", "Nairobi", "Austin", "Berlin", "Seattle", "Melbourne", "Boston",
        "Porto", "Krakow", "Valencia", "Montreal", "Dublin", "Santiago", "Davis", "Miami", "Leeds", "Oslo",
    ),
    "employer": (
        "Acme Labs", "Northwind", "Globex", "Blue Harbor Bank", "Initech", "Umbrella Health", "Vandelay Imports",
        "Stark Analytics", "Wayne Logistics", "Hooli", "Pied Piper", "Soylent Foods", "Cyberdyne", "Tyrell Systems",
        "Oscorp", "Gringotts Finance", "Dunder Mifflin", "Monarch Solar", "Massive Dynamic", "Aperture Science",
    ),
    "pet": (
        "Biscuit", "Pepper", "Mochi", "Rex", "Luna", "Ziggy", "Waffles", "Clementine", "Nacho", "Pickles",
        "Juniper", "Tofu", "Bandit", "Olive", "Pretzel", "Marble", "Sprout", "Noodle", "Cosmo", "Hazel",
    ),
    "vehicle": (
        "Honda Civic", "Kia Niro", "Toyota Prius", "Subaru Outback", "Ford Focus", "Volvo XC40", "Mazda CX-5",
        "Tesla Model 3", "Skoda Octavia", "Nissan Leaf", "Jeep Wrangler", "Fiat Panda", "Hyundai Kona",
        "Renault Clio", "Audi A4", "Mini Cooper", "Peugeot 208", "Volkswagen Golf", "Seat Ibiza", "Dacia Duster",
    ),
}  # fmt: skip

# --------------------------------------------------------------------------- statements
# {v}: the new value; {prev}: the previous value (templates with {prev} are used only for changes)
STATEMENTS: dict[str, dict[str, tuple[str, ...]]] = {
    "tune": {
        "residence": (
            "I moved to {v} last week, still unpacking boxes.",
            "I live in {v} now, it took a while to settle in.",
            "The lease on our flat in {v} starts next week.",
            "We just got the keys to a little place in {v}.",
            "Finally settled in {v}, the neighbours are lovely.",
            "We relocated to {v} at the start of the month.",
            "Got a place in {v}, a two-bed near the river.",
            "We've settled in {v} for good, I think.",
            "Signed the lease on a flat in {v} yesterday.",
            "My new address is in {v}, I'll text it to you.",
            "Just bought a little house in {v}.",
            "We ended up in {v} after all, close to my parents.",
            "Home is {v} now, at least for a couple of years.",
            "We swapped {prev} for {v}, the rent is half.",
            "Our first night in the new apartment in {v} was noisy.",
        ),
        "employer": (
            "I work at {v} now, the commute is fine.",
            "Signed my contract with {v} yesterday.",
            "First day at {v} went well, my team seems friendly.",
            "I accepted the offer from {v}.",
            "Just started a new job at {v}.",
            "I joined {v} on Monday as a product designer.",
            "Got hired by {v}, I start next week.",
            "{v} offered me the job and I said yes.",
            "I'm at {v} now, different pace entirely.",
            "Left {prev} and signed with {v}.",
            "Today was my first shift at {v}.",
            "My new employer is {v}.",
            "I took a position with {v} in their finance team.",
        ),
        "pet": (
            "Say hi to our new rescue, a tabby called {v}.",
            "We adopted a puppy named {v}.",
            "I got a dog, her name is {v}.",
            "Meet {v}, the kitten we brought home from the shelter.",
            "{v} is our new cat, she loves the windowsill.",
            "We got a new kitten, we named her {v}.",
            "I'm fostering a greyhound called {v} for the shelter.",
            "Our tabby {v} knocked my coffee over again.",
            "We picked up a beagle pup, {v}, from a breeder.",
            "Adopted a bird named {v}, he whistles all day.",
            "We rescued a little terrier and called him {v}.",
            "Say hello to {v}, our new hamster.",
            "We brought {v} home from the rescue centre on Saturday.",
            "{v} the labradoodle is our newest family member.",
            "I got a parrot! His name is {v}.",
            "We said goodbye to {prev}, and now a kitten named {v} lives with us.",
            "We took in a stray tabby, we call her {v}.",
            "Our new pup {v} chewed my shoes.",
            "Fostering a sweet old spaniel named {v} this month.",
        ),
        "vehicle": (
            "Finally sold the {prev}, the new {v} is so quiet.",
            "I bought a {v} last weekend.",
            "I drive a {v} now.",
            "Picked up my new {v} from the dealer today.",
            "Traded in my old car for a {v}.",
            "I leased a {v} for three years.",
            "Picked up a used {v}, runs like a dream.",
            "Traded in the {prev} for a {v}.",
            "My new ride is a {v}.",
            "Just got the keys to my {v}.",
            "Sold my {prev} and got a {v} instead.",
            "The dealer finally delivered our {v}.",
            "Upgraded to a {v}, the old car was falling apart.",
            "Bought a second-hand {v} from my neighbour.",
        ),
    },
    "eval": {
        "residence": (
            "I relocated to {v} at the start of the month.",
            "Our new address is in {v}, come and visit any time.",
            "Signed the rental agreement for an apartment in {v} on Friday.",
            "The movers dropped the last boxes at our new place in {v}.",
            "I'm living in {v} these days, close to the river.",
        ),
        "employer": (
            "I joined {v} on Monday as part of their operations team.",
            "My badge for the {v} office finally arrived.",
            "HR at {v} sent over my onboarding paperwork, I start there next week.",
            "I've been hired by {v}.",
            "Handed in my notice and took the position at {v}.",
        ),
        "pet": (
            "We brought home a beagle and called him {v}.",
            "The family grew by one: a little terrier we named {v}.",
            "{v} the parrot moved in with us this weekend.",
            "Picked up our new greyhound from the breeder, he answers to {v}.",
            "Our newest housemate is a rabbit called {v}.",
        ),
        "vehicle": (
            "The {v} I just leased handles the hills really well.",
            "Got the keys to my {v} this morning, it still smells new.",
            "Said goodbye to the {prev} and drove home in a {v}.",
            "My commute is much nicer in the {v} I bought.",
            "Registered my new {v} at the DMV yesterday.",
        ),
    },
}

# ---------------------------------------------------------------------------- questions
# {p}: the person; {x}: the anchor value (before/after: a neighbouring state; when: the state itself)
QUESTIONS: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {
    "tune": {
        "residence": {
            "before": (
                "Where did {p} live before {x}?",
                "Where was {p} living before moving to {x}?",
                "Where was {p} based prior to {x}?",
                "Which city did {p} call home before relocating to {x}?",
                "Where had {p} been living until the move to {x}?",
            ),
            "after": (
                "Where did {p} live after {x}?",
                "Where did {p} move after {x}?",
                "Where did {p} settle after leaving {x}?",
                "Once {p} moved out of {x}, where did they go?",
                "Which city came after {x} for {p}?",
            ),
            "as_of": (
                "Where does {p} live?",
                "Which city is {p} living in?",
                "Where's {p}'s home?",
            ),
            "now": (
                "Where does {p} live now?",
                "Where is {p} living currently?",
                "Where is {p} based these days?",
                "Which city does {p} call home at the moment?",
            ),
            "when": (
                "When did {p} move to {x}?",
                "When did {p} relocate to {x}?",
                "What year did {p} settle in {x}?",
                "How long ago did {p} move to {x}?",
                "Since when has {p} lived in {x}?",
                "When was it that {p} moved to {x}?",
                "At what point did {p} get a place in {x}?",
                "When did {p} end up in {x}?",
                "What month did {p} arrive in {x}?",
                "Do you remember when {p} moved to {x}?",
            ),
            "first": (
                "Where did {p} live first?",
                "Where did {p} originally live?",
                "Which city was {p}'s first home?",
            ),
            "latest": (
                "Where did {p} move most recently?",
                "Where has {p} moved to most recently?",
                "What's {p}'s newest address?",
            ),
        },
        "employer": {
            "before": (
                "Where did {p} work before {x}?",
                "Who did {p} work for prior to {x}?",
                "Where was {p} employed before joining {x}?",
            ),
            "after": (
                "Where did {p} work after {x}?",
                "Who hired {p} after {x}?",
                "Which company did {p} join once they left {x}?",
            ),
            "as_of": (
                "Where does {p} work?",
                "Who does {p} work for?",
                "Which company employs {p}?",
            ),
            "now": (
                "Where does {p} work now?",
                "Who is {p}'s employer these days?",
                "Where is {p} working at the moment?",
            ),
            "when": (
                "When did {p} start working at {x}?",
                "When did {p} join {x}?",
                "What year did {p} start at {x}?",
                "When was {p} hired by {x}?",
                "When did {p} sign with {x}?",
                "How long ago did {p} take the job at {x}?",
                "Since when has {p} been working at {x}?",
                "At what point did {p} go to work for {x}?",
                "When did {p} get the offer from {x}?",
                "When was it that {p} started with {x}?",
            ),
            "first": (
                "Which company did {p} work for first?",
                "Who was {p}'s first employer?",
            ),
            "latest": (
                "Which company did {p} join most recently?",
                "Who hired {p} most recently?",
            ),
        },
        "pet": {
            "before": (
                "What pet did {p} have before {x}?",
                "Which pet did {p} have before {x}?",
                "What animal did {p} own prior to getting {x}?",
                "What was the name of the pup {p} had before {x}?",
            ),
            "after": (
                "What pet did {p} get after {x}?",
                "Which animal did {p} adopt after {x}?",
                "What pet came after {x} for {p}?",
            ),
            "as_of": (
                "What is the name of {p}'s pet?",
                "What animal does {p} have?",
                "Which pet does {p} own?",
                "What creature lives with {p}?",
            ),
            "now": (
                "What pet does {p} have now?",
                "What's the name of {p}'s dog now?",
                "Which animal lives with {p} these days?",
                "What pet is {p} looking after at the moment?",
                "What is the name of {p}'s cat currently?",
            ),
            "when": (
                "When did {p} get {x}?",
                "When did {p} adopt {x}?",
                "How long ago did {p} get {x}?",
                "When did {p} bring {x} home?",
                "Since when has {p} had {x}?",
                "When did {x} join {p}'s family?",
                "When was it that {p} rescued {x}?",
                "At what point did {p} take in {x}?",
            ),
            "first": (
                "What was {p}'s first pet?",
                "What animal did {p} have first?",
                "Which pet did {p} originally own?",
            ),
            "latest": (
                "What is {p}'s latest pet?",
                "What's the newest pet in {p}'s home?",
                "Which furry friend did {p} adopt last?",
            ),
        },
        "vehicle": {
            "before": (
                "What car did {p} drive before the {x}?",
                "Which car did {p} have prior to the {x}?",
                "What was {p} driving before buying the {x}?",
            ),
            "after": (
                "What car did {p} drive after the {x}?",
                "What replaced {p}'s {x}?",
                "Which car did {p} get once they sold the {x}?",
            ),
            "as_of": (
                "What car does {p} drive?",
                "Which car does {p} own?",
                "What is {p} driving?",
            ),
            "now": (
                "What car does {p} drive now?",
                "What's {p} driving these days?",
                "Which vehicle does {p} have at the moment?",
            ),
            "when": (
                "When did {p} get the {x}?",
                "When did {p} buy the {x}?",
                "When did {p} pick up the {x}?",
                "How long ago did {p} lease the {x}?",
                "Since when has {p} been driving the {x}?",
                "What year did {p} get the {x}?",
                "At what point did {p} switch to the {x}?",
                "When did {p} trade in the old car for the {x}?",
            ),
            "first": (
                "What was {p}'s first car?",
                "Which car did {p} own first?",
            ),
            "latest": (
                "What car did {p} buy most recently?",
                "What's the newest car {p} has bought?",
            ),
        },
    },
    "eval": {
        "residence": {
            "before": ("Which city was {p} based in prior to {x}?", "What was {p}'s home until the move to {x}?"),
            "after": ("Which city did {p} go to once {p} left {x}?", "What was {p}'s next home following {x}?"),
            "as_of": ("Which city is {p}'s home?",),
            "now": ("Which city is {p} based in these days?", "What town does {p} call home at the moment?"),
            "when": ("What date did {p} relocate to {x}?",),
            "first": ("Which city was {p} originally living in?",),
            "latest": ("What is the newest city {p} has lived in?",),
        },
        "employer": {
            "before": ("Which company employed {p} prior to {x}?",),
            "after": ("Who was {p}'s employer following {x}?",),
            "as_of": ("Who is {p}'s employer?",),
            "now": ("Which company is {p} employed by at the moment?",),
            "when": ("What date did {p} join {x}?",),
            "first": ("Who was {p}'s original employer?",),
            "latest": ("Who has {p} been employed by most recently?",),
        },
        "pet": {
            "before": ("Which animal did {p} keep prior to {x}?",),
            "after": ("Which animal joined {p}'s household following {x}?",),
            "as_of": ("Which animal lives with {p}?",),
            "now": ("Which animal is living with {p} these days?",),
            "when": ("What date did {x} join {p}'s household?",),
            "first": ("Which animal did {p} originally keep?",),
            "latest": ("Which animal did {p} adopt most recently?",),
        },
        "vehicle": {
            "before": ("Which vehicle was {p} using prior to the {x}?",),
            "after": ("Which vehicle replaced {p}'s {x}?",),
            "as_of": ("Which vehicle is {p} using?",),
            "now": ("Which vehicle is {p} using these days?",),
            "when": ("What date did {p} buy the {x}?",),
            "first": ("Which vehicle did {p} originally own?",),
            "latest": ("Which vehicle has {p} acquired most recently?",),
        },
    },
}

FILLER = (
    "Did you catch the game on Sunday?",
    "I've been trying to drink more water, it's harder than it sounds.",
    "We made a huge pot of soup and froze half of it.",
    "The weather has been so grey lately.",
    "I finished that mystery novel you recommended, loved the twist.",
    "My sister keeps sending me videos of her toddler.",
    "I started doing yoga in the mornings, ten minutes a day.",
    "The bakery on the corner does an amazing cinnamon roll.",
    "Work has been busy but nothing dramatic.",
    "I need to get my hair cut, it's getting out of hand.",
    "We watched a documentary about octopuses last night.",
    "My phone screen cracked again, third time this year.",
    "Thinking about planting tomatoes on the balcony.",
    "Have you tried the new ramen place downtown?",
    "I went for a long walk by the lake, very peaceful.",
    "My cousin is visiting {city} next month for a conference.",
    "There's a jazz festival in {city} that looks fun.",
    "A friend of mine just got back from a trip to {city}.",
    "I'm so tired, I stayed up way too late reading.",
    "We're planning a board game night on Saturday.",
    "I burned the toast this morning, classic.",
    "The neighbours' dog barked all night.",
    "I signed up for a pottery class, first lesson is Thursday.",
    "My knee has been a bit sore after running.",
)
REPLIES = (
    "That's great news!",
    "Oh nice, tell me more.",
    "Ha, I know the feeling.",
    "Sounds lovely, I'm happy for you.",
    "Wow, that's a big change.",
    "Good for you!",
    "Same here, honestly.",
    "I'd love to hear how it goes.",
    "That sounds like a lot of fun.",
    "Fair enough.",
)


@dataclass(frozen=True, slots=True)
class State:
    """One state of a person's attribute: its value, the turn stating it and that turn's time."""

    person: str
    attribute: str
    index: int
    value: str
    turn_id: str
    time: datetime


@dataclass(frozen=True, slots=True)
class Question:
    """A question with its gold turn and the turns of the person's other states of that attribute."""

    qid: str
    forest: str
    person: str
    attribute: str
    operator: str
    text: str
    gold_turn: str
    other_turns: tuple[str, ...]
    gold_value: str
    as_of: datetime | None = None


@dataclass(slots=True)
class ForestData:
    """One forest: its sessions (in time order), the states stated in them, the questions."""

    name: str
    people: tuple[str, ...]
    sessions: list[SessionInput] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class WorldSpec:
    """The size of a generated world."""

    forests: int = 4
    people: int = 3
    states: int = 5  # per (person, attribute): the first state and states - 1 changes
    attributes: tuple[str, ...] = ATTRIBUTES
    per_operator: int = 2  # questions per (person, attribute) for before / after / as_of / when
    filler_sessions: float = 0.2  # chance of a session of chatter only
    turns_per_session: int = 8


def _statement(rng: random.Random, templates: str, attribute: str, value: str, prev: str | None) -> str:
    options = [t for t in STATEMENTS[templates][attribute] if prev is not None or "{prev}" not in t]
    return rng.choice(options).format(v=value, prev=prev or "")


def _filler(rng: random.Random) -> str:
    return rng.choice(FILLER).format(city=rng.choice(VALUES["residence"]))


def _events(rng: random.Random, spec: WorldSpec) -> list[tuple[str, int]]:
    first = list(spec.attributes)
    rng.shuffle(first)
    changes = [a for a in spec.attributes for _ in range(spec.states - 1)]
    rng.shuffle(changes)
    seen = dict.fromkeys(spec.attributes, 0)
    out = [(a, 0) for a in first]
    for a in changes:
        seen[a] += 1
        out.append((a, seen[a]))
    return out


def _forest(rng: random.Random, spec: WorldSpec, templates: str, index: int) -> ForestData:
    people = tuple(PEOPLE[index * spec.people + i] for i in range(spec.people))
    name = f"t{index}"
    pools = {a: rng.sample(VALUES[a], spec.people * spec.states) for a in spec.attributes}
    values = {
        (p, a): pools[a][i * spec.states : (i + 1) * spec.states] for i, p in enumerate(people) for a in spec.attributes
    }
    queues = {p: _events(rng, spec) for p in people}
    data = ForestData(name=name, people=people)
    when = datetime(2021, 1, 4, 18, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 20))
    pair_cycle = [(people[i], people[(i + 1) % len(people)]) for i in range(len(people))] if len(people) > 1 else []
    n = 0
    while any(queues.values()):
        n += 1
        when += timedelta(days=rng.randint(8, 20), hours=rng.randint(-3, 3))
        sid = f"{name}-s{n}"
        if pair_cycle:
            a, b = pair_cycle[n % len(pair_cycle)]
        else:
            a, b = people[0], rng.choice(FRIENDS)
        speakers = [a if j % 2 == 0 else b for j in range(spec.turns_per_session)]
        texts = [_filler(rng) if j % 3 != 1 else rng.choice(REPLIES) for j in range(spec.turns_per_session)]
        if rng.random() >= spec.filler_sessions:
            cells = rng.sample(range(spec.turns_per_session // 2), 2)
            for who, cell, parity in ((a, cells[0], 0), (b, cells[1], 1)):
                if not queues.get(who):
                    continue
                attribute, k = queues[who].pop(0)
                chain = values[(who, attribute)]
                j = 2 * cell + parity
                texts[j] = _statement(rng, templates, attribute, chain[k], chain[k - 1] if k else None)
                data.states.append(State(who, attribute, k, chain[k], f"{sid}:{j + 1}", when))
                if parity == 0:  # the other speaker answers within the same cell
                    texts[j + 1] = rng.choice(REPLIES)
        turns = tuple(
            TurnInput(speaker=s, text=t, external_id=f"{sid}:{j + 1}")
            for j, (s, t) in enumerate(zip(speakers, texts, strict=True))
        )
        data.sessions.append(SessionInput(external_id=sid, time=when, turns=turns))
    data.questions = _questions(rng, spec, templates, data, when)
    return data


def _ask(rng: random.Random, templates: str, attribute: str, operator: str, person: str, x: str = "") -> str:
    return rng.choice(QUESTIONS[templates][attribute][operator]).format(p=person, x=x)


def _questions(rng: random.Random, spec: WorldSpec, templates: str, data: ForestData, end: datetime) -> list[Question]:
    out: list[Question] = []
    for person in data.people:
        for attribute in spec.attributes:
            chain = sorted((s for s in data.states if s.person == person and s.attribute == attribute),
                           key=lambda s: s.index)  # fmt: skip
            if len(chain) < 2:
                continue

            last = len(chain) - 1
            asks: list[tuple[str, State, str, datetime | None]] = []
            for i in rng.sample(range(last), min(spec.per_operator, last)):
                asks.append(
                    ("before", chain[i], _ask(rng, templates, attribute, "before", person, chain[i + 1].value), None)
                )
            for i in rng.sample(range(1, last + 1), min(spec.per_operator, last)):
                asks.append(
                    ("after", chain[i], _ask(rng, templates, attribute, "after", person, chain[i - 1].value), None)
                )
            for i in rng.sample(range(last + 1), min(spec.per_operator, last + 1)):
                stop = chain[i + 1].time if i < last else end + timedelta(days=30)
                as_of = chain[i].time + (stop - chain[i].time) / 2
                asks.append(("as_of", chain[i], _ask(rng, templates, attribute, "as_of", person), as_of))
            asks.append(("now", chain[last], _ask(rng, templates, attribute, "now", person), None))
            for i in rng.sample(range(last + 1), min(spec.per_operator, last + 1)):
                asks.append(("when", chain[i], _ask(rng, templates, attribute, "when", person, chain[i].value), None))
            asks.append(("first", chain[0], _ask(rng, templates, attribute, "first", person), None))
            asks.append(("latest", chain[last], _ask(rng, templates, attribute, "latest", person), None))
            for op, gold, text, as_of in asks:
                others = tuple(s.turn_id for s in chain if s is not gold)
                qid = f"{data.name}-{person}-{attribute}-{op}-{len(out)}"
                out.append(
                    Question(qid, data.name, person, attribute, op, text, gold.turn_id, others, gold.value, as_of)
                )
    return out


def generate(seed: int, templates: str, spec: WorldSpec | None = None) -> list[ForestData]:
    """The forests of one world, phrased with the ``templates`` set (``tune`` or ``eval``)."""
    if templates not in TEMPLATE_SETS:
        raise ValueError(f"templates must be one of {TEMPLATE_SETS}")
    spec = spec or WorldSpec()
    if spec.forests * spec.people > len(PEOPLE):
        raise ValueError(f"at most {len(PEOPLE)} people in all")
    rng = random.Random(f"{seed}:{templates}")
    return [_forest(rng, spec, templates, i) for i in range(spec.forests)]


def template_overlap() -> list[str]:
    """Statement or question templates found in both sets (must be empty)."""
    shared: list[str] = []
    for attribute in ATTRIBUTES:
        a, b = set(STATEMENTS["tune"][attribute]), set(STATEMENTS["eval"][attribute])
        shared += sorted(a & b)
        for op in OPERATORS:
            shared += sorted(set(QUESTIONS["tune"][attribute][op]) & set(QUESTIONS["eval"][attribute][op]))
    return shared


def all_turn_ids(forests: Sequence[ForestData]) -> set[str]:
    """Every turn id of the world (a gold turn must be one of them)."""
    return {t.external_id or "" for f in forests for s in f.sessions for t in s.turns}
