import Crypto
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
@testable import PlaneKitShare
import PlaneKitMaps
import Testing
import PlaneKitPlanes

/// The pointer's and the host's anchors' messages and the attitude datagram, decoded defensively.
@Suite("Shared spaces: pointer and anchor messages, attitude datagrams")
struct PointerWireTests {
    /// A 2 m × 1 m floor patch, 4 outline vertices and 2 covered cells.
    static let anchor: WorldMap.Anchor = {
        let plane = DetectedPlane(label: 0, plane: Plane(unitNormal: SIMD3(0, 1, 0), offset: 0), centroid: SIMD3(1, 0, -2),
                                  transform: Transform(rotation: Quaternion(angle: 0, axis: SIMD3(0, 1, 0)), translation: SIMD3(1, 0, -2)),
                                  extent: PlaneExtent(center: .zero, width: 2, length: 1),
                                  boundary: Polygon2D([SIMD2(-1, -0.5), SIMD2(1, -0.5), SIMD2(1, 0.5), SIMD2(-1, 0.5)]),
                                  pointCount: 1200, area: 2, rmsError: 0.004, alignment: .horizontal, classification: .floor)
        return WorldMap.Anchor(identifier: PlaneIdentifier(7), plane: plane, gridFrame: plane.transform, cellSize: 0.05,
                               cellRuns: [WorldMap.CellRun(row: 0, column: -1, count: 2)], support: PointMoments(),
                               firstFrame: 3, lastSeenFrame: 40, observationCount: 30)
    }()

    static let messages: [ShareMessage] = [
        .hello(name: "phone", role: .pointer),
        .hello(name: "wall screen", role: .observer),
        .pointerPlacement(peer: 4, origin: SIMD3(0, 1.4, 0), forward: SIMD3(0, 0, -1)),
        .planeAnchor(anchor),
        .planeAnchorRemoved(PlaneIdentifier(7)),
    ]

    @Test func newMessagesRoundTripAndEveryTruncationIsRefused() throws {
        var refused = 0, total = 0
        for message in Self.messages {
            let body = try ShareWireTests.body(message)
            #expect(try ShareWire.decode(body) == message)
            for cut in 0..<body.count {
                total += 1
                if (try? ShareWire.decode(Array(body[..<cut]))) == nil { refused += 1 }
            }
        }
        #expect(total > 300)
        #expect(refused == total)
    }

