import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes

/// Finds the planes of an organized cloud (a depth frame), in the manner of CAPE
/// (Proença & Gao, IROS 2018) and PEAC (Feng et al., ICRA 2014).
///
/// The pipeline:
/// 1. One pass over the points sums, per grid cell (20×20 pixels by default), the count, Σp and
///    Σppᵀ of the valid points.
/// 2. Each cell gets a least-squares plane and a planarity test: enough valid points, no depth
///    jump along its middle row and column, and a residual within a few σ of the sensor noise at
///    its depth (``DepthNoiseModel``).
/// 3. Planar cells are grouped: seeds come from the fullest bin of a histogram of cell normals,
///    regions grow over the 4-connected cell graph while a neighbour's normal and centroid agree
///    with the region's plane, and adjacent regions of the same plane are merged.
/// 4. Pixels of a region's boundary cells and of the cells around it are assigned one by one to
///    the nearest plane they lie within a few σ of, so labels follow the true boundary; interior
///    pixels far off the plane are dropped. Each plane is refit on exactly its pixels.
/// 5. Planes are described with `PlaneDescriber` (on a pixel-grid subsample for speed, with the
///    true point count), their normals face the sensor (the origin of the cloud's coordinates),
///    sorted largest first, and classified with `PlaneClassifier`.
///
/// A VGA frame costs 10.8–19.6 million instructions in a release build (callgrind; the real
/// Kinect and stereo frames 15.9–19.6 M), a 512×512 range scan at object scale about 78 M;
/// `planekit bench detection` times them.
public struct OrganizedPlaneDetector: Sendable {
    /// Tuning of the detector. The defaults suit a Kinect-class sensor at VGA resolution.
    public struct Configuration: Sendable, Hashable {
        /// The sensor behind the frames. ``SensorProfile/auto`` (the default) measures the noise
        /// of each frame and sets ``noise``, ``cellSize``, ``minimumPointsPerPlane`` and
        /// ``mergeTolerance`` from it; the other profiles set them to fixed values, and
        /// ``SensorProfile/custom`` keeps them as they are here.
        public var sensor: SensorProfile = .auto
        /// Side of a grid cell in pixels (CAPE uses 20 for 640×480).
        public var cellSize: Int = 20
        /// A cell needs at least this fraction of its pixels valid to be tested for planarity.
        public var minimumValidFraction: Float = 0.5
        /// A plane needs at least this many planar cells.
        public var minimumCellsPerPlane: Int = 3
        /// A plane needs at least this many labelled pixels after refinement.
        public var minimumPointsPerPlane: Int = 1500
        /// The sensor's depth noise; every distance threshold is a multiple of its σ.
        public var noise: DepthNoiseModel = .kinect
        /// A cell is planar when its RMS residual is at most this many σ.
        public var cellRMSFactor: Float = 2
        /// A depth jump above this many σ√2 (plus twice the line's typical step) inside a cell's
        /// middle row or column marks a discontinuity.
        public var discontinuityFactor: Float = 4
        /// The largest normal uncertainty (rad) a cell may have and still be planar.
        public var maximumCellNormalSigma: Float = 0.15
        /// Growth accepts a cell whose normal is within this angle (rad) of the region's, widened
        /// to four times the cell normal's own uncertainty for far, noisy cells …
        public var growAngle: Float = 5 * .pi / 180
        /// … but never beyond this angle (rad).
        public var maximumGrowAngle: Float = 25 * .pi / 180
        /// Growth accepts a cell whose centroid is within this many σ of the region's plane.
        public var growDistanceFactor: Float = 3
        /// A region (and a merge of two) is a plane when its RMS residual is at most this many
        /// times the RMS noise expected at its cells' depths; this rejects curved surfaces.
        public var regionRMSFactor: Float = 1.5
        /// Adjacent regions whose normals are within this angle (rad) may merge.
        public var mergeAngle: Float = 6 * .pi / 180
        /// Systematic depth error (m) tolerated when merging regions into one plane: two parts
        /// of one surface may lie this far apart, and their union may have half this RMS
        /// residual, whatever the noise model says. Real depth sensors warp their depth maps by
        /// up to about a centimetre.
        public var mergeTolerance: Float = 0.02
        /// The step depth comes in (an 8-bit range image's, say). When positive, the depth
        /// staircase is smoothed along the viewing rays before anything is fitted
        /// (``DepthQuantization``); 0 fits the depths as measured.
        public var depthStep: Float = 0
        /// How far a point strays across its viewing ray, as a standard deviation per unit of
        /// depth (rad): where a pixel's sample falls within its footprint. On a face seen at an
        /// angle θ from face-on this spreads depths along the rays by that times tan θ (a few
        /// millimetres at 85° on a tabletop scan), so the search for faces no cell grew from
        /// (``LeftoverFaces``) tolerates it on top of ``noise``. 0 counts depth noise alone.
        public var lateralNoise: Float = 0
        /// When `true`, each 8-connected patch of a plane's pixels is a plane of its own (faces
        /// of objects, as range-image benchmarks count them; `ConnectedPatches`); when `false`,
        /// one plane seen on both sides of an occluder or a gap is one plane (as ARKit anchors it).
        public var splitsDisconnected = false
        /// A pixel joins a plane when within this many σ (at its depth) of it.
        public var pixelDistanceFactor: Float = 3
        /// The up direction (against gravity) in the cloud's coordinates; camera +Y is down.
        public var up: SIMD3<Float> = SIMD3(0, -1, 0)
        /// Angle tolerance (rad) for horizontal and vertical alignment.
        public var alignmentTolerance: Float = PlaneAlignment.defaultTolerance
        /// At most this many points of each plane are handed to `PlaneDescriber` (a regular
        /// pixel-grid subsample); its count and fit still use every point.
        public var maximumDescribedPoints: Int = 2500
        /// The most cells along either side of the grid `PlaneDescriber` traces outlines on
        /// (100 keeps outlines within about 1% of a plane's size and the tracing cheap).
        public var outlineGridSide: Int = 100
        /// How planes are classified.
        public var classifier = PlaneClassifier()
        /// Tuning asked for by hand, applied over the sensor's settings (``DetectionOverrides``).
        public var overrides = DetectionOverrides()

