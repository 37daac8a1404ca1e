import PlaneKitGeometry

/// Carries each plane's labels on, pixel by pixel, into the unlabelled pixels next to it that lie
/// on its plane.
///
/// Grid cells decide where planes are; at object scale a face is often a strip a cell or two
/// wide, seen obliquely, and the cells along its edges straddle it and its neighbours. Pixel
/// refinement labels the pixels of the cells next to a region, but not those of a face whose
/// cells all failed. Growth goes on ring by ring from every labelled pixel: an unlabelled valid
/// pixel joins the plane of the first labelled 4-neighbour whose plane it lies within
/// `pixelDistanceFactor` σ of (rings grow from all planes at once, so a pixel between two
/// planes goes to the one that reaches it first), until no pixel joins. Each pixel joins at most
/// once, so the rings together visit each pixel at most four times. Growth is not cut off at a
/// fixed distance: a face whose cells failed along a thin tail (a sliver beside an occluder)
/// is reached to its end.
enum PixelGrowth {
    /// Grows `labels` in place. `planes[k]` is the plane `(n, offset)` of label `k` (index 0
    /// unused); the threshold at depth z is `a + b·(z − z0)²`.
    static func grow(labels: UnsafeMutableBufferPointer<UInt16>, points: UnsafeBufferPointer<SIMD3<Float>>,
                     width: Int, height: Int, planes: [SIMD4<Float>], a: Float, b: Float, z0: Float) {
        var ring: [Int32] = []
        // The first ring: labelled pixels with an unlabelled 4-neighbour.
        let base = UnsafeRawPointer(labels.baseAddress!)
        for v in 0..<height {
            var u = -1
            while true {
                u += 1
                guard u < width else { break }
                let i = v * width + u
                // Four pixels at once (``LabelWords``): passed over when none is labelled, or all
                // are and so are their four neighbours.
                if u >= 1, u + 4 < width, v >= 1, v + 1 < height {
                    let here = LabelWords.load(base, at: i)
                    if here == 0 || !(LabelWords.hasZeroLane(here) || LabelWords.hasZeroLane(LabelWords.load(base, at: i - 1))
                                      || LabelWords.hasZeroLane(LabelWords.load(base, at: i + 1))
                                      || LabelWords.hasZeroLane(LabelWords.load(base, at: i - width))
                                      || LabelWords.hasZeroLane(LabelWords.load(base, at: i + width))) {
                        u += 3
                        continue
                    }
                }
                guard labels[i] != 0 else { continue }
                if (u > 0 && labels[i - 1] == 0) || (u + 1 < width && labels[i + 1] == 0)
                    || (v > 0 && labels[i - width] == 0) || (v + 1 < height && labels[i + width] == 0) {
                    ring.append(Int32(i))
                }
            }
        }
        var next: [Int32] = []
        while !ring.isEmpty {
            next.removeAll(keepingCapacity: true)
            for pixel in ring {
                let i = Int(pixel)
                let label = labels[i]
                let plane = planes[Int(label)]
                let u = i % width, v = i / width
                func reach(_ j: Int) {
                    guard labels[j] == 0 else { return }
                    let p = points[j]
                    guard CellGrid.isValid(p) else { return }
                    let dz = p.z - z0
                    let limit = a + b * dz * dz
                    guard abs(dot(SIMD3(plane.x, plane.y, plane.z), p) + plane.w) <= limit else { return }
                    labels[j] = label
                    next.append(Int32(j))
                }
                if u > 0 { reach(i - 1) }
                if u + 1 < width { reach(i + 1) }
                if v > 0 { reach(i - width) }
                if v + 1 < height { reach(i + width) }
            }
            swap(&ring, &next)
        }
    }
}
