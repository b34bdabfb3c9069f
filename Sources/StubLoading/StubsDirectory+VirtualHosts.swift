import StubModel

/// Per-host folders: `mappings/api.example.com/*.json` holds stubs for virtual host `api.example.com` alone.
extension StubsDirectory {
    /// The virtual host a mapping file belongs to: the first folder of `relative` (its path under `mappings/`)
    /// when it names one of `virtualHosts` (any case), else `nil`. A folder naming no configured virtual host
    /// (`mappings/v1.2/`) is an ordinary folder.
    static func virtualHost(ofMappingFile relative: String, among virtualHosts: [String]) -> String? {
        guard !virtualHosts.isEmpty, let slash = relative.firstIndex(of: "/") else { return nil }
        let folder = relative[..<slash].lowercased()
        return virtualHosts.first { $0.lowercased() == folder }?.lowercased()
    }

    /// `mapping` restricted to requests sent to `host` (lower-cased): a `host` matcher `equalTo` `host`, any case,
    /// added when it has none. One it already has must accept `host` as the virtual host's port reads it:
    /// `equalTo` `host` (another case only with `caseInsensitive`); any other is an error, since the folder and
    /// the matcher would disagree on where the stub answers.
    static func scope(
        _ mapping: StubMapping, toHost host: String, file: String, index: Int?
    ) throws(StubsLoadError) -> StubMapping {
        var mapping = mapping
        switch mapping.request.host {
        case nil:
            mapping.request.host = .equalTo(host, caseInsensitive: true)
        case .equalTo(let name, let caseInsensitive)?
        where name == host || (caseInsensitive && name.lowercased() == host):
            break
        case let other?:
            let path = (index.map { MappingPath.root.key("mappings").index($0) } ?? .root).key("request").key("host")
            throw StubsLoadError.invalidMapping(
                file, path: path.description,
                "a stub under mappings/\(host)/ answers only requests to virtual host \(host), but its "
                    + "\"host\" matcher is \(other.json.serialized()); remove the matcher (the folder sets it) "
                    + "or move the file out of the folder")
        }
        return mapping
    }
}