        /// The defaults.
        public init() {}

        func validated() throws(DetectionError) -> Configuration {
            func check(_ ok: Bool, _ what: String) throws(DetectionError) {
                if !ok { throw .invalidConfiguration(what) }
            }
            try check(cellSize >= 3 && cellSize <= 1024, "cell size \(cellSize) must be 3…1024 pixels")
            try check(minimumValidFraction > 0 && minimumValidFraction <= 1, "minimum valid fraction must be in (0, 1]")
            try check(minimumCellsPerPlane >= 1, "minimum cells per plane must be at least 1")
            try check(minimumPointsPerPlane >= 3, "minimum points per plane must be at least 3")
            try check(noise.isValid, "the noise model needs a positive constant and a non-negative quadratic term")
            for (value, name) in [(cellRMSFactor, "cell RMS factor"), (discontinuityFactor, "discontinuity factor"),
                                  (maximumCellNormalSigma, "maximum cell normal sigma"), (growAngle, "grow angle"),
                                  (maximumGrowAngle, "maximum grow angle"), (growDistanceFactor, "grow distance factor"),
                                  (regionRMSFactor, "region RMS factor"), (mergeAngle, "merge angle"),
                                  (pixelDistanceFactor, "pixel distance factor")] {
                try check(value > 0 && value.isFinite, "\(name) must be positive and finite")
            }
            try check(mergeTolerance >= 0 && mergeTolerance.isFinite, "merge tolerance must be non-negative and finite")
            try check(depthStep >= 0 && depthStep.isFinite, "depth step must be non-negative and finite")
            try check(lateralNoise >= 0 && lateralNoise.isFinite, "lateral noise must be non-negative and finite")
            try check(up.isFinite && up.length > 1e-6, "the up direction must be a finite non-zero vector")
            try check(maximumDescribedPoints >= 16, "at least 16 points must be described")
            try check(outlineGridSide >= 8 && outlineGridSide <= 4096, "the outline grid side must be 8…4096 cells")
            var copy = self
            copy.up = normalize(up)
            return copy
        }

        /// This configuration with `settings` in place of its own noise, cell size, minimum
        /// plane size, merge tolerance, depth step, lateral noise and patch splitting.
        public func applying(_ settings: SensorSettings) -> Configuration {
            var copy = self
            copy.noise = settings.noise
            copy.cellSize = settings.cellSize
            copy.minimumPointsPerPlane = settings.minimumPointsPerPlane
            copy.mergeTolerance = settings.mergeTolerance
            copy.depthStep = settings.depthStep
            copy.lateralNoise = settings.lateralNoise
            copy.splitsDisconnected = settings.splitsDisconnected
            return copy
        }
    }

    /// The largest cloud accepted: 2²⁶ points (about 8K × 8K).
    public static let maximumPointCount = 1 << 26

    /// The configuration.
    public var configuration: Configuration

