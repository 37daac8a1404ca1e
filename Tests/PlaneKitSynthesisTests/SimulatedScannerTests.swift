import PlaneKitGeometry
import PlaneKitSynthesis
import Testing
import PlaneKitEvaluation

/// The tabletop scanner profile: an orthographic 512 × 512 range image of polyhedral objects with
/// constant noise in 1.3 mm depth steps, dark faces, grazing losses and projector shadows.
@Suite struct SimulatedScannerTests {
    @Test func rangeImageIsRegularInXYWithoutIntrinsics() {
        let frame = SyntheticFrame(seed: 1, sensor: .scanner)
        #expect(frame.width == 512 && frame.height == 512)
        #expect(frame.cloud.intrinsics == nil)
        var checked = 0
        for (i, p) in frame.cloud.points.enumerated() where p.isFinite {
            let u = i % 512, v = i / 512
            #expect(p.x == (Float(u) - 255.5) * SimulatedSensor.scannerSpacing)
            #expect(p.y == (Float(v) - 255.5) * SimulatedSensor.scannerSpacing)
            checked += 1
            if checked > 2000 { break }
        }
        #expect(checked > 2000)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func manyFacesManySmall(seed: UInt64) {
        let frame = SyntheticFrame(seed: seed, sensor: .scanner)
        let sizes = ProfileChecks.faceSizes(frame, minimum: 100)
        #expect(sizes.count >= 10, "seed \(seed): \(sizes.sorted())")
        #expect(sizes.contains { $0 < 3000 }, "seed \(seed): \(sizes.sorted())")
        // Objects are 1 m away: nothing nearer than 0.5 m or beyond 1.6 m.
        let depths = frame.cloud.points.filter(\.isFinite).map(\.z)
        #expect(depths.allSatisfy { $0 > 0.6 && $0 < 1.5 })
    }

    /// The scanner's Gaussian noise and depth steps without the dark faces' and grazing angles'
    /// extra noise and the decoding spikes (tested apart): the residual about the true plane is
    /// the model's √(σ² + step²/12), the rounding adding a uniform error of one step.
    @Test func noiseMatchesTheModelAndLabelsLieOnTheirPlanes() {
        var profile = SimulatedSensor.scanner
        profile.darkSurfaces = nil
        profile.grazing = nil
        profile.spikes = nil
        let figures = ProfileChecks.noiseFigures(profile, seeds: 1...3)
        #expect(figures.count > 300_000)
        #expect(abs(figures.mean) < 0.02)
        #expect(abs(figures.deviation - 1) < 0.1, "residual σ \(figures.deviation) of the model's")
        // Label k pixels lie on true plane k.
        #expect(figures.within4 > 0.999)
        #expect(figures.largest <= 6.5)
    }

    @Test func theIdealScannerIsExact() {
        let profile = SimulatedSensor.scanner.ideal
        let residuals = ProfileChecks.normalisedResiduals(SyntheticFrame(seed: 4, sensor: profile), profile: profile)
        #expect(residuals.count > 100_000)
        // Undivided: metres. Float rounding of a depth near 1 m only.
        #expect(residuals.allSatisfy { abs($0) < 2e-6 })
    }

