"""States said the way people type to a chatbot: lower-case sentence starts, a kind announced in
one sentence and named in the next, a kind that takes part in the subject's own clause ("in a quiz
team now, it's called X"), a provider held ("our gas has been with X"), habits, swaps of an unnamed
old thing, and the moods that still file nothing (ADR 0110). The sentences are written for these
tests; no benchmark's templates or vocabulary."""

from __future__ import annotations

import pytest

from memforest.domain import CellTurn, CellView
from memforest.text.dates import rewrite_relative
from memforest.text.extractor import extract_cell
from memforest.text.persons import rewrite_persons
from memforest.text.sentences import split_sentences
from tests.support.states import SAID_AT, speaker_slots


def test_a_lower_case_start_after_a_period_is_a_new_sentence() -> None:
    text = "my optician is Corwen Ashdale now. she spotted the astigmatism nobody else did"
    assert split_sentences(text) == [
        "my optician is Corwen Ashdale now.",
        "she spotted the astigmatism nobody else did",
    ]
    assert split_sentences("see Dr. Olabisi tomorrow. and e.g. bring notes") == [
        "see Dr. Olabisi tomorrow.",
        "and e.g. bring notes",
    ]
    assert split_sentences("it was fine... whatever") == ["it was fine... whatever"]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "Changed insurers. Everything's with Quillmark Mutual now, the old lot were useless.",
            ("Mia", "insurer", "Quillmark Mutual"),
        ),
        ("joined a band! the Copper Lanterns. I'm on bass", ("Mia", "band", "Copper Lanterns")),
        ("new girlfriend alert. her name is Oriel, she climbs", ("Mia", "partner", "Oriel")),
    ],
)
def test_a_kind_announced_then_named(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_an_announcement_followed_by_someone_speaking_names_nothing() -> None:
    assert [s for s in speaker_slots("Changed banks. Tobiah said it was fine.") if s[0] is not None] == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "I'm in a quiz team now, it's called The Late Answers, we meet on Tuesdays",
            ("Mia", "quiz_team", "The Late Answers"),
        ),
        ("I play netball with a team called Harrow Kites now.", ("Mia", "team", "Harrow Kites")),
        ("Our gas has been with Brightwick Energy since the spring.", ("Mia", "gas", "Brightwick Energy")),
        ("new vet as of this week: Dr. Pemberton-Okoye. very calm with cats", ("Mia", "vet", "Dr. Pemberton-Okoye")),
        ("the tablet I'm drawing this on is a Lumaro Pad, got it secondhand.", ("Mia", "device", "Lumaro Pad")),
        ("app I'm hooked on at the moment: Birdsong Journal. it logs every call", ("Mia", "app", "Birdsong Journal")),
        ("my cousin Ilario now runs a small bakery, Crumb Theory. he's thrilled", ("Ilario", "bakery", "Crumb Theory")),
        ("Uncle Bertil swapped his old hatchback for a Verano Estate.", ("Bertil", "vehicle", "Verano Estate")),
        ("We've moved out to a town called Wickersham.", ("Mia", "residence", "Wickersham")),
        ("I've got a rescue ferret now, Captain Pip.", ("Mia", "pet", "Captain Pip")),
        (
            "Kemi switched her phone plan to Lumenet and keeps bragging about the data.",
            ("Kemi", "phone_plan", "Lumenet"),
        ),
        ("my son Osric is at Fellgate High now, year 8", ("Osric", "school", "Fellgate High")),
    ],
)
def test_a_kind_named_in_chat_phrasings(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("i use Ledgerly for invoices now", "Ledgerly"),
        ("I'm doing ceramics on thursday evenings at Potter's Yard.", "Potter's Yard"),
        ("ok so I dropped Tallowfone, I'm on Brisa Mobile now and the signal in my flat is great", "Brisa Mobile"),
        ("Ines and I both joined the Larkmoor Ukulele Orchestra.", "Larkmoor Ukulele Orchestra"),
    ],
)
def test_a_present_habit_or_provider_is_the_speakers(text: str, value: str) -> None:
    assert ("Mia", value) in [(s[0], s[2]) for s in speaker_slots(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Dad keeps on at me to switch to Farrow Provident, I'm not going to.",
        "honestly debating whether to join Tallis Rowing Club this year.",
        "the agent showed us a flat in Pennick Vale today, lovely light",
        "the years at Grist Mill Press were the best of my working life.",
    ],
)
def test_suggestions_debates_viewings_and_remembered_years_file_nothing(text: str) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == []


