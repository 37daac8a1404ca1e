import PlaneKitGeometry

/// One pass over a frame after detection: the measured points moved into the world (for
/// estimated planes, feature points and the focus indicator) and, per detected plane, the
/// moments of its supporting points (for the anchors' running fits), both on regular pixel
/// subsamples so the pass stays a small fraction of detection.
struct FrameSampling {
    /// Finite measured points, world coordinates: every `pointStride`-th pixel of every
    /// `pointStride`-th row.
    var measured = ContiguousArray<SIMD3<Float>>()
    /// Moments of each plane's points (`moments[label − 1]`), world coordinates, on the coarser
    /// grid of every `supportStride`-th pixel and row.
    var moments: [PointMoments]

    init(points: UnsafeBufferPointer<SIMD3<Float>>, labels: UnsafeBufferPointer<UInt16>, width: Int, height: Int,
         pose: Transform, planeCount: Int, pointStride: Int, supportStride: Int) {
        moments = [PointMoments](repeating: PointMoments(), count: planeCount)
        let step = max(1, pointStride)
        // Support pixels must lie on the point grid: round the support stride to a multiple of it.
        let supportStep = max(step, (supportStride / step) * step)
        measured.reserveCapacity((width / step + 1) * (height / step + 1))
        let r = pose.rotation, t = pose.translation
        var v = 0
        while v < height {
            let row = v * width
            let supportRow = v % supportStep == 0
            var u = 0
            while u < width {
                let p = points[row + u]
                if p.isFinite && p.z > 0 {
                    let w = r * p + t
                    measured.append(w)
                    if supportRow && u % supportStep == 0 {
                        let label = Int(labels[row + u])
                        if label > 0 && label <= planeCount { moments[label - 1].add(w) }
                    }
                }
                u += step
            }
            v += step
        }
    }
}
