import PCLBridgeInterface

/// A failure reported by the PCL bridge: a bridge library that could not be loaded, bad
/// arguments it refused, memory it could not get, or an exception PCL threw, caught in the
/// bridge and turned into this error.
public struct PCLBridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done ("unorganized plane segmentation", …).
    public var operation: String
    /// What went wrong, as the bridge said it.
    public var problem: String

    /// An error about `operation`.
    public init(operation: String, problem: String) {
        self.operation = operation
        self.problem = problem
    }

    /// `operation: problem`, on one line.
    public var description: String { "\(operation): \(problem)" }

    /// The error a failed bridge call reported in `status`.
    init(operation: String, status: pk_status) {
        var status = status
        // The bridge always terminates the message; reading at most its 512 bytes keeps a
        // damaged status from running off the end.
        let message = withUnsafeBytes(of: &status.message) { raw -> String in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        self.init(operation: operation, problem: message.isEmpty ? "failed without a message" : message)
    }
}
