import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitTestSupport
import PlaneKitCloudIO

/// ``SensorProfile/auto``: the noise read off the frames themselves, the scale chosen from it,
/// and grids that are not camera images.
@Suite struct SensorAdaptationTests {
    /// The noise a detector cell of a generated Kinect frame shows at depth `z`: the sensor's
    /// Gaussian noise and its disparity quantisation (a uniform error of one step).
    static func generatedNoise(atDepth z: Float) -> Float {
        let sensor = SensorModel.kinect
        let sigma = sensor.depthSigma(atDepth: z)
        let step = sensor.quantisationStep(atDepth: z, focalLength: PinholeIntrinsics.kinect().fx)
        return (sigma * sigma + step * step / 12).squareRoot()
    }

    @Test(arguments: [UInt64(1), 4, 7, 10])
    func measuredNoiseOfAGeneratedFrameMatchesItsSensor(seed: UInt64) throws {
        let measured = OrganizedPlaneDetector().measureNoise(in: SyntheticFrame(seed: seed).cloud)
        let estimate = try #require(measured)
        #expect(estimate.isCamera)
        #expect(estimate.blockCount >= 60)
        // Graded over the depths the frame has plenty of.
        for z: Float in [1.5, 2.5] {
            let measured = estimate.noise.sigma(atDepth: z), expected = Self.generatedNoise(atDepth: z)
            print("seed \(seed): σ(\(z) m) measured \(measured * 1000) mm, generated \(expected * 1000) mm")
            #expect(abs(measured / expected - 1) <= 0.35, "σ(\(z) m): \(measured) vs \(expected)")
        }
        // The pixel spacing of a 525-pixel focal length at the median depth.
        #expect(abs(estimate.pointSpacing / (estimate.medianDepth / 525) - 1) <= 0.2)
        #expect(SensorProfile.nearestCamera(to: estimate) == .kinect)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl beside the repository"),
          arguments: ["pcl/frame_20121214T142255.814212.pcd", "pcl/frame_20121214T142256.068683.pcd",
                      "pcl/frame_20121214T142256.332395.pcd", "pcl/milk_cartoon_all_small_clorox.pcd"])
    func realKinectFramesMeasureKinectNoise(_ file: String) throws {
        let cloud = try PointCloudReader.read(path: SharedData.path(file))
        let detector = OrganizedPlaneDetector()
        let measured = detector.measureNoise(in: cloud)
        let estimate = try #require(measured)
        // Published Kinect v1 figures (Khoshelham & Elberink 2012): about 1.5 mm at 1 m and
        // 6–7 mm at 2 m; the PCD holds no intrinsics, so this is also the pinhole test.
        let at1 = estimate.noise.sigma(atDepth: 1), at2 = estimate.noise.sigma(atDepth: 2)
        print("\(file): σ(1 m) \(at1 * 1000) mm, σ(2 m) \(at2 * 1000) mm, \(estimate.blockCount) blocks")
        #expect(estimate.isCamera)
        #expect(at1 >= 0.0008 && at1 <= 0.003)
        #expect(at2 >= 0.003 && at2 <= 0.012)
        // It is recognised as a Kinect, and detected with the Kinect profile.
        #expect(SensorProfile.nearestCamera(to: estimate) == .kinect)
        let result = try detector.detect(in: cloud)
        #expect(result.sensorSettings == SensorProfile.kinect.settings)
    }

    /// A camera frame moved rigidly into other coordinates (as a registered scan is, with many
    /// points behind the origin) is no longer a pinhole image: it is detected as a grid at
    /// object scale, and its large planes are the camera frame's planes, moved.
    @Test func aRegisteredGridIsDetectedWithoutIntrinsics() throws {
        let frame = SyntheticFrame(seed: 5)
        let move = Transform(rotation: Quaternion(angle: 100 * .pi / 180, axis: SIMD3(1, 0.2, 0)),
                             translation: SIMD3(0.3, -1, -2.5))
        let moved = try PointCloud(width: frame.width, height: frame.height,
                                   points: ContiguousArray(frame.cloud.points.map { move.apply(toPoint: $0) }))
        #expect(moved.points.filter { $0.z <= 0 }.count > moved.points.count / 4)
        let detector = OrganizedPlaneDetector()
        let estimate = detector.measureNoise(in: moved)
        #expect(estimate != nil && estimate?.isCamera == false)
        let reference = try detector.detect(in: frame.cloud)
        let result = try detector.detect(in: moved)
        let settings = try #require(result.sensorSettings)
        #expect(settings.cellSize < 20)
        // A grid that is not a camera image: its points are not taken to stray across their rays.
        #expect(settings.lateralNoise == 0)
        var checked = 0
        for plane in reference.planes where plane.pointCount >= 20_000 {
            let normal = move.apply(toDirection: plane.normal)
            let point = move.apply(toPoint: plane.centroid)
            let match = result.planes.first { candidate in
                abs(dot(candidate.normal, normal)) >= 0.99985 && abs(candidate.plane.signedDistance(to: point)) <= 0.01
            }
            #expect(match != nil, "plane \(plane.label) (\(plane.pointCount) px) not found in the moved grid")
            checked += 1
        }
        #expect(checked >= 2)
    }

    /// A fixed profile is exactly the detector configured by hand with its settings.
    @Test func aProfileIsItsSettings() throws {
        let frame = SyntheticFrame(seed: 2)
        for profile in [SensorProfile.kinect, .realsense, .tof, .scanner] {
            var named = OrganizedPlaneDetector.Configuration()
            named.sensor = profile
            var byHand = OrganizedPlaneDetector.Configuration().applying(try #require(profile.settings))
            byHand.sensor = .custom
            let a = try OrganizedPlaneDetector(configuration: named).detect(in: frame.cloud)
            let b = try OrganizedPlaneDetector(configuration: byHand).detect(in: frame.cloud)
            #expect(a.labels == b.labels, "\(profile)")
            #expect(a.sensorSettings == profile.settings)
        }
    }

    /// A stream measures its first ten measurable frames and then keeps their median.
    @Test func aStreamSettlesOnOneEstimate() throws {
        var running = StreamNoiseEstimate()
        let detector = OrganizedPlaneDetector()
        #expect(running.current == nil)
        let empty = try PointCloud(width: 64, height: 48, points: ContiguousArray(repeating: SIMD3(repeating: .nan), count: 64 * 48))
        #expect(running.update(with: empty, detector: detector) == nil)
        var estimates: [DepthNoiseEstimate] = [], measured: [Float] = []
        for seed in UInt64(1)...12 {
            let frame = SyntheticFrame(seed: seed)
            if seed <= 10, let m = detector.measureNoise(in: frame.cloud) { measured.append(m.roughness) }
            if let e = running.update(with: frame.cloud, detector: detector) { estimates.append(e) }
            #expect(running.isSettled == (seed >= 10))
        }
        #expect(estimates.count == 12 && measured.count == 10)
        #expect(estimates[9] == estimates[10] && estimates[10] == estimates[11])
        let roughness = measured
        let kept = estimates[11].roughness
        #expect(roughness.filter { $0 < kept }.count == 5 && roughness.filter { $0 > kept }.count == 4)
    }
}
