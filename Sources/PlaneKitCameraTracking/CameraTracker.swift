#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes

/// Estimates the camera's pose from depth alone, frame after frame (frame to model): each frame
/// is registered by point-to-plane ICP (`DepthRegistration`) against a keyframe of what was
/// mapped so far, the nearest one to where the camera is; a new keyframe is made when the
/// camera has moved away from all of them. A new keyframe's pose is registered against two
/// keyframes at once, the one it was tracked from and the oldest one that sees the same
/// surfaces, so that a walk's keyframes are not a chain adding each link's error to the next
/// (not when registering against the fused surface, which already holds every frame before).
///
/// The world's +Y is up: from the first tracked frame's gravity (the accelerometer's down, in
/// camera coordinates) when given, else from the floor it sees (a large surface below the
/// camera facing up); without either, the first frame's camera frame is the world.
///
/// A frame that does not register — too few pairs, residuals too large, equations that cannot
/// be solved — or that would move the camera implausibly far loses the track: its pose stays
/// the last one known, the state says ``TrackingState/Reason/relocalizing`` (or
/// ``TrackingState/Reason/excessiveMotion``), and later frames are registered against every
/// keyframe in turn until one fits. The pose never jumps without a registration behind it.
///
/// In a levelled world each new keyframe is put back level on the gravity its frame brings, and
/// on the floor it sees (``refineKeyframe(with:)``), so tilt and height do not drift while
/// gravity is given or the floor is in view.
///
/// Frames may bring the accelerometer's reading (`InertialMotion`): the position is then
/// predicted from a velocity integrated with it rather than from the recent motion alone, which
/// is what the pose keeps along a direction the depth leaves free (a floor and one bare wall).
public struct CameraTracker: Sendable {
    /// Settings of the tracker.
    public struct Configuration: Sendable {
        /// A new keyframe is needed when the camera is this far (m) from the active one…
        public var keyframeDistance: Float = 0.1
        /// …or has turned this much (radians) from it.
        public var keyframeAngle: Float = 10 * .pi / 180
        /// A new keyframe is also registered against the oldest keyframe within this distance (m)…
        public var jointKeyframeDistance: Float = 1
        /// …and this turn (radians) of it…
        public var jointKeyframeAngle: Float = 30 * .pi / 180
        /// …whose own registration pairs at least this share of the frame's sample points as
        /// inliers (a view partly of the same surfaces): the oldest keyframe carries the fewest
        /// links of the chain's error. Up to ``jointKeyframeCandidates`` are tried, oldest first.
        public var jointKeyframeInlierFraction: Float = 0.2
        /// …and whose pairs hold every direction at least this firmly (the smallest over the
        /// largest eigenvalue of each block): pairs that leave a slide along a bare wall nearly
        /// free would let the joint registration drift along it.
        public var jointKeyframeConditioning: Double = 0.01
        /// How many older keyframes at most are tried for that.
        public var jointKeyframeCandidates = 4
        /// At most this many keyframes are kept (the oldest that is not in use goes first).
        public var maximumKeyframes = 64
        /// Fewer valid sample points than this (every 4th pixel of every 4th row) is too little
        /// to track.
        public var minimumSamples = 300
        /// A registration whose inliers are fewer than this share of the sample points failed.
        public var minimumInlierFraction: Float = 0.4
        /// A relocalization must do better than this share.
        public var relocalizationInlierFraction: Float = 0.55
        /// Below this inlier share the active keyframe is replaced even if the camera is near it.
        public var keyframeInlierFraction: Float = 0.7
        /// A registration that is used but whose inliers are fewer than this share of the
        /// sample points leaves the state `limited` (``TrackingState/Reason/insufficientFeatures``):
        /// much of the view does not fit the map, so the pose rests on what is left.
        public var weakInlierFraction: Float = 0.55
        /// The smallest over the largest eigenvalue of the rotation or translation block of
        /// the equations below which a direction counts as unconstrained.
        public var minimumConditioning: Double = 0.0005
        /// A floor seen by a new keyframe relevels it when its normal is within this angle of
        /// world up (radians)…
        public var floorTilt: Float = 5 * .pi / 180
        /// …and its height within this distance (m) of the floor's first height.
        public var floorHeightTolerance: Float = 0.02
        /// The share above which a translation direction counts as firmly held, so that the
        /// accelerometer's velocity takes the registration's word for it.
        public var firmConditioning: Double = 0.05
        /// The most a hand-held camera moves between two frames: metres and radians per second,
        /// with at least ``minimumStep`` and ``minimumTurn`` for any frame.
        public var maximumSpeed: Float = 3, maximumTurnRate: Float = 6
        /// Allowance per frame whatever the frame rate (m, radians).
        public var minimumStep: Float = 0.1, minimumTurn: Float = 0.2
        /// Keyframes tried per frame while relocalizing.
        public var relocalizationAttempts = 3
        /// Register each frame against the surface fused from all tracked frames so far
        /// (``FusedSurface``, 2 cm surfels) rendered at the predicted pose, rather than against
        /// the nearest keyframe. On a real depth camera this drifts less (the noise and
        /// distortion of one keyframe do not carry over, and a place seen again is the place as
        /// first mapped). Which directions a view leaves free (a floor and one bare wall) is
        /// still judged against the nearest keyframe, whose normals lie on its detected planes:
        /// the surfels' normals, averaged from noisy per-pixel normals, make a free direction
        /// look held. Off by default: on the generated walks, whose views are mostly such bare
        /// rooms, it still drifts more than keyframes do (and loses two of twelve), since views
        /// that hold the slide along a wall only weakly slide by centimetres on the surface's
        /// edges, smoothed over a voxel, where a keyframe's sharp edges hold them.
        public var registersAgainstFusedSurface = false
        /// Grid reduction of the fused surface's views and of the frames fused into it (twice this).
        public var fusedSurfaceReduction = 4
        /// Learn the camera's fixed-pattern depth error from the tracked frames
        /// (``DepthCorrection``) and correct each frame with what was learned before it. A
        /// Kinect's depth is off by up to about a percent depending on where in the image a
        /// surface is seen, which turns a camera's turns short or long; a camera without such a
        /// pattern is left uncorrected (the learned pattern must explain 5 % of the residual).
        public var calibratesDepth = true
        /// The ICP settings.
        var registration = DepthRegistration.Configuration()

