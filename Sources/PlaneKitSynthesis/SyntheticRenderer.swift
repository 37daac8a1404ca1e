import PlaneKitGeometry
import PlaneKitInput

/// Renders depth frames of a ``SyntheticScene`` by casting one ray per pixel through a pinhole
/// camera and keeping the nearest hit, then applies a ``SensorModel``.
///
/// Each surface is tested only inside its projected bounding rectangle (a z-buffer in object
/// order), a rectangle only in the columns of each row that can see it (``RectangleRowSpans``),
/// with analytic ray–rectangle, ray–sphere and ray–cylinder intersections in the camera
/// frame, where the ray through a pixel is `t·(x', y', 1)` and `t` is the depth itself.
public struct SyntheticRenderer: Sendable, Hashable {
    /// The camera intrinsics (VGA Kinect by default).
    public var intrinsics: PinholeIntrinsics
    /// The sensor model applied to the ideal depth.
    public var sensor: SensorModel

    /// A renderer with the given intrinsics and sensor model.
    public init(intrinsics: PinholeIntrinsics = .kinect(), sensor: SensorModel = .kinect) {
        self.intrinsics = intrinsics
        self.sensor = sensor
    }

    /// Renders `scene` from a camera at `pose` (world-from-camera). `noiseSeed` fixes every
    /// random choice of the sensor model, so the same arguments give a bitwise identical frame.
    public func render(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64, timestamp: Double = 0) -> SyntheticFrame {
        var workspace = RenderWorkspace()
        return render(scene, pose: pose, noiseSeed: noiseSeed, timestamp: timestamp, workspace: &workspace)
    }

    /// ``render(_:pose:noiseSeed:timestamp:)`` reusing `workspace`'s storage for the z-buffer.
    public func render(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64, timestamp: Double = 0,
                       workspace: inout RenderWorkspace) -> SyntheticFrame {
        let width = intrinsics.width, height = intrinsics.height
        let count = width * height
        var labels = ContiguousArray<UInt16>(repeating: 0, count: count)
        let points = ContiguousArray<SIMD3<Float>>(unsafeUninitializedCapacity: count) { buffer, initialized in
            labels.withUnsafeMutableBufferPointer { labels in
                // The sensor pass visits every pixel and writes a point or a hole.
                var sink = PointReadingSink(points: buffer, labels: labels)
                render(scene, pose: pose, noiseSeed: noiseSeed, into: &sink, workspace: &workspace)
            }
            initialized = count
        }
        var counts = [Int](repeating: 0, count: scene.planes.count + 1)
        for label in labels { counts[Int(label)] += 1 }
        let planes = scene.planes.map {
            FramePlane(truePlane: $0, pose: pose, pixelCount: counts[Int($0.id)])
        }
        // The sizes match by construction, so this cannot throw.
        let cloud = (try? PointCloud(width: width, height: height, points: points, intrinsics: intrinsics, sensorPose: pose))
            ?? PointCloud(unorganized: points)
        return SyntheticFrame(cloud: cloud, labels: labels, planes: planes, pose: pose, timestamp: timestamp)
    }

    /// Renders `scene` straight to 16-bit depth samples: the frame ``render(_:pose:noiseSeed:timestamp:)``
    /// gives for the same arguments, each point's depth (its z) written as `encoding.sample(z)`
    /// (0 for a hole), little-endian, into `bytes` (`2 × width × height` bytes), and the label
    /// image into `labels` when given (`width × height`). No cloud is built and, with a reused
    /// `workspace`, nothing is allocated beyond a small per-frame table.
    public func renderDepth16(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64, encoding: Depth16Encoding,
                              into bytes: UnsafeMutableRawBufferPointer, labels: UnsafeMutableBufferPointer<UInt16>? = nil,
                              workspace: inout RenderWorkspace) {
        let count = intrinsics.width * intrinsics.height
        precondition(bytes.count == 2 * count, "depth16 output needs 2 × width × height bytes")
        precondition(labels.map { $0.count == count } ?? true, "labels need width × height entries")
        var sink = Depth16ReadingSink(bytes: bytes, labels: labels, encoding: encoding)
        render(scene, pose: pose, noiseSeed: noiseSeed, into: &sink, workspace: &workspace)
    }

