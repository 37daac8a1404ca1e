#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of sensor behind an organized cloud, which sets the detector's noise model and scale.
///
/// Every distance threshold of ``OrganizedPlaneDetector`` is a multiple of the depth noise, and
/// the grid cell decides the smallest face it can find. A Kinect at room scale wants 20-pixel
/// cells and centimetre tolerances; a tabletop scanner whose faces are 300 pixels and whose noise
/// is half a millimetre wants cells a few pixels wide and millimetre tolerances. A profile fixes
/// ``OrganizedPlaneDetector/Configuration/noise``, ``OrganizedPlaneDetector/Configuration/cellSize``,
/// ``OrganizedPlaneDetector/Configuration/minimumPointsPerPlane`` and
/// ``OrganizedPlaneDetector/Configuration/mergeTolerance`` for the frame being detected.
public enum SensorProfile: String, Sendable, Hashable, Codable, CaseIterable {
    /// Measure the noise from the frame itself (``DepthNoiseEstimate``) and choose the cell size
    /// from how rough the data is at the scale of a pixel. The default.
    case auto
    /// A Kinect-class structured-light camera: σ = 1.2 mm + 1.9 mm·(z − 0.4 m)²/m², 20-pixel cells.
    case kinect
    /// An active stereo camera such as a RealSense D4xx: σ = 0.5 mm + 4 mm·z²/m² (0.08-pixel
    /// subpixel disparity, 5 cm baseline), 20-pixel cells.
    case realsense
    /// A time-of-flight camera: σ = 3 mm + 0.8 mm·z²/m², 20-pixel cells.
    case tof
    /// A tabletop structured-light or laser range scanner: σ = 0.5 mm at any depth, points
    /// straying 0.3 mm across their rays at 1 m, 6-pixel cells, faces from 150 points, 2 mm
    /// merge tolerance.
    case scanner
    /// Use the configuration's own noise, cell size, minimum plane size and merge tolerance.
    case custom

    /// The settings this profile fixes, or `nil` for ``auto`` and ``custom``.
    public var settings: SensorSettings? {
        switch self {
        case .auto, .custom:
            return nil
        case .kinect:
            return SensorSettings(noise: .kinect, cellSize: 20, minimumPointsPerPlane: 1500, mergeTolerance: 0.02)
        case .realsense:
            return SensorSettings(noise: DepthNoiseModel(constant: 0.0005, quadratic: 0.004, referenceDepth: 0),
                                  cellSize: 20, minimumPointsPerPlane: 1500, mergeTolerance: 0.02)
        case .tof:
            return SensorSettings(noise: DepthNoiseModel(constant: 0.003, quadratic: 0.0008, referenceDepth: 0),
                                  cellSize: 20, minimumPointsPerPlane: 1500, mergeTolerance: 0.02)
        case .scanner:
            return SensorSettings(noise: DepthNoiseModel(constant: 0.0005, quadratic: 0, referenceDepth: 0),
                                  cellSize: 6, minimumPointsPerPlane: 150, mergeTolerance: 0.002, lateralNoise: 0.0003,
                                  splitsDisconnected: true)
        }
    }
}

extension SensorProfile {
    /// The camera profiles ``auto`` recognises.
    static let cameras: [SensorProfile] = [.kinect, .realsense, .tof]
    /// How far (mean |log ratio| over the frame's depths) a camera's noise may be from the
    /// measured one and still be recognised: a factor of 1.4.
    static let recognitionTolerance: Float = 0.336

