"""State sentences in everyday phrasings that name neither the attribute nor the previous value
(home, employer, pet, car), read by general rules and vocabulary (dwellings, job cues, animal
kinds and breeds, car makes and models); and sentences that state no state of the speaker's
(someone else's car, a rental, a trip, a wish). Written for generalisation: none is a benchmark
template."""

from __future__ import annotations

import pytest
from support.states import Slot, speaker_slots


def slots(text: str, speaker: str = "Mia") -> list[Slot]:
    return speaker_slots(text, speaker)


CASES = [  # (attribute, value, sentence)
    # residence
    ("residence", "Lisbon", "Our stuff finally arrived in Lisbon, the movers were two days late."),
    ("residence", "Osaka", "The new apartment in Osaka has a tiny balcony but I love it."),
    ("residence", "Toronto", "Toronto is home now, can't believe it's been a month already."),
    ("residence", "Nairobi", "We packed up everything and headed to Nairobi last weekend."),
    ("residence", "Austin", "Been in Austin for two weeks and the heat is unreal."),
    ("residence", "Berlin", "My landlord in Berlin is super chill about the cat."),
    ("residence", "Seattle", "Closing on the house in Seattle happened on Friday!"),
    ("residence", "Melbourne", "So we ended up renting a townhouse over in Melbourne, close to the tram."),
    ("residence", "Porto", "Ok so big news, I'm officially a Porto resident as of this week."),
    ("residence", "Krakow", "Woke up to church bells in my new neighbourhood in Krakow, still unreal."),
    ("residence", "Valencia", "After months of searching we found a flat in Valencia and moved in on Sunday."),
    ("residence", "Dublin", "The movers dropped the last boxes at our new place in Dublin this morning."),
    ("residence", "Montreal", "Just got my Montreal address sorted, so send postcards there."),
    ("residence", "Oslo", "We've been living out of boxes since we got to Oslo."),
    ("residence", "Montreal", "Left Toronto behind for good, we're in Montreal now."),
    # employer
    ("employer", "Northwind", "Northwind took me on as a data analyst, starting Monday."),
    ("employer", "Globex", "I was hired by Globex after the third interview."),
    ("employer", "Brightwell", "I started as a UX designer at a health-tech startup called Brightwell."),
    ("employer", "Pixel & Co", "These days I work at a small agency called Pixel & Co."),
    ("employer", "Hooli", "Handed in my badge at the old place, Hooli onboarding is tomorrow."),
    ("employer", "Initech", "My first paycheck from Initech just landed."),
    ("employer", "Cyberdyne", "Got the job! Cyberdyne wants me to start in June."),
    ("employer", "Oscorp", "Said yes to Oscorp, the salary was too good to turn down."),
    ("employer", "Monarch Solar", "Today was my first week on the team at Monarch Solar."),
    ("employer", "Acme Labs", "I'm now on the payroll at Acme Labs, finally."),
    ("employer", "Stark Analytics", "Stark Analytics made me an offer and I took it."),
    ("employer", "Wayne Logistics", "Officially a Wayne Logistics employee as of today."),
    ("employer", "Dunder Mifflin", "Quit the old job, I'm selling paper for Dunder Mifflin now."),
    ("employer", "Blue Harbor Bank", "Just finished orientation at Blue Harbor Bank, so many forms."),
    ("employer", "Stark Analytics", "Quit Northwind last month, I'm with Stark Analytics now."),
    # pet
    ("pet", "Biscuit", "We brought home a little beagle, Biscuit, from the rescue centre."),
    ("pet", "Mochi", "Mochi the ragdoll has claimed the sofa as her own."),
    ("pet", "Rex", "There's a new furry member of the household, a lab mix called Rex."),
    ("pet", "Luna", "Luna, our new greyhound, sleeps twenty hours a day."),
    ("pet", "Ziggy", "The shelter let us take Ziggy home yesterday, he's a sweet old tomcat."),
    ("pet", "Waffles", "Waffles is a cockapoo and she's already chewed two shoes."),
    ("pet", "Clementine", "We've got a bunny now! Her name's Clementine."),
    ("pet", "Nacho", "Nacho came home with us from the breeder on Saturday."),
    ("pet", "Pickles", "Adopted an old border collie, Pickles, who just wants belly rubs."),
    ("pet", "Tofu", "Tofu, the Maine Coon we got, weighs a ton."),
    ("pet", "Bandit", "Finally caved and got the kids a guinea pig, they named it Bandit."),
    ("pet", "Olive", "Just picked up Olive from the shelter, a shy little sphynx."),
    ("pet", "Pretzel", "Our new cockatiel Pretzel whistles the Mario theme."),
    ("pet", "Hazel", "Walked Hazel three times today, this puppy has endless energy."),
    # vehicle
    ("vehicle", "Subaru Outback", "Said goodbye to the old Civic and drove home in a Subaru Outback."),
    ("vehicle", "Mazda CX-5", "The Mazda CX-5 is parked outside, it's mine now!"),
    ("vehicle", "Tesla Model 3", "We went electric, a Tesla Model 3."),
    ("vehicle", "Skoda Octavia", "Got a good deal on a second-hand Skoda Octavia."),
    ("vehicle", "Nissan Leaf", "Charging the Nissan Leaf overnight is so convenient."),
    ("vehicle", "Jeep Wrangler", "My new ride is a Jeep Wrangler, top comes off and everything."),
    ("vehicle", "Fiat Panda", "Parking is so easy with the Fiat Panda."),
    ("vehicle", "Hyundai Kona", "Leased a Hyundai Kona for three years."),
    ("vehicle", "Audi A4", "The Audi A4 was delivered this morning and it's gorgeous."),
    ("vehicle", "Volkswagen Golf", "Upgraded from the Fiat to a Volkswagen Golf."),
    ("vehicle", "Dacia Duster", "We're a Dacia Duster family now, lol."),
    ("vehicle", "Mini Cooper", "Zipping around town in my Mini Cooper, love it."),
    ("vehicle", "Renault Clio", "The Renault Clio we got is tiny but reliable."),
    # a value after a case-insensitive cue, a participant named before the value, a relative named
    # after it, a farewell's "to"
    ("residence", "Oslo", "Home is Oslo these days, and I love the fjords."),
    ("residence", "Leeds", "The new address is in Leeds, I'll send it to you tonight."),
    ("residence", "Porto", "Somehow we ended up in Porto, five minutes from the beach."),
    ("vehicle", "Kia Niro", "Bought a used Kia Niro from my uncle."),
    ("pet", "Biscuit", "Said goodbye to Hazel in the spring, and now a puppy called Biscuit lives with us."),
    ("pet", "Nacho", "Took in a stray ginger cat and we call him Nacho."),
]


