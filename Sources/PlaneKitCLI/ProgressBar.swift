#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PlaneKitCommandSupport

/// A one-line progress bar on stderr for long batches, drawn only when stderr is a terminal
/// (so logs and pipes stay clean) and redrawn at most ten times a second.
public struct ProgressBar {
    /// The count at which the work is done.
    public let total: Int
    /// What is counted.
    public let label: String
    private let enabled: Bool
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    /// A bar counting to `total` (0 or less: unknown total, a plain counter) with `label`.
    public init(total: Int, label: String) {
        self.total = total
        self.label = label
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Shows that `done` items are finished.
    public mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) || done == total else { return }
        lastDraw = now
        let text: String
        if total > 0 {
            let width = 30
            let filled = min(width, done * width / total)
            text = "\r\(label) [\(String(repeating: "=", count: filled))\(String(repeating: " ", count: width - filled))] \(done)/\(total)"
        } else {
            text = "\r\(label) \(done)"
        }
        StandardError.write(text)
        drawn = true
    }

    /// Clears the bar so later messages start on a clean line.
    public mutating func finish() {
        guard enabled, drawn else { return }
        StandardError.write("\r\u{1B}[K")
        drawn = false
    }
}
