"""The stubserver admin API driven by the Python `wiremock` admin client (a client nobody here wrote).

Usage: python wiremock-client-e2e.py http://127.0.0.1:PORT STUBS_DIR
Creates, lists, updates, saves and deletes mappings (persistent ones on disk in STUBS_DIR/mappings), finds,
filters and counts requests, near misses, unmatched requests, dead stubs, scenarios, settings and resets, and
fails (exit 1) on the first mismatch.
"""
import json
import os
import sys
import urllib.request

from wiremock.constants import Config
from wiremock.client import (
    GlobalSetting, GlobalSettings, Mapping, MappingRequest, MappingResponse, Mappings, NearMisses, Requests,
    HttpMethods, NearMissMatchPatternRequest, NearMissMatchRequest, Scenarios,
)

base = sys.argv[1].rstrip("/")
mappings_dir = os.path.join(sys.argv[2], "mappings")
Config.base_url = base + "/__admin"


def fetch(path, method="GET"):
    try:
        with urllib.request.urlopen(urllib.request.Request(base + path, method=method), timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def check(condition, what):
    if not condition:
        print("FAIL:", what, file=sys.stderr)
        sys.exit(1)
    print("ok:", what)


def files_holding(mapping_id):
    found = []
    for name in os.listdir(mappings_dir):
        if name.endswith(".json"):
            with open(os.path.join(mappings_dir, name)) as file:
                if json.load(file).get("id") == mapping_id:
                    found.append(name)
    return found


Requests.reset_request_journal()
Mappings.reset_mappings()
files_stubs = Mappings.retrieve_all_mappings().meta.total

created = Mappings.create_mapping(Mapping(
    priority=1,
    request=MappingRequest(method=HttpMethods.GET, url_path="/py/hello"),
    response=MappingResponse(status=200, body="hello from python", headers={"Content-Type": "text/plain"}),
    metadata={"suite": "python"},
))
check(created.id, "create_mapping returns the mapping with an id")
listed = Mappings.retrieve_all_mappings()
check(listed.meta.total == files_stubs + 1, "retrieve_all_mappings counts the new stub")
check(any(m.id == created.id for m in listed.mappings), "retrieve_all_mappings lists the new stub")
check(Mappings.retrieve_mapping(created.id).id == created.id, "retrieve_mapping finds it by id")

check(fetch("/py/hello") == (200, "hello from python"), "the stub serves traffic")
fetch("/py/hello")
status, _ = fetch("/py/nothing")
check(status == 404, "an unmatched request gets 404")

count = Requests.get_matching_request_count(NearMissMatchPatternRequest(method="GET", url_path="/py/hello"))
check(count.count == 2, "get_matching_request_count counts 2")
found = Requests.get_matching_requests(NearMissMatchPatternRequest(method="GET", url_path="/py/hello"))
check(len(found.requests) == 2 and found.requests[0].url == "/py/hello", "get_matching_requests finds both")
everything = Requests.get_all_received_requests(parameters={})
check(everything.meta.total == 3, "get_all_received_requests lists 3 serve events")
check(len(Requests.get_all_received_requests(limit=1, parameters={}).requests) == 1, "limit=1 lists one")
unmatched = Requests.get_unmatched_requests()
check([r.url for r in unmatched.requests] == ["/py/nothing"], "get_unmatched_requests lists the miss")
near = Requests.get_unmatched_requests_near_misses()
check(len(near.near_misses) > 0, "get_unmatched_requests_near_misses has near misses")

pattern_misses = NearMisses.find_nearest_misses_by_request_pattern(
    NearMissMatchPatternRequest(method="GET", url_path="/py/hellp"))
check(len(pattern_misses.near_misses) > 0, "find_nearest_misses_by_request_pattern finds /py/hello")
request_misses = NearMisses.find_nearest_misses_by_request(NearMissMatchRequest(method="GET", url="/py/hellp"))
check(len(request_misses.near_misses) > 0 and request_misses.near_misses[0].match_result.distance > 0,
      "find_nearest_misses_by_request finds the closest stubs with a distance")

status, dead = fetch("/__admin/mappings/unmatched")
check(status == 200 and created.id not in dead, "mappings/unmatched leaves out the used stub")

Mappings.delete_mapping_by_metadata({"matchesJsonPath": {"expression": "$.suite", "equalTo": "python"}})
check(all(m.id != created.id for m in Mappings.retrieve_all_mappings().mappings), "delete_mapping_by_metadata removes it")

again = Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.GET, url="/py/again"),
    response=MappingResponse(status=204),
))
Mappings.delete_mapping(again.id)
check(all(m.id != again.id for m in Mappings.retrieve_all_mappings().mappings), "delete_mapping removes a stub")

