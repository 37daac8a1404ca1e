import PlaneKitGeometry

/// Float sums of a point set taken relative to a reference point near the points.
///
/// Subtracting a nearby point first keeps the numbers small (centimetres to decimetres inside a
/// grid cell), so `Float` sums of a few hundred points keep about seven significant digits of the
/// covariance, far below sensor noise, while the hot loop stays in single precision.
struct ShiftedSums {
    /// The point subtracted from every added point.
    var reference: SIMD3<Float>
    /// How many points were added.
    var count: Int32 = 0
    /// Σd, with d = p − reference.
    var sum: SIMD3<Float> = .zero
    /// Σdx², Σdy², Σdz².
    var squares: SIMD3<Float> = .zero
    /// Σdx·dy, Σdx·dz, Σdy·dz.
    var cross: SIMD3<Float> = .zero

    init(reference: SIMD3<Float>) {
        self.reference = reference
    }

    /// The sums of the points in `self` but not in `other` (same reference).
    @inline(__always) func subtracting(_ other: ShiftedSums) -> ShiftedSums {
        var result = self
        result.count &-= other.count
        result.sum -= other.sum
        result.squares -= other.squares
        result.cross -= other.cross
        return result
    }

    /// The same points' absolute moments, in `Double`.
    var moments: PointMoments {
        var m = PointMoments()
        guard count > 0 else { return m }
        let n = Double(count)
        let r = SIMD3<Double>(reference), s = SIMD3<Double>(sum)
        m.count = Int(count)
        m.sum = s + n * r
        // Σ(r + d)(r + d)ᵀ = Σddᵀ + r Σdᵀ + Σd rᵀ + n r rᵀ, entry by entry.
        m.sumSquares = SIMD3<Double>(squares) + 2 * r * s + n * r * r
        let rs = SIMD3(r.x, r.x, r.y), ss = SIMD3(s.y, s.z, s.z)
        let sr = SIMD3(s.x, s.x, s.y), rr = SIMD3(r.y, r.z, r.z)
        m.sumCross = SIMD3<Double>(cross) + rs * ss + sr * rr + n * rs * rr
        return m
    }
}

/// One grid cell of an organized cloud: its points' sums and the plane they fit, if any.
struct Cell {
    /// The cell's pixel rectangle: columns `x0..<x1`, rows `y0..<y1`.
    var x0: Int32, x1: Int32, y0: Int32, y1: Int32
    /// Sums of the cell's valid points (relative to the first valid one).
    var sums: ShiftedSums
    /// The same, absolute and in `Double`, for merging into regions.
    var moments = PointMoments()
    /// The scatter depth noise alone adds to the cell's points.
    var noise = NoiseScatter()
    /// `true` when the cell passed the planarity test.
    var isPlanar = false
    /// The cell's plane normal, facing the sensor (planar cells only).
    var normal: SIMD3<Float> = .zero
    /// The mean of the valid points.
    var centroid: SIMD3<Float> = .zero
    /// Mean squared distance of the points from the cell's plane (m²).
    var meanSquaredError: Float = .infinity
    /// The depth noise σ at the centroid (m).
    var sigma: Float = 0
    /// Estimated standard deviation of the normal's direction (rad).
    var normalSigma: Float = .infinity
    /// The normal-histogram bin (planar cells only).
    var bin: Int32 = -1
}

/// The grid of cells over an organized cloud, built in one pass over the points.
struct CellGrid {
    let columns: Int
    let rows: Int
    let cellSize: Int
    var cells: ContiguousArray<Cell>

    /// A point is valid when it is finite and in front of the sensor. `p·0` is NaN for an
    /// infinite or NaN coordinate, so one comparison checks all three.
    @inline(__always) static func isValid(_ p: SIMD3<Float>) -> Bool {
        p.z > 0 && (p.x * 0 + p.y * 0 + p.z * 0) == 0
    }

    /// Running sums of one cell: its reference point (the first valid one) and the lane sums.
    struct Accumulator {
        var reference = SIMD3<Float>.zero
        var hasReference = false
        var lanes = LaneSums()
    }

