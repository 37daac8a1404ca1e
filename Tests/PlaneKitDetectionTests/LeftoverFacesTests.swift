import Testing
import PlaneKitGeometry
@testable import PlaneKitDetection

/// Faces too narrow for a cell, found among the pixels no plane took, on a depth staircase like
/// SegComp's ABW scans (points 0.5 mm apart, depth in steps of 1.3 mm).
@Suite struct LeftoverFacesTests {
    static let step: Float = 0.0013
    static let rows = 40, columns = 60
    /// A pinhole camera with pixels 0.5 mm apart at 1 m.
    static let focal: Float = 2000, cx: Float = 30, cy: Float = 20
    static let noise = DepthNoiseModel(constant: (0.00036 * 0.00036 + step * step / 12).squareRoot(), quadratic: 0,
                                       referenceDepth: 1)
    /// The front face (seen at 11°, up to column 40): the plane 0.2·x − z + 1 = 0.
    static let frontEnd = 40
    static let front: SIMD4<Float> = {
        let n = normalize(SIMD3<Float>(0.2, 0, -1))
        return SIMD4(n, -dot(n, SIMD3(0, 0, 1)))
    }()

    /// The depth at which the ray through pixel (`u`, `v`) meets `plane`.
    static func depth(_ u: Int, _ v: Int, on plane: SIMD4<Float>) -> Float {
        depth(Float(u), Float(v), on: plane)
    }

    /// The depth at which the ray through image point (`u`, `v`) meets `plane`.
    static func depth(_ u: Float, _ v: Float, on plane: SIMD4<Float>) -> Float {
        let ray = SIMD3((u - cx) / focal, (v - cy) / focal, 1)
        return -plane.w / dot(SIMD3(plane.x, plane.y, plane.z), ray)
    }

    /// The scene: the front face in columns 0..<40, labelled 1; a strip seen at 84° (its plane
    /// turned 73° from the front face's, 2 mm behind its edge) in the `strip` columns after it,
    /// unlabelled but for its first `stolen` columns, which carry label 1 as if the front face's
    /// growth had taken them; unlabelled clutter scattered by ±5 mm in the rest. Depths in steps
    /// of 1.3 mm. Returns the labels after the search and whether it found a face.
    ///
    /// With `stray` > 0 each strip pixel's depth is the plane's at a point off its pixel by a
    /// Gaussian `stray` pixels along each axis (where within its footprint the scanner sampled),
    /// and the search is told the matching lateral noise when `lateral` is set. With `scatter` > 0
    /// each strip depth is off by up to `scatter` either way, uniformly (a dark face).
    static func recovered(strip: Int, stolen: Int = 0, stray: Float = 0, lateral: Bool = false,
                          scatter: Float = 0) -> (labels: [UInt16], found: Bool) {
        let edgeRay = SIMD3((Float(frontEnd) - cx) / focal, 0, 1)
        let edge = edgeRay * (depth(frontEnd, 0, on: front) + 0.002)
        let n = normalize(SIMD3<Float>(10, 0, -1))
        let stripPlane = SIMD4(n, -dot(n, edge))
        var random = SplitMix64(seed: 7), strayRandom = TestRandom(seed: 11)
        var points: [SIMD3<Float>] = [], labels: [UInt16] = []
        for v in 0..<rows {
            for u in 0..<columns {
                var z: Float
                var label: UInt16 = 0
                if u < frontEnd {
                    z = depth(u, v, on: front)
                    label = 1
                } else if u < frontEnd + strip {
                    z = stray > 0 ? depth(Float(u) + stray * strayRandom.gaussian(),
                                          Float(v) + stray * strayRandom.gaussian(), on: stripPlane)
                        : depth(u, v, on: stripPlane)
                    z += scatter * (2 * strayRandom.uniform() - 1)
                    if u < frontEnd + stolen { label = 1 }
                } else {
                    z = 1.2 + Float(random.next() % 10_001) / 10_000 * 0.01 - 0.005
                }
                z = (z / step).rounded() * step
                points.append(SIMD3((Float(u) - cx) / focal * z, (Float(v) - cy) / focal * z, z))
                labels.append(label)
            }
        }
        let found = points.withUnsafeBufferPointer { p in
            labels.withUnsafeMutableBufferPointer { l in
                LeftoverFaces.recover(labels: l, points: p, width: columns, height: rows, planes: [.zero, front], noise: noise,
                                      lateralNoise: lateral ? stray / focal : 0, distanceFactor: 3, minimumPoints: 100)
            }
        }
        return (labels, found)
    }

