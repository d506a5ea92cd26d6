"""A job title and an employer told in one phrase ("Ana is a pastry chef at Hotel Lune", "Ana got a
job as a nurse at Brook Hospital", "Ana is a nurse on the cardiology ward at St Jude's"): two states
of one person, the title and the organisation, which a question may ask for apart ("what do I do",
"where do I work"). :func:`titled_at` finds the phrase in a person-rewritten sentence; the
extractor files the organisation with the whole sentence and the title with the sentence up to
the title."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memforest.domain import Candidate
from memforest.text.lexicon import CAPITALS, WORD_START
from memforest.text.state_values import JOB_TITLE, JOB_WORD, WORKPLACE_PART
from memforest.text.work_hours import find_work_hours

__all__ = ["TitledAt", "course_at", "find_title", "titled_at", "with_title_apart"]

_ORG = rf"(?P<org>[{CAPITALS}][\w'-]*(?:\s+(?:&\s+|of\s+(?:the\s+)?)?[{CAPITALS}][\w'-]*){{0,3}})(?![\w'-])"
# the title first: the verb that gives the subject a title, the title ("a senior staff nurse"), a part
# of the workplace that is no organisation ("on the night desk", "in the finance department"), then
# the organisation by its capitalised name
_TITLE_FIRST = re.compile(
    r"(?:(?:\bis|\bare|\bam|'s)\s+(?:now\s+)?an?|^(?i:as)\s+an?|(?:\bworks|\b(?:started|starting|began))\s+as(?:\s+an?)?|"
    r"\b(?:got|landed|took|started)\s+a\s+(?:new\s+)?job\s+as(?:\s+an?)?|"
    r"\b(?:became|(?:been\s+|was\s+|got\s+)?(?:made|appointed|promoted\s+to))(?:\s+an?)?|"
    r"\b(?:week|weeks|day|days|month|months|year|years|yrs)\s+as(?:\s+an?)?)"
    rf"\s+(?P<title>(?:[A-Z]{{2,5}}\s+)?{JOB_TITLE}(?:\s+of\s+[a-z]+(?:\s+[a-z]+)?)?)"
    rf"{WORKPLACE_PART}\s+(?:now\s+)?(?:at|for)\s+(?:the\s+)?{_ORG}"
)
# the organisation first: "started at X on Monday as a QA engineer", "joined X as a paralegal"
_ORG_FIRST = re.compile(
    r"\b(?:works|worked|started|starting|began|joined|is\s+working|has\s+been\s+working|(?:yrs|years|months)\s+at)\s+"
    r"(?:(?:at|for)\s+)?"
    rf"(?:the\s+)?{_ORG}(?:\s+[\w-]+){{0,5}}?\s+as\s+(?:an?\s+)?(?P<title>(?:[A-Z]{{2,5}}\s+)?{JOB_TITLE})"
)


# a course studied at a school ("started veterinary medicine at X University", "doing a part-time
# MSc in Public Health at X", "a diploma in landscape design through X Polytechnic")
_COURSE_AT = re.compile(
    r"\b(?:started|starting|began|studying|studies|doing|enrolled\s+(?:in|on)|reading|taking)\s+(?:an?\s+)?"
    r"(?:(?:part|full)[- ]time\s+)?(?P<title>(?:(?:BA|BSc|MA|MSc|MEng|MBA|PhD|HND|diploma|degree|certificate|course|"
    r"masters|master's|bachelor's)\s+(?:in|of)\s+)?[A-Za-z][a-z-]*+(?:\s+[A-Za-z][a-z-]*+){0,3}?)"
    rf"\s+(?:at|through|with)\s+(?:the\s+)?{_ORG}"
)


# a title told alone, as what one is ("Ana is a freelance illustrator.", "Ana's a locum pharmacist,
# ..."): a word of a title's form after none or a few words that qualify work, the phrase ending
# there; words of that form that tell a habit or a trait, no work ("a worrier", "a vegetarian"), are none
_QUALIFIERS = (
    r"freelance|part-time|full-time|self-employed|senior|junior|trainee|apprentice|locum|qualified|registered|"
    r"certified|licensed|relief|supply|staff|head|lead|assistant|deputy|chief|retired|professional|contract"
)
_TRAITS = (
    r"vegetarian|vegan|pescatarian|introvert|extrovert|optimist|pessimist|perfectionist|procrastinator|worrier|"
    r"believer|fighter|survivor|sucker|loner|lover|dreamer|thinker|overthinker|achiever|smoker|drinker|sleeper|"
    r"eater|talker|listener|walker|traveller|traveler|gamer|reader|writer|member|owner|homeowner|parent|grandparent|"
    r"mother|father|daughter|sister|brother|partner|adult|veteran|resident|tenant|person|natural|giant|genius"
)
_TITLE_ALONE = re.compile(
    rf"{WORD_START}(?!(?:It|This|That|There|Here|What|Which|Who)\b)(?P<subj>[{CAPITALS}][\w-]*+)(?:\s+(?:is|am|are)|'s)\s+"
    rf"(?:(?i:now|still|currently)\s+)?an?\s+(?P<title>(?:(?:{_QUALIFIERS})\s+){{0,2}}"
    rf"(?!(?:{_TRAITS})\b){JOB_WORD})"
    r"(?=\s*(?:[.,;:!?\u2013\u2014-]|$)|\s+(?:and|but|so|by|now|on|in|for|with)\b)"
)


# the person whose title a phrase gives, right before its verb ("Agata's been made head of X at Y")
_NAMED_BEFORE = re.compile(
    rf"(?<![\w'])(?P<subj>[{CAPITALS}][\w-]*+)(?:'s|\s+has|\s+was|\s+just|\s+finally|\s+now)*\s*$"
)


def find_title(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(person, ``job``, title) where a person-rewritten sentence tells what someone is by a job
    title alone ("Ana is a freelance illustrator"); (person, ``employer``, organisation) where it
    gives someone a title at a workplace ("Agata's been made head of procurement at X"; the speaker's
    when it opens "As a locum pharmacist at X, ..."; the title is filed apart by
    :func:`with_title_apart`); else None."""
    m = _TITLE_ALONE.search(text)
    if m is not None:
        return m["subj"], "job", m["title"]
    m = _TITLE_FIRST.search(text)
    if m is None:
        return None
    if text[:2].lower() == "as" and m.start() == 0:
        return speaker, "employer", m["org"]
    named = _NAMED_BEFORE.search(text, 0, m.start())
    return (named["subj"], "employer", m["org"]) if named is not None else None


