/// A plane's stable name across frames, printed `plane-N`.
///
/// The hit tester only carries it through to its results; the tracking layer decides which
/// detected plane keeps which identifier from frame to frame.
public struct PlaneIdentifier: PrefixedIdentifier {
    /// `plane-`.
    public static let prefix = "plane-"
    /// The number behind the name.
    public var rawValue: UInt64

    /// The identifier with number `rawValue`.
    @inlinable public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }
}