def test_a_doctor_moved_over_to_is_no_home() -> None:
    slots = speaker_slots("My GP retired so I've been moved over to Dr. Ferreira-Lund at the Aldgrove practice.")
    assert all(s[1] != "residence" for s in slots)


def test_the_speaker_in_a_pair_is_written_first_and_keeps_a_plural_verb() -> None:
    assert rewrite_persons("Ines and I both joined it.", "Mia", None) == "Mia and Ines both joined it."
    assert rewrite_persons("I love it and I go running.", "Mia", None) == "Mia loves it and Mia goes running."


def test_a_weekday_before_a_plural_part_of_day_is_a_habit_not_a_date() -> None:
    text, mentions = rewrite_relative("pottery on wednesday evenings at the studio", SAID_AT)
    assert mentions == [] and "wednesday evenings" in text


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Aunt Marisela has taken up the harp at 70, as you can imagine", ("Marisela", "hobby", "harp")),
        ("Gulnara's family moved to Wendlebury over the winter.", ("Gulnara's family", "residence", "Wendlebury")),
        ("my family moved to Carrowdale in May.", ("Mia", "residence", "Carrowdale")),
    ],
)
def test_a_relation_titled_or_a_family_holds_its_own_state(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("been going to Corvane Climbing in the evenings after work", ("Mia", "patronage", "Corvane Climbing")),
        ("my osteopath these days is dr. Szabados-Pryce, very thorough", ("Mia", "osteopath", "Dr. Szabados-Pryce")),
        (
            "Tillbrook Pharmacy does my prescriptions now, the old one lost them",
            ("Mia", "patronage", "Tillbrook Pharmacy"),
        ),
        (
            "signed up for the thursday life drawing class at Easel House, no regrets",
            ("Mia", "membership", "Easel House"),
        ),
        ("registered with the Kestwick Health Centre last week", ("Mia", "membership", "Kestwick Health Centre")),
        ("i'm on the Marlpit Wanderers relay team now", ("Mia", "relay_team", "Marlpit Wanderers")),
        ("new camera!! a Halvard Z9, the autofocus is unreal", ("Mia", "camera", "Halvard Z9")),
        ("we've started attending St Brannoc's on sundays", ("Mia", "patronage", "St Brannoc's")),
        ("my nephew is at Quarry Lane Primary now, he loves it", ("Mia's nephew", "school", "Quarry Lane Primary")),
        ("my grandad's been in Heatherlea House since april", ("Mia's grandad", "residence", "Heatherlea House")),
    ],
)
def test_chat_shapes_of_going_to_joining_and_holding(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_pronoun_in_the_next_turn_is_the_person_the_speakers_last_turn_named() -> None:
    cell = CellView(
        "s",
        SAID_AT,
        (
            CellTurn(0, "Mia", "my neighbour Rosheen is such a legend", SAID_AT),
            CellTurn(1, "Ravi", "Oh? What happened?", SAID_AT),
            CellTurn(2, "Mia", "she joined the Pellow Bay lifeboat crew last month", SAID_AT),
        ),
    )
    assert [(c.subject, c.attribute, c.value) for c in extract_cell(cell) if c.attribute] == [
        ("Rosheen", "lifeboat_crew", "Pellow Bay")
    ]


def test_since_a_season_is_the_one_begun_before() -> None:
    text, _ = rewrite_relative("using Pennard Energy since the autumn", SAID_AT)
    assert "fall 2022" in text


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("The osteopath I see, Wendell Achterhof, has fixed my back.", ("Mia", "osteopath", "Wendell Achterhof")),
        ("The climbing gym I use, Granite Yard, is open till midnight.", ("Mia", "climbing_gym", "Granite Yard")),
        ("Pellinore Dental is where I go for check-ups.", ("Mia", "check-up", "Pellinore Dental")),
        ("Dariela has hired a piano tutor, Ottmar Quist.", ("Dariela", "piano_tutor", "Ottmar Quist")),
        ("Ilkka rides a Sorvali Trailhound bike to work.", ("Ilkka", "vehicle", "Sorvali Trailhound")),
        ("As of last week, I'm a resident of Korvenmaa.", ("Mia", "residence", "Korvenmaa")),
        ("Since January, Ondine has called Bellweather Quay home.", ("Ondine", "residence", "Bellweather Quay")),
        ("Tarquin's whippet is called Dumpling.", ("Tarquin", "pet", "Dumpling")),
        ("Home is now Gildersleeve, I signed the lease on Friday.", ("Mia", "residence", "Gildersleeve")),
    ],
)
def test_relative_clauses_appositions_and_places_of_use(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My uncle Teodor has taken up Krav Maga.", "Krav Maga"),
        ("I'm learning Basque on my lunch breaks.", "Basque"),
        ("Since the retreat, I practise Zazen meditation daily.", "Zazen meditation"),
        ("Orla switched from rowing to archery.", "archery"),
        ("I swapped the clarinet for the oboe last year.", "oboe"),
        ("Halvard has been doing qigong in the park every morning.", "qigong"),
        ("Ice baths are my thing now.", "Ice baths"),
    ],
)
def test_a_practice_taken_up_learnt_or_switched_to(text: str, value: str) -> None:
    assert value in [s[2] for s in speaker_slots(text) if s[1] == "hobby"]


