import PlaneKitSeededRandom
/// The deterministic and table-driven part of the sensor model on one image row, eight pixels at
/// a time with no branch per pixel: range test, the grazing-angle verdict the ray cast left in
/// the surface index, the 4-neighbour depth-discontinuity test, noise from ``GaussianTables``,
/// and disparity quantisation `round(b·f / (z·step))`.
///
/// The random choices that touch few pixels (edge drops, dropouts) are made afterwards by the
/// renderer, in pixel order, on the rows this pass leaves.
struct SensorRowPass {
    let minimumRange: Float, maximumRange: Float
    /// Whether discontinuities are marked at all (a finite jump and a positive drop chance).
    let marksEdges: Bool
    let relativeJump: Float
    /// Whether depth noise is added.
    let noisy: Bool
    let noiseConstant: Float, noiseQuadratic: Float, noiseReferenceDepth: Float
    /// `b·f / step`, so that the disparity in steps is `disparityScale / z`; 0 without quantisation.
    let disparityScale: Float
    /// ``DisparityQuantiser/tableSize``: step counts at or beyond it are not in the tables.
    static let tableSize = Int32(DisparityQuantiser.tableSize)

    init(sensor: SensorModel, focalLength f: Float) {
        minimumRange = sensor.minimumRange
        maximumRange = sensor.maximumRange
        marksEdges = sensor.discontinuityRelativeJump < .infinity && sensor.discontinuityDropProbability > 0
        relativeJump = sensor.discontinuityRelativeJump
        noisy = sensor.noiseConstant != 0 || sensor.noiseQuadratic != 0
        noiseConstant = sensor.noiseConstant
        noiseQuadratic = sensor.noiseQuadratic
        noiseReferenceDepth = sensor.noiseReferenceDepth
        disparityScale = sensor.disparityStep > 0 ? sensor.baseline * f / sensor.disparityStep : 0
    }

    /// Whether readings are whole numbers of disparity steps.
    var quantises: Bool { disparityScale > 0 }

    /// The rows one pass reads and writes. Every pointer is at pixel 0 of its row; the depth
    /// rows must be readable from index −1 to `count` rounded up to 8 (inclusive), the others
    /// from 0 to `count` rounded up to 8 (exclusive). Beyond the image, the depth rows repeat
    /// the nearest pixel, so that the image border is no discontinuity.
    struct Rows {
        /// Ideal depth of this row and of the rows above and below (this row again at the
        /// image's top and bottom edge).
        let centre: UnsafePointer<Float>, above: UnsafePointer<Float>, below: UnsafePointer<Float>
        /// Surface index per pixel: negative where the sensor cannot read (nothing hit, or hit
        /// at a grazing angle, see ``RayCastBuffers``).
        let surface: UnsafePointer<Int32>
        /// The noise tables at this row's offsets (``GaussianTables``).
        let firstNoise: UnsafePointer<Float>, firstOffset: Int
        let secondNoise: UnsafePointer<Float>, secondOffset: Int
        /// Output: the reading's depth (m), NaN for none.
        let measured: UnsafeMutablePointer<Float>
        /// Output when quantising: the reading's whole number of disparity steps, 0 for none.
        let steps: UnsafeMutablePointer<Int32>
        /// Output: −1 where a reading sits at a depth discontinuity, else 0.
        let edges: UnsafeMutablePointer<Int32>
        /// Pixels in the row.
        let count: Int
    }

    /// Runs the pass over one row; `true` when some reading's step count is at or beyond
    /// ``tableSize`` (the caller then computes those depths).
    func run(_ rows: Rows) -> Bool {
        let mask = GaussianTables.count &- 1
        // Every constant as whole lanes: a comparison of lanes with a scalar, or `clamped`,
        // compiles to a loop over the lanes.
        let scale = FloatLanes(repeating: Float(0.5).squareRoot())
        let zeros = IntLanes(repeating: 0), tableSize = IntLanes(repeating: SensorRowPass.tableSize)
        let largestDisparity = FloatLanes(repeating: 0x1p22)
        var beyondTable = LaneMask(repeating: false)
        var u = 0
        while u < rows.count {
            let z = rows.centre.lanes(at: u)
            let surface = rows.surface.lanes(at: u)
            var readable = (surface .>= zeros) .& (z .>= minimumRange) .& (z .<= maximumRange)
            var measured = z
            if noisy {
                let g = (rows.firstNoise.lanes(at: (rows.firstOffset &+ u) & mask)
                         + rows.secondNoise.lanes(at: (rows.secondOffset &+ u) & mask)) * scale
                let e = z - noiseReferenceDepth
                measured = z + (noiseConstant + noiseQuadratic * e * e) * g
                readable .&= measured .> 0
            }
            if quantises {
                // Disparity in steps, capped so that the rounding trick stays exact (readings
                // have a positive one); a count beyond the tables is flagged and recomputed
                // by the caller.
                var disparity = disparityScale / measured
                disparity.replace(with: largestDisparity, where: disparity .> largestDisparity)
                let steps = disparity.roundedToInt
                readable .&= steps .> zeros
                beyondTable .|= readable .& (steps .>= tableSize)
                rows.steps.store(steps.replacing(with: zeros, where: .!readable), at: u)
            }
            rows.measured.store(measured.replacing(with: .nan, where: .!readable), at: u)
            var edges = zeros
            if marksEdges {
                let limit = relativeJump * z
                // `!(|Δ| ≤ limit)`: a neighbour that sees nothing (∞) is a discontinuity too.
                let smooth = ((rows.centre.lanes(at: u &- 1) - z).laneMagnitude .<= limit)
                    .& ((rows.centre.lanes(at: u &+ 1) - z).laneMagnitude .<= limit)
                    .& ((rows.above.lanes(at: u) - z).laneMagnitude .<= limit)
                    .& ((rows.below.lanes(at: u) - z).laneMagnitude .<= limit)
                edges.replace(with: IntLanes(repeating: -1), where: readable .& .!smooth)
            }
            rows.edges.store(edges, at: u)
            u &+= 8
        }
        return any(beyondTable)
    }
}
