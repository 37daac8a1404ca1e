/// The limits every reader enforces before it allocates memory for what a file claims.
///
/// A header can claim anything; a 200-byte file claiming 10¹⁰ points must be an error, not an
/// attempt to allocate 160 GB.
public enum InputLimits {
    /// The most points (or pixels) one file may hold: 64 Mi.
    public static let maximumElements = 64 * 1024 * 1024
    /// The largest file read whole into memory: 4 GiB.
    public static let maximumFileBytes = 4 << 30

    /// Throws when `count` is negative or more than ``maximumElements``.
    package static func check(elementCount count: Int, what: String, source: String) throws(InputError) {
        guard count >= 0 else {
            throw InputError(source: source, problem: "negative \(what) count \(count)")
        }
        guard count <= maximumElements else {
            throw InputError(source: source,
                             problem: "claims \(count) \(what), more than the \(maximumElements) allowed")
        }
    }

    /// `width × height`, or an error when either is not positive or the product exceeds
    /// ``maximumElements`` (overflow included).
    static func pixelCount(width: Int, height: Int, source: String) throws(InputError) -> Int {
        guard width > 0, height > 0 else {
            throw InputError(source: source, problem: "image size \(width)×\(height) is not positive")
        }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, product <= maximumElements else {
            throw InputError(source: source,
                             problem: "image size \(width)×\(height) is more than the \(maximumElements) pixels allowed")
        }
        return product
    }
}
