import PlaneKitGeometry
import PlaneKitSynthesis
import Testing

/// The time-of-flight and active stereo profiles: noise against their models, their holes and
/// flying pixels, and their invalid markers.
@Suite struct SimulatedCameraTests {
    @Test(arguments: ["tof", "realsense"])
    func noiseMatchesTheModel(name: String) {
        let figures = ProfileChecks.noiseFigures(name == "tof" ? .tof : .realsense, seeds: 1...3)
        #expect(figures.count > 300_000)
        #expect(abs(figures.mean) < 0.02)
        #expect(abs(figures.deviation - 1) < 0.1, "\(name): residual σ \(figures.deviation) of the model's")
        // Label k pixels lie on true plane k (flying pixels are labelled 0).
        #expect(figures.within4 > 0.999)
        #expect(figures.largest <= 6.5)
    }

    @Test func tofSigmaGrowsWithDistanceAsDatasheetsSay() {
        let noise = SimulatedSensor.tof.noise
        #expect(abs(noise.sigma(atDepth: 1) - 0.005) < 1e-6)
        #expect(abs(noise.sigma(atDepth: 4) - 0.0155) < 1e-6)
        #expect(SimulatedSensor.tof.grid.width == 640 && SimulatedSensor.tof.grid.height == 576)
    }

    @Test func realsenseSigmaIsTheStereoFormula() {
        let sigma = SimulatedSensor.realsense.depthSigma(atDepth: 2)
        #expect(abs(sigma - 4 * 0.08 / (430 * 0.05)) < 1e-7)
    }

    /// Flying pixels: readings labelled 0 where the ideal frame sees a face, lying between the
    /// depths of the two sides of an edge; only at edges, and about 60% of edge pixels.
    @Test func tofFliesPixelsAtDepthEdges() throws {
        let scene = Scenes.boxBeforeWall()
        let renderer = SimulatedSensorRenderer(sensor: .tof)
        let frame = renderer.render(scene, pose: .identity, noiseSeed: 5)
        let ideal = SimulatedSensorRenderer(sensor: SimulatedSensor.tof.ideal).render(scene, pose: .identity, noiseSeed: 5)
        var flying = 0
        for i in frame.labels.indices where frame.labels[i] == 0 && ideal.labels[i] != 0 && frame.cloud.points[i].isFinite {
            flying += 1
            // Between the box front (2 m) and the wall (3 m), give or take the noise.
            #expect(frame.cloud.points[i].z > 1.9 && frame.cloud.points[i].z < 3.1)
        }
        // The cube's outline is about 4 × 252 pixels on each side of the edge; 60% of them fly.
        #expect(flying > 800 && flying < 1600, "flying \(flying)")
    }

    /// A wall 1 m away facing the camera: the right imager (+5 cm) does not see the leftmost
    /// f·b/z = 21.5 columns, so they have no reading; the rest is all read but for dropouts.
    @Test func realsenseHasTheLeftInvalidBand() {
        var profile = SimulatedSensor.realsense
        profile.dropoutRate = 0
        let frame = SimulatedSensorRenderer(sensor: profile).render(Scenes.wall(at: 1), pose: .identity, noiseSeed: 2)
        for v in stride(from: 0, to: 480, by: 40) {
            let row = v * 848
            #expect((0...20).allSatisfy { !frame.cloud.points[row + $0].isFinite }, "row \(v)")
            #expect((23..<848).allSatisfy { frame.cloud.points[row + $0].isFinite }, "row \(v)")
        }
    }

