#if canImport(Glibc)
import Glibc
#endif

/// Blocking sleeps of the calling thread, without Foundation's `Thread` (see `CFormat` for why
/// the CLI avoids Foundation).
public enum Pause {
    /// Sleeps `seconds` (negative or NaN: not at all), resuming after interruptions by signals.
    public static func seconds(_ seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
