/// Where the renderer's sensor pass puts its readings, a row at a time in row order. Generic use
/// (never an existential) keeps the per-row call a plain inlined loop.
protocol SensorReadingSink {
    /// Called once before the pass with the quantised depth of each whole number of disparity
    /// steps (``DisparityQuantiser/depths``; empty without quantisation), so that a sink can
    /// convert a whole table once instead of every pixel.
    mutating func prepare(depthOfSteps: ContiguousArray<Float>)
    /// Pixel `u` of `row` reads `depthOfSteps[steps[u]]` metres where `steps[u] > 0` (always
    /// below `depthOfSteps.count`) and nothing where it is 0.
    mutating func quantisedRow(_ row: SensorRow, steps: UnsafePointer<Int32>)
    /// Pixel `u` of `row` reads `depths[u]` metres where that is positive and finite, nothing
    /// otherwise.
    mutating func depthRow(_ row: SensorRow, depths: UnsafePointer<Float>)
}

/// One image row as a ``SensorReadingSink`` sees it: where it starts, its rays and true labels.
struct SensorRow {
    /// Index of the row's first pixel in the image.
    let start: Int
    /// Pixels in the row.
    let count: Int
    /// The rays' y component `(v − cy)/fy` and x components `(u − cx)/fx` by column.
    let y: Float
    let xs: UnsafePointer<Float>
    /// Surface index per pixel (see ``RayCastBuffers/surface``).
    let surface: UnsafePointer<Int32>
    /// The true plane identifier of each rectangle surface.
    let ids: UnsafeBufferPointer<UInt16>

    /// The label of pixel `u` when it has a reading: its plane's identifier, 0 for clutter.
    @inline(__always)
    func label(_ u: Int) -> UInt16 {
        let k = Int(surface[u])
        return k >= 0 && k < ids.count ? ids[k] : 0
    }

    /// The ray `(x', y', 1)` through pixel `u`.
    @inline(__always)
    func ray(_ u: Int) -> SIMD3<Float> { SIMD3(xs[u], y, 1) }
}

/// Readings as an organized cloud (`depth · ray`, NaN holes) and a label image.
struct PointReadingSink: SensorReadingSink {
    let points: UnsafeMutableBufferPointer<SIMD3<Float>>
    let labels: UnsafeMutableBufferPointer<UInt16>
    private var depthOfSteps = ContiguousArray<Float>()

    init(points: UnsafeMutableBufferPointer<SIMD3<Float>>, labels: UnsafeMutableBufferPointer<UInt16>) {
        self.points = points
        self.labels = labels
    }

    mutating func prepare(depthOfSteps: ContiguousArray<Float>) {
        self.depthOfSteps = depthOfSteps
    }

    mutating func quantisedRow(_ row: SensorRow, steps: UnsafePointer<Int32>) {
        depthOfSteps.withUnsafeBufferPointer { depths in
            for u in 0..<row.count {
                let n = Int(steps[u])
                write(row, u, depth: n > 0 ? depths[n] : .nan)
            }
        }
    }

    mutating func depthRow(_ row: SensorRow, depths: UnsafePointer<Float>) {
        for u in 0..<row.count { write(row, u, depth: depths[u]) }
    }

    @inline(__always) private func write(_ row: SensorRow, _ u: Int, depth: Float) {
        let i = row.start &+ u
        if depth > 0, depth.isFinite {
            points[i] = depth * row.ray(u)
            labels[i] = row.label(u)
        } else {
            points[i] = SIMD3(repeating: .nan)
            labels[i] = 0
        }
    }
}

/// Readings as 16-bit depth samples, stored little-endian, and optionally a label image.
struct Depth16ReadingSink: SensorReadingSink {
    let bytes: UnsafeMutableRawBufferPointer
    let labels: UnsafeMutableBufferPointer<UInt16>?
    let encoding: Depth16Encoding
    /// `encoding.sample` of each quantised depth (`sampleOfSteps[0]` is 0, no reading), stored
    /// little-endian.
    private var sampleOfSteps = ContiguousArray<UInt16>()

    init(bytes: UnsafeMutableRawBufferPointer, labels: UnsafeMutableBufferPointer<UInt16>?, encoding: Depth16Encoding) {
        self.bytes = bytes
        self.labels = labels
        self.encoding = encoding
    }

    mutating func prepare(depthOfSteps: ContiguousArray<Float>) {
        sampleOfSteps = ContiguousArray(depthOfSteps.indices.map { $0 == 0 ? 0 : encoding.sample(depthOfSteps[$0]).littleEndian })
    }

    mutating func quantisedRow(_ row: SensorRow, steps: UnsafePointer<Int32>) {
        let out = bytes.baseAddress! + 2 &* row.start
        sampleOfSteps.withUnsafeBufferPointer { samples in
            // A table lookup per pixel (no gather instruction on baseline x86-64).
            for u in 0..<row.count {
                out.storeBytes(of: samples[Int(steps[u])], toByteOffset: 2 &* u, as: UInt16.self)
            }
        }
        if let labels {
            for u in 0..<row.count { labels[row.start &+ u] = steps[u] > 0 ? row.label(u) : 0 }
        }
    }

    mutating func depthRow(_ row: SensorRow, depths: UnsafePointer<Float>) {
        let out = bytes.baseAddress! + 2 &* row.start
        var u = 0
        while u &+ 8 <= row.count {
            let samples = SIMD8<UInt16>(truncatingIfNeeded: encoding.samples(depths.lanes(at: u)))
            #if _endian(big)
            let stored = samples &<< 8 | samples &>> 8
            #else
            let stored = samples
            #endif
            out.storeBytes(of: stored, toByteOffset: 2 &* u, as: SIMD8<UInt16>.self)
            u &+= 8
        }
        while u < row.count {
            out.storeBytes(of: encoding.sample(depths[u]).littleEndian, toByteOffset: 2 &* u, as: UInt16.self)
            u &+= 1
        }
        if let labels {
            for u in 0..<row.count { labels[row.start &+ u] = depths[u] > 0 && depths[u].isFinite ? row.label(u) : 0 }
        }
    }
}