    /// A 20 cm panel 1 m away before a wall at 2 m: the right imager cannot see the wall just
    /// left of the panel's silhouette (x from −25 to −20 cm on the wall, columns 370–380).
    @Test func realsenseLosesWhatTheRightImagerCannotSee() {
        var scene = Scenes.wall(at: 2)
        scene.addRectangle(kind: .other, center: SIMD3(0, 0, 1), normal: SIMD3(0, 0, -1), xAxis: SIMD3(1, 0, 0), size: SIMD2(0.2, 0.2))
        var profile = SimulatedSensor.realsense
        profile.dropoutRate = 0
        let frame = SimulatedSensorRenderer(sensor: profile).render(scene, pose: .identity, noiseSeed: 2)
        let row = 240 * 848
        #expect((371...379).allSatisfy { !frame.cloud.points[row + $0].isFinite })
        // Right of the panel the wall is seen by both imagers.
        #expect((470...480).allSatisfy { frame.labels[row + $0] == 1 })
        // The panel itself (label 2).
        #expect((400...440).allSatisfy { frame.labels[row + $0] == 2 })
    }

    /// Holes grow with the incidence angle and beyond the pattern's range: a floor seen from
    /// 1.4 m loses few pixels nearby and most pixels far away.
    @Test func realsenseHolesGrowAtGrazingAngles() throws {
        var scene = SyntheticScene()
        scene.addRectangle(kind: .floor, center: SIMD3(0, 0, -6), normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0), size: SIMD2(20, 12))
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(0, 1.4, 0), target: SIMD3(0, 0, -2.5)))
        let frame = SimulatedSensorRenderer(sensor: .realsense).render(scene, pose: pose, noiseSeed: 3)
        func holeFraction(_ rows: ClosedRange<Int>) -> Double {
            var holes = 0, total = 0
            for v in rows { for u in 100..<800 { total += 1; if !frame.cloud.points[v * 848 + u].isFinite { holes += 1 } } }
            return Double(holes) / Double(total)
        }
        // Near: 34–46° incidence, 1.5 m. Far: 79–84° incidence, 7–10 m.
        let near = holeFraction(440...479), far = holeFraction(60...100)
        #expect(near < 0.02, "near \(near)")
        #expect(far > 0.6, "far \(far)")
    }

    /// A wall 2 m away facing the camera, inside every range and angle limit: the only holes
    /// are the dropouts (and the stereo camera's left band), at the profile's rate.
    @Test(arguments: ["tof", "realsense"])
    func dropoutsHappenAtTheirRate(name: String) {
        let profile = name == "tof" ? SimulatedSensor.tof : .realsense
        let frame = SimulatedSensorRenderer(sensor: profile).render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 8)
        // The stereo band is f·b/z = 10.75 columns wide at 2 m; skip 12.
        let first = name == "tof" ? 0 : 12
        var holes = 0, total = 0
        for v in 0..<frame.height {
            for u in first..<frame.width {
                total += 1
                if !frame.cloud.points[v * frame.width + u].isFinite { holes += 1 }
            }
        }
        let rate = Double(holes) / Double(total), expected = Double(profile.dropoutRate)
        // ±5 binomial standard deviations (about ±15% of the rate here).
        let spread = 5 * (expected * (1 - expected) / Double(total)).squareRoot()
        #expect(abs(rate - expected) < spread, "\(name): \(rate) against \(expected)")
    }

    @Test func invalidReadingsAreZeroOr65535InDepthImages() {
        let frame = SyntheticFrame(seed: 4, sensor: .realsense)
        let holes = frame.cloud.points.indices.filter { !frame.cloud.points[$0].isFinite }
        #expect(!holes.isEmpty)
        let zero = frame.depthMillimetres(), marked = frame.depthMillimetres(invalidValue: 65535)
        #expect(holes.allSatisfy { zero[$0] == 0 && marked[$0] == 65535 })
        let read = frame.cloud.points.indices.filter { frame.cloud.points[$0].isFinite }
        #expect(read.allSatisfy { zero[$0] == marked[$0] && zero[$0] > 0 && zero[$0] < 65535 })
    }

    @Test(arguments: ["tof", "realsense"])
    func sameSeedSameFrame(name: String) {
        let profile = name == "tof" ? SimulatedSensor.tof : .realsense
        let a = SyntheticFrame(seed: 12, sensor: profile), b = SyntheticFrame(seed: 12, sensor: profile)
        #expect(ProfileChecks.identical(a, b))
        #expect(!ProfileChecks.identical(a, SyntheticFrame(seed: 13, sensor: profile)))
    }
}