    /// A detector with the given configuration.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Finds the planes of an organized cloud.
    ///
    /// Holes (NaN or infinite coordinates, or depth ≤ 0) are skipped; an empty or all-hole frame
    /// gives no planes. Throws for an unorganized cloud, a cloud larger than
    /// ``maximumPointCount``, or an invalid configuration.
    ///
    /// With ``SensorProfile/auto`` the frame's noise is measured first (``measureNoise(in:)``);
    /// a frame too sparse to measure is detected with the Kinect profile.
    public func detect(in cloud: PointCloud) throws(DetectionError) -> PlaneDetectionResult {
        try detect(in: cloud, measured: nil)
    }

    /// Finds the planes of an organized cloud with ``SensorProfile/auto`` settings taken from
    /// `estimate` instead of from the cloud itself: a stream keeps one estimate across its frames,
    /// so the cell size does not change from frame to frame. Other profiles ignore `estimate`.
    public func detect(in cloud: PointCloud, measured estimate: DepthNoiseEstimate?) throws(DetectionError) -> PlaneDetectionResult {
        let c = try configuration.validated()
        let width = cloud.width, height = cloud.height
        guard cloud.isOrganized, width > 0 else { throw .unorganizedCloud(width: width, height: height) }
        guard cloud.points.count <= OrganizedPlaneDetector.maximumPointCount, cloud.points.count == width * height else {
            throw .cloudTooLarge(width: width, height: height, limit: OrganizedPlaneDetector.maximumPointCount)
        }
        if cloud.intrinsics == nil, let shift = ViewShift(cloud) {
            // A grid that is not a camera's image (a registered scan, say) may lie partly behind
            // its origin; the detector counts only points in front of it (z > 0) as measured.
            var result = try detect(in: try shift.apply(to: cloud), measured: estimate)
            shift.undo(on: &result)
            return result
        }
        return cloud.points.withUnsafeBufferPointer { points in
            var resolved = c
            let reason: String
            var estimate = estimate
            // The measurement's smoothed staircase, reused by the detection.
            var smoothed: ContiguousArray<SIMD3<Float>>? = nil
            switch c.sensor {
            case .custom:
                reason = "custom settings"
            case .auto:
                if estimate == nil {
                    (estimate, smoothed) = Self.measure(points: points, width: width, height: height,
                                                        camera: isCamera(cloud, points: points))
                }
                if let measured = estimate {
                    let settings = SensorSettings(measured: measured)
                    resolved = c.applying(settings)
                    reason = settings.reason
                } else {
                    resolved = c.applying(SensorProfile.kinect.settings!)
                    reason = "too few flat blocks to measure the noise; the kinect profile"
                }
            case .kinect, .realsense, .tof, .scanner:
                resolved = c.applying(c.sensor.settings!)
                reason = "the \(c.sensor.rawValue) profile"
            }
            c.overrides.apply(to: &resolved)
            var result = detect(points: points, width: width, height: height, intrinsics: cloud.intrinsics,
                                configuration: resolved, dequantized: smoothed)
            result.sensorSettings?.reason = reason
            return result
        }
    }

    /// The noise of an organized cloud, measured from the cloud itself (see ``DepthNoiseEstimate``),
    /// or `nil` when it has too few flat, fully measured blocks.
    public func measureNoise(in cloud: PointCloud) -> DepthNoiseEstimate? {
        guard cloud.isOrganized, cloud.width > 0, cloud.points.count == cloud.width * cloud.height else { return nil }
        if cloud.intrinsics == nil, let shift = ViewShift(cloud), let shifted = try? shift.apply(to: cloud) {
            return measureNoise(in: shifted)
        }
        return cloud.points.withUnsafeBufferPointer { points in
            Self.measure(points: points, width: cloud.width, height: cloud.height,
                         camera: isCamera(cloud, points: points)).estimate
        }
    }

