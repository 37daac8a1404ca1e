import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitSynthesis
import PlaneKitAnchors
import Testing
import PlaneKitSyntheticWalks

/// Grades identifier stability (issue 5) on one generated sequence: which anchor identifiers
/// each true surface was given over the sequence.
///
/// Per frame, each detected region is mapped to the true surface holding the majority of its
/// pixels (at least ``minimumOverlap`` of them). A true surface is *seen* in a frame when it
/// covers at least ``minimumSurfacePixels`` pixels and some detected region maps to it; it is
/// *graded* when seen in at least ``minimumFrames`` frames. In the frames it is seen, it collects
/// the identifiers of the anchors its regions went to (``Session/latestAssignments``; a region
/// that went to a candidate not confirmed yet names none), and it must end with exactly one: a
/// surface seen well but never announced is a violation too.
///
/// Merges: when anchor B is merged into A (a `planeRemoved` event with `mergedInto == A`), B's
/// frames count for A — the survivor carries the surface on, as ARKit's anchors do — so every
/// collected identifier is resolved through the chain of merges before counting.
struct IdentifierStability: Sendable {
    static let minimumSurfacePixels = 3000
    static let minimumFrames = 5
    static let minimumOverlap = 500

    /// One graded true surface.
    struct Surface: Sendable, CustomStringConvertible {
        var label: UInt16
        var kind: SurfaceKind
        var framesSeen: Int
        /// Resolved identifiers (after merges) it was given.
        var identifiers: Set<PlaneIdentifier>
        var description: String {
            "\(label) \(kind) ×\(framesSeen) → \(identifiers.sorted().map(\.description).joined(separator: ","))"
        }
    }

    var surfaces: [Surface] = []
    var violations: [String] = []
    /// Plane events over the sequence: what an app drawing the anchors sees.
    var added = 0, updated = 0, removed = 0
    /// Anchors removed within 10 frames of being added: flicker.
    var shortLived = 0
    /// Anchors alive after the last frame.
    var alive = 0

    /// Runs a fresh session over `sequence` and grades it.
    init(sequence: SyntheticSequence) throws {
        var session = Session()
        var seen: [UInt16: (frames: Int, identifiers: Set<PlaneIdentifier>)] = [:]
        var mergedInto: [PlaneIdentifier: PlaneIdentifier] = [:]
        var trueCount = [Int](repeating: 0, count: 65536)
        var addedIn: [PlaneIdentifier: Int] = [:]
        for frame in sequence {
            let events = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose,
                                            timestamp: frame.timestamp)
            for event in events {
                switch event.kind {
                case .planeAdded(let anchor):
                    added += 1
                    addedIn[anchor.identifier] = event.frame
                case .planeUpdated: updated += 1
                case .planeRemoved(let anchor):
                    removed += 1
                    if let frame = addedIn[anchor.identifier], event.frame - frame < 10 { shortLived += 1 }
                    if let keeper = event.mergedInto { mergedInto[anchor.identifier] = keeper }
                default: break
                }
            }
            let detection = try #require(session.latestDetection)
            let regions = detection.planes.count
            // overlap[d][t] for the true labels present; true labels are small integers.
            var overlap: [[UInt16: Int]] = Array(repeating: [:], count: regions + 1)
            var regionSize = [Int](repeating: 0, count: regions + 1)
            for i in trueCount.indices where trueCount[i] != 0 { trueCount[i] = 0 }
            frame.labels.withUnsafeBufferPointer { truth in
                detection.labels.withUnsafeBufferPointer { detected in
                    for i in 0..<truth.count {
                        let t = truth[i], d = Int(detected[i])
                        trueCount[Int(t)] += 1
                        guard d > 0 else { continue }
                        regionSize[d] += 1
                        if t != 0 { overlap[d][t, default: 0] += 1 }
                    }
                }
            }
            var thisFrame: [UInt16: Set<PlaneIdentifier>] = [:]
            for d in 1...max(regions, 1) where d <= regions {
                guard let (t, count) = overlap[d].max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
                      2 * count > regionSize[d], count >= Self.minimumOverlap,
                      trueCount[Int(t)] >= Self.minimumSurfacePixels else { continue }
                // A region that went to a candidate (not confirmed yet) names no anchor, but the
                // surface was seen.
                thisFrame[t, default: []].formUnion(session.latestAssignments[d - 1].map { [$0] } ?? [])
            }
            for (t, names) in thisFrame {
                seen[t, default: (0, [])].frames += 1
                seen[t, default: (0, [])].identifiers.formUnion(names)
            }
        }