        /// The defaults.
        public init() {}
    }

    /// The settings.
    public let configuration: Configuration
    /// The tracking state after the latest frame.
    public private(set) var state: TrackingState = .notAvailable
    /// The latest frame's world-from-camera pose (identity before the first frame).
    public private(set) var pose: Transform = .identity
    /// Frames seen (tracked or given).
    public private(set) var frameCount = 0
    /// The number of keyframes mapped.
    public var keyframeCount: Int { keyframes.count }
    /// The world's up in the first tracked frame's camera coordinates when it came from gravity
    /// or the floor, `nil` when it is not known.
    public private(set) var levelledUp: SIMD3<Float>?
    /// How well the latest frame registered, `nil` when it was not registered (the first
    /// frame, a given pose, too few points).
    public private(set) var latestRegistration: RegistrationQuality?
    /// The depth correction the latest tracked frame was given (learned from the frames before
    /// it, ``Configuration/calibratesDepth``), `nil` while none is worth having. Apply it to the
    /// frame's cloud before detecting planes in it, so the planes agree with the track.
    public private(set) var depthCorrection: DepthCorrection?
    /// The latest tracked frame as ``depthCorrection`` corrected it, `nil` when it was not
    /// corrected. Detect planes in this rather than in the frame as it came.
    public private(set) var correctedFrame: PointCloud?

    /// How well a frame registered against the map.
    public struct RegistrationQuality: Sendable, Hashable {
        /// The share of the frame's sample points within 3σ of the depth noise of the map's surface.
        public var inlierFraction: Float
        /// The root mean square point-to-plane residual of those inliers (m).
        public var residual: Float
        /// The smallest over the largest eigenvalue of the rotation and of the translation
        /// block of the registration's equations, the smaller of the two: near 0 when the view
        /// leaves a direction of motion free.
        public var conditioning: Double
    }