@pytest.mark.parametrize(
    "text",
    [
        "I've been doing my homework every night.",
        "She's doing well since the surgery.",
        "I played tennis with the Marchettis.",
    ],
)
def test_doing_something_of_ones_own_or_a_game_once_is_no_practice_or_group(text: str) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've been voted onto the Brackley Orchard Committee.", "Brackley Orchard Committee"),
        ("Zuzana got accepted into the Orvieto Street Players.", "Orvieto Street Players"),
        ("I bowl in the Tamsworth Skittles League on Thursdays.", "Tamsworth Skittles League"),
        ("I've been riding a Coldharbour Vane 7 to work since March.", "Coldharbour Vane 7"),
        ("My stepmum has a new Quillon Seamster 40 sewing machine.", "Quillon Seamster 40"),
        ("Osei upgraded his espresso machine to a Fiorenza Duo 2.", "Fiorenza Duo 2"),
        ("Since January, my dentist has been Dr Amadou Kessel.", "Dr Amadou Kessel"),
        ("Bramblecote Motors services my van now.", "Bramblecote Motors"),
    ],
)
def test_groups_things_and_providers_in_benchmark_shaped_statements(text: str, value: str) -> None:
    assert value in [s[2] for s in speaker_slots(text) if s[1] is not None]


@pytest.mark.parametrize(
    "text",
    [
        "If the offer comes through and I'm at Apex Labs by June, we'll celebrate.",
        "Big update: Tobiah proposed!",
        "The guy I met, Tobiah Briggs, is lovely.",
        "The new guy from accounting, Tobiah, is hilarious.",
        "I'm with a client, Harrow Foods, all day.",
        "Leeds is where I go for work.",
        "Just use a Brita filter, it's cheaper.",
        "I have dinner with Tobiah every week.",
        "I play squash with Priya on Wednesdays.",
        "Almost joined a choir. The Vale Singers.",
        "I'm officially a homeowner!",
        "I called Tobiah home for dinner.",
    ],
)
def test_one_offs_people_hedges_and_roles_file_no_state(text: str) -> None:
    assert [s for s in speaker_slots(text) if s[1] is not None] == []


def test_a_role_told_after_the_name_is_that_persons_and_names_no_gym() -> None:
    slots = [s for s in speaker_slots("Joined a gym! Sam, my flatmate, dragged me along.") if s[1] is not None]
    assert slots == [("Mia", "flatmate", "Sam")]


def test_the_verb_after_i_in_a_second_clause_agrees() -> None:
    assert rewrite_persons("I left London and I live in Bath now.", "Mia", None) == (
        "Mia left London and Mia lives in Bath now."
    )


def test_a_turn_naming_someone_else_ends_the_carried_pronoun() -> None:
    cell = CellView(
        "s",
        SAID_AT,
        (
            CellTurn(0, "Mia", "Priya says hi.", SAID_AT),
            CellTurn(1, "Ravi", "Guess what, my sister Dana got engaged.", SAID_AT),
            CellTurn(2, "Mia", "Wow! She joined the Vale Singers too.", SAID_AT),
        ),
    )
    assert [c.subject for c in extract_cell(cell) if c.attribute and c.speaker == "Mia"] == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "Guess who's a card-carrying member of Pellow Fell Runners now?!",
            ("Mia", "membership", "Pellow Fell Runners"),
        ),
        ("guess who finally switched to Umberline Mobile?", ("Mia", "change", "Umberline Mobile")),
        ("Mia is a fully paid-up member of the Gorsebrook Chess Club.", ("Mia", "membership", "Gorsebrook Chess Club")),
    ],
)
def test_a_rhetorical_guess_who_and_a_member_with_adjectives_state_the_speakers_state(
    text: str, slot: tuple[str, str, str]
) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "Guess who I bumped into at Pellow Fell Runners?",
        "I'm a former member of the Gorsebrook Chess Club.",
        "I'm no longer a member of the Gorsebrook Chess Club.",
        "Wednesday was Ravi's last day at Tamberlane Foods, at work we had cake.",
        "Tomorrow is my final shift with Tamberlane Foods.",
    ],
)
def test_a_guess_with_a_subject_a_past_membership_and_a_last_day_file_no_start(text: str) -> None:
    assert not [
        s
        for s in speaker_slots(text)
        if s[1] is not None and s[2] in {"Pellow Fell Runners", "Gorsebrook Chess Club", "Tamberlane Foods"}
    ]


