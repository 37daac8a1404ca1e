import PlaneKitGeometry
import Testing

/// Expects `actual` to agree with `expected` within `tolerance`, printing both when not.
func expectClose<T: ApproximatelyEquatable>(
    _ actual: T, _ expected: T, tolerance: Float = 1e-5,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.isApproximatelyEqual(to: expected, tolerance: tolerance),
            "\(actual) is not within \(tolerance) of \(expected)", sourceLocation: sourceLocation)
}

/// Expects an optional result to exist and agree with `expected` within `tolerance`.
func expectClose<T: ApproximatelyEquatable>(
    _ actual: T?, _ expected: T, tolerance: Float = 1e-5,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let actual else {
        Issue.record("expected \(expected), got nil", sourceLocation: sourceLocation)
        return
    }
    expectClose(actual, expected, tolerance: tolerance, sourceLocation: sourceLocation)
}

/// √½, the sine and cosine of 45°.
let halfRoot2: Float = 0.70710678
/// √2.
let root2: Float = 1.41421356
