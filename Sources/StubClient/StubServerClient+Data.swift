import Foundation
import StubKit

/// The data store over the admin API (`/__admin/stubserver/data`).
extension StubServerClient {
    /// Declares a data collection (`POST /__admin/stubserver/data`), replacing the one of the same name.
    public func addDataCollection(_ collection: DataCollection) async throws {
        _ = try await send(.declareDataCollection, body: collection.json)
    }

    /// The items of the data collection `name` (`GET /__admin/stubserver/data/{name}`).
    public func dataItems(_ name: String) async throws -> [JSONValue] {
        let answer = try await send(.getDataCollection, name)
        guard case .array(let items)? = try answer.json()["items"] else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "no 'items' in the answer")
        }
        return items
    }

    /// Replaces the items of the data collection `name` (`PUT /__admin/stubserver/data/{name}`).
    public func replaceDataItems(_ name: String, with items: [JSONValue]) async throws {
        _ = try await send(.replaceDataItems, name, body: .array(items))
    }

    /// The data collection `name` back to its seed (`DELETE /__admin/stubserver/data/{name}`).
    public func resetDataCollection(_ name: String) async throws {
        _ = try await send(.resetDataCollection, name)
    }
}
