/// A 3×3 matrix of `Float`, stored as three columns.
///
/// Used for rotations and for the covariance of point sets. Column-major like Apple's
/// `simd_float3x3`, so `m.columns.0` is the image of the X axis under a rotation.
public struct Matrix3: Hashable, Sendable, Codable {
    /// The three columns.
    public var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    /// A matrix from its three columns.
    @inlinable public init(_ c0: SIMD3<Float>, _ c1: SIMD3<Float>, _ c2: SIMD3<Float>) {
        columns = (c0, c1, c2)
    }

    /// A matrix from its rows (convenient for writing literals that read like the maths).
    @inlinable public init(rows r0: SIMD3<Float>, _ r1: SIMD3<Float>, _ r2: SIMD3<Float>) {
        columns = (SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    /// The identity matrix.
    public static let identity = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The element at `row`, `column` (both 0…2).
    @inlinable public subscript(row: Int, column: Int) -> Float {
        switch column {
        case 0: return columns.0[row]
        case 1: return columns.1[row]
        default: return columns.2[row]
        }
    }

    /// The transpose (the inverse, for a rotation).
    @inlinable public var transposed: Matrix3 {
        Matrix3(rows: columns.0, columns.1, columns.2)
    }

    /// The determinant (+1 for a proper rotation).
    @inlinable public var determinant: Float {
        dot(columns.0, cross(columns.1, columns.2))
    }

    /// `m * v`.
    @inlinable public static func * (m: Matrix3, v: SIMD3<Float>) -> SIMD3<Float> {
        m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z
    }

    /// The matrix product `a * b`.
    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(a * b.columns.0, a * b.columns.1, a * b.columns.2)
    }

    /// `true` when the columns are orthonormal and the determinant is +1, within `tolerance`.
    public func isRotation(tolerance: Float = 1e-4) -> Bool {
        let (a, b, c) = columns
        return abs(a.lengthSquared - 1) <= tolerance && abs(b.lengthSquared - 1) <= tolerance
            && abs(c.lengthSquared - 1) <= tolerance && abs(dot(a, b)) <= tolerance
            && abs(dot(a, c)) <= tolerance && abs(dot(b, c)) <= tolerance
            && abs(determinant - 1) <= tolerance
    }

    /// Exact equality of every element (compare computed matrices with `isApproximatelyEqual(to:tolerance:)`).
    public static func == (lhs: Matrix3, rhs: Matrix3) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1 && lhs.columns.2 == rhs.columns.2
    }

    /// Hashes every element, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns.0)
        hasher.combine(columns.1)
        hasher.combine(columns.2)
    }

    private enum CodingKeys: String, CodingKey { case columns }

    /// Decodes from `{"columns": [[x,y,z],[x,y,z],[x,y,z]]}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let cols = try container.decode([SIMD3<Float>].self, forKey: .columns)
        guard cols.count == 3 else {
            throw DecodingError.dataCorruptedError(forKey: .columns, in: container, debugDescription: "a 3x3 matrix needs 3 columns, got \(cols.count)")
        }
        self.init(cols[0], cols[1], cols[2])
    }

    /// Encodes as `{"columns": [[x,y,z],[x,y,z],[x,y,z]]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([columns.0, columns.1, columns.2], forKey: .columns)
    }
}

extension Matrix3: ApproximatelyEquatable {
    /// `true` when every element agrees within `tolerance`.
    public func isApproximatelyEqual(to other: Matrix3, tolerance: Float) -> Bool {
        columns.0.isApproximatelyEqual(to: other.columns.0, tolerance: tolerance)
            && columns.1.isApproximatelyEqual(to: other.columns.1, tolerance: tolerance)
            && columns.2.isApproximatelyEqual(to: other.columns.2, tolerance: tolerance)
    }
}
