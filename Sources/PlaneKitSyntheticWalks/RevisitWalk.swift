import PlaneKitGeometry
import PlaneKitSeededRandom
import PlaneKitSynthesis

/// Two walks for relocalization: a *mapping* walk through a generated room, then a *query*
/// walk that comes back — to the same room, or (`init(seed:queryRoomSeed:mappingFrames:frameStride:)`
/// with another seed) to an unrelated one — with its poses in a world offset by an unknown rigid
/// change: a turn about +Y and a shift (both worlds keep +Y up, as gravity does), and with a
/// `tilt` also a turn about a horizontal axis (the query's world is not levelled, as when a
/// session tracked from depth saw neither gravity nor a floor).
///
/// The mapping walk is frames `0, s, 2s, …` of the room's ``SyntheticSequence``; the query walk
/// starts somewhere along the mapped stretch of the same path (at 30 fps, with its own sensor
/// noise), so everything it sees was seen while mapping. Its frames carry `offset · truth` as
/// their pose, so the map-from-query transform to find is ``expectedMapFromQuery``.
public struct RevisitWalk: Sendable {
    /// The mapped room's walk.
    public let mapping: SyntheticSequence
    /// How many mapping frames there are.
    public let mappingFrames: Int
    /// Frames of the room's sequence between two mapping frames.
    public let frameStride: Int
    /// The walk the query frames come from (the mapped room's, or another room's).
    public let query: SyntheticSequence
    /// When the query walk starts along its path (s).
    public let queryStart: Double
    /// The change of world of the query poses: query pose = offset · true pose.
    public let offset: Transform
    /// `true` when the query walk is in the mapped room.
    public var isSameRoom: Bool { query.seed == mapping.seed }

    /// A walk mapping room `seed` over `mappingFrames` frames, every `frameStride`-th of its
    /// sequence, and a query walk in room `queryRoomSeed` (`seed` for a return to the same room),
    /// its world tilted by `tilt` radians about a random horizontal axis when that is not 0.
    public init(seed: UInt64, queryRoomSeed: UInt64? = nil, mappingFrames: Int = 150, frameStride: Int = 2, tilt: Float = 0) {
        self.mappingFrames = max(1, mappingFrames)
        self.frameStride = max(1, frameStride)
        mapping = SyntheticSequence(seed: seed, frameCount: self.mappingFrames * self.frameStride)
        query = queryRoomSeed.map { SyntheticSequence(seed: $0, frameCount: 0) } ?? mapping
        var random = SeededRandom(seed: SeededRandom.derivedSeed(seed ^ (queryRoomSeed ?? seed) &* 31, stream: 77))
        let mapped = mapping.timestamp(ofFrame: self.mappingFrames * self.frameStride)
        queryStart = Double(random.uniform(0.1...0.7)) * mapped
        offset = RevisitWalk.randomOffset(&random, tilt: tilt)
    }

    /// An unknown rigid change of world: a turn about +Y (uniform), a shift of up to 3 m across and
    /// 0.5 m up or down, and with `tilt` (radians) a turn by it about a random horizontal axis.
    public static func randomOffset(_ random: inout SeededRandom, tilt: Float = 0) -> Transform {
        let yaw = random.uniform(-Float.pi...Float.pi)
        let shift = SIMD3(random.uniform(-3...3), random.uniform(-0.5...0.5), random.uniform(-3...3))
        var rotation = Quaternion(angle: yaw, axis: SIMD3(0, 1, 0)).matrix
        if tilt != 0 {
            let heading = Double(random.uniform(-Float.pi...Float.pi))
            let axis = SIMD3(Float(DeterministicMath.cos(heading)), 0, Float(DeterministicMath.sin(heading)))
            rotation = Quaternion(angle: tilt, axis: axis).matrix * rotation
        }
        return Transform(rotation: rotation, translation: shift)
    }

    /// Mapping frame `index` (true poses).
    public func mappingFrame(_ index: Int, workspace: inout RenderWorkspace) -> SyntheticFrame {
        mapping.frame(at: index * frameStride, workspace: &workspace)
    }

    /// The true pose of query frame `index`.
    public func queryTruePose(_ index: Int) -> Transform { query.path.pose(atTime: queryStart + Double(index) / 30) }

    /// Query frame `index`: rendered at its true pose with its own noise, its `pose` in the
    /// offset world.
    public func queryFrame(_ index: Int, workspace: inout RenderWorkspace) -> SyntheticFrame {
        let truth = queryTruePose(index)
        let noise = SeededRandom.derivedSeed(query.seed &+ 0x5EED, stream: 5000 &+ UInt64(index))
        var frame = query.renderer.render(query.room.scene, pose: truth, noiseSeed: noise, timestamp: Double(index) / 30,
                                          workspace: &workspace)
        frame.pose = offset * truth
        return frame
    }

    /// The map-from-query transform a correct relocalization finds (same room only).
    public var expectedMapFromQuery: Transform { offset.inverse }
}
