import Foundation
import StubHTTP
import Testing

@testable import StubKit

@Suite("Stub writer: secrets stay out")
struct StubWriterSecretTests {
    static let token = "ghp_SECRETSECRETSECRET"

    @Test("Set-Cookie and token-like response headers are left out and listed")
    func responseHeaders() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            .json(
                "/user", body: "{}",
                responseHeaders: [
                    "Set-Cookie": "session=\(Self.token)", "X-Auth-Token": Self.token,
                    "ETag": "\"1\""
                ]),
            .json("/user", body: "{}", responseHeaders: ["Set-Cookie": "session=\(Self.token)"])
        ])
        #expect(!folder.allText().contains(Self.token))
        #expect(!folder.allText().contains("Set-Cookie"))
        #expect(
            summary.dropped == [
                .init(kind: .responseHeader, name: "Set-Cookie", count: 2),
                .init(kind: .responseHeader, name: "X-Auth-Token", count: 1)
            ])
        #expect(summary.description.contains("left out as secrets:\n  response header Set-Cookie (2 responses)"))
        #expect(try #require(try folder.load().first).response.headers.map(\.name) == ["Content-Type", "ETag"])
    }

    @Test("Authorization and Cookie are not recorded even when captured, unless kept")
    func requestHeaders() throws {
        let folder = try WriterFolder()
        let headers: HTTPHeaders = [
            "Authorization": "token \(Self.token)", "Cookie": "s=\(Self.token)", "Accept": "*/*"
        ]
        let summary = try folder.write(
            [.json("/user", body: "{}", requestHeaders: headers)],
            options: .init(captureHeaders: ["Authorization", "Cookie", "Accept"]))
        #expect(!folder.allText().contains(Self.token))
        #expect(summary.dropped.map(\.name) == ["Authorization", "Cookie"])
        let mapping = try #require(try folder.load().first)
        #expect(mapping.matches("GET", "/user", headers: ["Accept": "*/*", "Authorization": "token other"]))

        let kept = try WriterFolder()
        var secrets = SecretFilter.standard
        secrets.kept = ["authorization"]
        _ = try kept.write(
            [.json("/user", body: "{}", requestHeaders: headers)],
            options: .init(secrets: secrets, captureHeaders: ["Authorization"]))
        #expect(kept.allText().contains("token \(Self.token)"))
    }

    @Test(
        "A secret query parameter is left out: the stub matches the path and the other parameters, whatever the token")
    func queryParameters() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            .json("/repos?access_token=\(Self.token)&per_page=5&sort=updated&sort=name", body: "[]"),
            .json("/repos?access_token=other&per_page=5&sort=updated&sort=name", body: "[]"),
            .json("/maps?key=\(Self.token)", body: "[]")
        ])
        #expect(!folder.allText().contains(Self.token))
        #expect(summary.stubs.count == 2)
        #expect(
            summary.dropped == [
                .init(kind: .queryParameter, name: "access_token", count: 2),
                .init(kind: .queryParameter, name: "key", count: 1)
            ])
        let loaded = try folder.load()
        let repos = try #require(
            loaded.first { $0.matches("GET", "/repos?per_page=5&sort=updated&sort=name&access_token=x") })
        #expect(repos.request.url == .urlPath("/repos"))
        #expect(!repos.matches("GET", "/repos?per_page=6&sort=updated&sort=name"))
        #expect(loaded.contains { $0.matches("GET", "/maps?key=anything") })
    }

    @Test("Which names are secrets")
    func secretNames() {
        let filter = SecretFilter.standard
        for name in [
            "Authorization", "proxy-authorization", "COOKIE", "Set-Cookie", "X-Api-Key", "X-Auth-Token",
            "X-Amz-Security-Token", "X-Session-Id"
        ] {
            #expect(filter.isSecretHeader(name), "\(name)")
        }
        for name in ["Content-Type", "ETag", "X-GitHub-Request-Id", "Accept", "Link"] {
            #expect(!filter.isSecretHeader(name), "\(name)")
        }
        for name in [
            "token", "access_token", "API_KEY", "apikey", "key", "client_secret", "sig", "X-Amz-Signature",
            "X-Amz-Credential", "upload_key", "refresh_token", "password", "code"
        ] {
            #expect(filter.isSecretQueryParameter(name), "\(name)")
        }
        for name in ["q", "page", "per_page", "sort", "keyword", "monkey"] {
            #expect(!filter.isSecretQueryParameter(name), "\(name)")
        }
        #expect(!SecretFilter.none.isSecretHeader("Authorization"))
    }

    @Test("A request body with a secret field is not matched on and not written")
    func requestBodySecrets() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            .json(
                "/login/oauth/access_token", method: "POST", body: #"{"access_token":"issued"}"#,
                requestHeaders: ["Content-Type": "application/x-www-form-urlencoded"],
                requestBody: "client_id=abc&client_secret=\(Self.token)&code=\(Self.token)"),
            .json(
                "/session", method: "POST", body: "{}", requestHeaders: ["Content-Type": "application/json"],
                requestBody: #"{"user":{"login":"me","password":"\#(Self.token)"}}"#)
        ])
        #expect(!folder.allText().contains(Self.token))
        #expect(
            summary.dropped == [
                .init(kind: .requestBody, name: "client_secret", count: 1),
                .init(kind: .requestBody, name: "password", count: 1)
            ])
        #expect(try folder.load().contains { $0.matches("POST", "/session", body: "anything") })
    }
}