def test_a_word_that_opens_the_sentence_is_never_a_value() -> None:
    slots = speaker_slots(
        "So I picked up a used Veloce Ardent from a man in Carrow on Sunday, and I've ridden it to work twice."
    )
    assert ("Mia", "possession", "Veloce Ardent") in slots
    assert all(s[2] != "So" for s in slots)


def test_a_bill_named_by_its_provider_says_one_uses_it_and_a_month_is_no_provider() -> None:
    assert ("Mia", "patronage", "Quorra Power") in speaker_slots("My first Quorra Power bill arrived and it is tiny.")
    assert not [s for s in speaker_slots("My March bill arrived and it is tiny.") if s[1] is not None]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My Orvane Slate 9's battery barely lasts a morning now.", ("Mia", "possession", "Orvane Slate 9")),
        ("Knocked coffee over my Pellucid Z2's keyboard, typical.", ("Mia", "possession", "Pellucid Z2")),
        (
            "I signed up for an eight-week course of evening life drawing at Tallow Yard in March.",
            ("Mia", "membership", "Tallow Yard"),
        ),
    ],
)
def test_a_part_of_ones_thing_and_a_long_course_at_a_place_state_a_start(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in [(s, "possession" if a in {"device", "vehicle"} else a, v) for s, a, v in speaker_slots(text)]


def test_a_shops_name_ending_in_s_is_no_thing_of_ones_own() -> None:
    assert not [s for s in speaker_slots("Spilled soup on my Greggs's bag again.") if s[1] == "possession"]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Popped into Harlow Music and walked out with the Dunmore Parlour.", ("Mia", "possession", "Dunmore Parlour")),
        ("came home with a Brisa Tandem on Sunday, no regrets", ("Mia", "possession", "Brisa Tandem")),
        ("Ravi finally took delivery of the Solvane K3 this morning.", ("Ravi", "possession", "Solvane K3")),
    ],
)
def test_idioms_of_coming_to_have_a_thing_state_it(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    ["I walked out with Ravi after the match.", "I almost came home with a Brisa Tandem.", "Came back with Ravi."],
)
def test_walking_out_with_a_person_or_almost_getting_a_thing_states_nothing(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[1] == "possession"]


def test_a_state_begins_at_the_time_its_own_clause_names() -> None:
    cell = CellView(
        "s",
        SAID_AT,
        (
            CellTurn(
                0,
                "Mia",
                "Dr. Quayle retired in January, and I had my first appointment with Dr. Farrow last Tuesday.",
                SAID_AT,
            ),
            CellTurn(1, "Ravi", "Oh nice.", SAID_AT),
        ),
    )
    (state,) = [c for c in extract_cell(cell) if c.value == "Dr. Farrow"]
    assert state.time_text == "last Tuesday"
    assert (SAID_AT - state.valid_from).days < 7


