import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitPlanes

extension PointMoments {
    /// The moments of the same points moved by `transform` (`p ↦ R·p + t`), computed from the
    /// sums alone: Σp' = R·Σp + n·t and Σp'p'ᵀ = R·(Σppᵀ)·Rᵀ + R·Σp·tᵀ + t·(R·Σp)ᵀ + n·t·tᵀ.
    package func transformed(by transform: Transform) -> PointMoments {
        let c = transform.rotation.columns
        let r = [SIMD3<Double>(c.0), SIMD3<Double>(c.1), SIMD3<Double>(c.2)]
        let t = SIMD3<Double>(transform.translation)
        let n = Double(count)
        // The second-moment matrix, symmetric, as rows.
        let s = [SIMD3(sumSquares.x, sumCross.x, sumCross.y), SIMD3(sumCross.x, sumSquares.y, sumCross.z),
                 SIMD3(sumCross.y, sumCross.z, sumSquares.z)]
        func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> { r[0] * v.x + r[1] * v.y + r[2] * v.z }
        // R·S (columns of S are its rows, by symmetry), then (R·S)·Rᵀ row by row.
        let rs = [rotate(s[0]), rotate(s[1]), rotate(s[2])]  // columns of R·S
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                // (R S Rᵀ)ᵢⱼ = Σₖ (R S)ᵢₖ Rⱼₖ
                m[i][j] = rs[0][i] * r[0][j] + rs[1][i] * r[1][j] + rs[2][i] * r[2][j]
            }
        }
        let rsum = rotate(sum)
        for i in 0..<3 {
            for j in 0..<3 { m[i][j] += rsum[i] * t[j] + t[i] * rsum[j] + n * t[i] * t[j] }
        }
        var result = PointMoments()
        result.count = count
        result.sum = rsum + n * t
        result.sumSquares = SIMD3(m[0][0], m[1][1], m[2][2])
        result.sumCross = SIMD3(m[0][1], m[0][2], m[1][2])
        return result
    }
}

extension DetectedPlane {
    /// The same surface described in a world moved by `transform`.
    package func transformed(by transform: Transform) -> DetectedPlane {
        var plane = self
        plane.plane = self.plane.transformed(by: transform)
        plane.centroid = transform.apply(toPoint: centroid)
        plane.transform = transform * self.transform
        return plane
    }
}

extension PlaneAnchor {
    /// `anchor` with its world moved by `transform` (a rigid change of world): description,
    /// fit and grid frame move, the covered cells stay as they are in the grid frame.
    package init(_ anchor: PlaneAnchor, transformedBy transform: Transform) {
        identifier = anchor.identifier
        plane = anchor.plane.transformed(by: transform)
        support = anchor.support.transformed(by: transform)
        gridFrame = transform * anchor.gridFrame
        firstFrame = anchor.firstFrame
        lastSeenFrame = anchor.lastSeenFrame
        observationCount = anchor.observationCount
        missedFrames = anchor.missedFrames
        isConfirmed = anchor.isConfirmed
        sightings = anchor.sightings
        travelledAtLastSight = anchor.travelledAtLastSight
        reportedFrame = anchor.reportedFrame
        occupancy = anchor.occupancy
        reported = anchor.reported.transformed(by: transform)
        outlineIsStale = anchor.outlineIsStale
        gridOutline = anchor.gridOutline
    }

    /// A confirmed anchor restored from saved state (a world map), as if last seen in `frame` after
    /// the camera had travelled `travelled` metres (frame numbers restart in every session).
    package init(restoring identifier: PlaneIdentifier, plane: DetectedPlane, support: PointMoments, gridFrame: Transform,
                 occupancy: PlaneOccupancy, observationCount: Int, frame: Int, travelled: Float) {
        self.identifier = identifier
        self.plane = plane
        self.support = support
        self.gridFrame = gridFrame
        firstFrame = frame
        lastSeenFrame = frame
        self.observationCount = observationCount
        isConfirmed = true
        travelledAtLastSight = travelled
        reportedFrame = frame
        self.occupancy = occupancy
        reported = plane
        gridOutline = occupancy.outline()
        outlineIsStale = false
    }
}