    /// Accumulates every cell and runs the planarity test.
    ///
    /// The points are read once, a cell at a time (its rows one after another), so each cell's
    /// sums stay in registers and its planarity test reads the few points it needs again from
    /// the first-level cache. A strip of cells spans 200 KB for VGA, which the second-level
    /// cache holds, so walking it cell by cell costs no extra memory traffic: the pass is bound
    /// by reading the 16-byte points, 4.9 MB for VGA.
    ///
    /// It also writes `validity`: 0xFFFF for each pixel with a valid depth, 0 otherwise, every
    /// pixel of the frame. The detector passes its label image here, so pixel refinement can
    /// label the inside of a region with a bitwise AND instead of reading the points again.
    init(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
         configuration c: OrganizedPlaneDetector.Configuration, validity: UnsafeMutableBufferPointer<UInt16>) {
        cellSize = c.cellSize
        columns = (width + cellSize - 1) / cellSize
        rows = (height + cellSize - 1) / cellSize
        let count = columns * rows
        let size = cellSize, columns = columns, rows = rows
        cells = ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
            for cy in 0..<rows {
                let y0 = cy * size, y1 = min(y0 + size, height)
                for cx in 0..<columns {
                    let x0 = cx * size, x1 = min(x0 + size, width)
                    let a = CellGrid.accumulate(x0: x0, x1: x1, y0: y0, y1: y1, points: points, width: width,
                                                validity: validity)
                    (buffer.baseAddress! + (cy * columns + cx)).initialize(
                        to: CellGrid.finish(a, points: points, width: width, height: height, x0: x0, y0: y0,
                                            configuration: c))
                }
            }
            initialized = count
        }
    }

    /// The frame's points with a depth in (0, ∞) (``PointQuad/validity``), as the cell pass
    /// summed them: every pixel is in exactly one cell.
    var validPointCount: Int {
        cells.reduce(0) { $0 + Int($1.sums.count) }
    }

    /// Sums the pixels of the rectangle `x0..<x1` × `y0..<y1` and writes their validity flags.
    /// The hot loop: every point of the frame passes here once, four at a time as a
    /// ``PointQuad``. Points without a valid depth (in (0, ∞)) are masked to zero with a bitwise
    /// AND, and only in quads that have such a point. A NaN or infinite x or y with a valid depth
    /// does poison the sums; the fit then rejects the cell.
    @inline(__always)
    static func accumulate(x0: Int, x1: Int, y0: Int, y1: Int, points: UnsafeBufferPointer<SIMD3<Float>>, width: Int,
                           validity: UnsafeMutableBufferPointer<UInt16>) -> Accumulator {
        let stride = MemoryLayout<SIMD3<Float>>.stride
        let base = UnsafeRawPointer(points.baseAddress!)
        let flags = UnsafeMutableRawPointer(validity.baseAddress!)
        var a = Accumulator()
        // The cell's first valid point (in scan order) is its reference.
        search: for v in y0..<y1 {
            var pointer = base + (v &* width &+ x0) &* stride
            for _ in x0..<x1 {
                let p = pointer.load(as: SIMD4<Float>.self)
                if isValid(SIMD3(p.x, p.y, p.z)) {
                    a.reference = SIMD3(p.x, p.y, p.z)
                    a.hasReference = true
                    break search
                }
                pointer += stride
            }
        }
        guard a.hasReference else {
            for v in y0..<y1 {
                (flags + 2 &* (v &* width &+ x0)).initializeMemory(as: UInt16.self, repeating: 0, count: x1 - x0)
            }
            return a
        }
        let r = a.reference
        var lanes = LaneSums()
        for v in y0..<y1 {
            let first = v &* width &+ x0
            var pointer = base + first &* stride
            var flag = flags + 2 &* first
            var u = x0
            while u &+ 4 <= x1 {
                let quad = PointQuad(pointer)
                let bits = quad.validity
                flag.storeBytes(of: SIMD4<UInt16>(truncatingIfNeeded: bits), as: SIMD4<UInt16>.self)
                lanes.add(quad, minus: r, where: bits)
                pointer += 4 &* stride
                flag += 8
                u &+= 4
            }
            let tail = x1 &- u
            if tail > 0 && u &+ 4 <= width {
                // The row's last one to three pixels as one quad that reaches into the next
                // cell, its lanes past the cell masked off (a 6-pixel cell's row is two quads).
                let quad = PointQuad(pointer)
                let inside = SIMD4<Int32>(0, 1, 2, 3) .< SIMD4(repeating: Int32(tail))
                let bits = quad.validity & unsafeBitCast(inside, to: SIMD4<Int32>.self)
                for lane in 0..<tail {
                    flag.storeBytes(of: UInt16(truncatingIfNeeded: bits[lane]), toByteOffset: 2 &* lane, as: UInt16.self)
                }
                lanes.add(quad, minus: r, where: bits)
            } else {
                // The frame's last pixels, one at a time: a quad would read past the row.
                while u < x1 {
                    let quad = PointQuad(single: pointer.load(as: SIMD3<Float>.self))
                    let bits = quad.validity
                    flag.storeBytes(of: UInt16(truncatingIfNeeded: bits[0]), as: UInt16.self)
                    lanes.add(quad, minus: r, where: bits)
                    pointer += stride
                    flag += 2
                    u &+= 1
                }
            }
        }
        a.lanes = lanes
        return a
    }

    /// Turns a cell's accumulator into its sums, fits and tests its plane, and checks its
    /// middle row and column for depth jumps.
    static func finish(_ a: Accumulator, points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                       x0: Int, y0: Int, configuration c: OrganizedPlaneDetector.Configuration) -> Cell {
        let x1 = min(x0 + c.cellSize, width), y1 = min(y0 + c.cellSize, height)
        var cell = Cell(x0: Int32(x0), x1: Int32(x1), y0: Int32(y0), y1: Int32(y1),
                        sums: ShiftedSums(reference: .zero))
        guard a.hasReference else { return cell }
        let reference = a.reference
        let sums = a.lanes.shifted(reference: reference)
        cell.sums = sums
        let pixelCount = (x1 - x0) * (y1 - y0)
        guard Float(sums.count) >= c.minimumValidFraction * Float(pixelCount), sums.count >= 3 else { return cell }
        cell.moments = sums.moments
        let n = Float(sums.count)
        let centroid = reference + sums.sum / n
        cell.centroid = centroid
        let sigma = c.noise.sigma(atDepth: centroid.z)
        cell.sigma = sigma

        let noise = NoiseScatter(count: Int(sums.count), centroid: centroid, sigma: sigma)
        guard let fit = FastPlaneFit(cell.moments, noise: noise) else { return cell }
        let mse = Float(fit.meanSquaredError)
        let limit = c.cellRMSFactor * sigma
        guard mse <= limit * limit else { return cell }
        // The tilt uncertainty of a least-squares normal: σ / (√n · in-plane spread). A sliver of
        // points (a cell mostly in a hole) has a tiny in-plane spread and an unreliable normal.
        let spread = Float(fit.middleEigenvalue).squareRoot()
        let normalSigma = sigma / (n.squareRoot() * max(spread, 1e-9))
        guard normalSigma <= c.maximumCellNormalSigma else { return cell }

        // Depth discontinuities along the middle row and column (after CAPE): a jump between
        // neighbouring valid pixels much larger than both the noise and the line's typical
        // step (which includes the slope of an oblique surface) means two surfaces meet here.
        // Tested last, as it reads points again, and only a cell that passed everything else
        // can still fail it.
        let midRow = (y0 + y1) / 2, midColumn = (x0 + x1) / 2
        let jumpLimit = c.discontinuityFactor * 1.4142135 * sigma
        if hasDiscontinuity(points: points, start: midRow * width + x0, stride: 1, count: x1 - x0, limit: jumpLimit)
            || hasDiscontinuity(points: points, start: y0 * width + midColumn, stride: width, count: y1 - y0, limit: jumpLimit) {
            return cell
        }
        cell.noise = noise
        cell.meanSquaredError = mse
        var normal = SIMD3<Float>(fit.normal)
        if dot(normal, centroid) > 0 { normal = -normal }   // face the sensor at the origin
        cell.normal = normal
        cell.normalSigma = normalSigma
        cell.isPlanar = true
        return cell
    }

    /// `true` when a line of pixels has a depth jump above `limit` plus twice its typical step.
    @inline(__always)
    static func hasDiscontinuity(points: UnsafeBufferPointer<SIMD3<Float>>, start: Int, stride: Int, count: Int,
                                 limit: Float) -> Bool {
        var previous: Float = 0, havePrevious = false
        var largest: Float = 0, total: Float = 0, steps = 0
        var point = points.baseAddress! + start
        for _ in 0..<count {
            let p = point.pointee
            point += stride
            guard isValid(p) else { continue }
            if havePrevious {
                let step = abs(p.z - previous)
                total += step
                steps &+= 1
                largest = max(largest, step)
            }
            previous = p.z
            havePrevious = true
        }
        guard steps >= 2 else { return false }
        let typical = (total - largest) / Float(steps - 1)
        return largest > limit + 2 * typical
    }

    /// The index of the cell at column `cx`, row `cy`.
    @inline(__always) func index(_ cx: Int, _ cy: Int) -> Int { cy * columns + cx }
}