    /// The estimate, and for depth in steps at object scale the smoothed points it measured the
    /// roughness on (the detection runs on the same).
    private static func measure(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                                camera: Bool) -> (estimate: DepthNoiseEstimate?, smoothed: ContiguousArray<SIMD3<Float>>?) {
        // A camera image is detected with 20-pixel cells, so its noise is measured at that scale
        // (one cell in four, every other pixel: 100 points a block, a sixteenth of the frame);
        // another grid's cell size follows from its noise, measured on 6-pixel blocks (one in
        // nine, every pixel). So does a camera image finer and less noisy than any depth camera's.
        func grid(_ points: UnsafeBufferPointer<SIMD3<Float>>) -> DepthNoiseEstimate? {
            DepthNoiseEstimate.measure(points: points, width: width, height: height, rays: false,
                                       blockSide: 6, blockStride: 3, pixelStep: 1)
        }
        var estimate = camera
            ? DepthNoiseEstimate.measure(points: points, width: width, height: height, rays: true,
                                         blockSide: 20, blockStride: 2, pixelStep: 2)
            : grid(points)
        guard estimate != nil else { return (nil, nil) }
        // A camera image as coarse as a depth camera's is at room scale whatever its noise: its
        // depth steps are not measured (room-scale cells need no smoothing), which keeps the
        // measurement of a VGA frame as cheap as it was.
        guard !estimate!.isCamera || estimate!.isFinelySampled else { return (estimate, nil) }
        let step = DepthQuantization.measureStep(points: points, width: width, height: height) ?? 0
        estimate!.depthStep = step
        // A camera image this fine is judged on the 6-pixel blocks too: on a busy tabletop many
        // 20-pixel blocks straddle folds, and their residuals read as noise.
        if camera, var fine = grid(points) {
            fine.isCamera = true
            fine.depthStep = step
            if fine.isObjectScale { estimate = fine }
        }
        guard estimate!.isObjectScale else { return (estimate, nil) }
        guard step > 0 else { return (estimate, nil) }
        let smoothed = DepthQuantization.dequantized(points: points, width: width, height: height, step: step)
        estimate!.smoothedRoughness = smoothed.withUnsafeBufferPointer { grid($0)?.roughness }
        return (estimate, smoothed)
    }

    /// `true` when the cloud is a camera's image: it has intrinsics, or its points follow a
    /// pinhole projection (``FocalLengthEstimate``). Noise then grows with depth along the rays.
    private func isCamera(_ cloud: PointCloud, points: UnsafeBufferPointer<SIMD3<Float>>) -> Bool {
        cloud.intrinsics != nil
            || FocalLengthEstimate.estimate(points: points, width: cloud.width, height: cloud.height) != nil
    }

