/// A problem with input data: which record or file, and what is wrong with it.
///
/// The description is one line meant for stderr, for example
/// `frame.pcd: header claims 10000000000 points, more than the 100000000 allowed`.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path, or a description of the record ("record 12", "stdin").
    public var source: String
    /// What is wrong, in words a user can act on.
    public var problem: String

    /// An error about `source`.
    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    /// `source: problem`, on one line.
    public var description: String { "\(source): \(problem)" }
}
