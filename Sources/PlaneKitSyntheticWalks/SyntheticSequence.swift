import PlaneKitGeometry
import PlaneKitSeededRandom
import PlaneKitSynthesis

/// A camera moving smoothly through one `SyntheticRoom`, rendered one frame at a time.
///
/// The camera walks a closed ``CameraPath`` through 4–6 random way-points at 1.4 m height
/// (looping around the room, clear of walls and clutter) at 0.5 m/s by default, panning and
/// tilting gently. Frame `i` has timestamp `i / frameRate`. Iterating renders each frame on
/// demand, so memory stays flat however long the sequence is; ``frame(at:)`` renders any frame
/// directly and gives the same result.
public struct SyntheticSequence: Sequence, Sendable {
    /// The seed everything follows from.
    public let seed: UInt64
    /// The room the camera moves through.
    public let room: SyntheticRoom
    /// The camera's path.
    public let path: CameraPath
    /// How many frames the sequence has.
    public let frameCount: Int
    /// Frames per second.
    public let frameRate: Double
    /// The renderer (intrinsics and sensor model).
    public let renderer: SyntheticRenderer

    /// A sequence of `frameCount` frames at `frameRate` fps, moving at `speed` m/s, all from `seed`.
    public init(seed: UInt64, frameCount: Int = 300, frameRate: Double = 30, speed: Float = 0.5,
                sensor: SensorModel = .kinect, intrinsics: PinholeIntrinsics = .kinect(),
                roomOptions: SyntheticRoom.Options = SyntheticRoom.Options()) {
        self.seed = seed
        self.frameCount = Swift.max(0, frameCount)
        self.frameRate = frameRate > 0 ? frameRate : 30
        renderer = SyntheticRenderer(intrinsics: intrinsics, sensor: sensor)
        let room = SyntheticRoom(seed: seed, options: roomOptions)
        self.room = room
        path = SyntheticSequence.makePath(room: room, seed: seed, speed: speed)
    }

    /// The timestamp of frame `index` (s).
    public func timestamp(ofFrame index: Int) -> Double { Double(index) / frameRate }

    /// The camera pose of frame `index` (world-from-camera).
    public func pose(ofFrame index: Int) -> Transform { path.pose(atTime: timestamp(ofFrame: index)) }

    /// The seed of frame `index`'s sensor noise.
    func noiseSeed(ofFrame index: Int) -> UInt64 {
        SeededRandom.derivedSeed(seed, stream: 1000 &+ UInt64(truncatingIfNeeded: index))
    }

    /// Renders frame `index` (any index; the sequence's noise for it is fixed by the seed).
    public func frame(at index: Int) -> SyntheticFrame {
        var workspace = RenderWorkspace()
        return frame(at: index, workspace: &workspace)
    }

    /// ``frame(at:)`` reusing `workspace`'s storage.
    public func frame(at index: Int, workspace: inout RenderWorkspace) -> SyntheticFrame {
        renderer.render(room.scene, pose: pose(ofFrame: index), noiseSeed: noiseSeed(ofFrame: index),
                        timestamp: timestamp(ofFrame: index), workspace: &workspace)
    }

    /// Renders frame `index` straight to 16-bit depth samples, little-endian, into `bytes`
    /// (`2 × width × height` bytes) and its label image into `labels` when given: the depths of
    /// ``frame(at:)`` encoded with `encoding`, without building the cloud
    /// (see `SyntheticRenderer.renderDepth16(_:pose:noiseSeed:encoding:into:labels:workspace:)`).
    public func renderDepth16(frameAt index: Int, encoding: Depth16Encoding, into bytes: UnsafeMutableRawBufferPointer,
                              labels: UnsafeMutableBufferPointer<UInt16>? = nil, workspace: inout RenderWorkspace) {
        renderer.renderDepth16(room.scene, pose: pose(ofFrame: index), noiseSeed: noiseSeed(ofFrame: index), encoding: encoding,
                               into: bytes, labels: labels, workspace: &workspace)
    }

    /// Iterates the frames in order, rendering each when asked for.
    public func makeIterator() -> Iterator { Iterator(sequence: self) }

    /// The number of frames.
    public var underestimatedCount: Int { frameCount }

    /// Renders the frames of a ``SyntheticSequence`` one at a time.
    public struct Iterator: IteratorProtocol, Sendable {
        let sequence: SyntheticSequence
        var index = 0
        var workspace = RenderWorkspace()

        /// The next frame, or `nil` after the last.
        public mutating func next() -> SyntheticFrame? {
            guard index < sequence.frameCount else { return nil }
            defer { index += 1 }
            return sequence.frame(at: index, workspace: &workspace)
        }
    }

    /// Way-points around the room's centre, sorted by angle so the loop does not cross itself,
    /// redrawn until the sampled loop keeps 0.35 m from walls and clutter (at 1.4 m height the
    /// camera is above every table and box). After 64 failures an ellipse at 40% of the room's
    /// half-size is used as it is.
    static func makePath(room: SyntheticRoom, seed: UInt64, speed: Float) -> CameraPath {
        var random = SeededRandom(seed: SeededRandom.derivedSeed(seed, stream: 4))
        let half = SIMD2(room.size.x, room.size.z) / 2 - SIMD2(repeating: 0.7)
        let height: Float = 1.4
        for _ in 0..<64 {
            let count = random.integer(in: 4...6)
            let phase = random.nextUnit()
            var points: [SIMD3<Float>] = []
            for k in 0..<count {
                let angle = 2 * DeterministicMath.pi * (Double(k) + phase + 0.4 * (random.nextUnit() - 0.5)) / Double(count)
                let radius = random.uniform(0.6...1)
                points.append(SIMD3(Float(DeterministicMath.cos(angle)) * radius * half.x, height,
                                    Float(DeterministicMath.sin(angle)) * radius * half.y))
            }
            let path = CameraPath(waypoints: points, speed: speed)
            let samples = Swift.max(16, Int(path.length / 0.05))
            let clear = (0..<samples).allSatisfy {
                room.isFree(path.position(atDistance: path.length * Float($0) / Float(samples)), margin: 0.35)
            }
            if clear { return path }
        }
        let ellipse = (0..<8).map { k -> SIMD3<Float> in
            let angle = 2 * DeterministicMath.pi * Double(k) / 8
            return SIMD3(Float(DeterministicMath.cos(angle)) * 0.4 * room.size.x / 2, height,
                         Float(DeterministicMath.sin(angle)) * 0.4 * room.size.z / 2)
        }
        return CameraPath(waypoints: ellipse, speed: speed)
    }
}
