import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSeededRandom

/// Renders frames of a ``SyntheticScene`` through a ``SimulatedSensor``: one ray per pixel of its
/// grid (pinhole or orthographic), the nearest surface, then the sensor's effects in the
/// documented order. Unlike ``SyntheticRenderer`` it handles polygon faces and
/// triangulation from a second viewpoint, at 0.1–0.3 s a frame instead of a few milliseconds.
public struct SimulatedSensorRenderer: Sendable, Hashable {
    /// The simulated sensor.
    public var sensor: SimulatedSensor

    /// A renderer for `sensor`.
    public init(sensor: SimulatedSensor) {
        self.sensor = sensor
    }

    /// Renders `scene` from a camera at `pose` (world-from-camera). `noiseSeed` fixes every
    /// random choice, so the same arguments give a bitwise identical frame. The cloud is in the
    /// camera frame with NaN holes; its `intrinsics` are the grid's (`nil` for an orthographic
    /// grid) and its `sensorPose` is `pose`.
    public func render(_ scene: SyntheticScene, pose: Transform, noiseSeed: UInt64, timestamp: Double = 0) -> SyntheticFrame {
        let grid = sensor.grid, width = grid.width, height = grid.height, count = width * height
        let caster = SceneRayCaster(scene: scene, cameraFromWorld: pose.inverse, grid: grid)
        let (depth, surface) = caster.cast()
        let ids = scene.planes.map(\.id)
        var readings = ContiguousArray<Float>(repeating: .nan, count: count)
        var labels = ContiguousArray<UInt16>(repeating: 0, count: count)

        // Independent streams, so that one effect's draws never shift another's.
        var noiseRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 1))
        var dropRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 2))
        var flyRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 3))
        var fieldRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 4))
        let ziggurat = ZigguratTables.shared
        let cosCamera = SimulatedSensorRenderer.cosine(sensor.maximumIncidenceDegrees)
        let second = sensor.secondViewpoint.map {
            (viewpoint: $0, scene: caster.seen(from: $0.position), cosine: SimulatedSensorRenderer.cosine($0.maximumIncidenceDegrees))
        }
        let holes = sensor.stereoHoles.map { (threshold: $0.threshold, field: HoleField(width: width, height: height, cell: $0.blobSize,
                                                                                          random: &fieldRandom)) }
        let noise = sensor.noise, dropout = Double(sensor.dropoutRate), step = sensor.depthStep
        let ripple = sensor.ripple.map { (sigma: $0.sigma, field: $0.field(width: width, height: height, noiseSeed: noiseSeed)) }
        let grazing = sensor.grazing.map { (ramp: $0.ramp, loss: Double($0.loss), growth: $0.noiseGrowth - 1) }
        var surfaceRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: 7))
        var spikeRandom = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: DecodingSpikes.stream))
        let spikes = sensor.spikes
        let dark = sensor.darkSurfaces.map { model -> (field: HoleField, losses: ContiguousArray<DarkSurfaces.Loss>) in
            var random = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: DarkSurfaces.fieldStream))
            let field = HoleField(width: width, height: height, cell: model.blobSize, random: &random)
            let faces = model.faces(count: scene.planes.count, noiseSeed: noiseSeed)
            return (field, model.losses(of: faces, field: field, width: width, height: height))
        }

        for v in 0..<height {
            // The depth error a spike passes on to the next pixel of its row.
            var carried: Float = 0
            for u in 0..<width {
                let i = v * width + u
                let error = carried
                carried = 0
                let s = Int(surface[i])
                guard s >= 0 else { continue }
                let z = depth[i]
                guard z >= sensor.minimumRange, z <= sensor.maximumRange else { continue }
                let ray = grid.ray(u: u, v: v)
                let p = ray.origin + z * ray.direction
                let n = caster.normal(ofSurface: s, at: p)
                let cosIncidence = abs(dot(n, ray.direction)) / ray.direction.length
                guard cosIncidence >= cosCamera else { continue }
                if let second {
                    guard second.viewpoint.faces(p, normal: n, cosMaximum: second.cosine),
                          !caster.blocks(from: p, to: second.scene, except: s) else { continue }
                }
                if let holes, holes.field.value(u: u, v: v) < holes.threshold(cosIncidence: cosIncidence, depth: z) { continue }
                var noiseFactor: Float = 1
                // How far along the grazing ramp (0 without one): losses, noise and spikes grow with it.
                let grazed = grazing?.ramp(cosIncidence: cosIncidence) ?? 0
                if let grazing, grazed > 0 {
                    if surfaceRandom.nextUnit() < grazing.loss * Double(grazed) { continue }
                    noiseFactor += grazing.growth * grazed
                }
                if let dark, s < dark.losses.count {
                    let loss = dark.losses[s]
                    if loss.dropout > 0,
                       dark.field.value(u: u, v: v) < loss.blobThreshold || surfaceRandom.nextUnit() < loss.speckle { continue }
                    noiseFactor *= loss.noiseFactor
                }
                if dropout > 0, dropRandom.nextUnit() < dropout { continue }
                var reading = z
                if let ripple { reading += ripple.sigma * ripple.field.value(u: u, v: v) }
                if !noise.isZero {
                    reading += noiseFactor * noise.sigma(atDepth: z) * Float(noiseRandom.zigguratGaussian(ziggurat))
                }
                if let spikes {
                    reading += error
                    if error == 0, spikeRandom.nextUnit() < Double(spikes.rate + spikes.grazingRate * grazed) {
                        let draw = Float(spikeRandom.nextUnit())
                        let height = spikes.minimumHeight + (spikes.maximumHeight - spikes.minimumHeight) * draw * draw
                        let spike = spikeRandom.nextUnit() < 0.5 ? -height : height
                        reading += spike
                        if spikeRandom.nextUnit() < Double(spikes.pairChance) { carried = spike }
                    }
                }
                if step > 0 { reading = SensorModel.roundedHalfAwayFromZero(reading / step) * step }
                guard reading > 0 else { continue }
                readings[i] = reading
                labels[i] = s < ids.count ? ids[s] : 0
            }
        }
        if let flying = sensor.flyingPixels {
            SimulatedSensorRenderer.addFlyingPixels(flying, depth: depth, readings: &readings, labels: &labels, width: width,
                                            random: &flyRandom)
        }

        var points = ContiguousArray<SIMD3<Float>>(repeating: SIMD3(repeating: .nan), count: count)
        for v in 0..<height {
            for u in 0..<width where readings[v * width + u].isFinite {
                let ray = grid.ray(u: u, v: v)
                points[v * width + u] = ray.origin + readings[v * width + u] * ray.direction
            }
        }
        var pixelCounts = [Int](repeating: 0, count: scene.planes.count + 1)
        for label in labels { pixelCounts[Int(label)] += 1 }
        let planes = scene.planes.map { FramePlane(truePlane: $0, pose: pose, pixelCount: pixelCounts[Int($0.id)]) }
        // The sizes match by construction, so this cannot throw.
        let cloud = (try? PointCloud(width: width, height: height, points: points, intrinsics: grid.intrinsics, sensorPose: pose))
            ?? PointCloud(unorganized: points)
        return SyntheticFrame(cloud: cloud, labels: labels, planes: planes, pose: pose, timestamp: timestamp)
    }

    /// `cos(degrees)`, bit-identical on every machine; 0 from 90° on (every angle passes).
    static func cosine(_ degrees: Float) -> Float {
        degrees >= 90 ? 0 : Float(DeterministicMath.cos(DeterministicMath.radians(Double(degrees))))
    }

    /// Turns readings at depth edges into flying pixels (see ``FlyingPixels``), judged on the
    /// ideal `depth`, in pixel order.
    static func addFlyingPixels(_ flying: FlyingPixels, depth: ContiguousArray<Float>, readings: inout ContiguousArray<Float>,
                                labels: inout ContiguousArray<UInt16>, width: Int, random: inout SeededRandom) {
        let height = depth.count / max(width, 1)
        let chance = Double(flying.probability)
        for v in 0..<height {
            for u in 0..<width where readings[v * width + u].isFinite {
                let i = v * width + u, z = depth[i]
                var across: Float?
                for (du, dv) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let nu = u + du, nv = v + dv
                    guard nu >= 0, nu < width, nv >= 0, nv < height else { continue }
                    let other = depth[nv * width + nu]
                    guard other.isFinite, abs(other - z) > flying.jump, abs(other - z) > abs((across ?? z) - z) else { continue }
                    across = other
                }
                guard let across, random.nextUnit() < chance else { continue }
                readings[i] += Float(random.nextUnit()) * (across - z)
                labels[i] = 0
            }
        }
    }
}

