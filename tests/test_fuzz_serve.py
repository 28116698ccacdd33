"""Property-based fuzzing of `fairplay serve`'s JSON calls and query parameters: every field of
every call the page makes is given arbitrary JSON (wrong types, huge integers, long texts, NUL
bytes, line breaks, nested objects), and the answer is never a 5xx; a 4xx is JSON whose `error`
is one line of text.

The server runs in this process (Starlette's test client, as tests/test_serve.py) on runs that
start no process: a valid start is recorded, and the run then reads as stopped, so that stop,
resume, pin, report and trace have a run to act on. Nothing is played.
"""

from __future__ import annotations

import json
import re
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from simulator.serve.app import create_app
from simulator.serve.runs import Runs

FEW = settings(max_examples=150, deadline=None, derandomize=True, database=None,
               phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))

SESSION = "abcdefgh"
VALID = {"game": "werewolf", "base": "werewolf/base.toml", "fields": {}, "session": SESSION,
         "games": 1000, "seed": 0, "name": "mine.toml", "vary": ["players=8..9"],
         "who": "team:wolf", "trials": 5, "force": False}
POSTS = ["/api/check", "/api/save", "/api/runs", "/api/sweeps", "/api/best-response",
         "/api/runs/{number}/stop", "/api/runs/{number}/resume", "/api/runs/{number}/pin"]
GETS = ["/api/setup", "/runs/{number}/report", "/runs/{number}/trace", "/api/events"]
FIELD_KEYS = ["players", "roles.werewolf", "roles.seer", "strategies.all", "strategies.wolf",
              "strategies.wolf.trust", "balance_target", "nope"]


class StartsNothing(Runs):
    """Runs that start no process: each reads as stopped at once."""

    def _launch(self, run, resume=False):
        run.state, run.line = "stopped", "not started (a test)"


# --- arbitrary JSON -------------------------------------------------------------------------------
texts = st.one_of(st.text(max_size=30), st.sampled_from([
    "", " ", "\x00", "a\x00b.toml", "x" * 5000, "1" * 5000, "²", "①", "٣", "1e9", "-1", " 12 ",
    "../outside.toml", "/etc/passwd", "a\nb", "players=8..9", "team:wolf", "role:seer",
    "strat/x.py:f", "mine.toml", "werewolf/base.toml", "werewolf"]))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.integers(-2 ** 80, 2 ** 80),
                    st.sampled_from([2 ** 63, 2 ** 64, 10 ** 30, -(2 ** 63)]),
                    st.floats(allow_nan=False, allow_infinity=False), texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(texts, inner, max_size=3)), max_leaves=8)


@st.composite
def bodies(draw):
    """The valid body with one to three fields (or a field of `fields`) replaced or removed."""
    body = json.loads(json.dumps(VALID))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(VALID) + ["fields." + k for k in FIELD_KEYS]
                                   + ["extra"]))
        where, name = (body["fields"], key[7:]) if key.startswith("fields.") and \
            isinstance(body.get("fields"), dict) else (body, key)
        if draw(st.integers(0, 5)) == 0:
            where.pop(name, None)
        else:
            where[name] = draw(json_values)
    return body


numbers = st.one_of(st.sampled_from(["1", "2", "0", "-1", "999", str(2 ** 70), "x", "1.5", "²",
                                     " 1", "%00"]),
                  # (an empty number or one with a "/" names no call: the router's plain 404)
                  st.text(min_size=1, max_size=8).filter(lambda text: "/" not in text))


@st.composite
def requests(draw):
    if draw(st.booleans()):
        path = draw(st.sampled_from(POSTS))
        send = draw(st.one_of(bodies(), bodies(), json_values))
        method = "POST"
    else:
        path = draw(st.sampled_from(GETS))
        keys = {"/api/setup": ["game", "base"], "/runs/{number}/report": [],
                "/runs/{number}/trace": ["game", "private"], "/api/events": ["session"]}[path]
        send = {key: draw(texts) for key in keys if draw(st.integers(0, 4))}
        method = "GET"
    number = draw(numbers)
    return method, path.replace("{number}", urllib.parse.quote(number, safe="")), send


# --- the promise ----------------------------------------------------------------------------------
def answer_ok(response, what) -> None:
    assert response.status_code < 500, (what, response.status_code, response.text)
    if response.status_code >= 400 and response.headers.get("content-type", "").startswith(
            "text/html"):  # a page of its own tab (a report, a trace): its one line
        found = re.search(r'<p class="error">(.*?)</p>', response.text, re.S)
        assert found and len(found[1].splitlines()) == 1, (what, response.text)
    elif response.status_code >= 400:
        data = response.json()
        assert isinstance(data, dict) and isinstance(data.get("error"), str), (what, data)
        assert len(data["error"].splitlines()) == 1, (what, data["error"])


def send(client, method, path, body) -> None:
    if method == "GET":
        if path == "/api/events" and body.get("session", "").isascii() and \
                len(body.get("session", "")) >= 8 and body["session"].replace("-", "").replace(
                "_", "").isalnum():
            return  # a valid session's stream never ends: its refusals are what is checked
        response = client.get(path, params=body)
    else:
        # (json.dumps, not the client's json=: a body of NaN or a NUL key is sent as it is)
        response = client.post(path, content=json.dumps(body),
                               headers={"Content-Type": "application/json"})
    answer_ok(response, (method, path, body))


@pytest.fixture(scope="module")
def served():
    """One server for the module, with a run to act on (started from a valid body)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "strat").mkdir()
        (root / "strat" / "x.py").write_text("def f(kind, obs, legal, params, memory, rng):\n"
                                             "    return 0\n")
        with TestClient(create_app(root, runs=StartsNothing(root, workers=1)),
                        base_url="http://127.0.0.1") as client:
            first = client.post("/api/runs", json=VALID)
            assert first.status_code == 200, first.text
            yield client


@FEW
@given(requests())
@example(("POST", "/api/runs", dict(VALID, games="²")))
@example(("POST", "/api/runs", dict(VALID, seed="①")))
@example(("POST", "/api/sweeps", dict(VALID, vary=5)))
@example(("POST", "/api/sweeps", dict(VALID, vary={"players=8..9": 1})))
@example(("POST", "/api/sweeps", dict(VALID, vary=None)))
@example(("POST", "/api/check", dict(VALID, fields={"roles.werewolf": "a\nb"})))
@example(("POST", "/api/check", dict(VALID, fields={"players": "\x00"})))
@example(("POST", "/api/save", dict(VALID, name="x\ny.toml")))
@example(("POST", "/api/best-response", dict(VALID, who="team:wolf\n")))
@example(("POST", "/api/best-response", dict(VALID, trials="²")))
@example(("GET", "/runs/1/trace", {"game": "²"}))
@example(("GET", "/api/setup", {"game": "werewolf", "base": "\x00"}))
@example(("GET", "/api/setup", {"game": "werewolf", "base": "a\nb"}))
def test_no_field_gives_a_5xx_and_every_4xx_is_one_json_line(served, case):
    method, path, body = case
    send(served, method, path, body)
