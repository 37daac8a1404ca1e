/// Per-frame latencies in fixed memory: 0.01 ms buckets up to 100 ms, and a count above, so an
/// endless stream can report percentiles without keeping every sample.
public struct LatencyHistogram: Sendable {
    private var buckets = [Int](repeating: 0, count: 10_000)
    private var over = 0
    /// How many latencies were added.
    public private(set) var count = 0

    /// An empty histogram.
    public init() {}

    /// Adds one latency in milliseconds (negative ones count as 0).
    public mutating func add(_ milliseconds: Double) {
        count += 1
        let bucket = milliseconds < 0 ? 0 : Int(min(milliseconds * 100, Double(buckets.count)))
        if bucket < buckets.count { buckets[bucket] += 1 } else { over += 1 }
    }

    /// The latency (ms) at or below which `fraction` of the samples fell, as the upper edge of
    /// its 0.01 ms bucket; `.infinity` when it is above 100 ms, `nil` with no samples.
    public func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (i, n) in buckets.enumerated() {
            seen += n
            if seen >= rank { return Double(i + 1) / 100 }
        }
        return .infinity
    }

    /// `N frames, latency ms p50 … p90 … p99 … max …`.
    public var summary: String {
        guard count > 0 else { return "no frames" }
        let p = [0.5, 0.9, 0.99, 1.0].map { fraction -> String in
            guard let ms = percentile(fraction) else { return "-" }
            return ms.isFinite ? LatencyHistogram.twoDecimals(ms) : ">100"
        }
        return "\(count) frames, latency ms p50 \(p[0]) p90 \(p[1]) p99 \(p[2]) max \(p[3])"
    }

    /// `x` with two decimals (bucket edges are whole hundredths), without Foundation's `String(format:)`.
    static func twoDecimals(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
