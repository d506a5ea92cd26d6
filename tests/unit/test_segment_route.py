"""Path parameters keep an encoded slash (``memforest.api.paths.SegmentRoute``): ``%2F`` inside a
segment is data, so a name holding ``/`` reaches its route; an unencoded slash still separates
segments, and a root path the server put in front is kept."""

from __future__ import annotations

import httpx
import pytest
from fastapi import APIRouter, FastAPI

from memforest.api.paths import SegmentRoute


def _app() -> FastAPI:
    router = APIRouter(prefix="/v1", route_class=SegmentRoute)

    @router.get("/forests/{forest}/sessions/{session_id}")
    async def session(forest: str, session_id: str) -> dict[str, str]:
        return {"forest": forest, "session": session_id}

    @router.get("/forests/{forest}")
    async def forest(forest: str) -> dict[str, str]:
        return {"forest": forest}

    app = FastAPI()
    app.include_router(router)
    return app


async def _get(app: FastAPI, path: str, root_path: str = "") -> httpx.Response:
    transport = httpx.ASGITransport(app=app, root_path=root_path)  # (a server's --root-path)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        return await c.get(path)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/v1/forests/team%2Fnotes", {"forest": "team/notes"}),
        ("/v1/forests/a%2fb%2F", {"forest": "a/b/"}),  # lower case too; a trailing encoded slash is data
        ("/v1/forests/x%2Fy/sessions/2024%2F05%2F01", {"forest": "x/y", "session": "2024/05/01"}),
        ("/v1/forests/%25%2F%20%C3%A9", {"forest": "%/ é"}),  # other escapes decoded as usual
        ("/v1/forests/plain/sessions/s1?x=%2F", {"forest": "plain", "session": "s1"}),  # (the query is no path)
    ],
)
async def test_an_encoded_slash_stays_in_its_parameter(path: str, expected: dict[str, str]) -> None:
    r = await _get(_app(), path)
    assert r.status_code == 200, r.text
    assert r.json() == expected


async def test_an_unencoded_slash_still_separates_segments() -> None:
    assert (await _get(_app(), "/v1/forests/team/notes")).status_code == 404


async def test_a_root_path_in_front_is_kept() -> None:
    r = await _get(_app(), "/memory/v1/forests/a%2Fb/sessions/c%2Fd", root_path="/memory")
    assert r.status_code == 200, r.text
    assert r.json() == {"forest": "a/b", "session": "c/d"}
