// WireMock's own Java admin client (com.github.tomakehurst.wiremock.client.WireMock, from the 2.35.1 jar that
// pip's `wiremock` package bundles) against a running server: stubserver, or the jar itself to prove that every
// expectation here is WireMock's. .ci/e2e-wiremock-client.sh runs it against both.
//
// Build: javac -cp wiremock-standalone-2.35.1.jar -d OUT WireMockClientCheck.java
// Run, with -cp wiremock-standalone-2.35.1.jar:OUT:
//   WireMockClientCheck setup ROOT_DIR                  writes ROOT_DIR/mappings/startup.json; then start the server
//   WireMockClientCheck main URL ROOT_DIR SERVER        every call; leaves persistent and saved stubs on disk
//   WireMockClientCheck restarted URL ROOT_DIR SERVER   after a restart on ROOT_DIR: what persisted; then
//                                                       shutdownServer()
//   URL       http://127.0.0.1:PORT
//   ROOT_DIR  the server's root (stubs) directory
//   SERVER    wiremock | stubserver: which side of a deliberate difference to expect
// Every operation prints "ok: NAME" or "FAIL: NAME: why"; the exit status is 1 when any failed.

import static com.github.tomakehurst.wiremock.client.WireMock.*;

import com.github.tomakehurst.wiremock.admin.model.ListStubMappingsResult;
import com.github.tomakehurst.wiremock.admin.model.ServeEventQuery;
import com.github.tomakehurst.wiremock.client.HttpAdminClient;
import com.github.tomakehurst.wiremock.client.VerificationException;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.common.Json;
import com.github.tomakehurst.wiremock.recording.RecordingStatus;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubImport;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.github.tomakehurst.wiremock.verification.NearMiss;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class WireMockClientCheck {
  /** The stub in ROOT_DIR/mappings/startup.json (written before the server starts, not persistent). */
  static final UUID STARTUP_ID = UUID.fromString("5a4e0c1e-0000-4000-8000-00000000aaaa");

  /** The stubs the main phase leaves for the restarted one: created persistent, and saved. */
  static final UUID PERSISTED_ID = UUID.fromString("5a4e0c1e-0000-4000-8000-00000000bbbb");

  static final UUID SAVED_ID = UUID.fromString("5a4e0c1e-0000-4000-8000-00000000cccc");

  static String base;
  static Path mappingsDir;
  static boolean isStubserver;
  static HttpAdminClient admin;
  static final List<String> failures = new ArrayList<>();
  static int passed = 0;

  interface Step {
    void run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("setup")) {
      Path mappings = Paths.get(args[1], "mappings");
      Files.createDirectories(mappings);
      Files.writeString(
          mappings.resolve("startup.json"),
          "{\"id\": \""
              + STARTUP_ID
              + "\", \"request\": {\"method\": \"GET\", \"url\": \"/jc/startup\"},"
              + " \"response\": {\"status\": 200, \"body\": \"from a file\"}}\n");
      return;
    }
    if (args.length != 4
        || !List.of("main", "restarted").contains(args[0])
        || !List.of("wiremock", "stubserver").contains(args[3])) {
      System.err.println(
          "usage: WireMockClientCheck setup ROOT_DIR\n"
              + "       WireMockClientCheck main|restarted URL ROOT_DIR wiremock|stubserver");
      System.exit(2);
    }
    String phase = args[0];
    base = args[1].replaceAll("/+$", "");
    mappingsDir = Paths.get(args[2], "mappings");
    isStubserver = args[3].equals("stubserver");
    URL url = new URL(base);
    WireMock.configureFor(url.getHost(), url.getPort());
    admin = new HttpAdminClient(url.getHost(), url.getPort());

    if (phase.equals("main")) {
      stubs();
      imports();
      journal();
      nearMisses();
      scenarios();
      settingsAndRecording();
      wireMock3Routes();
      persistence();
    } else {
      restarted();
    }

    System.out.println(
        "WireMock Java client against "
            + args[3]
            + " ("
            + phase
            + "): "
            + passed
            + " passed, "
            + failures.size()
            + " failed");
    if (!failures.isEmpty()) {
      failures.forEach(f -> System.err.println("FAIL: " + f));
      System.exit(1);
    }
  }

  // MARK: - Stubs

  static void stubs() {
    step("reset() (POST /__admin/reset)", WireMock::reset);
    StubMapping[] hello = new StubMapping[1];
    step(
        "stubFor (POST /__admin/mappings) serves",
        () -> {
          hello[0] = stubFor(get("/jc/hello").willReturn(ok("hello")).withMetadata(Map.of("suite", "java")));
          expect(hello[0].getId() != null, "the stub has an id");
          expectEqual(traffic("GET", "/jc/hello"), "200 hello", "GET /jc/hello");
        });
    step(
        "getSingleStubMapping (GET /__admin/mappings/{id})",
        () -> {
          StubMapping found = getSingleStubMapping(hello[0].getId());
          expectEqual(found.getId(), hello[0].getId(), "id");
          expectEqual(found.getRequest().getUrl(), "/jc/hello", "request url");
        });
    step(
        "getSingleStubMapping of an unknown id throws",
        () -> expectThrows(() -> getSingleStubMapping(UUID.randomUUID()), "an unknown id"));
    step(
        "listAllStubMappings (GET /__admin/mappings): by priority, then newest first",
        () -> {
          UUID older = UUID.randomUUID(), newer = UUID.randomUUID(), urgent = UUID.randomUUID();
          stubFor(get("/jc/order/urgent").withId(urgent).atPriority(1).willReturn(ok()));
          stubFor(get("/jc/order/older").withId(older).willReturn(ok()));
          stubFor(get("/jc/order/newer").withId(newer).willReturn(ok()));
          List<UUID> order =
              listAllStubMappings().getMappings().stream()
                  .map(StubMapping::getId)
                  .filter(id -> List.of(older, newer, urgent).contains(id))
                  .collect(Collectors.toList());
          expectEqual(order, List.of(urgent, newer, older), "order (urgent, the oldest, has priority 1)");
          expectEqual(listAllStubMappings().getMappings().get(0).getId(), urgent, "the first listed");
        });
    step(
        "findStubsByMetadata (POST /__admin/mappings/find-by-metadata)",
        () -> {
          List<StubMapping> found = findStubsByMetadata(matchingJsonPath("$.suite", equalTo("java")));
          expectEqual(ids(found), List.of(hello[0].getId()), "found");
        });
    step(
        "editStub (2.x: POST /__admin/mappings/edit) replaces in place",
        () -> {
          editStub(
              get("/jc/hello")
                  .withId(hello[0].getId())
                  .willReturn(ok("edited"))
                  .withMetadata(Map.of("suite", "java")));
          expectEqual(traffic("GET", "/jc/hello"), "200 edited", "GET /jc/hello");
          expectEqual(getSingleStubMapping(hello[0].getId()).getResponse().getBody(), "edited", "the stub");
        });
    step(
        "editStub of an unknown id throws",
        () -> expectThrows(() -> editStub(get("/jc/nobody").withId(UUID.randomUUID()).willReturn(ok())), "edit"));
    step(
        "removeStub(MappingBuilder) (POST /__admin/mappings/remove): by an equal request pattern",
        () -> {
          stubFor(get("/jc/remove/by-pattern").willReturn(ok()));
          removeStub(get("/jc/remove/by-pattern"));
          expectEqual(traffic("GET", "/jc/remove/by-pattern").substring(0, 3), "404", "GET after removal");
        });
    step(
        "removeStub(StubMapping) (POST /__admin/mappings/remove): by id",
        () -> {
          StubMapping stub = stubFor(get("/jc/remove/by-id").willReturn(ok()));
          stubFor(get("/jc/remove/by-id").atPriority(9).willReturn(ok("another")));
          removeStub(stub);
          expectEqual(traffic("GET", "/jc/remove/by-id"), "200 another", "the other stub still answers");
        });
    step(
        "HttpAdminClient.removeStubMapping(UUID) (DELETE /__admin/mappings/{id})",
        () -> {
          StubMapping stub = stubFor(get("/jc/remove/delete").willReturn(ok()));
          admin.removeStubMapping(stub.getId());
          expectEqual(traffic("GET", "/jc/remove/delete").substring(0, 3), "404", "GET after removal");
        });
    step(
        "removeStubsByMetadata (POST /__admin/mappings/remove-by-metadata)",
        () -> {
          removeStubsByMetadata(matchingJsonPath("$.suite", equalTo("java")));
          expect(findStubsByMetadata(matchingJsonPath("$.suite", equalTo("java"))).isEmpty(), "none left");
          expectEqual(traffic("GET", "/jc/hello").substring(0, 3), "404", "GET /jc/hello");
        });
    step(
        "removeStub of a stub loaded from a file (not persistent) keeps the file",
        () -> {
          removeStub(getSingleStubMapping(STARTUP_ID));
          expectEqual(traffic("GET", "/jc/startup").substring(0, 3), "404", "GET /jc/startup");
          expectEqual(filesFor(STARTUP_ID).size(), 1, "startup.json");
        });
    step(
        "resetToDefault (POST /__admin/mappings/reset): back to the stub files",
        () -> {
          resetToDefault();
          expectEqual(ids(listAllStubMappings().getMappings()), List.of(STARTUP_ID), "stubs");
          expectEqual(traffic("GET", "/jc/startup"), "200 from a file", "GET /jc/startup");
        });
  }

  // MARK: - Imports

  static void imports() {
    step(
        "importStubs (POST /__admin/mappings/import): the first listed of two equal stubs answers",
        () -> {
          importStubs(
              StubImport.stubImport()
                  .stub(get("/jc/import").willReturn(ok("first")))
                  .stub(get("/jc/import").willReturn(ok("second"))));
          expectEqual(traffic("GET", "/jc/import"), "200 first", "GET /jc/import");
        });
    UUID id = UUID.randomUUID();
    step(
        "importStubs ignoreExisting keeps the existing stub",
        () -> {
          stubFor(get("/jc/import/existing").withId(id).willReturn(ok("existing")));
          importStubs(
              StubImport.stubImport()
                  .stub(get("/jc/import/existing").withId(id).willReturn(ok("imported")))
                  .ignoreExisting());
          expectEqual(traffic("GET", "/jc/import/existing"), "200 existing", "GET");
        });
    step(
        "importStubs overwriteExisting replaces it",
        () -> {
          importStubs(
              StubImport.stubImport()
                  .stub(get("/jc/import/existing").withId(id).willReturn(ok("imported")))
                  .overwriteExisting());
          expectEqual(traffic("GET", "/jc/import/existing"), "200 imported", "GET");
        });
    step(
        "importStubs deleteAllExistingStubsNotInImport",
        () -> {
          UUID only = UUID.randomUUID();
          importStubs(
              StubImport.stubImport()
                  .stub(get("/jc/import/only").withId(only).willReturn(ok("only")))
                  .deleteAllExistingStubsNotInImport());
          expectEqual(ids(listAllStubMappings().getMappings()), List.of(only), "stubs");
          resetToDefault();
        });
  }

  // MARK: - The request journal

  static void journal() {
    StubMapping[] stub = new StubMapping[2];
    step(
        "resetAllRequests (DELETE /__admin/requests)",
        () -> {
          stub[0] = stubFor(get("/jc/journal").willReturn(ok("j")).withMetadata(Map.of("suite", "events")));
          stub[1] = stubFor(get("/jc/other").willReturn(ok("o")));
          traffic("GET", "/jc/journal");
          resetAllRequests();
          expectEqual(getAllServeEvents().size(), 0, "serve events");
          traffic("GET", "/jc/journal");
          traffic("GET", "/jc/journal");
          traffic("GET", "/jc/other");
          traffic("GET", "/jc/journak");
        });
    step("verify (POST /__admin/requests/count)", () -> verify(getRequestedFor(urlEqualTo("/jc/journal"))));
    step("verify(2, …)", () -> verify(2, getRequestedFor(urlEqualTo("/jc/journal"))));
    step(
        "verify(3, …) fails with WireMock's count message",
        () -> {
          String message = verificationMessage(() -> verify(3, getRequestedFor(urlEqualTo("/jc/journal"))));
          expectPrefix(message, "Expected exactly 3 requests matching the following pattern but received 2");
        });
    step(
        "verify of a request never made: \"No requests exactly matched\" (from POST /__admin/near-misses/request-pattern)",
        () -> {
          String message = verificationMessage(() -> verify(getRequestedFor(urlEqualTo("/jc/journa"))));
          expectPrefix(message, "No requests exactly matched. Most similar request was:");
        });
    step(
        "findAll (POST /__admin/requests/find)",
        () -> expectEqual(findAll(getRequestedFor(urlEqualTo("/jc/journal"))).size(), 2, "requests"));
    step(
        "getAllServeEvents (GET /__admin/requests): most recent first",
        () -> {
          List<ServeEvent> events = getAllServeEvents();
          expectEqual(urls(events), List.of("/jc/journak", "/jc/other", "/jc/journal", "/jc/journal"), "urls");
        });
    step(
        "getAllServeEvents(ALL_UNMATCHED) (GET /__admin/requests?unmatched=true)",
        () -> expectEqual(urls(getAllServeEvents(ServeEventQuery.ALL_UNMATCHED)), List.of("/jc/journak"), "urls"));
    step(
        "getAllServeEvents(forStubMapping) (GET /__admin/requests?matchingStub=ID)",
        () ->
            expectEqual(
                urls(getAllServeEvents(ServeEventQuery.forStubMapping(stub[1]))), List.of("/jc/other"), "urls"));
    step(
        "an unmatched serve event has a stub mapping (WireMock's placeholder)",
        () -> {
          ServeEvent unmatched = getAllServeEvents(ServeEventQuery.ALL_UNMATCHED).get(0);
          expect(!unmatched.getWasMatched(), "wasMatched is false");
          expect(unmatched.getStubMapping() != null, "getStubMapping() is not null");
          expectEqual(unmatched.getStubMapping().getResponse().getStatus(), 404, "the placeholder's status");
        });
    step(
        "getServedStub (GET /__admin/requests/{id})",
        () -> {
          ServeEvent first = getAllServeEvents().get(1);
          expectEqual(admin.getServedStub(first.getId()).getItem().getRequest().getUrl(), "/jc/other", "url");
        });
    step(
        "findUnmatchedRequests (GET /__admin/requests/unmatched)",
        () -> expectEqual(findUnmatchedRequests().size(), 1, "requests"));
    step(
        "removeServeEvent (DELETE /__admin/requests/{id})",
        () -> {
          removeServeEvent(getAllServeEvents().get(0).getId());
          expectEqual(getAllServeEvents().size(), 3, "serve events left");
        });
    step(
        "removeServeEvents (POST /__admin/requests/remove)",
        () -> {
          List<ServeEvent> removed = removeServeEvents(getRequestedFor(urlEqualTo("/jc/other")));
          expectEqual(urls(removed), List.of("/jc/other"), "removed");
          expectEqual(getAllServeEvents().size(), 2, "serve events left");
        });
    step(
        "removeEventsByStubMetadata (POST /__admin/requests/remove-by-metadata)",
        () -> {
          List<ServeEvent> removed = removeEventsByStubMetadata(matchingJsonPath("$.suite", equalTo("events")));
          expectEqual(urls(removed), List.of("/jc/journal", "/jc/journal"), "removed");
          expectEqual(getAllServeEvents().size(), 0, "serve events left");
        });
  }

  // MARK: - Near misses

  static void nearMisses() {
    step(
        "findNearMissesForAllUnmatched (GET /__admin/requests/unmatched/near-misses)",
        () -> {
          resetAllRequests();
          traffic("GET", "/jc/journak");
          List<NearMiss> misses = findNearMissesForAllUnmatched();
          expect(!misses.isEmpty(), "near misses");
          expectEqual(misses.get(0).getRequest().getUrl(), "/jc/journak", "request");
          expectEqual(misses.get(0).getStubMapping().getRequest().getUrl(), "/jc/journal", "closest stub");
          expect(misses.get(0).getMatchResult().getDistance() > 0, "a distance");
        });
    step(
        "findNearMissesFor(LoggedRequest) (POST /__admin/near-misses/request)",
        () -> {
          LoggedRequest request = findUnmatchedRequests().get(0);
          List<NearMiss> misses = findNearMissesFor(request);
          expectEqual(misses.get(0).getStubMapping().getRequest().getUrl(), "/jc/journal", "closest stub");
        });
    step(
        "findNearMissesFor(pattern) (POST /__admin/near-misses/request-pattern)",
        () -> {
          List<NearMiss> misses = findNearMissesFor(getRequestedFor(urlEqualTo("/jc/journal")));
          expectEqual(misses.get(0).getRequest().getUrl(), "/jc/journak", "closest request");
          expectEqual(misses.get(0).getRequestPattern().getUrl(), "/jc/journal", "the pattern");
        });
  }

  // MARK: - Scenarios

  static void scenarios() {
    step(
        "getAllScenarios (GET /__admin/scenarios)",
        () -> {
          stubFor(
              get("/jc/flow")
                  .inScenario("Flow")
                  .whenScenarioStateIs(Scenario.STARTED)
                  .willReturn(ok("one"))
                  .willSetStateTo("Two"));
          stubFor(get("/jc/flow").inScenario("Flow").whenScenarioStateIs("Two").willReturn(ok("two")));
          expectEqual(scenarioState("Flow"), Scenario.STARTED, "state");
        });
    step(
        "setScenarioState (PUT /__admin/scenarios/{name}/state)",
        () -> {
          setScenarioState("Flow", "Two");
          expectEqual(scenarioState("Flow"), "Two", "state");
          expectEqual(traffic("GET", "/jc/flow"), "200 two", "GET /jc/flow");
        });
    step(
        "resetScenario (PUT /__admin/scenarios/{name}/state, no body): back to Started",
        () -> {
          resetScenario("Flow");
          expectEqual(scenarioState("Flow"), Scenario.STARTED, "state");
          expectEqual(traffic("GET", "/jc/flow"), "200 one", "GET /jc/flow");
        });
    step(
        "resetAllScenarios (POST /__admin/scenarios/reset)",
        () -> {
          resetAllScenarios();
          expectEqual(scenarioState("Flow"), Scenario.STARTED, "state");
        });
    step(
        "setScenarioState to a state no stub names throws",
        () -> expectThrows(() -> setScenarioState("Flow", "Nowhere"), "an unknown state"));
  }

  // MARK: - Settings, recording

  static void settingsAndRecording() {
    step(
        "setGlobalFixedDelay (POST /__admin/settings) and getSettings (GET /__admin/settings)",
        () -> {
          setGlobalFixedDelay(7);
          expectEqual(getSettings().getFixedDelay(), 7, "fixedDelay");
          setGlobalFixedDelay(0);
        });
    step(
        "getRecordingStatus (GET /__admin/recordings/status)",
        () -> expectEqual(getRecordingStatus().getStatus(), RecordingStatus.NeverStarted, "status"));
    step(
        "snapshotRecord (POST /__admin/recordings/snapshot): nothing proxied, no stubs",
        () -> expectEqual(snapshotRecord().size(), 0, "stubs"));
  }

  // MARK: - Routes of WireMock 3's client (its editStub and findUnmatchedStubs), read with WireMock's JSON

  static void wireMock3Routes() {
    step(
        "3.x editStub (PUT /__admin/mappings/{id})",
        () -> {
          StubMapping stub = stubFor(get("/jc/put").willReturn(ok("before")));
          StubMapping edited = get("/jc/put").withId(stub.getId()).willReturn(ok("after")).build();
          String answer = call("PUT", "/__admin/mappings/" + stub.getId(), Json.write(edited));
          expectEqual(Json.read(answer, StubMapping.class).getId(), stub.getId(), "the answer's id");
          expectEqual(traffic("GET", "/jc/put"), "200 after", "GET /jc/put");
        });
    if (!isStubserver) return; // the 2.35.1 jar predates these routes
    step(
        "3.x findUnmatchedStubs (GET /__admin/mappings/unmatched)",
        () -> {
          resetAllRequests();
          traffic("GET", "/jc/put");
          ListStubMappingsResult unused =
              Json.read(call("GET", "/__admin/mappings/unmatched", null), ListStubMappingsResult.class);
          expect(!ids(unused.getMappings()).isEmpty(), "unused stubs listed");
          expect(unused.getMappings().stream().noneMatch(m -> "/jc/put".equals(m.getRequest().getUrl())), "used");
        });
    step(
        "3.x DELETE /__admin/mappings/unmatched removes the unused stubs",
        () -> {
          call("DELETE", "/__admin/mappings/unmatched", null);
          List<StubMapping> left = listAllStubMappings().getMappings();
          expectEqual(left.size(), 1, "stubs left");
          expectEqual(left.get(0).getRequest().getUrl(), "/jc/put", "the used stub");
        });
  }

  // MARK: - Persistence

  static void persistence() {
    step(
        "reset() before the persistence checks",
        () -> {
          WireMock.reset();
          expectEqual(mappingFiles().size(), 1, "mapping files (startup.json)");
        });
    step(
        "stubFor(persistent()) writes its file at once and keeps the flag",
        () -> {
          stubFor(get("/jc/persisted").withId(PERSISTED_ID).persistent().willReturn(ok("persisted")));
          expectEqual(filesFor(PERSISTED_ID).size(), 1, "files holding the stub");
          expect(Boolean.TRUE.equals(getSingleStubMapping(PERSISTED_ID).isPersistent()), "isPersistent()");
        });
    step(
        "editStub of a persistent stub rewrites its file",
        () -> {
          editStub(get("/jc/persisted").withId(PERSISTED_ID).persistent().willReturn(ok("persisted, edited")));
          expect(read(filesFor(PERSISTED_ID).get(0)).contains("persisted, edited"), "the file has the edit");
        });
    step(
        "removeStub of a persistent stub deletes its file",
        () -> {
          UUID gone = UUID.randomUUID();
          StubMapping stub = stubFor(get("/jc/gone").withId(gone).persistent().willReturn(ok()));
          expectEqual(filesFor(gone).size(), 1, "files before");
          removeStub(stub);
          expectEqual(filesFor(gone).size(), 0, "files after");
        });
    step(
        "a stub not persistent has no file until saveAllMappings (POST /__admin/mappings/save)",
        () -> {
          stubFor(get("/jc/saved").withId(SAVED_ID).willReturn(ok("saved")));
          expectEqual(filesFor(SAVED_ID).size(), 0, "files before saving");
          saveAllMappings();
          expectEqual(filesFor(SAVED_ID).size(), 1, "files after saving");
          expect(read(filesFor(SAVED_ID).get(0)).contains("\"persistent\""), "the file says persistent");
          expect(Boolean.TRUE.equals(getSingleStubMapping(SAVED_ID).isPersistent()), "isPersistent()");
        });
    step(
        "reset() keeps the persistent and saved stubs and drops the others",
        () -> {
          stubFor(get("/jc/transient").willReturn(ok()));
          WireMock.reset();
          List<UUID> ids = ids(listAllStubMappings().getMappings());
          expect(ids.contains(PERSISTED_ID) && ids.contains(SAVED_ID), "persisted and saved are there: " + ids);
          expectEqual(ids.size(), 3, "stubs (with startup.json's)");
          expectEqual(traffic("GET", "/jc/persisted"), "200 persisted, edited", "GET /jc/persisted");
        });
    step(
        "removeAllMappings (DELETE /__admin/mappings) deletes the persistent stubs' files"
            + (isStubserver ? ", not the startup file's (a deliberate difference)" : " and the startup file's"),
        () -> {
          removeAllMappings();
          expectEqual(listAllStubMappings().getMappings().size(), 0, "stubs left");
          expectEqual(filesFor(PERSISTED_ID).size() + filesFor(SAVED_ID).size(), 0, "their files");
          expectEqual(filesFor(STARTUP_ID).size(), isStubserver ? 1 : 0, "startup.json");
          WireMock.reset();
          expectEqual(
              ids(listAllStubMappings().getMappings()),
              isStubserver ? List.of(STARTUP_ID) : List.of(),
              "stubs after reset()");
        });
    step(
        "persistent and saved stubs for the restart",
        () -> {
          stubFor(get("/jc/persisted").withId(PERSISTED_ID).persistent().willReturn(ok("persisted")));
          stubFor(get("/jc/saved").withId(SAVED_ID).willReturn(ok("saved")));
          stubFor(get("/jc/transient").willReturn(ok()));
          saveAllMappings();
          expectEqual(filesFor(PERSISTED_ID).size() + filesFor(SAVED_ID).size(), 2, "their files");
        });
  }

  static void restarted() {
    step(
        "after a restart: the persistent and the saved stubs are loaded"
            + (isStubserver ? ", and startup.json's" : ""),
        () -> {
          List<UUID> ids = ids(listAllStubMappings().getMappings());
          expect(ids.contains(PERSISTED_ID) && ids.contains(SAVED_ID), "persisted and saved: " + ids);
          expectEqual(ids.size(), isStubserver ? 4 : 3, "stubs (" + ids + ")");
          expectEqual(traffic("GET", "/jc/persisted"), "200 persisted", "GET /jc/persisted");
          expectEqual(traffic("GET", "/jc/saved"), "200 saved", "GET /jc/saved");
          expect(Boolean.TRUE.equals(getSingleStubMapping(SAVED_ID).isPersistent()), "isPersistent()");
        });
    step(
        "after a restart: removing a loaded persistent stub deletes its file",
        () -> {
          removeStub(getSingleStubMapping(PERSISTED_ID));
          expectEqual(filesFor(PERSISTED_ID).size(), 0, "files");
        });
    step("shutdownServer (POST /__admin/shutdown)", WireMock::shutdownServer);
  }

  // MARK: - Helpers

  static void step(String name, Step body) {
    try {
      body.run();
      passed++;
      System.out.println("ok: " + name);
    } catch (Throwable error) {
      String why = error.getClass().getSimpleName() + ": " + String.valueOf(error.getMessage()).split("\n")[0];
      failures.add(name + ": " + why);
      System.out.println("FAIL: " + name + ": " + why);
    }
  }

  static void expect(boolean condition, String what) {
    if (!condition) throw new IllegalStateException("expected " + what);
  }

  static void expectEqual(Object actual, Object expected, String what) {
    if (!expected.equals(actual)) {
      throw new IllegalStateException(what + ": expected " + expected + ", got " + actual);
    }
  }

  static void expectPrefix(String text, String prefix) {
    if (!text.startsWith(prefix)) {
      throw new IllegalStateException("expected a message starting \"" + prefix + "\", got \"" + text + "\"");
    }
  }

  static void expectThrows(Step body, String what) {
    try {
      body.run();
    } catch (Exception | AssertionError expected) {
      return;
    }
    throw new IllegalStateException(what + ": expected an exception, none was thrown");
  }

  static String verificationMessage(Step body) throws Exception {
    try {
      body.run();
    } catch (VerificationException failure) {
      return failure.getMessage();
    }
    throw new IllegalStateException("expected a VerificationException, none was thrown");
  }

  static String scenarioState(String name) {
    return getAllScenarios().stream()
        .filter(s -> name.equals(s.getName()))
        .map(Scenario::getState)
        .findFirst()
        .orElse("(no scenario " + name + ")");
  }

  static List<UUID> ids(List<StubMapping> stubs) {
    return stubs.stream().map(StubMapping::getId).collect(Collectors.toList());
  }

  static List<String> urls(List<ServeEvent> events) {
    return events.stream().map(e -> e.getRequest().getUrl()).collect(Collectors.toList());
  }

  static List<Path> mappingFiles() throws IOException {
    if (!Files.isDirectory(mappingsDir)) return List.of();
    try (Stream<Path> files = Files.walk(mappingsDir)) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().collect(Collectors.toList());
    }
  }

  static List<Path> filesFor(UUID id) throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path file : mappingFiles()) if (read(file).contains(id.toString())) found.add(file);
    return found;
  }

  static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }

  /** A request to the server as an app would make it: "STATUS BODY". */
  static String traffic(String method, String path) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL(base + path).openConnection();
    connection.setRequestMethod(method);
    int status = connection.getResponseCode();
    InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    String body = stream == null ? "" : new String(readAll(stream), StandardCharsets.UTF_8);
    return status + " " + body;
  }

  /** An admin call WireMock 3's client makes and 2.35.1's does not: the body, after a 2xx. */
  static String call(String method, String path, String body) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL(base + path).openConnection();
    connection.setRequestMethod(method);
    if (body != null) {
      connection.setDoOutput(true);
      connection.setRequestProperty("Content-Type", "application/json");
      try (OutputStream out = connection.getOutputStream()) {
        out.write(body.getBytes(StandardCharsets.UTF_8));
      }
    }
    int status = connection.getResponseCode();
    InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    String text = stream == null ? "" : new String(readAll(stream), StandardCharsets.UTF_8);
    if (status / 100 != 2) throw new IllegalStateException(method + " " + path + ": " + status + " " + text);
    return text;
  }

  static byte[] readAll(InputStream stream) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    stream.transferTo(out);
    return out.toByteArray();
  }
}