    private var registration: DepthRegistration
    /// What the tracked frames say about the camera's depth error.
    private var calibration: DepthSelfCalibration?
    /// The surface fused from the tracked frames, which frames are registered against.
    private var surface = FusedSurface()
    private var keyframes: [DepthKeyframe] = []
    /// ``depthCorrection``'s factor for each pixel, worked out when it changes.
    private var correctionFactors: [Float] = []
    private var active = 0
    /// The recent reliable motion, for the next prediction.
    private var motion = MotionModel()
    /// The velocity carried by the accelerometer, when frames come with one.
    private var inertial = InertialMotion()
    private var timestamp: Double?
    private var relocalizationCursor = 0
    private var lost = false
    /// Set once the newest keyframe was refined with its frame's planes.
    private var keyframesRefined = false
    /// The floor's world height, from the first keyframe that saw it in a levelled world.
    private var floorHeight: Float?
    /// The latest frame's up (camera coordinates, unit) from its gravity, when it brought one.
    private var gravityUp: SIMD3<Float>?

    /// A tracker with nothing mapped.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        registration = DepthRegistration(configuration: configuration.registration)
    }

    /// Takes a frame whose pose is known from elsewhere: that pose is used as it is and
    /// tracking is ``TrackingState/normal``. A later frame without a pose starts from it.
    public mutating func follow(givenPose: Transform, timestamp: Double) -> CameraEstimate {
        frameCount += 1
        correctedFrame = nil
        motion.reset()
        pose = givenPose
        inertial.reset()
        self.timestamp = timestamp
        state = .normal
        // What was mapped under tracked poses may not agree with the given ones: start afresh.
        keyframes.removeAll()
        surface.removeAll()
        floorHeight = nil
        lost = false
        return CameraEstimate(transform: pose, tracking: state, isGiven: true)
    }

    /// Tracks an organized frame (camera coordinates: +X right, +Y down, +Z forward; NaN holes)
    /// and returns its estimated pose and the tracking state. `gravity` is the accelerometer's
    /// down direction in camera coordinates, when known (used to level the world on the first
    /// tracked frame; without it the first frame's planes are searched for a floor).
    /// `acceleration` is the accelerometer's mean reading (specific force, m/s², camera
    /// coordinates) over the interval since the previous frame, when the device has one.
    public mutating func track(frame: PointCloud, intrinsics: PinholeIntrinsics, gravity: SIMD3<Float>? = nil,
                               acceleration: SIMD3<Float>? = nil, timestamp: Double) -> CameraEstimate {
        var floorUp: SIMD3<Float>?
        if frameCount == 0, gravity == nil {
            var cloud = frame
            cloud.intrinsics = intrinsics
            floorUp = (try? OrganizedPlaneDetector().detect(in: cloud)).flatMap(CameraTracker.floorNormal(in:))
        }
        gravityUp = gravity.flatMap { (-$0).normalized }
        let learned = calibration?.correction
        if learned != depthCorrection {
            // Keyframes mapped under the earlier correction move to this one when next used
            // (see ``correctedKeyframe(_:)``).
            depthCorrection = learned
            correctionFactors = learned?.pixelFactors() ?? []
        }
        var corrected = frame
        // Into the previous frame's corrected points, so that no frame-sized buffer is allocated
        // per frame (the caller has let go of the previous corrected frame). A frame of another
        // size than the one the correction was learned for goes uncorrected.
        var points = correctedFrame?.points ?? []
        correctedFrame = nil
        if let depthCorrection, depthCorrection.apply(correctionFactors, from: frame, to: &points) {
            corrected.points = points
            correctedFrame = corrected
        }
        let estimate = corrected.points.withUnsafeBufferPointer { points in
            track(points: points, width: frame.width, height: frame.height, intrinsics: intrinsics, up: gravity.map { -$0 } ?? floorUp,
                  acceleration: acceleration, timestamp: timestamp)
        }
        if configuration.calibratesDepth, state == .normal, latestRegistration != nil, frame.width == intrinsics.width,
           frame.height == intrinsics.height {
            if calibration?.imageWidth != frame.width || calibration?.imageHeight != frame.height {
                calibration = DepthSelfCalibration(intrinsics: intrinsics)
            }
            // The raw depth: the pattern is learned as the sensor gives it.
            frame.points.withUnsafeBufferPointer { calibration?.observe(points: $0, pose: pose) }
        }
        return estimate
    }

    /// The floor among a frame's detected planes (camera coordinates): the largest plane facing
    /// up within 40° of the camera's −Y, at least 30 cm below the camera, holding at least a
    /// twentieth of the frame's valid points.
    package static func floor(in detection: PlaneDetectionResult) -> DetectedPlane? {
        let valid = detection.validPointCount
        return detection.planes.filter { plane in
            let n = plane.normal.y < 0 ? plane.normal : -plane.normal
            return n.y < -0.766 && abs(plane.offset) >= 0.3 && plane.centroid.y > 0 && plane.pointCount * 20 >= valid
        }.max { $0.pointCount < $1.pointCount }
    }

    /// The up of the floor among a frame's detected planes (``floor(in:)``): its normal towards
    /// the camera.
    package static func floorNormal(in detection: PlaneDetectionResult) -> SIMD3<Float>? {
        guard let floor = floor(in: detection) else { return nil }
        return floor.normal.y < 0 ? floor.normal : -floor.normal
    }

    /// Tracks an organized frame given as its points; `up` (camera coordinates) levels the world
    /// on the first frame.
    private mutating func track(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                                intrinsics: PinholeIntrinsics, up: SIMD3<Float>?, acceleration specificForce: SIMD3<Float>?,
                                timestamp: Double) -> CameraEstimate {
        frameCount += 1
        latestRegistration = nil
        let previousTime = self.timestamp ?? timestamp
        let elapsed = max(0, timestamp - previousTime)
        self.timestamp = timestamp
        registration.sample(points: points, width: width, height: height)
        if keyframes.isEmpty {
            start(points: points, width: width, height: height, intrinsics: intrinsics, up: up)
            if let specificForce, !inertial.knowsGravity {
                // Gravity in the world: straight down when levelled, else the first reading's opposite.
                inertial.setGravity(levelledUp != nil ? SIMD3(0, -InertialMotion.standardGravity, 0) : -(pose.rotation * specificForce))
            }
            return estimate
        }
        guard registration.sampleCount >= configuration.minimumSamples else {
            // Nothing to register: keep the last pose and say why.
            state = lost ? .limited(.relocalizing) : .limited(.insufficientFeatures)
            motion.reset()
            inertial.reset()
            return estimate
        }
        if lost {
            relocalize()
            return estimate
        }
        var predicted = motion.predict(from: pose, previousTime: previousTime, to: timestamp)
        let dt = Float(elapsed)
        let acceleration = specificForce.map { inertial.acceleration(specificForce: $0, rotation: predicted.rotation) }
        let inertialPrediction = acceleration.flatMap { inertial.predict(from: pose.translation, acceleration: $0, dt: dt) }
        if let inertialPrediction { predicted.translation = inertialPrediction }
        var keyframe = correctedKeyframe(active)
        var initial = keyframe.pose.inverse * predicted
        var held: [SIMD3<Double>] = []
        var heldConditioning: (rotation: Double, translation: Double)?
        if configuration.registersAgainstFusedSurface, surface.count > 0 {
            let view = surface.render(at: predicted, intrinsics: intrinsics, reduction: configuration.fusedSurfaceReduction, frame: frameCount - 1,
                                       noiseA: configuration.registration.noiseA, noiseB: configuration.registration.noiseB)
            // A surface only just begun (the first frames, a turn into new ground) covers too
            // little of the view to register against: the keyframe does until an eighth does.
            if view.validCount * 8 >= view.width * view.height {
                // The surfels' averaged normals make a direction the view leaves free look held
                // (a slide of centimetres along a floor and one wall): the keyframe's, on its
                // detected planes, say which directions to hold at the prediction.
                let guide = registration.equations(to: keyframe, transform: initial)
                heldConditioning = guide.conditioning
                held = weakTranslations(guide, from: keyframe.pose, to: predicted)
                keyframe = view
                initial = .identity
            }
        }
        var result = registration.register(to: keyframe, initial: initial, heldTranslations: held)
        if let heldConditioning {
            result.conditioning = (min(result.conditioning.rotation, heldConditioning.rotation),
                                   min(result.conditioning.translation, heldConditioning.translation))
        }
        guard accepts(result, fraction: configuration.minimumInlierFraction) else {
            lost = true
            motion.reset()
            inertial.reset()
            relocalize()
            return estimate
        }
        latestRegistration = RegistrationQuality(inlierFraction: result.inlierFraction, residual: result.rms,
                                                 conditioning: result.weakestConditioning)
        let estimated = (keyframe.pose * result.transform).orthonormalized
        let step = pose.inverse * estimated
        let allowedStep = max(configuration.minimumStep, configuration.maximumSpeed * Float(elapsed))
        let allowedTurn = max(configuration.minimumTurn, configuration.maximumTurnRate * Float(elapsed))
        guard length(step.translation) <= allowedStep, step.rotationAngle <= allowedTurn else {
            // Implausible: keep the last pose and look for the camera again from the next frame.
            state = .limited(.excessiveMotion)
            lost = true
            motion.reset()
            inertial.reset()
            return estimate
        }
        if let acceleration {
            inertial.update(previous: pose.translation, predicted: inertialPrediction, measured: estimated.translation,
                            acceleration: acceleration, dt: dt, learnsBias: isConstrained(result),
                            trust: trust(result, keyframe: keyframe))
        }
        pose = estimated
        if !isConstrained(result) || result.inlierFraction < configuration.weakInlierFraction {
            // Some direction is free (a floor and one wall): the pose along it is only the
            // prediction, which keeps the motion of the last well-constrained frames. Or much of
            // the view does not fit the map: the pose rests on what is left. The map still
            // follows, so the track is not lost when the view moves on.
            state = .limited(.insufficientFeatures)
            // The surface grows into what the view newly sees (else the track is lost when the
            // view moves on), but a pose resting on the prediction must not move what is mapped.
            fuse(points: points, width: width, height: height, intrinsics: intrinsics, extendingOnly: true)
            updateKeyframes(points: points, width: width, height: height, intrinsics: intrinsics, result: result)
            return estimate
        }
        motion.record(pose, at: timestamp)
        state = .normal
        fuse(points: points, width: width, height: height, intrinsics: intrinsics)
        updateKeyframes(points: points, width: width, height: height, intrinsics: intrinsics, result: result)
        return estimate
    }

    /// `true` when the latest frame became a keyframe (its plane detection, given to
    /// ``refineKeyframe(with:)``, then makes the model sharper).
    public var madeKeyframe: Bool { keyframes.last?.frame == frameCount - 1 && !keyframesRefined }

    /// Sharpens the keyframe made from the latest frame with that frame's plane detection
    /// (camera coordinates, as `OrganizedPlaneDetector` gives it): cells on a detected plane
    /// take the plane's normal and lie exactly on it, and the keyframe and the camera are put
    /// back level on the floor among the planes. So ``estimate`` may move: by a fraction of a
    /// degree and a few millimetres from depth alone, by up to the floor's disagreement with
    /// gravity when frames bring one (up to 3.9° on the 7-Scenes dev walk, whose gravity comes
    /// from its reference poses). Report the frame at the moved ``estimate``: the frames after
    /// it are tracked from there. Does nothing when the latest frame made no keyframe.
    public mutating func refineKeyframe(with detection: PlaneDetectionResult) {
        guard madeKeyframe, let last = keyframes.indices.last else { return }
        let planes = detection.planes.map(\.plane)
        detection.labels.withUnsafeBufferPointer { labels in
            keyframes[last].snapToPlanes(labels: labels, labelWidth: detection.width, planes: planes)
        }
        keyframesRefined = true
        levelOnFloor(keyframe: last, detection: detection)
    }

    /// ``refineKeyframe(with:)`` for tracking without a session: when the latest frame made a
    /// keyframe, finds its planes with `detector`, in ``correctedFrame`` when the depth was
    /// corrected (so that they agree with the track), else in `frame`, the frame as tracked.
    /// A session detects every frame's planes anyway and passes its own detection instead.
    /// Report the frame at ``estimate`` afterwards. Throws what the detector throws.
    public mutating func refineKeyframe(frame: PointCloud, intrinsics: PinholeIntrinsics,
                                        detector: OrganizedPlaneDetector = OrganizedPlaneDetector()) throws(DetectionError) {
        guard madeKeyframe else { return }
        var cloud = correctedFrame ?? frame
        cloud.intrinsics = intrinsics
        refineKeyframe(with: try detector.detect(in: cloud))
    }

    /// Puts the keyframe (and the camera, which took it) back level on the floor it sees: a
    /// floor is flat and level, so its normal is world up and its height the one first seen, and
    /// what registration chain let drift of the camera's tilt (a few tenths of a degree over a
    /// walk: centimetres of height a few metres away, and gravity leaking into the
    /// accelerometer's integration) and height is taken out. Only in a levelled world. The floor
    /// is the lowest plane facing up within ``Configuration/floorTilt`` that holds a twentieth of
    /// the frame's points: a table top seen first gives way to the floor once that is seen
    /// (10 cm or more lower), and a surface more than ``Configuration/floorHeightTolerance``
    /// from the floor's height (a table, a box, the floor of another level) corrects nothing.
    private mutating func levelOnFloor(keyframe index: Int, detection: PlaneDetectionResult) {
        guard levelledUp != nil else { return }
        let keyframePose = keyframes[index].pose
        var lowest: (up: SIMD3<Float>, distance: Float, height: Float)?
        for plane in detection.planes where plane.pointCount * 20 >= detection.validPointCount {
            // Oriented towards the camera: the camera is on the plane's positive side.
            let normal = plane.offset >= 0 ? plane.normal : -plane.normal, distance = abs(plane.offset)
            let up = keyframePose.rotation * normal
            let height = keyframePose.translation.y - distance
            guard up.y >= cosf(configuration.floorTilt), distance >= 0.3, height < (lowest?.height ?? .infinity) else { continue }
            lowest = (up, distance, height)
        }
        guard let lowest else { return }
        guard let floorHeight, lowest.height > floorHeight - 0.1 else {
            self.floorHeight = lowest.height
            return
        }
        guard abs(lowest.height - floorHeight) <= configuration.floorHeightTolerance else { return }
        // The smallest turn taking the floor's normal to +Y, about the camera's centre.
        let turn = WorldLevelling.turnUp(lowest.up)
        var levelled = Transform(rotation: turn * keyframePose.rotation, translation: keyframePose.translation).orthonormalized
        levelled.translation.y = floorHeight + lowest.distance
        keyframes[index].pose = levelled
        if keyframes[index].frame == frameCount - 1 { pose = levelled }
    }

    /// The estimate after the latest frame.
    public var estimate: CameraEstimate { CameraEstimate(transform: pose, tracking: state, isGiven: false) }

    // MARK: Steps

    /// The first tracked frame: the world is levelled (`up`: against gravity, else the floor) or,
    /// after frames with given poses, continues from the last of them; the frame becomes the
    /// first keyframe.
    private mutating func start(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                                intrinsics: PinholeIntrinsics, up: SIMD3<Float>?) {
        guard registration.sampleCount >= configuration.minimumSamples else {
            state = .limited(.insufficientFeatures)
            return
        }
        var keyframe = DepthKeyframe(points: points, width: width, height: height, intrinsics: intrinsics, pose: pose,
                                     frame: frameCount - 1, correction: frameCorrection)
        if frameCount == 1 {
            if let up, let rotation = WorldLevelling.rotation(cameraUp: up) {
                levelledUp = up.normalized
                pose = Transform(rotation: rotation, translation: .zero)
                keyframe.pose = pose
            }
        }
        keyframes = [keyframe]
        keyframesRefined = false
        active = 0
        surface.removeAll()
        fuse(points: points, width: width, height: height, intrinsics: intrinsics)
        motion.reset()
        motion.record(pose, at: timestamp ?? 0)
        inertial.reset()
        lost = false
        state = .limited(.initializing)
    }

    /// Adds the frame, at the current pose, to the fused surface; with `extendingOnly`, only
    /// where no surfel is yet.
    private mutating func fuse(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int, intrinsics: PinholeIntrinsics,
                               extendingOnly: Bool = false) {
        guard configuration.registersAgainstFusedSurface else { return }
        let view = DepthKeyframe(points: points, width: width, height: height, intrinsics: intrinsics, pose: pose,
                                 frame: frameCount - 1, reduction: 2 * configuration.fusedSurfaceReduction, radius: 1)
        surface.integrate(view, pose: pose, noiseA: configuration.registration.noiseA, noiseB: configuration.registration.noiseB,
                          extendingOnly: extendingOnly)
    }

    /// The depth correction the latest frame's points were corrected with, if any.
    private var frameCorrection: DepthCorrection? { correctedFrame == nil ? nil : depthCorrection }

    /// Keyframe `index`, its points moved to the current depth correction first. Keyframes move
    /// to a new correction when next used, not when it comes: most are not used again before
    /// the next one, and moving all 40 of a walk's keyframes at each new correction was a
    /// twentieth of tracking's time.
    private mutating func correctedKeyframe(_ index: Int) -> DepthKeyframe {
        keyframes[index].recorrect(to: depthCorrection)
        return keyframes[index]
    }

    /// `true` when a registration is good enough to use.
    private func accepts(_ result: DepthRegistration.Result, fraction: Float) -> Bool {
        result.solved && result.samples >= configuration.minimumSamples && result.inlierFraction >= fraction
            && result.transform.translation.isFinite
    }

    /// Registers the frame against a few keyframes, nearest to the last known pose first, and
    /// takes the first that fits well; otherwise the pose stays and the state says so.
    private mutating func relocalize() {
        let order = keyframes.indices.sorted { a, b in
            distance(keyframes[a].pose.translation, pose.translation) < distance(keyframes[b].pose.translation, pose.translation)
        }
        let attempts = min(configuration.relocalizationAttempts, order.count)
        for attempt in 0..<attempts {
            // The nearest keyframe always, then the others in turn from frame to frame.
            let slot = attempt == 0 ? 0 : 1 + (relocalizationCursor + attempt - 1) % max(1, order.count - 1)
            let index = order[min(slot, order.count - 1)]
            let keyframe = correctedKeyframe(index)
            // From the last known pose, and from the keyframe's own.
            for initial in [keyframe.pose.inverse * pose, Transform.identity] {
                let result = registration.register(to: keyframe, initial: initial)
                // A view that leaves a direction free fits anywhere along it: no relocalization.
                guard accepts(result, fraction: configuration.relocalizationInlierFraction),
                      isConstrained(result) else { continue }
                pose = (keyframe.pose * result.transform).orthonormalized
                active = index
                lost = false
                motion.reset()
                inertial.reset()
                state = .normal
                return
            }
        }
        relocalizationCursor += max(1, attempts - 1)
        state = .limited(.relocalizing)
    }

    /// Moves to the keyframe nearest the camera when it has left the active one, making a new
    /// keyframe from this frame when none is near.
    private mutating func updateKeyframes(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                                          intrinsics: PinholeIntrinsics, result: DepthRegistration.Result) {
        if isNear(keyframes[active].pose), result.inlierFraction >= configuration.keyframeInlierFraction { return }
        // An older keyframe near here: register against it (frame to model, no drift added).
        var best: (index: Int, score: Float)?
        for i in keyframes.indices where i != active && isNear(keyframes[i].pose) {
            let score = closeness(keyframes[i].pose)
            if score < (best?.score ?? .infinity) { best = (i, score) }
        }
        if let best {
            let keyframe = correctedKeyframe(best.index)
            let again = registration.register(to: keyframe, initial: keyframe.pose.inverse * pose)
            if accepts(again, fraction: configuration.keyframeInlierFraction) {
                pose = (keyframe.pose * again.transform).orthonormalized
                active = best.index
                return
            }
        }
        registerJointlyWithOldestOverlap()
        if levelledUp != nil, let gravityUp {
            // Gravity fixes the tilt absolutely: a keyframe levelled on it carries no tilt
            // error on to the frames registered against it.
            pose = Transform(rotation: WorldLevelling.turnUp(pose.rotation * gravityUp) * pose.rotation,
                             translation: pose.translation).orthonormalized
        }
        let keyframe = DepthKeyframe(points: points, width: width, height: height, intrinsics: intrinsics, pose: pose,
                                     frame: frameCount - 1, correction: frameCorrection)
        if keyframes.count >= configuration.maximumKeyframes {
            let oldest = keyframes.indices.first { $0 != active } ?? 0
            keyframes.remove(at: oldest)
            if active > oldest { active -= 1 }
        }
        keyframes.append(keyframe)
        keyframesRefined = false
        active = keyframes.count - 1
    }

    /// Moves the pose of a frame about to become a keyframe to where it fits both the active
    /// keyframe and the oldest keyframe that sees part of the same surfaces. Tracked from the
    /// active keyframe alone, each keyframe would inherit the error of every keyframe before it;
    /// the oldest overlapping one is fewer links from the start, so its pairs pull the new
    /// keyframe back toward the map as it was first made (on the 7-Scenes dev walk, it takes the
    /// error from 7.8 to 4.9 cm). Nothing moves when no older keyframe fits.
    private mutating func registerJointlyWithOldestOverlap() {
        // Registered against the fused surface, the pose already rests on every frame before it.
        guard !configuration.registersAgainstFusedSurface else { return }
        var tried = 0
        // Keyframes are kept in the order they were made: the first near one is the oldest.
        for index in keyframes.indices where index != active && tried < configuration.jointKeyframeCandidates {
            let relative = keyframes[index].pose.inverse * pose
            guard length(relative.translation) < configuration.jointKeyframeDistance,
                  relative.rotationAngle < configuration.jointKeyframeAngle else { continue }
            tried += 1
            let older = correctedKeyframe(index)
            let alone = registration.register(to: older, initial: relative)
            guard accepts(alone, fraction: configuration.jointKeyframeInlierFraction),
                  alone.weakestConditioning >= configuration.jointKeyframeConditioning else { continue }
            if let joint = registration.register(toAll: [correctedKeyframe(active), older], initial: pose,
                                                 iterations: Self.jointIterations) {
                pose = joint
            }
            return
        }
    }

    /// Gauss-Newton steps of the joint registration: it starts from a pose already registered
    /// against one of the two keyframes.
    private static let jointIterations = 3

    /// How far the inertial velocity may believe a registration's position, direction by
    /// direction (a world-coordinates projection): fully along directions its pairs hold firmly
    /// (eigenvalue at least ``Configuration/firmConditioning`` of the largest), not at all along
    /// those they leave free (below ``Configuration/minimumConditioning``), linearly between.
    /// A weakly held direction's estimate is pulled by edges and noise; feeding it to the
    /// velocity would carry that error on through the next blank wall.
    private func trust(_ result: DepthRegistration.Result, keyframe: DepthKeyframe) -> Matrix3 {
        let strength = result.translationStrength
        let largest = strength.values.z
        guard largest > 0 else { return Matrix3(.zero, .zero, .zero) }
        let free = configuration.minimumConditioning, firm = configuration.firmConditioning
        var columns = (SIMD3<Float>.zero, SIMD3<Float>.zero, SIMD3<Float>.zero)
        for (value, vector) in [(strength.values.x, strength.smallestVector), (strength.values.y, strength.middleVector),
                                (largest, strength.largestVector)] {
            let weight = Float(min(1, max(0, (value / largest - free) / (firm - free))))
            let e = keyframe.pose.rotation * SIMD3<Float>(vector)
            columns.0 += weight * e.x * e
            columns.1 += weight * e.y * e
            columns.2 += weight * e.z * e
        }
        return Matrix3(columns.0, columns.1, columns.2)
    }

    /// The translation directions (camera coordinates of `target`) that `equations`, made in the
    /// camera coordinates of `source`, leave free.
    private func weakTranslations(_ equations: PoseNormalEquations, from source: Transform, to target: Transform) -> [SIMD3<Double>] {
        let turn = target.rotation.transposed * source.rotation
        var held: [SIMD3<Double>] = []
        equations.translationStrength.forEachWeakVector(below: configuration.registration.freeBelow) { vector in
            held.append(SIMD3<Double>(turn * SIMD3<Float>(vector)))
        }
        return held
    }

    /// `true` when the registration pinned every direction of motion down.
    private func isConstrained(_ result: DepthRegistration.Result) -> Bool {
        result.weakestConditioning >= configuration.minimumConditioning
    }

    /// `true` when `other` is within the keyframe distance and angle of the current pose.
    private func isNear(_ other: Transform) -> Bool {
        let relative = other.inverse * pose
        return length(relative.translation) < configuration.keyframeDistance && relative.rotationAngle < configuration.keyframeAngle
    }

    /// Distance plus turn, each in units of the keyframe thresholds.
    private func closeness(_ other: Transform) -> Float {
        let relative = other.inverse * pose
        return length(relative.translation) / configuration.keyframeDistance + relative.rotationAngle / configuration.keyframeAngle
    }
}
