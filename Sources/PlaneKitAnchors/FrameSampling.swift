import PlaneKitGeometry

/// One pass over a frame after detection: the measured points moved into the world (for
/// estimated planes, feature points and the focus indicator) and, per detected plane, the
/// moments of its supporting points (for the anchors' running fits), both on regular pixel
/// subsamples so the pass stays a small fraction of detection.
struct FrameSampling {
    /// Finite measured points, world coordinates, as coordinate columns: every `pointStride`-th
    /// pixel of every `pointStride`-th row.
    var xs = ContiguousArray<Float>(), ys = ContiguousArray<Float>(), zs = ContiguousArray<Float>()
    /// Moments of each plane's points (`moments[label − 1]`), world coordinates, on the coarser
    /// grid of every `supportStride`-th pixel and row.
    var moments: [PointMoments]

    init(points: UnsafeBufferPointer<SIMD3<Float>>, labels: UnsafeBufferPointer<UInt16>, width: Int, height: Int,
         pose: Transform, planeCount: Int, pointStride: Int, supportStride: Int) {
        var moments = [PointMoments](repeating: PointMoments(), count: planeCount)
        let step = max(1, pointStride)
        // Support pixels must lie on the point grid: round the support stride to a multiple of it.
        let supportStep = max(step, (supportStride / step) * step)
        // Counted in samples of the point grid, so the loops need no division.
        let supportEvery = supportStep / step
        let capacity = ((width + step - 1) / step) * ((height + step - 1) / step)
        let r = pose.rotation.columns, t = pose.translation
        // The three columns are filled together through plain pointers: appending to three
        // arrays checked capacity and uniqueness three times a point.
        var count = 0
        var ys = ContiguousArray<Float>(), zs = ContiguousArray<Float>()
        xs = ContiguousArray(unsafeUninitializedCapacity: capacity) { xOut, xCount in
            ys = ContiguousArray(unsafeUninitializedCapacity: capacity) { yOut, yCount in
                zs = ContiguousArray(unsafeUninitializedCapacity: capacity) { zOut, zCount in
                    var v = 0, rowCountdown = 0
                    while v < height {
                        let row = v * width
                        let supportRow = rowCountdown == 0
                        rowCountdown = supportRow ? supportEvery - 1 : rowCountdown - 1
                        var u = 0, columnCountdown = 0
                        while u < width {
                            let p = points[row + u]
                            let supportColumn = columnCountdown == 0
                            columnCountdown = supportColumn ? supportEvery - 1 : columnCountdown - 1
                            if p.isFinite && p.z > 0 {
                                let w = r.0 * p.x + r.1 * p.y + r.2 * p.z + t
                                xOut[count] = w.x
                                yOut[count] = w.y
                                zOut[count] = w.z
                                count += 1
                                if supportRow && supportColumn {
                                    let label = Int(labels[row + u])
                                    if label > 0 && label <= planeCount { moments[label - 1].add(w) }
                                }
                            }
                            u += step
                        }
                        v += step
                    }
                    zCount = count
                }
                yCount = count
            }
            xCount = count
        }
        self.ys = ys
        self.zs = zs
        self.moments = moments
    }
}
