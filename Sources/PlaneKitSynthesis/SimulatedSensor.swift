import PlaneKitGeometry

/// A simulated depth sensor other than the Kinect, for `planekit synth --sensor`: its pixel grid,
/// what it can measure and how its readings are corrupted, every parameter visible so that tests
/// can use the true noise. (The detector's own `SensorProfile` only says how noisy data is;
/// this one makes the data.)
///
/// ``SimulatedSensorRenderer`` applies it per pixel, in this order, to the nearest surface the
/// pixel's ray meets at depth `z`:
/// 1. no reading when `z` is outside ``minimumRange``…``maximumRange``, or when the ray meets
///    the surface at more than ``maximumIncidenceDegrees`` from its normal;
/// 2. no reading when ``secondViewpoint`` (projector or second imager) cannot see the point:
///    it faces away, is occluded, or falls outside that camera's image;
/// 3. no reading where ``stereoHoles`` says matching fails (grazing or faded, in blobs);
/// 4. no reading, progressively, at the grazing angles of ``grazing``;
/// 5. no reading in the blobs and speckles of a dark face (``darkSurfaces``);
/// 6. no reading with probability ``dropoutRate``;
/// 7. Gaussian noise along the depth: the smooth ``ripple`` plus independent noise of
///    σ = ``noise``.`sigma(atDepth: z)` times the dark face's factor and the grazing growth;
/// 8. with ``spikes``, a decoding error moves the reading (and perhaps its right-hand
///    neighbour's) centimetres off the surface;
/// 9. the depth rounded to the nearest multiple of ``depthStep`` (an 8-bit range);
/// 10. with ``flyingPixels``, readings at depth edges may float between the two surfaces
///    (label 0).
/// No reading gives NaN coordinates and label 0 in the frame; depth images write it as 0 or
/// 65535 (`synth --invalid-value`).
///
/// The Kinect keeps its own ``SensorModel`` and the faster ``SyntheticRenderer``.
public struct SimulatedSensor: Sendable, Hashable {
    /// The kind of scene the sensor is made for.
    public enum Setting: String, Sendable, Hashable, CaseIterable {
        /// A furnished room (``SyntheticRoom``) seen from head height.
        case room
        /// Polyhedral objects on a table (``TabletopScene``) seen from about 1 m.
        case tabletop
    }

    /// A short name (`scanner`, `tof`, `realsense`).
    public var name: String
    /// The pixel grid.
    public var grid: SensorGrid
    /// The scene this sensor is meant for.
    public var setting: Setting
    /// Nearest depth measured (m).
    public var minimumRange: Float
    /// Farthest depth measured (m).
    public var maximumRange: Float
    /// Largest angle between the camera ray and the surface normal that still returns depth
    /// (degrees).
    public var maximumIncidenceDegrees: Float
    /// The depth noise.
    public var noise: DepthNoise
    /// Probability of losing any reading.
    public var dropoutRate: Float
    /// The projector or second imager that must see a point too, when the sensor triangulates.
    public var secondViewpoint: SecondViewpoint?
    /// Mixed depths at edges (time-of-flight).
    public var flyingPixels: FlyingPixels?
    /// Matching failures of an active stereo camera.
    public var stereoHoles: StereoHoles?
    /// Readings lost and noisier at grazing angles, before the cut at ``maximumIncidenceDegrees``.
    public var grazing: GrazingFalloff?
    /// Dark or glossy faces: dropouts in blobs and speckles, more noise.
    public var darkSurfaces: DarkSurfaces?
    /// Depth noise correlated between neighbouring pixels, added to ``noise``.
    public var ripple: DepthRipple?
    /// A structured-light scanner's decoding errors.
    public var spikes: DecodingSpikes?
    /// The depth's quantisation step along the ray's depth, camera +Z (m): readings are
    /// multiples of it, as from a range image of a few bits. 0 keeps depths continuous.
    public var depthStep: Float

