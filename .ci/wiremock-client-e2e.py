"""The stubserver admin API driven by the Python `wiremock` admin client (a client nobody here wrote).

Usage: python wiremock-client-e2e.py http://127.0.0.1:PORT
Creates, lists and deletes mappings, finds and counts requests, near misses, unmatched requests,
dead stubs and resets, and fails (exit 1) on the first mismatch.
"""
import sys
import urllib.request

from wiremock.constants import Config
from wiremock.client import (
    Mapping, MappingRequest, MappingResponse, Mappings, NearMisses, Requests, HttpMethods,
    NearMissMatchPatternRequest, NearMissMatchRequest,
)

base = sys.argv[1].rstrip("/")
Config.base_url = base + "/__admin"


def fetch(path):
    try:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def check(condition, what):
    if not condition:
        print("FAIL:", what, file=sys.stderr)
        sys.exit(1)
    print("ok:", what)


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
everything = Requests.get_all_received_requests()
check(everything.meta.total == 3, "get_all_received_requests lists 3 serve events")
check(len(Requests.get_all_received_requests(limit=1).requests) == 1, "limit=1 lists one")
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

Requests.reset_request_journal()
check(Requests.get_all_received_requests().meta.total == 0, "reset_request_journal clears the journal")
Mappings.delete_all_mappings()
check(Mappings.retrieve_all_mappings().meta.total == 0, "delete_all_mappings removes every stub")
Mappings.reset_mappings()
check(Mappings.retrieve_all_mappings().meta.total == files_stubs, "reset_mappings brings the file stubs back")
print("wiremock client end-to-end: all checks passed")