        alive = session.planes.count
        func resolve(_ id: PlaneIdentifier) -> PlaneIdentifier {
            var id = id
            while let next = mergedInto[id] { id = next }
            return id
        }
        let truth = Dictionary(uniqueKeysWithValues: sequence.room.planes.map { ($0.id, $0) })
        for (label, record) in seen.sorted(by: { $0.key < $1.key }) where record.frames >= Self.minimumFrames {
            let surface = Surface(label: label, kind: truth[label]?.kind ?? .floor, framesSeen: record.frames,
                                  identifiers: Set(record.identifiers.map(resolve)))
            surfaces.append(surface)
            if surface.identifiers.count != 1 {
                violations.append("surface \(label) (\(surface.kind)) had \(surface.identifiers.count) identifiers: \(surface)")
            }
            for name in surface.identifiers where session.plane(name) == nil {
                violations.append("surface \(label)'s \(name) is gone at the last frame")
            }
        }
        // No identifier may stand for two true surfaces unless they are one coplanar, touching sheet.
        var owners: [PlaneIdentifier: [UInt16]] = [:]
        for surface in surfaces { for name in surface.identifiers { owners[name, default: []].append(surface.label) } }
        for (name, labels) in owners.sorted(by: { $0.key < $1.key }) where labels.count > 1 {
            for (k, a) in labels.enumerated() {
                for b in labels[(k + 1)...] {
                    guard let x = truth[a], let y = truth[b], Self.coplanarAndTouching(x, y) else {
                        violations.append("\(name) stands for surfaces \(a) and \(b)")
                        continue
                    }
                }
            }
        }
    }

    /// `true` when two true rectangles lie in one plane (normals within 1°, 1 cm apart) and
    /// touch or overlap (within 2 cm), like a floor split in two by a box.
    static func coplanarAndTouching(_ x: TruePlane, _ y: TruePlane) -> Bool {
        guard dot(x.plane.normal, y.plane.normal) >= 0.99985,   // cos 1°
              abs(x.plane.signedDistance(to: y.center)) <= 0.01 else { return false }
        // Separating-axis test of the two rectangles, in x's plane, grown by 1 cm each.
        let axes = [x.frame.xAxis, x.frame.zAxis, y.frame.xAxis, y.frame.zAxis]
        for axis in axes {
            func span(_ r: TruePlane) -> ClosedRange<Float> {
                let values = r.corners.map { dot($0, axis) }
                return (values.min()! - 0.01)...(values.max()! + 0.01)
            }
            if !span(x).overlaps(span(y)) { return false }
        }
        return true
    }
}

@Suite("Identifier stability")
struct IdentifierStabilityTests {
    /// Furnished rooms: 1–3 tables and 2–4 boxes, no curved clutter (nothing to grade on it).
    static var furnished: SyntheticRoom.Options {
        var o = SyntheticRoom.Options()
        o.tableCount = 1...3
        o.boxCount = 2...4
        o.clutterCount = 0...0
        return o
    }

    /// Rooms graded on every run, 135 frames each: seeds 1–80 but the room of
    /// ``knownIdentifierFailures()``. Among them 11 and 43 broke the rule before association
    /// tested covered cells, gaps could be bridged and the angle tolerance followed the fits'
    /// noise; 2, 8, 14 and 44 until floor pieces under a carried camera merged; 75 until a table
    /// top first seen edge-on (a strip thinner than a cell) kept covered ground to be found by;
    /// 71 (a table top turned 60° whose far corner and the rest were seen apart, 0.18 m between
    /// them under the camera) until a fragment within 25 cm of an anchor whose points lie on its
    /// plane joined it.
    static let seeds: [UInt64] = (1...80).filter { $0 != 10 }
    static let frameCount = 135