@dataclass(frozen=True, slots=True)
class TitledAt:
    """The title and the organisation, and where the text is cut after the one named first
    (``cut``; ``title_first`` says which it is)."""

    title: str
    org: str
    cut: int
    title_first: bool


def titled_at(text: str) -> TitledAt | None:
    """The job title and the organisation that ``text`` gives its subject in one phrase, or None."""
    m = _TITLE_FIRST.search(text)
    if m is not None:
        return TitledAt(m["title"], m["org"], m.end("title"), True)
    m = _ORG_FIRST.search(text)
    if m is not None:
        return TitledAt(m["title"], m["org"], m.end("org"), False)
    return None


def course_at(text: str) -> TitledAt | None:
    """The course and the school that ``text`` gives its subject in one phrase, or None."""
    m = _COURSE_AT.search(text)
    return TitledAt(m["title"], m["org"], m.end("title"), True) if m is not None else None


def _with_course_apart(read: list[Candidate]) -> list[Candidate]:
    """``read``, where one candidate files a school told with the course studied there and none
    files a course, with the course before it (its text up to the course)."""
    if any(c.attribute == "course" for c in read):
        return read
    for i, c in enumerate(read):
        found = course_at(c.text) if c.attribute == "school" and c.value else None
        if found is None or c.value != found.org:
            continue
        head = replace(
            c, text=f"{c.text[: found.cut]}.", entities=tuple(e for e in c.entities if e in c.text[: found.cut])
        )
        return [*read[:i], replace(head, attribute="course", value=found.title), *read[i:]]
    return read


_WORK = frozenset({"job", "employer"})
_TITLED = _WORK | {"patronage"}  # (a place used that a title names "at" is where one works)
_HOURS = frozenset({"shift", "working_hours"})
_PRONOUN = re.compile(r"\b(?:she|he|they)\b")


def _with_hours_apart(read: list[Candidate]) -> list[Candidate]:
    """``read``, where one candidate files someone's job or employer and its sentence also tells when
    they work ("Ana works nights at X", "Mia is a midwife at X and she's gone onto nights") and none
    files that for them, with the hours after it (a pronoun taken as the one whose work it is)."""
    timed = {c.subject for c in read if c.attribute in _HOURS}
    out: list[Candidate] = []
    for c in read:
        out.append(c)
        if c.attribute not in _WORK or not c.subject or c.subject in timed:
            continue
        hours = find_work_hours(_PRONOUN.sub(c.subject, c.text), c.subject)
        if hours is not None and hours[0] == c.subject:
            out.append(replace(c, attribute=hours[1], value=hours[2]))
            timed.add(c.subject)
    return out


def with_title_apart(read: list[Candidate]) -> list[Candidate]:
    """``read``, where one candidate files a job title or an employer told in one phrase with the
    other (:func:`titled_at`: "Ana is a pastry chef at Hotel Lune") and none files the other, as two:
    the one named first with the text up to it ("Ana is a pastry chef."), the other with the whole
    (the employer first); a course told with its school likewise (``course_at``)."""
    read = _with_hours_apart(_with_course_apart(read))
    if {c.attribute for c in read} >= _WORK:
        return read
    for i, c in enumerate(read):
        found = titled_at(c.text) if c.attribute in _TITLED and c.value else None
        if found is None or c.value not in (found.title, found.org):
            continue
        if c.attribute == "patronage" and not re.search(rf"\bat\s+(?:the\s+)?{re.escape(found.org)}", c.text):
            continue  # a place one uses, told with a title "at" it, is where one works ("a pharmacist at X");
            # "a drummer for X" plays in it
        head = replace(
            c, text=f"{c.text[: found.cut]}.", entities=tuple(e for e in c.entities if e in c.text[: found.cut])
        )
        employer, job = (c, head) if found.title_first else (head, c)
        both = (
            replace(employer, attribute="employer", value=found.org),
            replace(job, attribute="job", value=found.title),
        )
        return [*read[:i], *both, *read[i + 1 :]]
    return read
