/// Why a detector could not run on a cloud.
public enum DetectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The organized detector needs an image layout (`height > 1`).
    case unorganizedCloud(width: Int, height: Int)
    /// The cloud is larger than the detector accepts (``OrganizedPlaneDetector/maximumPointCount``).
    case cloudTooLarge(width: Int, height: Int, limit: Int)
    /// A configuration value is out of range; the text names it.
    case invalidConfiguration(String)

    /// One line for stderr.
    public var description: String {
        switch self {
        case let .unorganizedCloud(width, height):
            "the cloud is not organized (\(width)×\(height)); organized detection needs an image layout"
        case let .cloudTooLarge(width, height, limit):
            "the cloud is \(width)×\(height), more than the \(limit) points organized detection accepts"
        case let .invalidConfiguration(problem):
            "invalid detector configuration: \(problem)"
        }
    }
}
