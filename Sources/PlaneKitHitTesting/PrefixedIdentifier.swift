/// A stable name made of a prefix and a number, like `plane-3` or `object-12`: how anchors are
/// named in output people read and in records programs send back.
public protocol PrefixedIdentifier: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The text before the number, including the dash (`"plane-"`).
    static var prefix: String { get }
    /// The number behind the name.
    var rawValue: UInt64 { get }
    /// The identifier with number `rawValue`.
    init(_ rawValue: UInt64)
}

extension PrefixedIdentifier {
    /// `prefix` followed by the number.
    public var description: String { "\(Self.prefix)\(rawValue)" }

    /// Orders identifiers by their number.
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The identifier written as `prefix` + number, or as a bare number; `nil` otherwise.
    public init?(parsing text: String) {
        let digits = text.hasPrefix(Self.prefix) ? text.dropFirst(Self.prefix.count) : Substring(text)
        guard let number = UInt64(digits) else { return nil }
        self.init(number)
    }

    /// Encodes as the string `prefix` + number, the form people read in JSON output.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes `prefix` + number, or a bare number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(UInt64.self) {
            self.init(number)
            return
        }
        let text = try container.decode(String.self)
        guard let identifier = Self(parsing: text), text.hasPrefix(Self.prefix) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.prefix)N, got \(text)")
        }
        self = identifier
    }
}