def test_a_provider_moved_to_is_no_home_and_a_rant_heading_a_message_is_no_kind() -> None:
    assert ("Mia", "change", "Kelsall Building Society") in speaker_slots(
        "I moved all my savings over to Kelsall Building Society last week."
    )
    assert ("Mia", "residence", "Kelsall Road") in speaker_slots("I moved to Kelsall Road last week.")
    assert not [
        s for s in speaker_slots("Money rant: I have been with Orrin Direct for years.") if s[1] == "money_rant"
    ]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I've taken out a membership at Brockwell Clay Studio.", ("Mia", "membership", "Brockwell Clay Studio")),
        ("my lunchtime swim has migrated to Ferris Lido", ("Mia", "lunchtime_swim", "Ferris Lido")),
        ("Ravi has joined the Cobalt Hours as their bassist.", ("Ravi", "membership", "Cobalt Hours")),
    ],
)
def test_a_membership_taken_a_habit_migrated_and_a_role_at_the_value(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_professional_named_by_an_acronym_is_no_thing_of_ones_own() -> None:
    assert not [s for s in speaker_slots("I went back to Dr. Okafor as my GP.") if s[1] == "possession"]


def test_a_cue_word_inside_a_name_and_a_day_owned_are_no_state() -> None:
    slots = speaker_slots("Crumbwell Bakery on Ashgrove Drive has won my Sunday mornings, honestly.")
    assert not [s for s in slots if s[1] in {"vehicle", "possession"}]
    assert ("Mia", "residence", "Ashgrove Drive") in speaker_slots("We moved to Ashgrove Drive in May.")


def test_a_contract_with_a_provider_is_no_job_and_eyeing_a_place_is_no_state() -> None:
    assert ("Mia", "patronage", "Tolland") in speaker_slots("Two more months on my Tolland contract and then I'm free.")
    assert ("Mia", "employer", "Harwick Labs") in speaker_slots("I signed a contract with Harwick Labs last week.")
    assert not [
        s for s in speaker_slots("I keep eyeing Fernhill Pilates, it has a rooftop studio.") if s[1] is not None
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Guess who just joined Pellow Gym? My ex!",
        "Guess who got the job at Tamberlane Foods? Ravi!",
        "Guess who Jared invited to Pellow Gym?",
        "came home with a Glastonbury hangover",
        "splashed out on a Corvair flight to Lisbon",
        "I'm a prospective member of Gorsebrook Chess Club.",
        "I signed up for a free trial of the spin classes at Pellow Gym.",
        "My Christmas bill was huge.",
        "Ravi is thrilled, his son finally at Kestle College.",
    ],
)
def test_what_the_new_readings_leave_alone(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[0] == "Mia" and s[1] is not None]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I loved living in Kelby; we moved to Dunmere in May.", ("Mia", "residence", "Dunmere")),
        ("We moved to West Bank last year.", ("Mia", "residence", "West Bank")),
        (
            "I switched to Orrel Mobile yesterday because my Tolland contract ended in March.",
            ("Mia", "change", "Orrel Mobile"),
        ),
    ],
)
def test_a_person_after_a_semicolon_a_place_named_bank_and_a_contract_that_ended(
    text: str, slot: tuple[str, str, str]
) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("In 2019, I joined Ironworks Gym with a friend I met last summer.", "In 2019"),
        ("Two years ago, I moved to Kelby for a job that starts next week.", "Two years ago"),
    ],
)
def test_a_time_opening_the_sentence_before_a_comma_is_the_clauses_time(text: str, said: str) -> None:
    cell = CellView("s", SAID_AT, (CellTurn(0, "Mia", text, SAID_AT), CellTurn(1, "Ravi", "Oh nice.", SAID_AT)))
    assert [c.time_text for c in extract_cell(cell) if c.attribute is not None] == [said]


def test_the_new_readers_are_linear_on_long_runs() -> None:
    for text in ("Vell contract " * 2000, "Ab-" * 4000 + "Ab, then my contract ended.", "Hyde Drive " * 1500):
        assert isinstance(speaker_slots(text), list)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm a radiographer at Whinmoor General these days.", ("Mia", "employer", "Whinmoor General")),
        ("I am an estimator at Cressbrook Joinery.", ("Mia", "employer", "Cressbrook Joinery")),
        ("Torvald is a senior sound engineer at Palefire Studios now.", ("Torvald", "employer", "Palefire Studios")),
        (
            "My cousin quit the bakery. He's a conductor at Lowmoor Rail now.",
            ("Mia's cousin", "employer", "Lowmoor Rail"),
        ),
        # whatever kind of place its name makes it: a hygienist works at the clinic, no patient of it
        ("I'm a hygienist at the Saltcote dental practice now.", ("Mia", "employer", "Saltcote")),
    ],
)
def test_a_job_title_at_an_organisation_names_the_employer(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm a member at Brackenridge Golf Club.",  # one is of a place without working there
        "I'm a regular at Tolley's Tearoom now.",
        "I'm a beginner at Harrowfield Lido.",
        "My accountant is a partner at Greywell Audit now.",  # the accountant's job, not the speaker's
        "I'm not a cashier at Fenwick Stores anymore.",
        # a role in a group one plays or sings in is one's place in it, no job
        "I'm a tenor with the Quayside Singers choir now.",
        "I'm a coach at the Ashcombe fencing club now.",
        "I'm a drummer for Velvet Hornets now.",
    ],
)
def test_no_job_title_or_another_persons_names_no_employer_of_the_speaker(text: str) -> None:
    assert not [s for s in speaker_slots(text) if s[:2] == ("Mia", "employer")]
