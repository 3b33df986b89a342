#!/usr/bin/env python3
"""A team in another language drives the sample server's admin API (standard library only):
sets a scenario as JSON, calls the service and gets the scenario's answer, reads the journal
(the key redacted, the status, what answered), and resets the server.

    python3 admin.py ROOT KEY      # ROOT: http://127.0.0.1:PORT (the admin API is at the root)
"""

import json
import sys
import urllib.error
import urllib.request


def call(method, url, body=None, headers=None):
    """The status and the body (parsed when JSON) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode(errors="replace")


def expect(what, got, wanted):
    if got != wanted:
        sys.exit(f"admin.py: {what}: got {got!r}, wanted {wanted!r}")


def main():
    root, key = sys.argv[1], sys.argv[2]
    profile = f"{root}/api/v1/stocks/company/detail?symbol=AAPL"
    with_key = {"X-API-Key": key}

    scenario = {
        "endpoint": "company_detail",
        "name": "gateway down",
        "request": {"query": {"symbol": "AAPL"}},
        "response": {"status": 503, "retry_after": 0},
        "times": 1,
        "expect": 1,
    }
    status, added = call("POST", f"{root}/__admin/scenarios", scenario)
    expect("POST /__admin/scenarios", (status, added), (201, {"scenarios": [{"name": "gateway down", "endpoint": "company_detail"}]}))
    status, refused = call("POST", f"{root}/__admin/scenarios", {"endpoint": "nothing_of_the_spec"})
    expect("an unknown endpoint", status, 400)
    if "is not an endpoint" not in refused["error"]:
        sys.exit(f"admin.py: the refusal says why: {refused}")

    status, body = call("GET", profile, headers=with_key)
    expect("the scenario's answer", (status, body), (503, None))
    status, body = call("GET", profile, headers=with_key)
    expect("the samples after it", status, 200)
    expect("a sample company", body["data"][0]["symbol"], "AAPL")

    status, journal = call("GET", f"{root}/__admin/requests?endpoint=company_detail")
    expect("GET /__admin/requests", status, 200)
    expect("requests in the journal", journal["meta"]["total"], 2)
    first, second = journal["requests"]
    expect("the first answer", (first["status"], first["answered_by"], first["scenario"]), (503, "scenario", "gateway down"))
    expect("the second answer", (second["status"], second["answered_by"]), (200, "server"))
    expect("the query", first["query_params"]["symbol"], ["AAPL"])
    expect("the key", (first["api_key"], first["headers"]["x-api-key"]), ("accepted", "<redacted>"))
    if key in json.dumps(journal):
        sys.exit("admin.py: the key is in the journal")
    if not isinstance(first["duration_ms"], (int, float)):
        sys.exit(f"admin.py: no duration: {first}")

    status, scenarios = call("GET", f"{root}/__admin/scenarios")
    listed = scenarios["scenarios"][0]
    expect("the scenario's count", (listed["answered"], listed["met"]), (1, True))

    status, _ = call("POST", f"{root}/__admin/reset")
    expect("POST /__admin/reset", status, 200)
    status, journal = call("GET", f"{root}/__admin/requests")
    expect("the journal after the reset", journal["meta"]["total"], 0)
    status, scenarios = call("GET", f"{root}/__admin/scenarios")
    expect("the scenarios after the reset", scenarios, {"scenarios": []})
    print("admin.py: ok")


if __name__ == "__main__":
    main()
