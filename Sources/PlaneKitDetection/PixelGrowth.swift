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
        // The first ring: labelled pixels with an unlabelled 4-neighbour, in scan order.
        let base = UnsafeRawPointer(labels.baseAddress!)
        @inline(__always) func isOnRing(_ u: Int, _ v: Int) -> Bool {
            let i = v &* width &+ u
            guard labels[i] != 0 else { return false }
            return (u > 0 && labels[i - 1] == 0) || (u + 1 < width && labels[i + 1] == 0)
                || (v > 0 && labels[i - width] == 0) || (v + 1 < height && labels[i + width] == 0)
        }
        @inline(__always) func load(_ i: Int) -> SIMD8<UInt16> {
            base.loadUnaligned(fromByteOffset: 2 &* i, as: SIMD8<UInt16>.self)
        }
        for v in 0..<height {
            var u = 0
            if v >= 1 && v + 1 < height {
                if isOnRing(0, v) { ring.append(Int32(v &* width)) }
                u = 1
                // Inside the frame, eight pixels at once: each of their four neighbours is in it.
                while u &+ 8 < width {
                    let i = v &* width &+ u
                    let none = SIMD8<UInt16>.zero
                    let onRing = (load(i) .!= none) .& ((load(i &- 1) .== none) .| (load(i &+ 1) .== none)
                                                        .| (load(i &- width) .== none) .| (load(i &+ width) .== none))
                    if any(onRing) {
                        for lane in 0..<8 where onRing[lane] { ring.append(Int32(i &+ lane)) }
                    }
                    u &+= 8
                }
            }
            while u < width {
                if isOnRing(u, v) { ring.append(Int32(v &* width &+ u)) }
                u &+= 1
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
