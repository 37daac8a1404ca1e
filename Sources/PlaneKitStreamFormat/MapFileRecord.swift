/// `{"type":"saveMap","path":…}` and `{"type":"loadMap","path":…}`: a world map file to write or
/// to relocalize into.
public struct MapFileRecord: Sendable, Hashable {
    /// The map file's path (a non-empty string).
    public var path: String

    /// A record naming `path`.
    public init(path: String) {
        self.path = path
    }

    init(_ fields: HeaderFields) throws(HeaderProblem) {
        let path = try fields.requiredString("path")
        guard !path.isEmpty else { throw HeaderProblem("\"path\" must name a file") }
        self.path = path
    }
}