/// A smooth random field over an image: values on a lattice of `cell`-pixel cells (uniform in
/// [0, 1] unless drawn otherwise), interpolated bilinearly in between.
struct HoleField {
    let cell: Int
    let columns: Int
    let values: ContiguousArray<Float>

    init(width: Int, height: Int, cell: Int, random: inout SeededRandom) {
        self.init(width: width, height: height, cell: cell) { Float(random.nextUnit()) }
    }

    /// A field whose lattice values are `draw()`n in row order instead.
    init(width: Int, height: Int, cell: Int, draw: () -> Float) {
        self.cell = cell
        columns = width / cell + 2
        let rows = height / cell + 2
        values = ContiguousArray((0..<(columns * rows)).map { _ in draw() })
    }

    /// The field at pixel `(u, v)`.
    func value(u: Int, v: Int) -> Float {
        let cu = u / cell, cv = v / cell
        let fu = Float(u - cu * cell) / Float(cell), fv = Float(v - cv * cell) / Float(cell)
        let a = values[cv * columns + cu], b = values[cv * columns + cu + 1]
        let c = values[(cv + 1) * columns + cu], d = values[(cv + 1) * columns + cu + 1]
        return (a + (b - a) * fu) * (1 - fv) + (c + (d - c) * fu) * fv
    }
}
