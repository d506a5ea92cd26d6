"""The synthetic world of the write-path benchmarks: a deterministic stream of conversations among
recurring speakers whose states change over time (a benchmark fixture, not real data)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from memforest.domain import SessionInput, TurnInput

_PEOPLE = ("Alice", "Bruno", "Carmen", "Deepak", "Elena", "Farid", "Greta", "Hiro")
_FRIENDS = ("Ines", "Jonas", "Kemal", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tamsin")
_CITIES = (
    "Denver",
    "Lisbon",
    "Osaka",
    "Toronto",
    "Nairobi",
    "Austin",
    "Berlin",
    "Seattle",
    "Melbourne",
    "Boston",
    "Porto",
    "Krakow",
    "Valencia",
    "Montreal",
    "Dublin",
    "Santiago",
)
_VENUES = (
    "Lake Tahoe",
    "Central Park",
    "Griffith Observatory",
    "Mount Rainier",
    "Golden Gate Park",
    "Red Rocks",
    "Harbor Market",
    "Riverside Library",
    "Pine Ridge Trail",
    "Eastside Climbing Gym",
    "Blue Note Cafe",
    "Maple Community Garden",
)
_COMPANIES = (
    "Acme Labs",
    "Northwind",
    "Globex",
    "Blue Harbor Bank",
    "Initech",
    "Umbrella Health",
    "Vandelay Imports",
    "Stark Analytics",
    "Wayne Logistics",
    "Hooli",
)
_JOBS = (
    "nurse",
    "teacher",
    "software engineer",
    "chef",
    "architect",
    "photographer",
    "accountant",
    "data analyst",
    "physiotherapist",
    "graphic designer",
)
_ACTIVITIES = (
    "hiking",
    "painting",
    "pottery",
    "rock climbing",
    "baking sourdough",
    "running",
    "playing chess",
    "playing guitar",
    "birdwatching",
    "kayaking",
    "swimming",
    "gardening",
)
_FAVORITE = {
    "book": ("Dune", "Middlemarch", "The Hobbit", "Beloved", "Neuromancer", "Emma", "Ulysses"),
    "food": ("ramen", "tacos", "paella", "dumplings", "lasagna", "pho", "falafel"),
    "movie": ("Alien", "Amelie", "Heat", "Up", "Arrival", "Vertigo", "Parasite"),
    "band": ("Radiohead", "Abba", "Queen", "Blur", "Muse", "Oasis", "Pulp"),
}
_PETS = ("dog", "cat", "parrot", "rabbit", "hamster", "turtle")
_PET_NAMES = ("Biscuit", "Luna", "Pepper", "Milo", "Ziggy", "Nala", "Oreo", "Mochi", "Rocket", "Juniper")
_WHEN = (
    "yesterday",
    "last Friday",
    "two weeks ago",
    "last weekend",
    "on Monday",
    "three days ago",
    "last month",
    "this morning",
    "last Tuesday",
    "a week ago",
)
_NEXT = ("next week", "next month", "next Saturday", "in two weeks", "this summer")
_STATUSES = ("single", "engaged", "married")
_QUESTIONS = (
    "How was your week?",
    "What have you been up to lately?",
    "Any news on your side?",
    "How is everything going?",
    "Did anything fun happen recently?",
)
_REPLIES = (
    "That sounds wonderful!",
    "Oh wow, good for you.",
    "Haha, I can imagine.",
    "That is great to hear.",
    "Nice, tell me more next time.",
)


_SYLLABLES = ("ka", "lo", "mi", "ren", "sa", "tor", "vel", "zu", "bri", "don", "el", "fa", "gor", "ish", "ju", "nor")
_PLACE_KINDS = ("Park", "Cafe", "Trail", "Market", "Gallery", "Hall", "Beach", "Studio", "Bistro", "Gardens")
_RECENT = 12  # people mostly mention the friends and places of late


def _coined_name(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


@dataclass(slots=True)
class _Person:
    name: str
    city: str
    job: str
    company: str
    status: str
    age: int
    favorites: dict[str, str] = field(default_factory=dict)


class SyntheticConversations:
    """A deterministic stream of ~10-turn sessions among recurring speakers whose states change over
    time (moves, new jobs, new favourites, birthdays, relationships), so the rule-based extractor finds
    slot facts and supersession happens; events carry relative dates ("last Friday") and recurring
    friends, places and companies, so entity and scene trees keep growing.

    The world does not saturate: as time goes on the speakers keep meeting new friends and finding
    new places (a new one every few sessions, mentioned mostly while recent), so a session of a
    large forest brings about as many new facts as one of a small forest, and write cost per
    session measures the write path, not a world that has run out of things to say."""

    def __init__(self, seed: int = 0, *, prefix: str = "s", start: datetime | None = None) -> None:
        self.rng = random.Random(seed)
        self.prefix = prefix
        self.time = start or datetime(2020, 1, 6, 9, 0, tzinfo=UTC)
        self.count = 0
        r = self.rng
        self.friends = list(_FRIENDS)
        self.venues = list(_VENUES)
        self.people = [
            _Person(
                name=n,
                city=r.choice(_CITIES),
                job=r.choice(_JOBS),
                company=r.choice(_COMPANIES),
                status=r.choice(_STATUSES),
                age=r.randint(22, 60),
                favorites={k: r.choice(v) for k, v in _FAVORITE.items()},
            )
            for n in _PEOPLE
        ]

    def _friend(self) -> str:
        return self.rng.choice(self.friends[-_RECENT:])

    def _venue(self) -> str:
        return self.rng.choice(self.venues[-_RECENT:])

    def _meet_the_world(self) -> None:
        """Between sessions: now and then a new friend or a new place enters the speakers' lives."""
        r = self.rng
        if r.random() < 0.35:
            self.friends.append(_coined_name(r))
        if r.random() < 0.25:
            self.venues.append(f"{_coined_name(r)} {r.choice(_PLACE_KINDS)}")

    def _statement(self, p: _Person) -> str:
        r = self.rng
        roll = r.random()
        if roll < 0.10:
            p.city = r.choice([c for c in _CITIES if c != p.city])
            return f"I moved to {p.city} {r.choice(_WHEN)}. The new apartment has {r.randint(2, 9)} windows."
        if roll < 0.17:
            p.job = r.choice([j for j in _JOBS if j != p.job])
            return f"I started working as a {p.job} {r.choice(_WHEN)}."
        if roll < 0.24:
            p.company = r.choice([c for c in _COMPANIES if c != p.company])
            return f"I got a new job at {p.company}. My team there has {r.randint(3, 30)} people."
        if roll < 0.31:
            thing = r.choice(list(_FAVORITE))
            p.favorites[thing] = r.choice(_FAVORITE[thing])
            return f"My favorite {thing} is {p.favorites[thing]} these days."
        if roll < 0.35:
            p.age += 1
            return f"I turned {p.age} {r.choice(_WHEN)} and we celebrated at {self._venue()}."
        if roll < 0.38:
            p.status = r.choice([s for s in _STATUSES if s != p.status])
            return f"I got {p.status} {r.choice(_WHEN)}!"
        if roll < 0.43:
            return (
                f"I adopted a {r.choice(_PETS)} named {r.choice(_PET_NAMES)} {r.choice(_WHEN)}. "
                f"It is {r.randint(1, 11)} months old."
            )
        if roll < 0.55:
            return f"I live in {p.city} and I work as a {p.job} at {p.company}."
        if roll < 0.75:
            return (
                f"I went {r.choice(_ACTIVITIES)} at {self._venue()} {r.choice(_WHEN)} with {self._friend()}. "
                f"We stayed for {r.randint(1, 8)} hours."
            )
        if roll < 0.85:
            return f"I am planning to visit {r.choice(_CITIES)} {r.choice(_NEXT)} with {self._friend()}."
        if roll < 0.93:
            friend, venue = self._friend(), self._venue()
            return f"{friend} and I met at {venue} {r.choice(_WHEN)} for {r.randint(2, 40)} minutes."
        return (
            f"I really love {r.choice(_ACTIVITIES)} with {self._friend()} because it helps me relax after work "
            f"at {p.company}."
        )

    def session(self) -> SessionInput:
        """The next session (~10 turns)."""
        r = self.rng
        self._meet_the_world()
        self.time += timedelta(hours=r.randint(6, 40), minutes=r.randint(0, 59))
        a, b = r.sample(self.people, 2)
        n_turns = r.randint(8, 12)
        turns = []
        for i in range(n_turns):
            speaker, other = (a, b) if i % 2 == 0 else (b, a)
            if i == 0:
                text = f"Hi {other.name}! {r.choice(_QUESTIONS)}"
            elif r.random() < 0.2:
                text = f"{r.choice(_REPLIES)} {r.choice(_QUESTIONS)}"
            else:
                text = self._statement(speaker)
                if r.random() < 0.35:
                    text += " " + self._statement(speaker)
            turns.append(TurnInput(speaker=speaker.name, text=text, role="user", external_id=f"t{i}"))
        self.count += 1
        return SessionInput(external_id=f"{self.prefix}{self.count:06d}", time=self.time, turns=tuple(turns))

    def sessions(self, n: int) -> list[SessionInput]:
        return [self.session() for _ in range(n)]