# Serve-event queries, one serve event, near misses' distance (WireMock's matchResult: distance alone).
newest = Requests.get_all_received_requests(parameters={}).requests[0]
check(Requests.get_request(newest.id).request.url == newest.request.url, "get_request finds a serve event by id")
only_unmatched = Requests.get_all_received_requests(parameters={"unmatched": "true"})
check([r.request.url for r in only_unmatched.requests] == ["/py/nothing"] and only_unmatched.meta.total == 1,
      "get_all_received_requests(unmatched=true) lists the miss alone")
check(all(isinstance(m.match_result.distance, (int, float)) for m in near.near_misses),
      "near misses carry a distance")
status, raw_near = fetch("/__admin/requests/unmatched/near-misses")
check(all(set(m["matchResult"]) == {"distance"} for m in json.loads(raw_near)["nearMisses"]),
      "a near miss's matchResult is WireMock's {distance}")

# Update in place (PUT), persistent stubs on disk, save, scenarios, settings.
updated = Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.GET, url="/py/update"), response=MappingResponse(body="before")))
by_stub = Requests.get_all_received_requests(parameters={"matchingStub": updated.id})
check(by_stub.meta.total == 0, "get_all_received_requests(matchingStub=ID) lists none for an unused stub")
Mappings.update_mapping(Mapping(
    id=updated.id, request=MappingRequest(method=HttpMethods.GET, url="/py/update"),
    response=MappingResponse(body="after")))
check(fetch("/py/update") == (200, "after"), "update_mapping (PUT) replaces the stub")
check(Requests.get_all_received_requests(parameters={"matchingStub": updated.id}).meta.total == 1,
      "get_all_received_requests(matchingStub=ID) lists its serve event")

kept = Mappings.create_mapping(Mapping(
    persistent=True, request=MappingRequest(method=HttpMethods.GET, url="/py/kept"),
    response=MappingResponse(body="kept")))
check(kept.persistent is True and len(files_holding(kept.id)) == 1, "a persistent mapping is written at once")
Mappings.persist_mappings()
check(len(files_holding(updated.id)) == 1, "persist_mappings writes the runtime stubs")
Mappings.reset_mappings()
check(fetch("/py/kept") == (200, "kept") and fetch("/py/update") == (200, "after"),
      "reset_mappings keeps the persistent and the saved stubs")
Mappings.delete_mapping(kept.id)
check(files_holding(kept.id) == [], "delete_mapping deletes a persistent stub's file")
Mappings.delete_mapping(updated.id)
check(files_holding(updated.id) == [], "delete_mapping deletes a saved stub's file")

Mappings.create_mapping(Mapping(
    scenario_name="py-flow", required_scenario_state="Started", new_scenario_state="Two",
    request=MappingRequest(method=HttpMethods.GET, url="/py/flow"), response=MappingResponse(body="one")))
fetch("/py/flow")


def scenario_state(name):
    return next(s["state"] for s in json.loads(fetch("/__admin/scenarios")[1])["scenarios"] if s["name"] == name)


check(scenario_state("py-flow") == "Two", "a scenario moves")
Scenarios.reset_all_scenarios()
check(scenario_state("py-flow") == "Started", "reset_all_scenarios moves it back")
GlobalSettings.update_global_settings(GlobalSetting(fixed_delay=3))
check(json.loads(fetch("/__admin/settings")[1])["settings"]["fixedDelay"] == 3, "update_global_settings")
GlobalSettings.update_global_settings(GlobalSetting(fixed_delay=0))

Requests.reset_request_journal()
check(Requests.get_all_received_requests(parameters={}).meta.total == 0, "reset_request_journal clears the journal")
Mappings.delete_all_mappings()
check(Mappings.retrieve_all_mappings().meta.total == 0, "delete_all_mappings removes every stub")
Mappings.reset_mappings()
check(Mappings.retrieve_all_mappings().meta.total == files_stubs, "reset_mappings brings the file stubs back")
print("wiremock client end-to-end: all checks passed")