    /// A 10 cm cube on the floor seen straight down: the projector, 25 cm to the camera's right
    /// (+X), casts the cube's shadow on the floor to its left, from x = −5 cm to about −8.3 cm, as
    /// ABW's shadows fall to the left of its objects.
    @Test func projectorShadowFallsBesideObjects() throws {
        var scene = SyntheticScene()
        scene.addRectangle(kind: .floor, center: .zero, normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0), size: SIMD2(1, 1))
        scene.addBox(OrientedBox(transform: Transform(translation: SIMD3(0, 0.05, 0)), size: SIMD3(0.1, 0.1, 0.1)))
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(0, 1, 0), target: .zero, up: SIMD3(0, 0, -1)))
        var profile = SimulatedSensor.scanner
        profile.dropoutRate = 0
        profile.darkSurfaces = nil
        let frame = SimulatedSensorRenderer(sensor: profile).render(scene, pose: pose, noiseSeed: 1)
        let row = 256 * 512
        // Floor left of the cube, in the shadow: x from −7.9 to −5.6 cm.
        let shadow = (157...185).filter { !frame.cloud.points[row + $0].isFinite }
        #expect(shadow.count == 29)
        // Floor right of the cube, lit: every pixel read, labelled floor (1).
        let lit = (326...356).filter { frame.cloud.points[row + $0].isFinite && frame.labels[row + $0] == 1 }
        #expect(lit.count == 31)
        // The cube's top (label 2) is read.
        #expect(frame.labels[row + 256] == 2)
        // Beyond the shadow the floor is read again.
        #expect((131...151).allSatisfy { frame.labels[row + $0] == 1 })
    }

    @Test func sameSeedSameFrameOtherSeedOtherFrame() {
        let a = SyntheticFrame(seed: 9, sensor: .scanner), b = SyntheticFrame(seed: 9, sensor: .scanner)
        #expect(ProfileChecks.identical(a, b))
        #expect(!ProfileChecks.identical(a, SyntheticFrame(seed: 10, sensor: .scanner)))
    }

    @Test func fewDropoutsAndHolesMostlyInShadow() {
        let frame = SyntheticFrame(seed: 2, sensor: .scanner)
        let ideal = SyntheticFrame(seed: 2, sensor: SimulatedSensor.scanner.ideal)
        let seen = ideal.cloud.points.filter(\.isFinite).count
        let read = frame.cloud.points.filter(\.isFinite).count
        let lost = Double(seen - read) / Double(seen)
        print("scanner seed 2: \(lost * 100)% of the ideal readings lost")
        // Shadows, grazing faces and dark faces cost several per cent; dropouts alone 0.1%.
        #expect(lost > 0.002 && lost < 0.2, "lost \(lost)")
    }

    /// The noisy, quantised frame's labels against those of the same scanner without noise,
    /// steps or dropouts (the same shadows and hard grazing cut; dark faces and the grazing
    /// falloff, which lose whole shares of a face, are off in both and tested apart), scored like
    /// a detection: they differ only where a reading dropped out, so every face of 300 pixels or
    /// more is recovered.
    @Test(arguments: [UInt64(1), 2, 3])
    func labelsScoreAgainstTheNoiselessFrame(seed: UInt64) throws {
        var scanner = SimulatedSensor.scanner
        scanner.darkSurfaces = nil
        scanner.grazing = nil
        var noiseless = scanner
        noiseless.noise = .none
        noiseless.dropoutRate = 0
        noiseless.depthStep = 0
        let frame = SyntheticFrame(seed: seed, sensor: scanner), reference = SyntheticFrame(seed: seed, sensor: noiseless)
        let differing = frame.labels.indices.filter { frame.labels[$0] != reference.labels[$0] }
        #expect(differing.allSatisfy { frame.labels[$0] == 0 && !frame.cloud.points[$0].isFinite })
        #expect(differing.count < 500, "\(differing.count) labels differ")
        let score = try SegmentationScore(detected: frame.labels, truth: reference.labels, width: 512, height: 512,
                                          minimumTruePixels: 300)
        #expect(score.trueLabels.count >= 10)
        #expect(score.recall == 1 && score.precision == 1, "missed \(score.missedTrueLabels)")
    }

    @Test func pinholeScannerHasIntrinsicsAndTheSameScene() {
        let frame = SyntheticFrame(seed: 1, sensor: .scannerPinhole)
        #expect(frame.cloud.intrinsics?.fx == 1250)
        #expect(ProfileChecks.faceSizes(frame, minimum: 100).count >= 8)
    }
}

/// Polygon faces and the polyhedral solids built from them.
@Suite struct PolyhedralFaceTests {
    @Test func triangleFaceContainsOnlyItsInside() {
        let face = TruePlane(id: 1, kind: .other, vertices: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 1)], normal: SIMD3(0, 1, 0))
        #expect(abs(face.area - 0.5) < 1e-6)
        #expect(face.contains(SIMD3(0.2, 0, 0.2)))
        #expect(!face.contains(SIMD3(0.8, 0, 0.8)))
        #expect(face.corners.count == 3)
        #expect(abs(face.plane.signedDistance(to: SIMD3(0.3, 0.5, 0.3)) - 0.5) < 1e-6)
    }

    @Test(arguments: [
        (TabletopSolid.Shape.box, 5), (.wedge(ridge: 0.3), 4), (.wedge(ridge: -1), 4),
        (.steppedBlock(step: 0.2, lower: 0.5), 7), (.pyramid(apex: SIMD2(0.2, -0.1)), 4),
        (.frustum(top: 0.5, offset: SIMD2(0.1, 0.1)), 5),
    ])
    func solidFacesArePlanarAndPointOutward(shape: TabletopSolid.Shape, count: Int) {
        let turn = Transform(rotation: Quaternion(angle: 0.7, axis: SIMD3(0, 1, 0)), translation: SIMD3(0.1, 0, -0.05))
        let solid = TabletopSolid(shape: shape, size: SIMD3(0.2, 0.1, 0.15), transform: turn)
        let faces = solid.faces
        #expect(faces.count == count)
        // A point just outside each face's first vertex along its normal is outside the solid:
        // the base's centre (inside or on every solid) lies behind every face.
        let baseCentre = turn.apply(toPoint: SIMD3(0, 0.001, 0))
        for face in faces {
            for p in face.vertices { #expect(abs(dot(p - face.vertices[0], face.normal)) < 1e-5) }
            #expect(dot(face.vertices[0] - baseCentre, face.normal) >= -1e-5)
        }
    }
}