    static func columnLabels(_ labels: [UInt16], _ range: Range<Int>) -> Set<UInt16> {
        var set = Set<UInt16>()
        for v in 0..<rows { for u in range { set.insert(labels[v * columns + u]) } }
        return set
    }

    @Test func aStripSeenEdgeOnBecomesAFaceAndTakesBackItsFirstColumn() {
        let (labels, found) = Self.recovered(strip: 6, stolen: 1)
        #expect(found)
        // All 240 strip pixels, the column the front face took included, under one new label.
        #expect(Self.columnLabels(labels, Self.frontEnd..<(Self.frontEnd + 6)) == [2])
        #expect(Self.columnLabels(labels, 0..<Self.frontEnd) == [1])
        // The clutter is on no plane: it stays unlabelled.
        #expect(Self.columnLabels(labels, (Self.frontEnd + 6)..<Self.columns) == [0])
    }

    @Test func aStripWhosePointsStrayAcrossTheirRaysIsFoundWhenTheStrayIsKnown() {
        // Points 0.6 px off their pixels spread the 84° strip's depths by about 3 mm along the
        // rays, against a depth noise of 0.5 mm: told the stray, the search finds the strip
        // whole; told depth noise alone, it finds too few of its points on one plane. (Found
        // with the stray, the plane is fitted again to the strip alone: the band of a plane
        // steeper than the strip's also takes in columns of the clutter beyond it, and a fit
        // to those leans further still, until the strip's points fill its band.)
        let strip = Self.frontEnd..<(Self.frontEnd + 6)
        let known = Self.recovered(strip: 6, stray: 0.6, lateral: true)
        #expect(known.found)
        let found = Self.count(of: 2, in: known.labels, strip)
        #expect(found >= 228, "\(found) of 240 strip pixels found knowing the stray")
        #expect(Self.columnLabels(known.labels, strip).isSubset(of: [0, 2]))
        #expect(Self.columnLabels(known.labels, strip.upperBound..<Self.columns) == [0])
        let unknown = Self.recovered(strip: 6, stray: 0.6)
        let foundUnknowing = Self.count(of: 2, in: unknown.labels, strip)
        #expect(foundUnknowing < 150, "\(foundUnknowing) of 240 strip pixels found with depth noise alone")
    }

    @Test func aSurfaceNoisierThanTheToleranceIsLeft() {
        // Depths off by up to 1.3 mm either way, evenly, on top of their 1.3 mm steps, against a
        // tolerance of 1.56 mm (3σ): 233 of the strip's 240 points lie within the tolerance of
        // its plane (a search that did not look at how they lie would make them a face), but
        // they fill the band evenly instead of gathering near the plane, so the strip is no
        // face. The same strip with its steps alone is one.
        let strip = Self.frontEnd..<(Self.frontEnd + 6)
        let dark = Self.recovered(strip: 6, scatter: 0.0013)
        #expect(!dark.found)
        #expect(Self.columnLabels(dark.labels, strip) == [0])
        #expect(Self.count(of: 2, in: Self.recovered(strip: 6).labels, strip) == 240)
    }

    /// How many pixels in columns `range` carry `label`.
    static func count(of label: UInt16, in labels: [UInt16], _ range: Range<Int>) -> Int {
        (0..<rows).reduce(0) { total, v in total + range.filter { labels[v * columns + $0] == label }.count }
    }

    @Test func theSameInputGivesTheSameLabels() {
        #expect(Self.recovered(strip: 6, stolen: 1).labels == Self.recovered(strip: 6, stolen: 1).labels)
    }

    @Test func aStripSmallerThanTheSmallestPlaneIsLeft() {
        // Two columns: 80 pixels, under the 100 asked.
        let (labels, found) = Self.recovered(strip: 2)
        #expect(!found)
        #expect(Self.columnLabels(labels, Self.frontEnd..<Self.columns) == [0])
    }
}
