/// Where the renderer's sensor pass puts each pixel's reading, in pixel order. Generic use
/// (never an existential) keeps the per-pixel call a plain inlined store.
protocol SensorReadingSink {
    /// Pixel `i` has no reading.
    mutating func hole(_ i: Int)
    /// Pixel `i` reads `depth` metres along `ray = (x', y', 1)`; `label` is its true plane's
    /// identifier, 0 for none.
    mutating func reading(_ i: Int, depth: Float, ray: SIMD3<Float>, label: UInt16)
    /// Called once before the pass with the quantised depth of each whole number of disparity
    /// steps (``DisparityQuantiser/depths``; empty without quantisation), so that a sink can
    /// convert a whole table once instead of every pixel.
    mutating func prepare(depthOfSteps: ContiguousArray<Float>)
    /// Pixel `i` reads `depthOfSteps[steps]` metres (`0 < steps < depthOfSteps.count`).
    mutating func reading(_ i: Int, steps: Int, ray: SIMD3<Float>, label: UInt16)
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

    @inline(__always) mutating func reading(_ i: Int, steps: Int, ray: SIMD3<Float>, label: UInt16) {
        reading(i, depth: depthOfSteps[steps], ray: ray, label: label)
    }

    @inline(__always) mutating func hole(_ i: Int) {
        points[i] = SIMD3(repeating: .nan)
        labels[i] = 0
    }

    @inline(__always) mutating func reading(_ i: Int, depth: Float, ray: SIMD3<Float>, label: UInt16) {
        points[i] = depth * ray
        labels[i] = label
    }
}

/// Readings as 16-bit depth samples, stored little-endian, and optionally a label image.
struct Depth16ReadingSink: SensorReadingSink {
    let bytes: UnsafeMutableRawBufferPointer
    let labels: UnsafeMutableBufferPointer<UInt16>?
    let encoding: Depth16Encoding
    /// `encoding.sample` of each quantised depth.
    private var sampleOfSteps = ContiguousArray<UInt16>()

    init(bytes: UnsafeMutableRawBufferPointer, labels: UnsafeMutableBufferPointer<UInt16>?, encoding: Depth16Encoding) {
        self.bytes = bytes
        self.labels = labels
        self.encoding = encoding
    }

    mutating func prepare(depthOfSteps: ContiguousArray<Float>) {
        sampleOfSteps = ContiguousArray(depthOfSteps.map { encoding.sample($0) })
    }

    @inline(__always) mutating func reading(_ i: Int, steps: Int, ray: SIMD3<Float>, label: UInt16) {
        bytes.storeBytes(of: sampleOfSteps[steps].littleEndian, toByteOffset: 2 &* i, as: UInt16.self)
        labels?[i] = label
    }

    @inline(__always) mutating func hole(_ i: Int) {
        bytes.storeBytes(of: UInt16(0), toByteOffset: 2 &* i, as: UInt16.self)
        labels?[i] = 0
    }

    @inline(__always) mutating func reading(_ i: Int, depth: Float, ray: SIMD3<Float>, label: UInt16) {
        bytes.storeBytes(of: encoding.sample(depth).littleEndian, toByteOffset: 2 &* i, as: UInt16.self)
        labels?[i] = label
    }
}
