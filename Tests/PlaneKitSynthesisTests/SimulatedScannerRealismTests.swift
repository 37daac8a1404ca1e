import Foundation
import PlaneKitGeometry
import PlaneKitSynthesis
import Testing
import PlaneKitEvaluation

/// What the simulated scanner shares with SegComp's ABW scanner, as measured on its dev images
/// 0–9 (see ``SimulatedSensor/scanner``): 1.3 mm depth steps, the scatter of flat bright faces,
/// dark faces, readings thinning out at grazing angles.
extension SimulatedScannerTests {
    /// ABW's flat bright faces (500–20 000 px, < 70° incidence): the median face's RMS depth
    /// residual about its plane at the pixel scale (m).
    static let abwBrightFaceResidual = 0.63e-3

    /// The tabletop scene of `seed` scanned by `sensor` from the seed's pose with noise seed
    /// `seed · 7919`, and what each of its faces is like (``DarkSurfaces/faces(count:noiseSeed:)``
    /// of the scanner's dark surfaces, whether `sensor` has them or not).
    static func scan(_ seed: UInt64, sensor: SimulatedSensor) -> (frame: SyntheticFrame, faces: [DarkSurfaces.Face]) {
        let table = TabletopScene(seed: seed), noiseSeed = seed &* 7919
        let frame = SimulatedSensorRenderer(sensor: sensor).render(table.scene, pose: table.randomCameraPose(seed: seed),
                                                                   noiseSeed: noiseSeed)
        let model = SimulatedSensor.scanner.darkSurfaces ?? DarkSurfaces()
        return (frame, model.faces(count: table.scene.planes.count, noiseSeed: noiseSeed))
    }

