import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSeededRandom

/// Renders depth frames of a ``SyntheticScene`` by casting one ray per pixel through a pinhole
/// camera and keeping the nearest hit, then applies a ``SensorModel``. It draws rectangular
/// faces only (scenes with polygon faces, and ``SimulatedSensor``s, need ``SimulatedSensorRenderer``).
///
/// Each surface is tested only inside its projected bounding rectangle (a z-buffer in object
/// order), a rectangle only in the columns of each row that can see it (`RectangleRowSpans`),
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
    /// `workspace`, nothing is allocated beyond a small per-frame table and a few rows of scratch.
    public func renderDepth16(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64, encoding: Depth16Encoding,
                              into bytes: UnsafeMutableRawBufferPointer, labels: UnsafeMutableBufferPointer<UInt16>? = nil,
                              workspace: inout RenderWorkspace) {
        let count = intrinsics.width * intrinsics.height
        precondition(bytes.count == 2 * count, "depth16 output needs 2 × width × height bytes")
        precondition(labels.map { $0.count == count } ?? true, "labels need width × height entries")
        var sink = Depth16ReadingSink(bytes: bytes, labels: labels, encoding: encoding)
        render(scene, pose: pose, noiseSeed: noiseSeed, into: &sink, workspace: &workspace)
    }

    /// Ray-casts the z-buffer, then applies the sensor model row by row (``SensorRowPass``
    /// eight pixels at a time, then the few random choices in pixel order), handing every row
    /// to `sink`.
    ///
    /// The random parts draw from three streams of `noiseSeed`, so each is fixed whatever the
    /// others draw: the noise tables' row offsets (``GaussianTables``), one draw per pixel at a
    /// discontinuity for its drop, and the dropout positions as gaps between them
    /// (``GeometricGaps``).
    private func render<Sink: SensorReadingSink>(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64,
                                                 into sink: inout Sink, workspace: inout RenderWorkspace) {
        precondition(!scene.planes.contains { $0.polygon != nil },
                     "SyntheticRenderer draws rectangles only; render scenes with polygon faces with SimulatedSensorRenderer")
        let width = intrinsics.width, height = intrinsics.height
        var hits = workspace.takeBuffers(for: intrinsics)
        defer { workspace.buffers = hits }
        let sensor = self.sensor
        hits.incidence = sensor.maximumIncidenceDegrees < 90
            ? IncidenceTest(cosMaximum: Float(DeterministicMath.cos(DeterministicMath.radians(Double(sensor.maximumIncidenceDegrees)))))
            : nil
        let cameraFromWorld = pose.inverse
        let rectangles = scene.planes.map { CameraRectangle($0, cameraFromWorld: cameraFromWorld) }
        for (index, rectangle) in rectangles.enumerated() {
            hits.draw(rectangle, index: Int32(index))
        }
        for (offset, shape) in scene.clutter.enumerated() {
            hits.draw(CameraClutter(shape, cameraFromWorld: cameraFromWorld), index: Int32(rectangles.count + offset))
        }
        guard width > 0, height > 0 else { return }
        let ids = ContiguousArray(scene.planes.map(\.id))
        let pass = SensorRowPass(sensor: sensor, focalLength: intrinsics.fx)
        let quantiser = DisparityQuantiser(sensor: sensor, focalLength: intrinsics.fx)
        sink.prepare(depthOfSteps: quantiser?.depths ?? [])
        // The ideal sensor reads no noise: the tables are not even built for it.
        let noise = pass.noisy ? GaussianTables.shared : nil
        var offsetRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 1))
        var edgeRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 2))
        var dropoutRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 3))
        let frameShift = Int(truncatingIfNeeded: offsetRandom.next())
        let edgeDrop = UnitThreshold(Double(sensor.discontinuityDropProbability))
        let gaps = GeometricGaps(probability: Double(sensor.dropoutRate))
        var nextDropout = gaps.next(&dropoutRandom)

        // Row scratch: pixel 0 of each row at index 8, room for a left neighbour before it and
        // for whole groups of eight (plus a right neighbour) after it.
        let stride = 8 &+ (width &+ 7) / 8 * 8 &+ 8
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * stride) { floats in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * stride) { ints in
        hits.depth.withUnsafeBufferPointer { depth in
        hits.surface.withUnsafeBufferPointer { surface in
        hits.xs.withUnsafeBufferPointer { xs in
        hits.ys.withUnsafeBufferPointer { ys in
        ids.withUnsafeBufferPointer { ids in
        (noise?.first ?? []).withUnsafeBufferPointer { firstNoise in
        (noise?.second ?? []).withUnsafeBufferPointer { secondNoise in
            let base = floats.baseAddress!, intBase = ints.baseAddress!
            // Three depth rows in turn (row v in slot v mod 3), each padded with copies of its
            // end pixels so that the image border is no discontinuity.
            func slot(_ v: Int) -> UnsafeMutablePointer<Float> { base + ((v % 3) &* stride &+ 8) }
            func copyDepthRow(_ v: Int) {
                let row = depth.baseAddress! + v &* width, to = slot(v)
                to.update(from: row, count: width)
                (to - 8).update(repeating: row[0], count: 8)
                (to + width).update(repeating: row[width &- 1], count: stride &- 8 &- width)
            }
            let measured = base + 3 &* stride
            let surfaceRow = intBase, steps = intBase + stride, edges = intBase + 2 &* stride
            surfaceRow.update(repeating: -1, count: stride)
            copyDepthRow(0)
            for v in 0..<height {
                if v &+ 1 < height { copyDepthRow(v &+ 1) }
                let rowStart = v &* width
                surfaceRow.update(from: surface.baseAddress! + rowStart, count: width)
                let offsets = noise == nil ? (first: 0, second: 0)
                    : GaussianTables.offsets(row: v, frameShift: frameShift, bits: offsetRandom.next())
                let beyondTable = pass.run(SensorRowPass.Rows(
                    centre: slot(v), above: slot(v > 0 ? v &- 1 : v), below: slot(v &+ 1 < height ? v &+ 1 : v),
                    surface: surfaceRow, firstNoise: firstNoise.baseAddress ?? UnsafePointer(measured), firstOffset: offsets.first,
                    secondNoise: secondNoise.baseAddress ?? UnsafePointer(measured), secondOffset: offsets.second,
                    measured: measured, steps: steps, edges: edges, count: width))
                func drop(_ u: Int) {
                    measured[u] = .nan
                    steps[u] = 0
                }
                // Readings at discontinuities, in pixel order: a draw each. Groups of eight
                // without one are skipped with one test.
                if pass.marksEdges {
                    var u = 0
                    while u < width {
                        // Four 64-bit loads: `any(lanes .!= 0)` compiles to a loop over the lanes.
                        let group = UnsafeRawPointer(edges + u)
                        if group.loadUnaligned(as: UInt64.self) | group.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                            | group.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | group.loadUnaligned(fromByteOffset: 24, as: UInt64.self) != 0 {
                            for k in u..<min(u &+ 8, width) where edges[k] != 0 && edgeDrop.isBelow(edgeRandom.next()) { drop(k) }
                        }
                        u &+= 8
                    }
                }
                // Dropouts at their drawn positions in the frame.
                let rowEnd = rowStart &+ width
                while nextDropout < rowEnd {
                    drop(nextDropout &- rowStart)
                    let gap = gaps.next(&dropoutRandom)
                    nextDropout = gap < Int.max &- nextDropout &- 1 ? nextDropout &+ 1 &+ gap : .max
                }
                let row = SensorRow(start: rowStart, count: width, y: ys[v], xs: xs.baseAddress!, surface: surfaceRow, ids: ids)
                if quantiser != nil, !beyondTable {
                    sink.quantisedRow(row, steps: steps)
                    continue
                }
                if let quantiser {
                    // Some reading is nearer than the tables reach: every reading as a depth.
                    for u in 0..<width where steps[u] > 0 {
                        measured[u] = steps[u] < SensorRowPass.tableSize ? quantiser.depths[Int(steps[u])]
                            : quantiser.depth(ofSteps: quantiser.steps(measured[u]))
                    }
                }
                sink.depthRow(row, depths: measured)
            }
        }}}}}}}}}
    }
}
