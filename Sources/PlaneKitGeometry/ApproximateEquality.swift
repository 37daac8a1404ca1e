/// Floating-point comparison with a tolerance.
///
/// Geometry computed in `Float` rarely matches a literal bit for bit, so tests and
/// de-duplication compare with ``isApproximatelyEqual(to:tolerance:)`` instead of `==`.
public protocol ApproximatelyEquatable {
    /// `true` when `self` and `other` differ by no more than `tolerance` in every component.
    func isApproximatelyEqual(to other: Self, tolerance: Float) -> Bool
}

/// The tolerance used when none is given: 1e-5, about 100 ULPs at magnitude 1.
public let defaultGeometricTolerance: Float = 1e-5

extension ApproximatelyEquatable {
    /// `true` when `self` and `other` agree within ``defaultGeometricTolerance``.
    @inlinable public func isApproximatelyEqual(to other: Self) -> Bool {
        isApproximatelyEqual(to: other, tolerance: defaultGeometricTolerance)
    }
}

extension Float: ApproximatelyEquatable {
    /// `true` when `|self - other| ≤ tolerance`; two NaNs are never equal.
    @inlinable public func isApproximatelyEqual(to other: Float, tolerance: Float) -> Bool {
        abs(self - other) <= tolerance
    }
}

extension SIMD2: ApproximatelyEquatable where Scalar == Float {
    /// `true` when both components agree within `tolerance`.
    @inlinable public func isApproximatelyEqual(to other: SIMD2<Float>, tolerance: Float) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance
    }
}

extension SIMD3: ApproximatelyEquatable where Scalar == Float {
    /// `true` when every component agrees within `tolerance`.
    @inlinable public func isApproximatelyEqual(to other: SIMD3<Float>, tolerance: Float) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance && abs(z - other.z) <= tolerance
    }
}

extension SIMD4: ApproximatelyEquatable where Scalar == Float {
    /// `true` when every component agrees within `tolerance`.
    @inlinable public func isApproximatelyEqual(to other: SIMD4<Float>, tolerance: Float) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance
            && abs(z - other.z) <= tolerance && abs(w - other.w) <= tolerance
    }
}