    /// A 1 m × 4 m plane through the origin seen straight down from 1 m (the shadow test's pose),
    /// turned about the camera's Y axis so that it is seen at `degrees` of incidence.
    static func tiltedPlane(degrees: Float) throws -> (scene: SyntheticScene, pose: Transform, cosine: Float) {
        let angle = Double(degrees) * Double.pi / 180
        let c = Float(cos(angle)), s = Float(sin(angle))
        var scene = SyntheticScene()
        scene.addRectangle(kind: .floor, center: .zero, normal: SIMD3(s, c, 0), xAxis: SIMD3(c, -s, 0), size: SIMD2(4, 1))
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(0, 1, 0), target: .zero, up: SIMD3(0, 0, -1)))
        return (scene, pose, c)
    }

    /// The scanner's grazing ramp (``GrazingFalloff``) at an incidence of cosine `c`: 0 up to 70°,
    /// rising linearly in the cosine to 1 at 85°.
    static func grazingRamp(cosine c: Float) -> Float {
        let cos70 = Float(cos(70 * Double.pi / 180)), cos85 = Float(cos(85 * Double.pi / 180))
        return min(max((cos70 - c) / (cos70 - cos85), 0), 1)
    }

    /// Every depth of a scan is a multiple of the 1.3 mm step, and along the rows of a flat face
    /// seen at 25° (true depths 0.29 step apart) neighbours mostly differ by 0 or ±1 step: a
    /// staircase, not a continuum. (ABW's faces within 30° of facing the scanner: 73% equal, 25%
    /// one step apart, 1.6% more, with 0.57 mm pixels where these are 0.8 mm.)
    @Test func depthsLieOnTheStepLattice() throws {
        let step = SimulatedSensor.scannerDepthStep
        let depths = SyntheticFrame(seed: 1, sensor: .scanner).cloud.points.filter(\.isFinite).map(\.z)
        #expect(depths.count > 100_000)
        // Float rounding of the product only: a depth near 1 m is good to 1e-7 m.
        #expect(depths.allSatisfy { abs($0 - ($0 / step).rounded() * step) <= 1e-6 })

        let (scene, pose, _) = try Self.tiltedPlane(degrees: 25)
        var sensor = SimulatedSensor.scanner
        sensor.darkSurfaces = nil
        let frame = SimulatedSensorRenderer(sensor: sensor).render(scene, pose: pose, noiseSeed: 1)
        var differences = [0, 0, 0]
        for v in 0..<frame.height {
            for u in 0..<(frame.width - 1) {
                let a = frame.cloud.points[v * frame.width + u].z, b = frame.cloud.points[v * frame.width + u + 1].z
                guard a.isFinite, b.isFinite else { continue }
                #expect(abs(a - (a / step).rounded() * step) <= 1e-6)
                differences[min(abs(Int(((b - a) / step).rounded())), 2)] += 1
            }
        }
        let total = Double(differences.reduce(0, +))
        let same = Double(differences[0]) / total, one = Double(differences[1]) / total
        print("scanner at 25°: neighbouring depths \(same * 100)% equal, \(one * 100)% one step apart, "
              + "\((1 - same - one) * 100)% more (\(Int(total)) pairs)")
        #expect(total > 200_000)
        #expect(same + one >= 0.95)
        #expect(same >= 0.5)
    }

    /// Flat bright faces of 500 px or more below 70° incidence scatter about their fitted plane
    /// (RMS depth residual, the median face) as ABW's do at the pixel scale, 0.63 mm, within
    /// 0.1 mm. (About the whole fitted plane ABW's faces scatter 0.88 mm: real faces are not quite
    /// flat, the generator's are.)
    @Test func flatBrightFacesScatterLikeABW() {
        let cos70 = Float(cos(70 * Double.pi / 180))
        var residuals: [Double] = []
        // Without the decoding spikes, which ABW's figure leaves out too (a 9 × 9 local mean).
        var sensor = SimulatedSensor.scanner
        sensor.spikes = nil
        for seed in UInt64(1)...4 {
            let (frame, faces) = Self.scan(seed, sensor: sensor)
            for (s, plane) in frame.planes.enumerated()
            where plane.pixelCount >= 500 && faces[s] == .bright && abs(plane.cameraPlane.normal.z) >= cos70 {
                let points = frame.cloud.points.indices.filter { frame.labels[$0] == plane.id }.map { frame.cloud.points[$0] }
                guard let fit = PointMoments(points).fit else { continue }
                residuals.append(Double(fit.rmsDistance / abs(fit.plane.normal.z)))
            }
        }
        let median = SegmentationScore.median(residuals.map(Float.init)).map(Double.init) ?? .nan
        print("scanner: flat bright faces scatter \(median * 1000) mm RMS in depth (median of \(residuals.count) faces), "
              + "ABW \(Self.abwBrightFaceResidual * 1000) mm")
        #expect(residuals.count >= 20)
        #expect(abs(median - Self.abwBrightFaceResidual) <= 0.1e-3)
    }

    /// Dark faces (10% of them) lose the share of readings drawn for them, in blobs and speckles,
    /// and their independent noise is their noise factor times the bright faces' (the ripple is
    /// not); bright faces lose nothing. Measured against the
    /// same scans without dark faces (grazing falloff, spikes and dropouts off in both).
    @Test func darkFacesLoseAndScatterAsModelled() throws {
        var sensor = SimulatedSensor.scanner
        sensor.grazing = nil
        sensor.spikes = nil
        sensor.dropoutRate = 0
        var reference = sensor
        reference.darkSurfaces = nil
        var faceCount = 0, darkCount = 0, brightLost = 0
        var lossErrors: [Double] = [], noiseRatios: [Double] = []
        for seed in UInt64(1)...10 {
            let (frame, faces) = Self.scan(seed, sensor: sensor)
            let seen = Self.scan(seed, sensor: reference).frame
            faceCount += faces.count
            darkCount += faces.filter { $0 != .bright }.count
            for (s, plane) in seen.planes.enumerated() where plane.pixelCount >= 1000 {
                let kept = frame.planes[s].pixelCount
                guard faces[s] != .bright else {
                    brightLost += plane.pixelCount - kept
                    continue
                }
                let lost = 1 - Double(kept) / Double(plane.pixelCount)
                let errors = ProfileChecks.depthErrors(frame, grid: sensor.grid, only: plane.id).map { Double($0.error) }
                let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(max(errors.count, 1))).squareRoot()
                let expected = ProfileChecks.quantisedSigma(sensor.depthSigma(atDepth: 1, independentFactor: faces[s].noiseFactor), step: sensor.depthStep)
                print("scanner seed \(seed) dark face \(plane.id) (\(plane.pixelCount) px): lost \(lost * 100)% of "
                      + "\(faces[s].dropout * 100)%, \(rms * 1000) mm RMS of \(expected * 1000) mm")
                lossErrors.append(lost - Double(faces[s].dropout))
                noiseRatios.append(rms / Double(expected))
            }
        }
        let share = Double(darkCount) / Double(faceCount)
        print("scanner: \(darkCount) of \(faceCount) faces dark (\(share * 100)%), \(lossErrors.count) of them graded")
        #expect(share > 0.05 && share < 0.16)
        #expect(brightLost == 0)
        #expect(lossErrors.count >= 5)
        #expect(lossErrors.allSatisfy { abs($0) <= 0.1 }, "\(lossErrors)")
        #expect(lossErrors.map(abs).reduce(0, +) / Double(max(lossErrors.count, 1)) <= 0.04)
        #expect(noiseRatios.allSatisfy { abs($0 - 1) <= 0.15 }, "\(noiseRatios)")
    }

    /// A plane seen at `degrees` of incidence (no projector, dark faces, spikes or dropouts): from 70° on
    /// it loses readings, up to half of them at 85°, and its independent noise grows up to ×10,
    /// both linearly in the cosine; below 70° it keeps every reading.
    @Test(arguments: [Float(30), 72, 76, 80, 84])
    func grazingFacesLoseReadingsProgressively(degrees: Float) throws {
        let (scene, pose, c) = try Self.tiltedPlane(degrees: degrees)
        var sensor = SimulatedSensor.scanner
        sensor.secondViewpoint = nil
        sensor.darkSurfaces = nil
        sensor.spikes = nil
        sensor.dropoutRate = 0
        var reference = sensor
        reference.grazing = nil
        let frame = SimulatedSensorRenderer(sensor: sensor).render(scene, pose: pose, noiseSeed: 3)
        let seen = SimulatedSensorRenderer(sensor: reference).render(scene, pose: pose, noiseSeed: 3).planes[0].pixelCount
        let lost = 1 - Double(frame.planes[0].pixelCount) / Double(seen)
        let ramp = Self.grazingRamp(cosine: c)
        let errors = ProfileChecks.depthErrors(frame, grid: sensor.grid).map { Double($0.error) }
        let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(max(errors.count, 1))).squareRoot()
        let expected = ProfileChecks.quantisedSigma(sensor.depthSigma(atDepth: 1, independentFactor: 1 + 9 * ramp), step: sensor.depthStep)
        print("scanner at \(degrees)°: lost \(lost * 100)% (model \(50 * ramp)%), \(rms * 1000) mm RMS "
              + "(model \(expected * 1000) mm), \(seen) readings without the falloff")
        #expect(seen > 20_000)
        #expect(abs(lost - Double(0.5 * ramp)) <= 0.02)
        #expect(abs(rms / Double(expected) - 1) <= 0.1)
        if degrees < 70 { #expect(lost == 0) }
    }

    /// Decoding spikes on a plane seen at `degrees` of incidence (no projector, dark faces or
    /// dropouts): readings more than 5.5 mm off the true depth (4.7σ of the noise at 75°, below
    /// the smallest spike) are as many as the model says, 0.05% plus up to 2% along the grazing
    /// ramp, and about one spike in eight takes its right-hand neighbour along.
    @Test(arguments: [Float(30), 75])
    func decodingSpikesFollowTheModel(degrees: Float) throws {
        let (scene, pose, c) = try Self.tiltedPlane(degrees: degrees)
        var sensor = SimulatedSensor.scanner
        sensor.secondViewpoint = nil
        sensor.darkSurfaces = nil
        sensor.dropoutRate = 0
        let model = try #require(sensor.spikes)
        let frame = SimulatedSensorRenderer(sensor: sensor).render(scene, pose: pose, noiseSeed: 5)
        let errors = ProfileChecks.depthErrors(frame, grid: sensor.grid, only: 1)
        let readings = errors.count
        let spiked = Set(errors.filter { abs($0.error) > 0.0055 }.map(\.pixel))
        let ramp = Self.grazingRamp(cosine: c)
        // A pixel a spike takes along draws nothing, so each spiking draw makes 1 + pairChance.
        let draws = Double(readings) * Double(model.rate + model.grazingRate * ramp)
        let expected = draws * (1 + Double(model.pairChance))
        let paired = spiked.filter { spiked.contains($0 + 1) }.count
        let pairShare = Double(paired) / Double(max(spiked.count - paired, 1))
        print("scanner at \(degrees)°: \(spiked.count) spikes in \(readings) readings (model \(expected)), "
              + "\(pairShare * 100)% taking a neighbour along")
        #expect(readings > 20_000)
        // Binomial: within 4 standard deviations of the model.
        #expect(abs(Double(spiked.count) - expected) <= 4 * expected.squareRoot() + 2)
        if degrees > 70 { #expect(abs(pairShare - Double(model.pairChance)) <= 0.04) }
    }
}
