"""Calls every operation of the OpenAPI document through the Python client OpenAPI Generator made
from it, with the generator's defaults, against a running sample-data server.

Usage: python-client.py PACKAGE OPENAPI_JSON BASE_URL API_KEY

Each operation is called with the example values the document gives its parameters (the
sample server's example request): integers as int, `date-time` parameters as timezone-aware
datetimes (the client formats them with its default `%Y-%m-%dT%H:%M:%S.%f%z`, e.g.
`2026-11-01T00:00:00.000000+0000`), everything else as text. The call must answer 200 with a
non-empty `data` that the client decoded into the operation's response model
(`<Record>Response`). Prints one line per operation and exits non-zero if any failed.
"""

import importlib
import json
import sys
import time
import warnings
from datetime import datetime


def camel(tag):
    return "".join(part.capitalize() for part in tag.replace("-", "_").split("_"))


def client_method(api, operation_id):
    """The client's method of an operation: the generator spells `index_1min` `index1min`."""
    wanted = operation_id.replace("_", "").lower()
    for name in dir(api):
        if not name.startswith("_") and name.replace("_", "").lower() == wanted:
            return getattr(api, name)
    raise AttributeError(f"{type(api).__name__} has no method for {operation_id}")


def argument(parameter):
    value = parameter["example"]
    schema = parameter.get("schema", {})
    if schema.get("format") == "date-time":
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            raise ValueError(f"{parameter['name']}: example {value} has no offset")
        return parsed
    if schema.get("type") == "integer":
        return int(value)
    return value


def main():
    package_name, document_path, base_url, key = sys.argv[1:5]
    package = importlib.import_module(package_name)
    with open(document_path, encoding="utf-8") as f:
        document = json.load(f)

    configuration = package.Configuration(host=base_url + document["servers"][0]["url"])
    configuration.api_key["ApiKeyAuth"] = key
    client = package.ApiClient(configuration)

    failures = []
    calls = 0
    started = time.monotonic()
    for path, item in sorted(document["paths"].items()):
        for method, operation in item.items():
            op_id = operation["operationId"]
            api = getattr(package, camel(operation["tags"][0]) + "Api")(client)
            kwargs = {
                p["name"]: argument(p) for p in operation.get("parameters", []) if "example" in p
            }
            response_model = operation["responses"]["200"]["content"]["application/json"]["schema"][
                "$ref"
            ].rsplit("/", 1)[-1]
            calls += 1
            try:
                with warnings.catch_warnings():
                    # The removed endpoint's method is deprecated; the server serves it here.
                    warnings.simplefilter("ignore", DeprecationWarning)
                    answer = client_method(api, op_id)(**kwargs)
                kind = type(answer).__name__
                if not answer.success or not answer.data:
                    raise AssertionError(f"success={answer.success}, {len(answer.data)} records")
                if kind.lower() != response_model.lower():
                    raise AssertionError(f"decoded as {kind}, not {response_model}")
                print(f"ok   {method.upper()} {path} ({op_id}): {len(answer.data)} records as {kind}")
            except Exception as error:  # noqa: BLE001 - every failure is reported, then counted
                failures.append(op_id)
                print(f"FAIL {method.upper()} {path} ({op_id}): {type(error).__name__}: {error}")
    elapsed = time.monotonic() - started
    print(f"{calls} calls in {elapsed:.1f} s")
    print(f"python-client: {calls - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or calls == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