    @Test func badValuesAndOversizedCountsAreRefused() throws {
        // An unknown role (the byte after the name).
        var hello = try ShareWireTests.body(.hello(name: "phone", role: .pointer))
        hello[hello.count - 1] = 9
        #expect(throws: ShareError.self) { try ShareWire.decode(hello) }
        // A vertical or zero forward, a NaN or far-away origin.
        for (origin, forward) in [(SIMD3<Float>(0, 0, 0), SIMD3<Float>(0, 0, 0)), (SIMD3(.nan, 0, 0), SIMD3(0, 0, -1)),
                                  (SIMD3(0, 2e6, 0), SIMD3(0, 0, -1))] {
            #expect(throws: ShareError.self) {
                try ShareWire.decode(try ShareWireTests.body(.pointerPlacement(peer: 1, origin: origin, forward: forward)))
            }
        }
        // The outline's vertex count (before 4 vertices of 8 bytes and the run count, then 1 run of 6) claiming 4 G and 65 537.
        let body = try ShareWireTests.body(.planeAnchor(Self.anchor))
        let at = body.count - 6 - 4 - 32 - 4
        #expect(Array(body[at..<at + 4]) == [4, 0, 0, 0])
        for claim: [UInt8] in [[0xFF, 0xFF, 0xFF, 0xFF], [1, 0, 1, 0], [5, 0, 0, 0]] {
            var oversized = body
            oversized.replaceSubrange(at..<at + 4, with: claim)
            #expect(throws: ShareError.self) { try ShareWire.decode(oversized) }
        }
        // A non-unit normal; anchor identifier 0.
        var tilted = Self.anchor
        tilted.plane.plane = Plane(unitNormal: SIMD3(0, 2, 0), offset: 0)
        #expect(throws: ShareError.self) { try ShareWire.decode(try ShareWireTests.body(.planeAnchor(tilted))) }
        #expect(throws: ShareError.self) { try ShareWire.decode(try ShareWireTests.body(.planeAnchorRemoved(PlaneIdentifier(0)))) }
    }

    @Test func garbageBodiesAreRefusedNotCrashed() {
        // Deterministic pseudo-random bodies behind each new type byte.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var refused = 0
        for k in 0..<600 {
            var body: [UInt8] = [ShareLimits.version, UInt8(12 + k % 3)]
            for _ in 0..<(k % 97) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                body.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            if (try? ShareWire.decode(body)) == nil { refused += 1 }
        }
        // A random 14-byte tail can be a valid removal (type 14, any identifier but 0): only those pass.
        #expect(refused >= 595)
    }

    @Test func attitudesAreSealedAndNotTakenForPoses() throws {
        let key = SymmetricKey(size: .bits256)
        let attitude = AttitudeDatagram(sender: 5, sequence: 9, timestamp: 12.25, orientation: Quaternion(angle: 0.4, axis: SIMD3(1, 0, 0)))
        let sealed = try attitude.sealed(with: key)
        #expect(sealed.count == AttitudeDatagram.length)
        #expect(sealed[1] == 2)
        let opened = try AttitudeDatagram.open(sealed, with: key)
        #expect(opened.sender == 5 && opened.sequence == 9 && opened.timestamp == 12.25)
        #expect(abs((opened.orientation.vector * attitude.orientation.vector).sum()) > 0.999_999)
        var refused = 0
        for i in 0..<sealed.count {
            var tampered = sealed
            tampered[i] ^= 0x01
            if (try? AttitudeDatagram.open(tampered, with: key)) == nil { refused += 1 }
        }
        #expect(refused == sealed.count)
        #expect((try? AttitudeDatagram.open(sealed, with: SymmetricKey(size: .bits256))) == nil)
        #expect((try? AttitudeDatagram.open(Array(sealed.dropLast()), with: key)) == nil)
        // A pose is not an attitude and the other way round, even under the same key.
        let pose = try PoseDatagram(sender: 5, sequence: 9, timestamp: 1, transform: .identity).sealed(with: key)
        #expect((try? AttitudeDatagram.open(pose, with: key)) == nil)
        #expect((try? PoseDatagram.open(sealed, with: key)) == nil)
        // An authentic datagram whose quaternion is not a rotation is invalid, not accepted.
        let zero = AttitudeDatagram(sender: 5, sequence: 10, timestamp: 13, orientation: Quaternion(x: 0, y: 0, z: 0, w: 0))
        #expect(throws: PoseDatagram.Problem.invalid) { try AttitudeDatagram.open(try zero.sealed(with: key), with: key) }
    }

    @Test func aPointerHitsTheFloorAndMergedHitsAreReportedOnce() throws {
        // A user at 1.4 m calibrated facing −Z, the phone's top edge tilted 45° down.
        var caster = PointerCaster()
        let vertical = caster.place("phone", origin: .zero, forward: SIMD3(0, 1, 0))
        let placed = caster.place("phone", origin: SIMD3(1, 1.4, -0.6), forward: SIMD3(0, 0, -1))
        #expect(!vertical && placed)
        let floor = HitTester(planes: [HitTestPlane(identifier: Self.anchor.identifier, plane: Self.anchor.plane)])
        let attitude = Quaternion(angle: -.pi / 4, axis: SIMD3(1, 0, 0))
        let twice = caster.cast("phone", attitude: attitude) { ray in
            PointerCaster.merged(floor.hitTest(ray, targets: .existingPlaneGeometry), floor.hitTest(ray, targets: .existingPlaneGeometry))
        }
        let cast = try #require(twice)
        #expect(cast.hits.count == 1)
        let hit = try #require(cast.hits.first)
        // 1.4 m down at 45°: 1.4 m ahead along −Z.
        #expect(distance(hit.position, SIMD3(1, 0, -2)) < 0.02, "\(hit.position)")
        let unplaced = caster.cast("tablet", attitude: attitude) { _ in [] }
        #expect(unplaced == nil)
    }
}
