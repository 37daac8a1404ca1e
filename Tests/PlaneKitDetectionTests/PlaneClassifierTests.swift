import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// Classification of hand-described planes in a world with +Y up and the sensor at 1.5 m.
@Suite struct PlaneClassifierTests {
    let up = SIMD3<Float>(0, 1, 0)
    let sensor = SIMD3<Float>(0, 1.5, 0)

    /// A described rectangle: centre, normal (facing the sensor), and two in-plane half sizes.
    func rectangle(center: SIMD3<Float>, normal: SIMD3<Float>, halfU: Float, halfV: Float) throws -> DetectedPlane {
        let plane = try #require(Plane(point: center, normal: normal))
        let u = plane.normal.anyPerpendicular, v = cross(plane.normal, u)
        var points: [SIMD3<Float>] = []
        for i in stride(from: -halfU, through: halfU, by: 0.02) {
            for j in stride(from: -halfV, through: halfV, by: 0.02) { points.append(center + i * u + j * v) }
        }
        return try #require(PlaneDescriber(up: up).describe(label: 1, plane: plane, points: points))
    }

    func classify(_ planes: [DetectedPlane]) -> [PlaneClassification] {
        var planes = planes
        PlaneClassifier().classify(&planes, up: up, sensor: sensor)
        return planes.map(\.classification)
    }

    @Test func namesARoom() throws {
        let planes = [
            try rectangle(center: SIMD3(0, 0, 3), normal: up, halfU: 1.5, halfV: 1.5),            // floor
            try rectangle(center: SIMD3(0, 0.75, 2), normal: up, halfU: 0.6, halfV: 0.4),         // table
            try rectangle(center: SIMD3(1, 0.45, 2), normal: up, halfU: 0.2, halfV: 0.2),         // seat
            try rectangle(center: SIMD3(0, 2.6, 3), normal: -up, halfU: 1.5, halfV: 1.5),         // ceiling
            try rectangle(center: SIMD3(0, 1.3, 5), normal: SIMD3(0, 0, -1), halfU: 1.2, halfV: 1.2), // wall
            try rectangle(center: SIMD3(-1, 0.2, 2), normal: SIMD3(0, 0, -1), halfU: 0.15, halfV: 0.15), // box side
            try rectangle(center: SIMD3(0, 1.4, 2), normal: up, halfU: 0.3, halfV: 0.3),          // shelf 1.4 m up
            try rectangle(center: SIMD3(0, 0.5, 2.5), normal: normalize(SIMD3(0, 1, -1)), halfU: 0.4, halfV: 0.4), // ramp
        ]
        #expect(classify(planes) == [.floor, .table, .seat, .ceiling, .wall, .none, .none, .none])
        #expect(PlaneClassifier().floorIndex(of: planes, up: up) == 0)
    }

    @Test func theFloorIsTheLowestLargeUpFacingPlane() throws {
        let bigTable = try rectangle(center: SIMD3(0, 0.9, 2), normal: up, halfU: 0.8, halfV: 0.8)  // 2.6 m²
        let floorPatch = try rectangle(center: SIMD3(0, 0, 2), normal: up, halfU: 0.3, halfV: 0.3)   // 0.4 m²
        // The floor patch is too small to be the floor, so the big table is taken for it and
        // nothing is a table.
        #expect(classify([bigTable, floorPatch]) == [.floor, .none])
        let floor = try rectangle(center: SIMD3(0, 0, 2), normal: up, halfU: 1, halfV: 1)
        #expect(classify([bigTable, floor]) == [.table, .floor])
    }

    @Test func withoutAFloorOnlyCeilingsAndWallsAreNamed() throws {
        let table = try rectangle(center: SIMD3(0, 0.75, 2), normal: up, halfU: 0.4, halfV: 0.4)
        let ceiling = try rectangle(center: SIMD3(0, 2.5, 3), normal: -up, halfU: 1, halfV: 1)
        let lowUnderside = try rectangle(center: SIMD3(0, 1.7, 2), normal: -up, halfU: 1, halfV: 1)
        let wall = try rectangle(center: SIMD3(0, 1.3, 5), normal: SIMD3(0, 0, -1), halfU: 1, halfV: 1)
        #expect(classify([table, ceiling, lowUnderside, wall]) == [.none, .ceiling, .none, .wall])
    }
}