    private func detect(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                        intrinsics: PinholeIntrinsics?, configuration c: Configuration,
                        dequantized: ContiguousArray<SIMD3<Float>>? = nil,
                        measuredPoints: UnsafeBufferPointer<SIMD3<Float>>? = nil) -> PlaneDetectionResult {
        if c.depthStep > 0 {
            // Everything from the cells to the final fits sees the smoothed staircase.
            var flat = c
            flat.depthStep = 0
            let smoothed = dequantized
                ?? DepthQuantization.dequantized(points: points, width: width, height: height, step: c.depthStep)
            var result = smoothed.withUnsafeBufferPointer {
                detect(points: $0, width: width, height: height, intrinsics: intrinsics, configuration: flat,
                       measuredPoints: points)
            }
            result.sensorSettings?.depthStep = c.depthStep
            return result
        }
        // The label image first holds the validity flags of the cell pass, then the labels. The
        // cell pass writes every pixel, so the image is not cleared first.
        var refinement: PixelRefinement? = nil
        var validPointCount = 0
        var labels = ContiguousArray<UInt16>(unsafeUninitializedCapacity: width * height) { out, initialized in
            var grid = CellGrid(points: points, width: width, height: height, configuration: c, validity: out)
            validPointCount = grid.validPointCount
            let growing = RegionGrowing(grid: &grid, configuration: c)
            var pixels = PixelRefinement(points: points, width: width, height: height, grid: grid,
                                         growing: growing, configuration: c, labels: out)
            if c.splitsDisconnected {
                FaceLabelling.label(out, refined: &pixels, points: points, measuredPoints: measuredPoints ?? points,
                                    width: width, height: height, configuration: c)
            }
            refinement = pixels
            initialized = width * height
        }
        guard let refinement else {
            var empty = PlaneDetectionResult(planes: [], labels: labels, width: width, height: height,
                                             validPointCount: validPointCount)
            empty.sensorSettings = SensorSettings(of: c)
            return empty
        }

        // Final fits on the labelled pixels; small planes are dropped, the rest sorted by size.
        struct Final { var region: Int; var fit: FastPlaneFit; var count: Int }
        var finals: [Final] = []
        for (r, moments) in refinement.moments.enumerated() where moments.count >= c.minimumPointsPerPlane {
            if let fit = FastPlaneFit(moments, noise: refinement.noise[r]) {
                finals.append(Final(region: r, fit: fit, count: moments.count))
            }
        }
        finals.sort { $0.count != $1.count ? $0.count > $1.count : $0.region < $1.region }

        // Relabel: label l → its region's rank + 1, dropped regions → 0. Labels usually follow
        // the regions' sizes already, so only dropped regions (or none) change label, and only
        // the rectangle holding the changed labels' pixels is rewritten.
        var rankOfRegion = [Int](repeating: -1, count: refinement.moments.count)
        for (rank, final) in finals.enumerated() { rankOfRegion[final.region] = rank }
        var map = [UInt16](repeating: 0, count: refinement.regionOfLabel.count)
        var lower = SIMD2<Int32>(Int32.max, Int32.max), upper = SIMD2<Int32>(-1, -1)
        for (label, r) in refinement.regionOfLabel.enumerated() where r >= 0 {
            map[label] = UInt16(rankOfRegion[r] + 1)
            if Int(map[label]) != label {
                lower = pointwiseMin(lower, refinement.minimum[r])
                upper = pointwiseMax(upper, refinement.maximum[r])
            }
        }
        if lower.x <= upper.x && lower.y <= upper.y {
            map.withUnsafeBufferPointer { table in
                labels.withUnsafeMutableBufferPointer { out in
                    for v in Int(lower.y)...Int(upper.y) {
                        let row = out.baseAddress! + v &* width
                        for u in Int(lower.x)...Int(upper.x) { row[u] = table[Int(row[u])] }
                    }
                }
            }
        }

        let focal: SIMD2<Float>? = intrinsics.map { SIMD2($0.fx, $0.fy) }
            ?? FocalLengthEstimate.estimate(points: points, width: width, height: height)
        var planes: [DetectedPlane] = []
        planes.reserveCapacity(finals.count)
        var samples = ContiguousArray<SIMD3<Float>>()
        for (rank, final) in finals.enumerated() {
            let label = UInt16(rank + 1)
            let plane = final.fit.plane(facing: .zero)
            // A regular subsample: every s-th pixel in both directions, s a power of two.
            var stride = 1
            while final.count / (stride * stride) > c.maximumDescribedPoints { stride *= 2 }
            let lower = refinement.minimum[final.region], upper = refinement.maximum[final.region]
            samples.removeAll(keepingCapacity: true)
            var cubedDepths: Float = 0
            labels.withUnsafeBufferPointer { labelBuffer in
                var v = Int(lower.y)
                while v <= Int(upper.y) {
                    var u = Int(lower.x)
                    let row = v * width
                    while u <= Int(upper.x) {
                        if labelBuffer[row + u] == label {
                            let p = points[row + u]
                            samples.append(p)
                            cubedDepths += p.z * p.z * p.z
                        }
                        u += stride
                    }
                    v += stride
                }
            }
            // The area the pixels cover (each pixel's footprint on the plane, z³/(fx·fy·d)),
            // which does not depend on how densely the describer's subsample fills its grid.
            var area: Float? = nil
            if let focal, abs(plane.offset) > 1e-3 {
                area = Float(stride * stride) * cubedDepths / (focal.x * focal.y * abs(plane.offset))
            }
            // Outline cells about twice the spacing of the subsample on the plane, so that a
            // sparse subsample (a big or steeply seen plane) still traces a closed outline.
            var cellSize: Float = 0.01
            if let area, final.count > 0 {
                cellSize = max(cellSize, 2 * Float(stride) * (area / Float(final.count)).squareRoot())
            }
            let describer = PlaneDescriber(up: c.up, alignmentTolerance: c.alignmentTolerance, minimumCellSize: cellSize,
                                           maximumGridSide: c.outlineGridSide)
            guard var described = describer.describe(label: Int(label), plane: plane, points: samples,
                                                     pointCount: final.count) else { continue }
            described.centroid = SIMD3<Float>(final.fit.centroid)
            described.rmsError = Float(final.fit.meanSquaredError.squareRoot())
            if let area { described.area = area }
            planes.append(described)
        }
        // A plane the describer could not describe (cannot happen with ≥ 3 points) would leave
        // a gap in the numbering; renumber defensively.
        if planes.count != finals.count {
            var remap = [UInt16](repeating: 0, count: finals.count + 1)
            for (index, plane) in planes.enumerated() {
                remap[plane.label] = UInt16(index + 1)
                planes[index].label = index + 1
            }
            for i in labels.indices { labels[i] = remap[Int(labels[i])] }
        }
        c.classifier.classify(&planes, up: c.up)
        var result = PlaneDetectionResult(planes: planes, labels: labels, width: width, height: height,
                                          validPointCount: validPointCount)
        result.sensorSettings = SensorSettings(of: c)
        return result
    }
}
