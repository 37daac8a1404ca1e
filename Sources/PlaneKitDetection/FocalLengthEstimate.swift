/// The focal lengths (pixels) of the camera behind an organized cloud, read back from the points
/// when the cloud carries no intrinsics.
///
/// For a pinhole camera `x/z = (u − cx)/fx`, so two valid points on one row give
/// `fx = (u₂ − u₁) / (x₂/z₂ − x₁/z₁)`; columns give `fy` likewise. The median over a few
/// rows and columns is robust to the odd bad point. Planes need it to turn pixel counts into
/// areas: a pixel at depth `z` on a plane at distance `d` from the sensor covers
/// `z³ / (fx·fy·d)` square metres. A grid whose rows disagree is not a pinhole image; it gets no
/// focal length, and planes take their area from their outlines.
enum FocalLengthEstimate {
    static func estimate(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int) -> SIMD2<Float>? {
        // The median, when the middle half of the estimates agree within 5%: a grid that is not
        // a pinhole image (a scanner's, a laser scan's) gives scattered estimates and no focal
        // length.
        func median(_ values: [Float]) -> Float? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let middle = sorted[sorted.count / 2]
            guard sorted[(3 * sorted.count) / 4] - sorted[sorted.count / 4] <= 0.05 * middle else { return nil }
            return middle
        }
        func along(lines: Int, length: Int, index: (Int, Int) -> Int, coordinate: (SIMD3<Float>) -> Float) -> Float? {
            guard lines > 0, length > 1 else { return nil }
            var estimates: [Float] = []
            let step = max(1, lines / 16)
            for line in stride(from: step / 2, to: lines, by: step) {
                var first: (Int, SIMD3<Float>)? = nil, last: (Int, SIMD3<Float>)? = nil
                for k in 0..<length {
                    let p = points[index(line, k)]
                    if CellGrid.isValid(p) { first = (k, p); break }
                }
                for k in stride(from: length - 1, through: 0, by: -1) {
                    let p = points[index(line, k)]
                    if CellGrid.isValid(p) { last = (k, p); break }
                }
                guard let first, let last, last.0 - first.0 >= length / 4 else { continue }
                let slope = coordinate(last.1) / last.1.z - coordinate(first.1) / first.1.z
                let f = Float(last.0 - first.0) / slope
                if f.isFinite, f > 0 { estimates.append(f) }
            }
            return median(estimates)
        }
        guard let fx = along(lines: height, length: width, index: { $0 * width + $1 }, coordinate: { $0.x }),
              let fy = along(lines: width, length: height, index: { $1 * width + $0 }, coordinate: { $0.y }) else {
            return nil
        }
        return SIMD2(fx, fy)
    }
}