    /// The camera profile whose noise model is nearest the measured one over the depths the
    /// frame shows (0.6 to 1.6 times its median depth), if one is within
    /// `recognitionTolerance`; or, when the measurement is noisier than every camera there, the
    /// noisiest camera.
    ///
    /// A frame measures noisier than any depth camera when most of what it sees is curved (a
    /// block on a ball or a cylinder does not fit a plane): taking that as noise would let
    /// curved surfaces pass as planes, so the frame is held to a real camera's noise instead.
    public static func nearestCamera(to estimate: DepthNoiseEstimate) -> SensorProfile? {
        let depths = [0.6, 0.8, 1, 1.25, 1.6].map { Float($0) * estimate.medianDepth }
        var best: (profile: SensorProfile, distance: Float)? = nil
        var noisiest: (profile: SensorProfile, sigma: Float)? = nil
        for profile in cameras {
            let model = profile.settings!.noise
            let distance = depths.map { z in
                abs(log(model.sigma(atDepth: z) / estimate.noise.sigma(atDepth: z)))
            }.reduce(0, +) / Float(depths.count)
            if distance < best?.distance ?? .infinity { best = (profile, distance) }
            let sigma = model.sigma(atDepth: estimate.medianDepth)
            if sigma > noisiest?.sigma ?? 0 { noisiest = (profile, sigma) }
        }
        if let best, best.distance <= recognitionTolerance { return best.profile }
        if let noisiest, estimate.noise.sigma(atDepth: estimate.medianDepth) > noisiest.sigma { return noisiest.profile }
        return nil
    }
}

/// What a ``SensorProfile`` sets in the detector's configuration.
public struct SensorSettings: Sendable, Hashable, Codable {
    /// The depth noise.
    public var noise: DepthNoiseModel
    /// Side of a grid cell in pixels.
    public var cellSize: Int
    /// The fewest labelled pixels a plane may have.
    public var minimumPointsPerPlane: Int
    /// Systematic depth error tolerated when merging regions into one plane (in the cloud's units).
    public var mergeTolerance: Float
    /// The depth step whose staircase is smoothed along the rays before fitting
    /// (``DepthQuantization``), or 0 to fit the depths as measured.
    public var depthStep: Float
    /// How far a point strays across its viewing ray, as a standard deviation per unit of depth
    /// (``OrganizedPlaneDetector/Configuration/lateralNoise``); 0 where only depth is noisy.
    public var lateralNoise: Float
    /// Whether each connected patch of a plane is a plane of its own: at object scale (faces),
    /// not at room scale (one wall on both sides of a pole).
    public var splitsDisconnected: Bool
    /// Why these settings, in a few words: what ``SensorProfile/auto`` saw in the data, or the
    /// profile that fixed them.
    public var reason: String

    /// Settings from their parts.
    public init(noise: DepthNoiseModel, cellSize: Int, minimumPointsPerPlane: Int, mergeTolerance: Float,
                depthStep: Float = 0, lateralNoise: Float = 0, splitsDisconnected: Bool = false, reason: String = "") {
        self.noise = noise
        self.cellSize = cellSize
        self.minimumPointsPerPlane = minimumPointsPerPlane
        self.mergeTolerance = mergeTolerance
        self.depthStep = depthStep
        self.lateralNoise = lateralNoise
        self.splitsDisconnected = splitsDisconnected
        self.reason = reason
    }

    /// Settings are equal when they set the same values, whatever the reason given for them.
    public static func == (a: SensorSettings, b: SensorSettings) -> Bool {
        a.noise == b.noise && a.cellSize == b.cellSize && a.minimumPointsPerPlane == b.minimumPointsPerPlane
            && a.mergeTolerance == b.mergeTolerance && a.depthStep == b.depthStep && a.lateralNoise == b.lateralNoise
            && a.splitsDisconnected == b.splitsDisconnected
    }

    /// Hashes the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(noise)
        hasher.combine(cellSize)
        hasher.combine(minimumPointsPerPlane)
        hasher.combine(mergeTolerance)
        hasher.combine(depthStep)
        hasher.combine(lateralNoise)
        hasher.combine(splitsDisconnected)
    }
}

extension SensorSettings {
    /// The settings a detector configuration holds.
    init(of c: OrganizedPlaneDetector.Configuration) {
        self.init(noise: c.noise, cellSize: c.cellSize, minimumPointsPerPlane: c.minimumPointsPerPlane,
                  mergeTolerance: c.mergeTolerance, depthStep: c.depthStep, lateralNoise: c.lateralNoise,
                  splitsDisconnected: c.splitsDisconnected)
    }

