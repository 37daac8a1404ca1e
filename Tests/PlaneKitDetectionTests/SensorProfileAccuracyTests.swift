import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitEvaluation

/// The detector with its default ``SensorProfile/auto`` on every simulated sensor other than the
/// Kinect (whose rooms ``SyntheticSceneAccuracyTests`` grade), scored the Hoover way at 80%
/// overlap. Nothing tells the detector which sensor made a frame: it measures the noise itself.
@Suite struct SensorProfileAccuracyTests {
    struct Grade {
        var graded = 0, detected = 0, matched = 0
        var errors: [Float] = []
        var recall: Double { Double(matched) / Double(max(graded, 1)) }
        var precision: Double { Double(matched) / Double(max(detected, 1)) }
    }

    /// The frame's true labels with each 8-connected patch of a plane a region of its own, and
    /// each region's true normal (its plane's).
    static func connectedTruth(_ frame: SyntheticFrame) -> (ContiguousArray<UInt16>, [SIMD3<Float>]) {
        let width = frame.width, height = frame.height
        var patches = ContiguousArray<UInt16>(repeating: 0, count: frame.labels.count)
        var normals: [SIMD3<Float>] = []
        var stack: [Int] = []
        for start in frame.labels.indices where frame.labels[start] != 0 && patches[start] == 0 {
            let plane = frame.labels[start]
            normals.append(frame.cameraNormals[Int(plane) - 1])
            let patch = UInt16(normals.count)
            patches[start] = patch
            stack.append(start)
            while let i = stack.popLast() {
                let u = i % width, v = i / width
                for dv in -1...1 {
                    for du in -1...1 where (du, dv) != (0, 0) {
                        let nu = u + du, nv = v + dv
                        guard nu >= 0, nu < width, nv >= 0, nv < height else { continue }
                        let j = nv * width + nu
                        guard frame.labels[j] == plane, patches[j] == 0 else { continue }
                        patches[j] = patch
                        stack.append(j)
                    }
                }
            }
        }
        return (patches, normals)
    }

    /// Detects `seeds` frames of `sensor` and grades true planes of at least `minimumPixels`.
    func grade(_ sensor: SimulatedSensor, seeds: ClosedRange<UInt64>, minimumPixels: Int,
               expectCellSize: (Int) -> Bool) throws -> Grade {
        var grade = Grade()
        let detector = OrganizedPlaneDetector()
        // The scanner comes on two grids under one name.
        let name = sensor == .scannerPinhole ? "\(sensor.name) (pinhole)" : sensor.name
        for seed in seeds {
            let frame = SyntheticFrame(seed: seed, sensor: sensor)
            let result = try detector.detect(in: frame.cloud)
            let cell = result.sensorSettings?.cellSize ?? 0
            #expect(expectCellSize(cell), "\(name) seed \(seed): \(cell)-px cells")
            // At object scale the detector reports faces, connected patches of a plane, as range-image
            // benchmarks count regions; the generator labels whole planes (a table seen through a
            // gap in an object is one label), so its truth is split the same way first.
            let (truth, trueNormals) = sensor.setting == .tabletop
                ? Self.connectedTruth(frame) : (frame.labels, frame.cameraNormals)
            let score = try SegmentationScore(detected: result.labels, truth: truth, width: frame.width,
                                              height: frame.height, minimumTruePixels: minimumPixels)
            grade.graded += score.trueLabels.count
            grade.detected += score.detectedLabels.count
            grade.matched += score.matches.count
            grade.errors += score.angularErrorsDegrees(detectedNormals: result.planes.map(\.normal),
                                                       trueNormals: trueNormals)
            print("\(name) seed \(seed): \(score.matches.count) of \(score.trueLabels.count) true planes matched, "
                  + "\(score.detectedLabels.count) detected, missed \(score.missedTrueLabels), false \(score.falseDetectedLabels)")
        }
        print("\(name): recall \(grade.recall), precision \(grade.precision), median normal error "
              + "\(SegmentationScore.median(grade.errors) ?? .nan)° over \(seeds.count) frames (\(grade.graded) graded)")
        return grade
    }

    /// A tabletop scanner (512×512, polyhedra of 5–30 cm, with what ABW's scanner has: 1.3 mm
    /// depth steps, 0.25 mm noise and a 0.5 mm ripple, dark faces, grazing losses, shadows,
    /// decoding spikes), on its grid regular in x/y with no intrinsics and through a pinhole
    /// camera of f = 1250 px (finer than any depth camera's 500–1000 px, coarser than ABW's 2200):
    /// the detector must take both for precise scans at object scale from their points alone.
    /// Faces of 300 pixels and more are graded against the truth split into connected faces, as
    /// on real range-image benchmarks. Today: recall 0.914 on both, precision 0.966 on the grid
    /// and 0.955 through the pinhole, median normal error 0.08° over 185 faces; taken for a depth
    /// camera (20-pixel cells), the pinhole frames lose half their faces. The recall goal is 0.85,
    /// not 0.9: one face in ten is dark (noise 1.4–4 mm, 3–16 times the scan's, and 5–30% of its
    /// readings lost), and those are most of what the detector misses.
    @Test(arguments: [SimulatedSensor.scanner, .scannerPinhole])
    func scannerFacesFromThreeHundredPixels(sensor: SimulatedSensor) throws {
        let grade = try grade(sensor, seeds: 1...10, minimumPixels: 300, expectCellSize: { $0 <= 8 })
        #expect(grade.graded >= 100)
        #expect(grade.recall >= 0.85)
        #expect(grade.precision >= 0.9)
        #expect((SegmentationScore.median(grade.errors) ?? .infinity) <= 1)
    }

    /// A time-of-flight camera (640×576, σ = 1.5 mm + 0.35 %·z, flying pixels at edges) in rooms.
    @Test func timeOfFlightRooms() throws {
        let grade = try grade(.tof, seeds: 1...8, minimumPixels: 3000, expectCellSize: { $0 == 20 })
        #expect(grade.graded >= 20)
        #expect(grade.recall >= 0.9)
        #expect(grade.precision >= 0.9)
    }

    /// An active stereo camera (848×480, σ = z²·0.08/(f·b), b = 5 cm, a left band without depth,
    /// holes at grazing angles and occlusions) in rooms.
    @Test func activeStereoRooms() throws {
        let grade = try grade(.realsense, seeds: 1...8, minimumPixels: 3000, expectCellSize: { $0 == 20 })
        #expect(grade.graded >= 20)
        #expect(grade.recall >= 0.8)
        #expect(grade.precision >= 0.8)
    }
}