@pytest.mark.parametrize(("attribute", "value", "text"), CASES)
def test_state_in_everyday_phrasing(attribute: str, value: str, text: str) -> None:
    assert ("Mia", attribute, value) in slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "My sister moved to Berlin.",
        "I'm thinking about moving to Paris.",
        "I didn't get the job at Globex.",
        "We had a great trip to Rome.",
        "My cousin adopted a cat named Tom.",
        "My friend's Tesla broke down on the highway.",
        "I rented a Fiat Panda for the weekend in Sicily.",
        "We took an Uber in a Toyota Prius.",
        "I saw a Jeep Wrangler parked outside.",
        "The local bakery in Leeds is amazing.",
        "My boss went to Berlin for a conference.",
        "Our dog walker is called Sam.",
        "I might adopt a kitten next year.",
        "Tesla stock went up again.",
        "I read an article about Hooli.",
        "We visited Porto last summer, loved it.",
        "The vet said Luna is healthy.",
        "Went to a concert in Austin.",
        "My neighbour's cat Felix keeps visiting.",
        "If we move to Oslo I'll need a new coat.",
        "We're hoping to buy a house in Denver someday.",
        "I had lunch with Omar at a cafe.",
        "Nadia's new puppy is adorable.",
        "I'd love a Volvo XC40 one day.",
        "Lisbon is where my sister lives.",
        "The Kia Niro my uncle bought is red.",
    ],
)
def test_no_state_of_the_speaker(text: str) -> None:
    """A relative's state is theirs (issue #48): never a slot of the speaker's."""
    assert all(a is None or subject != "Mia" for subject, a, _ in slots(text))


@pytest.mark.parametrize(
    ("text", "subject", "attribute", "value"),
    [
        ("My sister moved to Berlin.", "Mia's sister", "residence", "Berlin"),
        ("My cousin adopted a cat named Tom.", "Mia's cousin", "pet", "Tom"),
        ("My brother Kofi just joined the Ashgrove Rowing Club.", "Kofi", "membership", "Ashgrove Rowing Club"),
        ("My aunt's new optician is Lumen Eyecare.", "Mia's aunt", "optician", "Lumen Eyecare"),
    ],
)
def test_a_relative_is_the_subject_of_their_own_state(text: str, subject: str, attribute: str, value: str) -> None:
    assert (subject, attribute, value) in slots(text)
