"""The worker's admission (memforest.pipeline.slots.Admission, ADR 0099): past ``least`` jobs, one
more starts only while the calls charged to the admitted jobs fall short of the chat budget; a job
is charged its declared calls, or the running guess until it declares."""

from __future__ import annotations

import asyncio

import pytest

from memforest.pipeline.slots import Admission, JobSlot


async def _admit_all(admission: Admission, wanted: int, wait_s: float = 0.05) -> list[JobSlot]:
    """Take as many slots as the admission gives within ``wait_s``, up to ``wanted``."""
    slots: list[JobSlot] = []
    for _ in range(wanted):
        try:
            slots.append(await asyncio.wait_for(admission.acquire(), wait_s))
        except TimeoutError:
            break
    return slots


async def test_without_a_budget_exactly_most_jobs_start() -> None:
    admission = Admission(5)
    assert len(await _admit_all(admission, 9)) == 5


async def test_undeclared_jobs_are_charged_the_guess() -> None:
    # a budget of 60 with jobs guessed at 12 calls each: five jobs fill it, past the least of two
    admission = Admission(40, budget=60, least=2, guess=12)
    assert len(await _admit_all(admission, 40)) == 5


@pytest.mark.parametrize(("calls", "jobs"), [(3, 20), (5, 12), (30, 3), (60, 3), (1, 40)])
async def test_declared_calls_set_how_many_jobs_fill_the_budget(calls: int, jobs: int) -> None:
    # every job declares ``calls`` once admitted; jobs start until their calls reach the budget of
    # 60 (``least`` 3 start whatever they ask), never more than ``most`` (40)
    admission = Admission(40, budget=60, least=3, guess=12)
    slots: list[JobSlot] = []
    while True:
        more = await _admit_all(admission, 1)
        if not more:
            break
        more[0].declare(calls)
        slots.extend(more)
    assert len(slots) == jobs
    assert admission.most_admitted == jobs


async def test_a_declaration_that_lowers_the_demand_wakes_a_waiting_job() -> None:
    admission = Admission(10, budget=20, least=1, guess=10)
    first, second = await _admit_all(admission, 2)
    waiting = asyncio.create_task(admission.acquire())
    await asyncio.sleep(0.01)
    assert not waiting.done()  # 20 calls charged: the budget is full
    first.declare(4)
    third = await asyncio.wait_for(waiting, 1)
    assert admission.admitted == 3 and admission.demand == pytest.approx(4 + 10 + third.charge)
    for slot in (first, second, third):
        slot.release()
        slot.release()  # (a second release does nothing)
    assert admission.admitted == 0 and admission.demand == 0


async def test_the_guess_follows_the_declarations() -> None:
    admission = Admission(100, budget=1000, least=1, guess=16)
    for _ in range(40):
        slot = await admission.acquire()
        slot.declare(4)
        slot.release()
    assert admission.guess == pytest.approx(4, abs=0.1)


async def test_a_cancelled_waiter_passes_its_turn_on() -> None:
    admission = Admission(1)
    held = await admission.acquire()
    first = asyncio.create_task(admission.acquire())
    second = asyncio.create_task(admission.acquire())
    await asyncio.sleep(0.01)
    held.release()  # wakes the first waiter, which is cancelled before it runs
    first.cancel()
    slot = await asyncio.wait_for(second, 1)
    assert admission.admitted == 1
    slot.release()
