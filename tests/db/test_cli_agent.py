"""The agent commands of the CLI against the local database: add-messages, worker, query-forests
with a filter, fact-correct, fact-delete and fact-history; bad input is one line and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memforest.cli import main

DIM = 64


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, db_env: str, tmp_path: Path) -> Path:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMFOREST_EMBEDDING__DIM", str(DIM))
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return out


def test_agent_commands_locally(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    msgs = env / "m.json"
    message = {"role": "user", "name": "Ana", "content": "My favourite tea is jasmine."}
    msgs.write_text(json.dumps({"messages": [message], "metadata": {"app": "cli"}}))
    accepted = _run(capsys, "add-messages", "--forest", "mine", "--session-id", "c1", str(msgs))
    assert accepted["session_id"] == "c1" and accepted["created"] is True
    team = env / "t.json"
    team.write_text(json.dumps([{"role": "user", "content": "The standup moved to 9:30."}]))
    _run(capsys, "add-messages", "--forest", "team", str(team))
    assert main(["worker", "--until-idle"]) == 0
    capsys.readouterr()
    out = _run(capsys, "query-forests", "tea and standup", "--forests", "mine,team", "--top-k", "5")
    evidence = out["evidence"]
    assert isinstance(evidence, list) and {e["forest"] for e in evidence} == {"mine", "team"}
    flt = json.dumps({"metadata": {"app": "cli"}})
    only = _run(capsys, "query-forests", "tea", "--forests", "mine,team", "--filter", flt)
    assert isinstance(only["evidence"], list) and {e["forest"] for e in only["evidence"]} == {"mine"}
    fact = next(e for e in only["evidence"] if e["kind"] == "fact" and "jasmine" in e["text"])
    new = _run(capsys, "fact-correct", "--forest", "mine", "--fact", fact["fact_id"], "--text", "I like oolong.")
    assert new["kind"] == "correction" and new["supersedes"] == fact["fact_id"]
    gone = _run(capsys, "fact-delete", "--forest", "mine", "--fact", str(new["id"]))
    assert gone["fact_id"] == new["id"]
    history = _run(capsys, "fact-history", "--forest", "mine", "--fact", str(new["id"]))
    assert history["status"] == "deleted" and isinstance(history["events"], list)
    assert [e["event"] for e in history["events"]] == ["created", "supersedes", "deleted"]
    assert main(["fact-delete", "--forest", "mine", "--fact", str(new["id"])]) != 0
    assert main(["query-forests", "x", "--forests", "mine", "--filter", "{bad"]) != 0
    assert main(["webhook", "list"]) != 0  # webhooks need --url
    err = capsys.readouterr().err.strip().splitlines()
    assert err and all("Traceback" not in line for line in err)