    /// Grades each seed's sequence of `frameCount` frames in its own session, concurrently.
    static func grade(seeds: [UInt64], frameCount: Int) async throws -> [(UInt64, IdentifierStability)] {
        let grades = try await withThrowingTaskGroup(of: (UInt64, IdentifierStability).self) { group in
            for seed in seeds {
                group.addTask {
                    let sequence = SyntheticSequence(seed: seed, frameCount: frameCount, roomOptions: Self.furnished)
                    return (seed, try IdentifierStability(sequence: sequence))
                }
            }
            var all: [(UInt64, IdentifierStability)] = []
            for try await result in group { all.append(result) }
            return all.sorted { $0.0 < $1.0 }
        }
        for (seed, grade) in grades {
            let perSurface = grade.surfaces.map(\.identifiers.count)
            print("seed \(seed): \(grade.surfaces.count) graded surfaces, identifiers per surface \(perSurface), violations \(grade.violations.count); planeAdded \(grade.added), planeUpdated \(grade.updated), planeRemoved \(grade.removed) (\(grade.shortLived) within 10 frames of being added), alive at end \(grade.alive)")
            if !grade.violations.isEmpty { for surface in grade.surfaces { print("  \(surface)") } }
            for violation in grade.violations { print("  VIOLATION \(violation)") }
        }
        return grades
    }

    /// On many furnished rooms, each true surface seen well keeps one identifier from its first
    /// sighting to the last frame, that identifier survives, and no identifier stands for two
    /// surfaces.
    @Test func eachTrueSurfaceKeepsOneIdentifierAcrossRooms() async throws {
        let grades = try await Self.grade(seeds: Self.seeds, frameCount: Self.frameCount)
        for (seed, grade) in grades {
            #expect(grade.violations.isEmpty, "seed \(seed)")
            #expect(grade.surfaces.count >= 3, "seed \(seed)")
        }
        let total = grades.map(\.1.surfaces.count).reduce(0, +)
        print("graded \(grades.count) rooms, \(total) surfaces, \(grades.filter(\.1.violations.isEmpty).count) rooms without violations")
        func sum(_ figure: (IdentifierStability) -> Int) -> Int { grades.map { figure($0.1) }.reduce(0, +) }
        print("events over the rooms: planeAdded \(sum(\.added)), planeUpdated \(sum(\.updated)), planeRemoved \(sum(\.removed)) (\(sum(\.shortLived)) within 10 frames of being added); anchors alive at the end \(sum(\.alive))")
        // An app drawing the anchors sees few that do not last: 635 announced for 625 alive at
        // the end (649 for 633 before candidates had to be confirmed).
        #expect(sum(\.added) * 100 <= sum(\.alive) * 103)
        #expect(total >= 590)
    }

    /// Seeds 31 and 37 over 150 frames: in seed 31 a floor patch first seen at frame 146 behind a
    /// box must join the floor's anchor (the gap is hidden by the box), and in seed 37 two box tops
    /// 3.2 cm apart in height and ~0.3 m apart sideways, whose covered rectangles overlap but
    /// cells do not, must keep their own anchors.
    @Test func longerWalksOfSeeds31And37() async throws {
        let grades = try await Self.grade(seeds: [31, 37], frameCount: 150)
        #expect(grades.map(\.1.surfaces.count) == [7, 14])
        for (seed, grade) in grades { #expect(grade.violations.isEmpty, "seed \(seed)") }
    }

    /// The room of seeds 1–80 (135 frames) where the tracker still breaks the rule, kept as a
    /// known issue so the test reports when it is fixed. One table top is seen as two coplanar
    /// pieces (heights within 0.04 mm), 0.76 m apart, whose ground between is in no frame after the
    /// second piece appears: every gap sample is outside the image. Two tables of one height
    /// side by side look exactly like this (and are graded as two surfaces in other rooms), and
    /// the floor-piece rule does not apply above a floor, so they must not merge on this evidence.
    /// - seed 10: table top 7 (1.55 × 0.84 m) seen as plane-5 (0.5 × 0.2 m strip, frames 0–8)
    ///   and plane-10 (0.3 × 0.3 m corner, frames 107–124; plane-11 before identifiers were given at
    ///   confirmation), 0.76 m apart.
    @Test func knownIdentifierFailures() async throws {
        let grades = try await Self.grade(seeds: [10], frameCount: Self.frameCount)
        #expect(grades.map(\.1.surfaces.count) == [14])
        withKnownIssue("seed 10: a table top seen as two pieces, never together, has two identifiers") {
            for (seed, grade) in grades { #expect(grade.violations.isEmpty, "seed \(seed)") }
        }
    }
}
