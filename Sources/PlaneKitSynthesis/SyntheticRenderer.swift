import PlaneKitGeometry
import PlaneKitInput

/// Renders depth frames of a ``SyntheticScene`` by casting one ray per pixel through a pinhole
/// camera and keeping the nearest hit, then applies a ``SensorModel``.
///
/// Each surface is tested only inside its projected bounding rectangle (a z-buffer in object
/// order), with analytic ray–rectangle, ray–sphere and ray–cylinder intersections in the camera
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
        let width = intrinsics.width, height = intrinsics.height
        var hits = RayCastBuffers(intrinsics: intrinsics)
        let cameraFromWorld = pose.inverse
        let rectangles = scene.planes.map { CameraRectangle($0, cameraFromWorld: cameraFromWorld) }
        for (index, rectangle) in rectangles.enumerated() {
            hits.draw(rectangle, index: Int32(index))
        }
        for (offset, shape) in scene.clutter.enumerated() {
            hits.draw(CameraClutter(shape, cameraFromWorld: cameraFromWorld), index: Int32(rectangles.count + offset))
        }
        let clutter = scene.clutter.map { CameraClutter($0, cameraFromWorld: cameraFromWorld) }
        let ids = ContiguousArray(scene.planes.map(\.id))

        var points = ContiguousArray(repeating: SIMD3<Float>(repeating: .nan), count: width * height)
        var labels = ContiguousArray<UInt16>(repeating: 0, count: width * height)
        var random = SeededRandom(seed: noiseSeed)
        let sensor = self.sensor, fx = intrinsics.fx
        let checkRange = sensor.minimumRange > 0 || sensor.maximumRange < .infinity
        let cosMaximum = Float(DeterministicMath.cos(DeterministicMath.radians(Double(min(sensor.maximumIncidenceDegrees, 90)))))
        let checkIncidence = sensor.maximumIncidenceDegrees < 90
        let checkEdges = sensor.discontinuityRelativeJump < .infinity && sensor.discontinuityDropProbability > 0
        let noisy = sensor.noiseConstant != 0 || sensor.noiseQuadratic != 0
        let quantised = sensor.disparityStep > 0
        let ziggurat = ZigguratTables.shared

        hits.depth.withUnsafeBufferPointer { depth in
        hits.surface.withUnsafeBufferPointer { surface in
        hits.xs.withUnsafeBufferPointer { xs in
        hits.ys.withUnsafeBufferPointer { ys in
        rectangles.withUnsafeBufferPointer { rectangles in
        points.withUnsafeMutableBufferPointer { points in
        labels.withUnsafeMutableBufferPointer { labels in
            for v in 0..<height {
                let y = ys[v]
                for u in 0..<width {
                    let i = v * width + u
                    let k = Int(surface[i])
                    guard k >= 0 else { continue }
                    let z = depth[i]
                    if checkRange && (z < sensor.minimumRange || z > sensor.maximumRange) { continue }
                    let x = xs[u]
                    let ray = SIMD3(x, y, 1)
                    if checkIncidence {
                        let normal = k < rectangles.count ? rectangles[k].normal : clutter[k - rectangles.count].normal(at: z * ray)
                        let cosine = abs(dot(normal, ray)) / ray.length
                        if cosine < cosMaximum { continue }
                    }
                    if checkEdges && RayCastBuffers.isEdge(depth, u: u, v: v, width: width, height: height,
                                                          relativeJump: sensor.discontinuityRelativeJump)
                        && random.nextUnit() < Double(sensor.discontinuityDropProbability) { continue }
                    if sensor.dropoutRate > 0 && random.nextUnit() < Double(sensor.dropoutRate) { continue }
                    var measured = z
                    if noisy { measured += sensor.depthSigma(atDepth: z) * Float(random.zigguratGaussian(ziggurat)) }
                    if quantised { measured = sensor.quantise(depth: measured, focalLength: fx) }
                    guard measured > 0, measured.isFinite else { continue }
                    points[i] = measured * ray
                    labels[i] = k < ids.count ? ids[k] : 0
                }
            }
        }}}}}}}

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
}
