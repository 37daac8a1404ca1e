/// A problem with one record of a frame stream: which record (1-based, counting every header
/// line that is not blank) and what is wrong with it, on one line.
///
/// The reader that reports it has already skipped the record's payload (when its header said how
/// long the payload is), so reading can go on with the next record.
public struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based number of the record, or 0 for a problem with the stream itself (a read error).
    public var recordNumber: Int
    /// What is wrong, in words a producer can act on; one line.
    public var message: String

    /// An error about record `recordNumber`.
    public init(recordNumber: Int, message: String) {
        self.recordNumber = recordNumber
        self.message = message
    }

    /// `record N: message` (or `stream: message` for record 0).
    public var description: String {
        recordNumber > 0 ? "record \(recordNumber): \(message)" : "stream: \(message)"
    }
}
