/// A plane's stable name across frames, printed `plane-N`.
///
/// The hit tester only carries it through to its results; the tracking layer decides which
/// detected plane keeps which identifier from frame to frame.
public struct PlaneIdentifier: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The number behind the name.
    public var rawValue: UInt64

    /// The identifier with number `rawValue`.
    @inlinable public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `plane-N`.
    public var description: String { "plane-\(rawValue)" }

    /// Orders identifiers by their number.
    @inlinable public static func < (a: PlaneIdentifier, b: PlaneIdentifier) -> Bool {
        a.rawValue < b.rawValue
    }

    /// Encodes as the string `plane-N`, the form people read in JSON output.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes `plane-N` (or a bare number).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(UInt64.self) {
            self.init(number)
            return
        }
        let text = try container.decode(String.self)
        guard text.hasPrefix("plane-"), let number = UInt64(text.dropFirst("plane-".count)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected plane-N, got \(text)")
        }
        self.init(number)
    }
}