    /// A simulated sensor from its parts.
    public init(name: String, grid: SensorGrid, setting: Setting, minimumRange: Float, maximumRange: Float,
                maximumIncidenceDegrees: Float, noise: DepthNoise, dropoutRate: Float, secondViewpoint: SecondViewpoint? = nil,
                flyingPixels: FlyingPixels? = nil, stereoHoles: StereoHoles? = nil, grazing: GrazingFalloff? = nil,
                darkSurfaces: DarkSurfaces? = nil, ripple: DepthRipple? = nil, spikes: DecodingSpikes? = nil,
                depthStep: Float = 0) {
        self.name = name
        self.grid = grid
        self.setting = setting
        self.minimumRange = minimumRange
        self.maximumRange = maximumRange
        self.maximumIncidenceDegrees = maximumIncidenceDegrees
        self.noise = noise
        self.dropoutRate = dropoutRate
        self.secondViewpoint = secondViewpoint
        self.flyingPixels = flyingPixels
        self.stereoHoles = stereoHoles
        self.grazing = grazing
        self.darkSurfaces = darkSurfaces
        self.ripple = ripple
        self.spikes = spikes
        self.depthStep = max(depthStep, 0)
    }

    /// The scanner's pixel spacing on its orthographic grid (m): 512 pixels span 41 cm.
    public static let scannerSpacing: Float = 0.0008

    /// The depth step of SegComp's ABW range images (m): 8-bit range values 1/SCAL ≈ 1.29 mm apart.
    public static let scannerDepthStep: Float = 0.0013

    /// A tabletop structured-light range scanner like those of the ABW and Perceptron range-image
    /// benchmarks: a 512 × 512 range image on a grid regular in camera X/Y (0.8 mm spacing, no
    /// pinhole intrinsics) of objects about 1 m away, with what SegComp's ABW dev images 0–9 show:
    /// - depths in steps of 1.3 mm (``scannerDepthStep``) on top of Gaussian noise of σ = 0.25 mm
    ///   per pixel and a ``DepthRipple`` of 0.5 mm on 3-pixel (2.4 mm) cells: on ABW's faces
    ///   within 30° of facing the scanner neighbouring depths are equal in 73% of the pairs and a
    ///   step apart in 25%, and flat bright faces of objects (500–20 000 px, < 70° incidence)
    ///   scatter 0.63 mm RMS in depth about their plane at the pixel scale (the median face, after
    ///   a 9 × 9-pixel local mean; 0.88 mm about the whole face's fitted plane, which adds the real
    ///   faces' own unflatness); here √(0.25² + 0.5² + 1.3²/12) = 0.66 mm;
    /// - 10% of the faces dark (``DarkSurfaces``): 5–30% of their readings lost in blobs and
    ///   speckles and ×5–16 independent noise, 1.4–4 mm RMS in all, ×2–6 a bright face's (ABW: 4%
    ///   of the object faces below 70° and 9% of all faces are ×2.2–7 noisier than the median,
    ///   1.4–4.5 mm, and black objects return nothing at all);
    /// - readings lost and noisier from 70° incidence on (``GrazingFalloff``: up to half lost and
    ///   ×10 independent noise at 85°, 2.6 mm RMS in all, then none; ABW's faces at 70–75°,
    ///   75–80° and 80–90° are ×1.3, ×1.5 and ×7 noisier than those facing the scanner);
    /// - shadow holes where the projector, 25 cm to the camera's right (+X), cannot light the
    ///   surface: each object's shadow falls to its left, as in ABW;
    /// - 0.1% dropouts anywhere;
    /// - decoding spikes (``DecodingSpikes``, its defaults): 0.05% of the readings, up to 2% at
    ///   85°, 6–80 mm off, one in eight taking its right-hand neighbour along.
    public static let scanner = SimulatedSensor(
        name: "scanner", grid: .orthographic(width: 512, height: 512, spacing: scannerSpacing), setting: .tabletop,
        minimumRange: 0.5, maximumRange: 1.6, maximumIncidenceDegrees: 85, noise: DepthNoise(constant: 0.00025),
        dropoutRate: 0.001, secondViewpoint: SecondViewpoint(position: SIMD3(0.25, 0, 0), maximumIncidenceDegrees: 85),
        grazing: GrazingFalloff(start: 70, end: 85, loss: 0.5, noiseGrowth: 10),
        darkSurfaces: DarkSurfaces(fraction: 0.1, dropout: 0.05...0.3, noiseFactor: 5...16), ripple: DepthRipple(sigma: 0.0005, cell: 3),
        spikes: DecodingSpikes(), depthStep: scannerDepthStep)