    /// Ray-casts the z-buffer, then applies the sensor model pixel by pixel in row-major order
    /// (the order fixes which random numbers each pixel draws), handing every pixel to `sink`.
    private func render<Sink: SensorReadingSink>(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64,
                                                 into sink: inout Sink, workspace: inout RenderWorkspace) {
        let width = intrinsics.width, height = intrinsics.height
        var hits = workspace.takeBuffers(for: intrinsics)
        defer { workspace.buffers = hits }
        let cameraFromWorld = pose.inverse
        let rectangles = scene.planes.map { CameraRectangle($0, cameraFromWorld: cameraFromWorld) }
        for (index, rectangle) in rectangles.enumerated() {
            hits.draw(rectangle, index: Int32(index))
        }
        let clutter = scene.clutter.map { CameraClutter($0, cameraFromWorld: cameraFromWorld) }
        for (offset, shape) in clutter.enumerated() {
            hits.draw(shape, index: Int32(rectangles.count + offset))
        }
        let normals = ContiguousArray(rectangles.map(\.normal))
        let ids = ContiguousArray(scene.planes.map(\.id))

        var random = SeededRandom(seed: noiseSeed)
        let sensor = self.sensor, fx = intrinsics.fx
        let checkRange = sensor.minimumRange > 0 || sensor.maximumRange < .infinity
        let minimumRange = sensor.minimumRange, maximumRange = sensor.maximumRange
        let cosMaximum = Float(DeterministicMath.cos(DeterministicMath.radians(Double(min(sensor.maximumIncidenceDegrees, 90)))))
        let checkIncidence = sensor.maximumIncidenceDegrees < 90
        let checkEdges = sensor.discontinuityRelativeJump < .infinity && sensor.discontinuityDropProbability > 0
        let relativeJump = sensor.discontinuityRelativeJump
        let edgeDrop = Double(sensor.discontinuityDropProbability), dropout = Double(sensor.dropoutRate)
        let noisy = sensor.noiseConstant != 0 || sensor.noiseQuadratic != 0
        let quantiser = DisparityQuantiser(sensor: sensor, focalLength: fx)
        let ziggurat = ZigguratTables.shared
        let rectangleCount = rectangles.count

        let incidence = IncidenceTest(cosMaximum: cosMaximum)
        let tableSize = Float(DisparityQuantiser.tableSize)
        sink.prepare(depthOfSteps: quantiser?.depths ?? [])
        let edgeDraw = UnitThreshold(edgeDrop), dropoutDraw = UnitThreshold(dropout)
        // Per row: first the sensor's deterministic verdict on each pixel (0 no reading, 1 a
        // reading, 2 a reading at a depth discontinuity), then the random part in pixel order,
        // then quantisation and output. Short loops keep their values in registers where one
        // long one spilled them, and keep the serial random-number chain apart from the
        // divisions, which then overlap from pixel to pixel.
        var verdicts = ContiguousArray<UInt8>(repeating: 0, count: width)
        var measuredRow = ContiguousArray<Float>(repeating: .nan, count: width)

        hits.depth.withUnsafeBufferPointer { depth in
        hits.surface.withUnsafeBufferPointer { surface in
        hits.xs.withUnsafeBufferPointer { xs in
        hits.ys.withUnsafeBufferPointer { ys in
        normals.withUnsafeBufferPointer { normals in
        ids.withUnsafeBufferPointer { ids in
        verdicts.withUnsafeMutableBufferPointer { verdicts in
        measuredRow.withUnsafeMutableBufferPointer { measuredRow in
            for v in 0..<height {
                let y = ys[v], rowStart = v &* width
                for u in 0..<width {
                    let i = rowStart &+ u
                    let k = Int(surface[i])
                    var verdict: UInt8 = 0
                    if k >= 0 {
                        let z = depth[i]
                        if !(checkRange && (z < minimumRange || z > maximumRange)) {
                            var facing = true
                            if checkIncidence {
                                let ray = SIMD3(xs[u], y, 1)
                                let normal = k < rectangleCount ? normals[k] : clutter[k &- rectangleCount].normal(at: z * ray)
                                facing = incidence.passes(dotMagnitude: abs(dot(normal, ray)), rayLengthSquared: dot(ray, ray))
                            }
                            if facing {
                                verdict = checkEdges && RayCastBuffers.isEdge(depth, u: u, v: v, width: width, height: height,
                                                                              relativeJump: relativeJump) ? 2 : 1
                            }
                        }
                    }
                    verdicts[u] = verdict
                }
                // The random draws, in pixel order: the noisy depth, NaN for a hole.
                for u in 0..<width {
                    let i = rowStart &+ u
                    let verdict = verdicts[u]
                    var measured = Float.nan
                    if verdict != 0 && !(verdict == 2 && edgeDraw.isBelow(random.next()))
                        && !(dropout > 0 && dropoutDraw.isBelow(random.next())) {
                        let z = depth[i]
                        measured = z
                        if noisy { measured += sensor.depthSigma(atDepth: z) * Float(random.zigguratGaussian(ziggurat)) }
                    }
                    measuredRow[u] = measured
                }
                // Quantisation and output: no random numbers, so the pixels overlap in the CPU.
                for u in 0..<width {
                    let i = rowStart &+ u
                    var measured = measuredRow[u]
                    let k = Int(surface[i])
                    let label = k >= 0 && k < ids.count ? ids[k] : 0
                    if let quantiser {
                        let steps = quantiser.steps(measured)
                        guard steps > 0 else { sink.hole(i); continue }
                        if steps < tableSize {
                            sink.reading(i, steps: Int(steps), ray: SIMD3(xs[u], y, 1), label: label)
                            continue
                        }
                        measured = quantiser.depth(ofSteps: steps)
                    }
                    guard measured > 0, measured.isFinite else { sink.hole(i); continue }
                    sink.reading(i, depth: measured, ray: SIMD3(xs[u], y, 1), label: label)
                }
            }
        }}}}}}}}
    }
}
