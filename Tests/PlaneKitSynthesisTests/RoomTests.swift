import Foundation
import PlaneKitGeometry
import PlaneKitSynthesis
import Testing

@Suite struct SyntheticRoomTests {
    @Test func sameSeedGivesTheSameRoomAndDifferentSeedsDifferentRooms() {
        #expect(SyntheticRoom(seed: 11) == SyntheticRoom(seed: 11))
        let rooms = (0..<20).map { SyntheticRoom(seed: UInt64($0)) }
        #expect(Set(rooms.map(\.size)).count == 20)
        #expect(Set(rooms.map { $0.planes.count }).count > 3)
    }

    @Test func roomsHaveTheSpecifiedSizesAndFurniture() {
        var tables = 0, boxes = 0, clutter = 0, rotatedBoxes = 0
        for seed in 0..<100 as Range<UInt64> {
            let room = SyntheticRoom(seed: seed)
            #expect((3...7).contains(room.size.x) && (3...7).contains(room.size.z))
            #expect((2.4...3.0).contains(room.size.y))
            #expect(room.tables.count <= 3 && room.boxes.count <= 4 && room.clutter.count <= 3)
            #expect(room.planes.count == 6 + 5 * (room.tables.count + room.boxes.count))
            #expect(room.planes.enumerated().allSatisfy { Int($0.element.id) == $0.offset + 1 })
            #expect(room.planes.filter { $0.kind == .floor }.count == 1)
            #expect(room.planes.filter { $0.kind == .ceiling }.count == 1)
            #expect(room.planes.filter { $0.kind == .wall }.count == 4)
            for table in room.tables {
                #expect((0.7...0.8).contains(table.size.y))
                #expect(abs(table.center.y - table.size.y / 2) < 1e-5)
            }
            for top in room.planes where top.kind == .tableTop {
                #expect((0.7...0.8).contains(top.center.y))
                #expect(top.plane.normal.isApproximatelyEqual(to: SIMD3(0, 1, 0)))
            }
            for box in room.boxes {
                #expect(box.size.min() >= 0.2 && box.size.max() <= 0.8)
                #expect(abs(box.center.y - box.size.y / 2) < 1e-5)
                #expect(box.transform.yAxis.isApproximatelyEqual(to: SIMD3(0, 1, 0)))
                if abs(box.transform.xAxis.x) < 0.999 { rotatedBoxes += 1 }
            }
            tables += room.tables.count
            boxes += room.boxes.count
            clutter += room.clutter.count
            // Every object stands inside the room, clear of the walls and of each other.
            let solids = room.tables + room.boxes
            for (i, a) in solids.enumerated() {
                for corner in a.corners {
                    #expect(abs(corner.x) < room.size.x / 2 - 0.2 && abs(corner.z) < room.size.z / 2 - 0.2)
                }
                for b in solids[(i + 1)...] {
                    #expect(!footprintsOverlap(a, b))
                }
            }
        }
        // Over 100 rooms every kind of content turns up in quantity.
        #expect(tables > 60 && boxes > 100 && clutter > 60 && rotatedBoxes > 30)
    }

    @Test func facesHaveOutwardNormalsAndMatchingGeometry() {
        let room = (0..<50 as Range<UInt64>).lazy.map { SyntheticRoom(seed: $0) }.first { $0.tables.count >= 2 && $0.boxes.count >= 2 }!
        let centre = SIMD3(0, room.size.y / 2, 0)
        for plane in room.planes {
            // Corners lie on the plane, the outline's area is the face's.
            for corner in plane.corners { #expect(abs(plane.plane.signedDistance(to: corner)) < 1e-5) }
            #expect(abs(plane.outline.area - plane.area) < 1e-4)
            switch plane.kind {
            case .floor, .ceiling, .wall:
                // Room faces point into the room.
                #expect(plane.plane.signedDistance(to: centre) > 0.5)
            default:
                // Object faces (five per table, then five per box, in order) point away from
                // their object's centre, and the first of each five is the top.
                let objectIndex = (Int(plane.id) - 7) / 5
                let owner = (room.tables + room.boxes)[objectIndex]
                #expect(plane.plane.signedDistance(to: owner.center) < -0.05)
                #expect(((Int(plane.id) - 7) % 5 == 0) == plane.kind.isHorizontal)
                #expect(plane.kind == (objectIndex < room.tables.count ? (plane.kind.isHorizontal ? .tableTop : .tableSide)
                                                                         : (plane.kind.isHorizontal ? .boxTop : .boxSide)))
            }
        }
    }

    @Test func randomPosesAreInsideTheRoomAtTheSpecifiedHeightAndPitch() {
        for seed in 0..<50 as Range<UInt64> {
            let room = SyntheticRoom(seed: seed)
            let pose = room.randomCameraPose(seed: seed)
            #expect(pose.rotation.isRotation())
            #expect((1.0...1.8).contains(pose.translation.y))
            #expect(room.isFree(pose.translation, margin: 0.29))
            // No roll: the image's X axis stays horizontal. Pitch down 0–40°.
            #expect(abs(pose.xAxis.y) < 1e-5)
            let pitch = asin(-pose.zAxis.y) * 180 / .pi
            #expect(pitch >= -1e-3 && pitch <= 40.001)
        }
        let a = SyntheticRoom(seed: 9)
        #expect(a.randomCameraPose(seed: 1) == a.randomCameraPose(seed: 1))
        #expect(a.randomCameraPose(seed: 1) != a.randomCameraPose(seed: 2))
    }

    @Test func scenesRoundTripThroughJSON() throws {
        let room = SyntheticRoom(seed: 8)
        let data = try JSONEncoder().encode(room.scene)
        let decoded = try JSONDecoder().decode(SyntheticScene.self, from: data)
        #expect(decoded == room.scene)
    }

    @Test func emptyOptionsGiveABareRoom() {
        let room = SyntheticRoom(seed: 5, options: .empty)
        #expect(room.planes.count == 6 && room.tables.isEmpty && room.boxes.isEmpty && room.clutter.isEmpty)
    }

    /// Separating-axis test on the two footprints in the floor plane.
    private func footprintsOverlap(_ a: OrientedBox, _ b: OrientedBox) -> Bool {
        func corners(_ box: OrientedBox) -> [SIMD2<Float>] { box.corners.map { SIMD2($0.x, $0.z) } }
        let ca = corners(a), cb = corners(b)
        let axes = [a.transform.xAxis, a.transform.zAxis, b.transform.xAxis, b.transform.zAxis].map { SIMD2($0.x, $0.z) }
        for n in axes {
            let pa = ca.map { dot($0, n) }, pb = cb.map { dot($0, n) }
            if pa.max()! < pb.min()! || pb.max()! < pa.min()! { return false }
        }
        return true
    }
}