    /// ``scanner`` with a pinhole camera instead (512 × 512, f = 1250 px: the same 0.8 mm pixels
    /// at 1 m, a 23° field of view), for tools that need intrinsics or a depth image.
    public static let scannerPinhole: SimulatedSensor = {
        var profile = scanner
        profile.grid = .pinhole(PinholeIntrinsics(fx: 1250, fy: 1250, cx: 255.5, cy: 255.5, width: 512, height: 512)
            ?? .kinect(width: 512, height: 512))
        return profile
    }()

    /// A time-of-flight camera like the Azure Kinect in its narrow unbinned mode: 640 × 576,
    /// f = 504 px, 0.5–3.86 m; σ = 1.5 mm + 0.35% of the depth (5 mm at 1 m, 15.5 mm at 4 m),
    /// 0.3% dropouts, no reading beyond 80° incidence, and flying pixels at depth edges of more
    /// than 5 cm (60% of them).
    public static let tof = SimulatedSensor(
        name: "tof",
        grid: .pinhole(PinholeIntrinsics(fx: 504, fy: 504, cx: 319.5, cy: 287.5, width: 640, height: 576)
            ?? .kinect(width: 640, height: 576)),
        setting: .room, minimumRange: 0.5, maximumRange: 3.86, maximumIncidenceDegrees: 80,
        noise: DepthNoise(constant: 0.0015, linear: 0.0035), dropoutRate: 0.003, flyingPixels: FlyingPixels(jump: 0.05, probability: 0.6))

    /// The RealSense D4xx-like focal length at 848 × 480 (pixels).
    public static let realsenseFocalLength: Float = 430
    /// The RealSense D4xx-like stereo baseline (m).
    public static let realsenseBaseline: Float = 0.05
    /// The RealSense D4xx-like matching error (pixels of disparity, one σ).
    public static let realsenseSubpixel: Float = 0.08

    /// An active stereo camera like the RealSense D435: 848 × 480, f = 430 px, 50 mm baseline,
    /// σ_z = z² · 0.08 / (f · b) (3.7 mm at 1 m, 15 mm at 2 m), depth referenced to the left
    /// imager, so the right imager's occlusions and the left band it does not see (`f · b / z`
    /// pixels wide) have no reading; holes in blobs at grazing angles and far away
    /// (``StereoHoles``), 0.2% dropouts, 0.3–10 m.
    public static let realsense: SimulatedSensor = {
        let k = PinholeIntrinsics(fx: realsenseFocalLength, fy: realsenseFocalLength, cx: 423.5, cy: 239.5, width: 848, height: 480)
            ?? .kinect(width: 848, height: 480)
        return SimulatedSensor(
            name: "realsense", grid: .pinhole(k), setting: .room, minimumRange: 0.3, maximumRange: 10, maximumIncidenceDegrees: 85,
            noise: .stereo(subpixel: realsenseSubpixel, focalLength: realsenseFocalLength, baseline: realsenseBaseline),
            dropoutRate: 0.002,
            secondViewpoint: SecondViewpoint(position: SIMD3(realsenseBaseline, 0, 0), maximumIncidenceDegrees: 85, intrinsics: k),
            stereoHoles: StereoHoles())
    }()

    /// This sensor with every imperfection off: the exact depth of every surface the pixel's
    /// ray meets, at any range and angle, no holes, no noise and no quantisation (the grid stays).
    public var ideal: SimulatedSensor {
        SimulatedSensor(name: name, grid: grid, setting: setting, minimumRange: 0, maximumRange: .infinity, maximumIncidenceDegrees: 90,
                      noise: .none, dropoutRate: 0)
    }

    /// The standard deviation of the depth noise at depth `z` (m): ``noise`` and ``ripple``
    /// together, before quantisation and the dark faces' and grazing angles' growth.
    public func depthSigma(atDepth z: Float) -> Float { depthSigma(atDepth: z, independentFactor: 1) }

    /// The standard deviation of the depth noise at depth `z` (m) when the independent part,
    /// ``noise``, is multiplied by `factor` (a dark face's, a grazing angle's growth) and the
    /// ``ripple`` is not, before quantisation.
    public func depthSigma(atDepth z: Float, independentFactor factor: Float) -> Float {
        let sigma = factor * noise.sigma(atDepth: z)
        guard let ripple else { return sigma }
        return (sigma * sigma + ripple.sigma * ripple.sigma).squareRoot()
    }
}