    /// The cell sizes ``SensorProfile/auto`` chooses from for a grid that is not a camera image,
    /// largest first.
    static let scannerCellSizes = [12, 10, 8, 6]
    /// The largest tilt uncertainty (rad) a typical cell's normal may have: the smallest cell
    /// of ``scannerCellSizes`` that stays within it is chosen.
    static let cellNormalBudget: Float = 0.06
    /// How far a scan's points stray across their rays, as a fraction of the point spacing:
    /// the faces of SegComp's ABW development scans seen 75–86° from face-on, whose depth
    /// spread along the rays is mostly this, scatter 0.19–0.37 mm across their planes (median
    /// 0.29 mm) with points 0.46 mm apart.
    static let lateralSpacingFraction: Float = 0.6

    /// The settings ``SensorProfile/auto`` takes from a measured frame.
    ///
    /// - A camera image at room scale (``DepthNoiseEstimate/isObjectScale`` false) whose measured
    ///   noise is that of a known camera, or more than any camera's
    ///   (``SensorProfile/nearestCamera(to:)``), gets that camera's profile: its noise model is the
    ///   published one, steadier than one frame's estimate.
    /// - Any other camera image at room scale (structured light, stereo, time of flight) gets the
    ///   measured noise with the Kinect profile's 20-pixel cells, 1500-pixel planes and 2 cm merge
    ///   tolerance: at room scale the faces worth anchoring are large, and the speed of a VGA frame
    ///   stays.
    /// - Any other organized grid (a scanner's range image, a laser scan, a precise near-pinhole
    ///   scan) is detected at object scale. A k×k cell of points spaced s apart with noise σ has a
    ///   least-squares normal uncertain by about √12·σ / (k²·s): the cell is the smallest of 12,
    ///   10, 8 and 6 pixels within `cellNormalBudget` at the median depth, so faces of a few
    ///   hundred pixels hold enough cells. A plane needs 4 cells' worth of pixels, and regions merge
    ///   across 6σ of systematic error. On a near-pinhole scan (a triangulating camera, whose
    ///   pixels sample somewhere within their footprint) points stray across their rays by
    ///   ``lateralSpacingFraction`` of the point spacing (``lateralNoise``); a grid that is not a
    ///   camera image (a laser scanner's, whose beam directions are known far better than their
    ///   spacing) is taken to have no stray. Depth that comes in steps is smoothed along the rays first
    ///   (``DepthQuantization``), and the cell is chosen from the smoothed roughness.
    public init(measured estimate: DepthNoiseEstimate) {
        guard estimate.isObjectScale else {
            let seen = estimate.summary
            if let known = SensorProfile.nearestCamera(to: estimate) {
                self = known.settings!
                reason = "camera image at room scale (\(seen)); noise nearest the \(known.rawValue) profile"
            } else {
                self.init(noise: estimate.noise, cellSize: 20, minimumPointsPerPlane: 1500, mergeTolerance: 0.02,
                          reason: "camera image at room scale (\(seen)); measured noise, room-scale cells")
            }
            return
        }
        let roughness = estimate.smoothedRoughness ?? estimate.roughness
        var cell = Self.scannerCellSizes[0]
        for k in Self.scannerCellSizes where Float(12).squareRoot() * roughness / Float(k * k) <= Self.cellNormalBudget {
            cell = k
        }
        let what = estimate.isCamera ? "precise near-pinhole scan" : "grid that is not a camera image"
        // A triangulating camera's pixel samples somewhere within its footprint; a laser
        // scanner's beam direction is known far better than its spacing.
        let lateral = estimate.isCamera ? Self.lateralSpacingFraction * estimate.pointSpacing / estimate.medianDepth : 0
        let stray = lateral > 0
            ? "; points taken to stray \(DepthNoiseEstimate.millimetres(lateral * estimate.medianDepth)) across their rays" : ""
        // Quantisation adds its own error: a depth rounded to steps of q is off by up to q/2,
        // uniformly, σ = q/√12, independent of the sensor's noise.
        var noise = estimate.noise
        noise.constant = (noise.constant * noise.constant + estimate.depthStep * estimate.depthStep / 12).squareRoot()
        self.init(noise: noise, cellSize: cell, minimumPointsPerPlane: 4 * cell * cell,
                  mergeTolerance: 6 * noise.sigma(atDepth: estimate.medianDepth), depthStep: estimate.depthStep,
                  lateralNoise: lateral,
                  splitsDisconnected: true,
                  reason: "\(what) (\(estimate.summary)): object scale, cells from the noise over the point spacing\(stray)")
    }
}
