import PlaneKitGeometry
import Testing

@Suite("OrientedBox")
struct OrientedBoxTests {
    /// A 2 m cube centred on (0, 0, 5), turned 45° about +Y: local X → (√½, 0, −√½),
    /// local Z → (√½, 0, √½). Seen from above it is a diamond |x| + |z − 5| ≤ √2.
    let box = OrientedBox(
        transform: Transform(rotation: Matrix3(SIMD3(halfRoot2, 0, -halfRoot2), SIMD3(0, 1, 0), SIMD3(halfRoot2, 0, halfRoot2)),
                             translation: SIMD3(0, 0, 5)),
        size: SIMD3(2, 2, 2))

    func ray(_ origin: SIMD3<Float>, _ direction: SIMD3<Float>) throws -> Ray {
        try #require(Ray(origin: origin, direction: direction))
    }

    @Test func sizeAndCentre() {
        #expect(box.halfExtents == SIMD3(1, 1, 1))
        #expect(box.size == SIMD3(2, 2, 2))
        #expect(box.center == SIMD3(0, 0, 5))
        #expect(box.localBox == AxisAlignedBox(minimum: SIMD3(-1, -1, -1), maximum: SIMD3(1, 1, 1)))
        // Negative sizes are taken by magnitude.
        let flipped = OrientedBox(transform: .identity, size: SIMD3(-2, 4, -6))
        #expect(flipped.halfExtents == SIMD3(1, 2, 3))
    }

    @Test func rayHitsOnTheRotatedBox() throws {
        // Along +Z at x = 0.5: the diamond's near side is at z − 5 = −(√2 − 0.5) = −0.9142136,
        // so t = 5 − 0.9142136 = 4.0857864.
        expectClose(box.intersection(with: try ray(SIMD3(0.5, 0, 0), SIMD3(0, 0, 1))), 4.0857864, tolerance: 1e-5)
        // At x = 1.2 the unturned cube (half-width 1) would be missed; the diamond reaches
        // |x| ≤ √2: z − 5 = −(1.4142136 − 1.2) → t = 4.7857864.
        expectClose(box.intersection(with: try ray(SIMD3(1.2, 0, 0), SIMD3(0, 0, 1))), 4.7857864, tolerance: 1e-5)
        // Along +X at z = 5.5 from x = −10: enters at x = −(√2 − 0.5), t = 10 − 0.9142136.
        expectClose(box.intersection(with: try ray(SIMD3(-10, 0, 5.5), SIMD3(1, 0, 0))), 9.0857864, tolerance: 1e-5)
        // Straight down onto the top face (y = 1) from y = 5: t = 4.
        expectClose(box.intersection(with: try ray(SIMD3(0, 5, 5), SIMD3(0, -1, 0))), 4, tolerance: 1e-5)
        // Along the diagonal (1,0,1)/√2 from (−2, 0, 3): that is the box's local +Z axis, entering
        // the face z_local = −1 when the distance to the centre, 2√2 = 2.8284271, drops to 1.
        expectClose(box.intersection(with: try ray(SIMD3(-2, 0, 3), SIMD3(1, 0, 1))), 1.8284271, tolerance: 1e-5)
    }

    @Test func rayMissesAndInsideHits() throws {
        // Beyond the diamond's tip at |x| = √2.
        #expect(box.intersection(with: try ray(SIMD3(1.5, 0, 0), SIMD3(0, 0, 1))) == nil)
        // Above the box.
        #expect(box.intersection(with: try ray(SIMD3(-10, 1.5, 5), SIMD3(1, 0, 0))) == nil)
        // Pointing away.
        #expect(box.intersection(with: try ray(SIMD3(0, 0, 0), SIMD3(0, 0, -1))) == nil)
        // From inside.
        #expect(box.intersection(with: try ray(SIMD3(0.3, 0.2, 5.1), SIMD3(1, 1, 1))) == 0)
    }

    @Test func containsFollowsTheRotation() {
        #expect(box.contains(SIMD3(0, 0, 5)))
        #expect(box.contains(SIMD3(1.3, 0, 5)))     // |1.3| ≤ √2: inside the diamond
        #expect(!box.contains(SIMD3(1, 0, 6)))      // |1| + |1| = 2 > √2, though inside the unturned cube
        #expect(box.contains(SIMD3(0.5, 0, 5.5)))   // 0.5 + 0.5 = 1 ≤ √2
        #expect(box.contains(SIMD3(0, 1, 5)))       // on the top face
        #expect(!box.contains(SIMD3(0, 1.01, 5)))
        #expect(!box.contains(SIMD3(0, 0, 6.5)))    // beyond the far tip at 5 + √2
    }

    @Test func corners() {
        // Local (sx, sy, sz) → (√½(sx + sz), sy, 5 + √½(sz − sx)), z fastest, x slowest.
        let expected: [SIMD3<Float>] = [
            SIMD3(-root2, -1, 5), SIMD3(0, -1, 5 + root2), SIMD3(-root2, 1, 5), SIMD3(0, 1, 5 + root2),
            SIMD3(0, -1, 5 - root2), SIMD3(root2, -1, 5), SIMD3(0, 1, 5 - root2), SIMD3(root2, 1, 5),
        ]
        let corners = box.corners
        #expect(corners.count == 8)
        for (corner, want) in zip(corners, expected) {
            expectClose(corner, want)
        }
    }

    @Test func axisAlignedBounds() {
        let bounds = box.axisAlignedBounds
        expectClose(bounds.minimum, SIMD3(-root2, -1, 5 - root2))
        expectClose(bounds.maximum, SIMD3(root2, 1, 5 + root2))
        // Unrotated: the box itself.
        let plain = OrientedBox(transform: Transform(translation: SIMD3(1, 2, 3)), size: SIMD3(2, 4, 6))
        #expect(plain.axisAlignedBounds == AxisAlignedBox(minimum: SIMD3(0, 0, 0), maximum: SIMD3(2, 4, 6)))
    }
}
