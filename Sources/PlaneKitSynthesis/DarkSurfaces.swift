import PlaneKitSeededRandom
/// Dark or glossy faces of a structured-light scanner's scene: they send back little of the
/// projected light, so the scanner loses readings on them, in blobs and isolated speckles, and
/// the readings it keeps are noisier.
///
/// Each face of a frame is dark with probability ``fraction``, drawn once per frame from the
/// noise seed in face order; a dark face draws its dropout rate from ``dropout`` and its noise
/// factor from ``noiseFactor`` (both uniform). On a dark face a reading is lost
/// - in blobs: where a smooth random field (bilinear between uniform values on a lattice of
///   ``blobSize``-pixel cells, drawn once per frame) lies below its own quantile of
///   `(1 − speckleShare) · rate` over the image, so blobs take that share of the face on average;
/// - in speckles: elsewhere, independently per pixel, with the probability that brings the
///   face's total to its rate;
/// and a kept reading's independent Gaussian depth noise (``SimulatedSensor/noise``, not the
/// ``SimulatedSensor/ripple``) is multiplied by the face's factor.
///
/// Measured on SegComp's ABW dev images 0–9 (faces of ≥ 150 px, the noise as the RMS depth
/// residual about each ground-truth face's fitted plane after a 9 × 9-pixel local mean): 4% of
/// the object faces below 70° incidence and 9% of all faces are ×2.2–7 noisier than the median
/// face (0.64 mm), some by 4.5 mm RMS, and objects of black material return nothing at all. ABW's
/// ground truth labels only pixels with a reading, so how many readings a dark face loses cannot
/// be read off its labels (its holes and speckles are left unlabelled; inside the labelled faces
/// at most 3% are lost): the 5–30% of the defaults and of ``SimulatedSensor/scanner`` sit
/// between the speckled faces and the vanished ones. The dark faces' extra noise is independent
/// from pixel to pixel: the RMS difference of neighbouring residuals is 0.8–1.3 × √2 times the
/// local RMS, as for white noise.
public struct DarkSurfaces: Sendable, Hashable {
    /// Share of the faces that are dark.
    public var fraction: Float
    /// Share of a dark face's readings that are lost (uniform over the range, per face).
    public var dropout: ClosedRange<Float>
    /// Factor on a dark face's independent Gaussian depth noise (uniform over the range, per face).
    /// The defaults suit ``SimulatedSensor/scanner``'s 0.25 mm: 1.4–4 mm RMS with its ripple and
    /// steps, as on ABW's dark faces.
    public var noiseFactor: ClosedRange<Float>
    /// Side of the random field's lattice cells (pixels): about the size of a blob.
    public var blobSize: Int
    /// Part of the dropouts that are isolated pixels rather than blobs.
    public var speckleShare: Float

    /// Dark surfaces from their parts.
    public init(fraction: Float = 0.1, dropout: ClosedRange<Float> = 0.05...0.3, noiseFactor: ClosedRange<Float> = 5...16,
                blobSize: Int = 6, speckleShare: Float = 0.4) {
        self.fraction = fraction
        self.dropout = dropout
        self.noiseFactor = noiseFactor
        self.blobSize = max(1, blobSize)
        self.speckleShare = min(max(speckleShare, 0), 1)
    }

    /// What one face of a frame is like.
    public struct Face: Sendable, Hashable {
        /// Share of its readings lost (0 for a bright face).
        public var dropout: Float
        /// Factor on its Gaussian depth noise (1 for a bright face).
        public var noiseFactor: Float

        /// A bright face: every reading kept, the sensor's own noise.
        public static let bright = Face(dropout: 0, noiseFactor: 1)
    }

    /// The stream of a frame's noise seed the faces are drawn from.
    static let faceStream: UInt64 = 5
    /// The stream the blob field is drawn from.
    static let fieldStream: UInt64 = 6

    /// What each of `count` faces (surface order) is like in the frame rendered with `noiseSeed`;
    /// the renderer draws the same. Three draws per face, dark or not, so that a face's lot does
    /// not depend on the faces before it.
    public func faces(count: Int, noiseSeed: UInt64) -> [Face] {
        var random = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: DarkSurfaces.faceStream))
        return (0..<count).map { _ in
            let dark = random.nextUnit() < Double(fraction)
            let rate = random.uniform(dropout), factor = random.uniform(noiseFactor)
            return dark ? Face(dropout: rate, noiseFactor: factor) : .bright
        }
    }

    /// How the renderer loses readings on one face: below `blobThreshold` of the field, or with
    /// probability `speckle` elsewhere.
    struct Loss {
        var dropout: Float
        var blobThreshold: Float
        var speckle: Double
        var noiseFactor: Float
    }

    /// The per-face losses for a frame whose blob field is `field`: each blob threshold is the
    /// field's quantile (over a lattice of every fourth pixel) of the face's blob share.
    func losses(of faces: [Face], field: HoleField, width: Int, height: Int) -> ContiguousArray<Loss> {
        var samples = ContiguousArray<Float>()
        samples.reserveCapacity((width / 4 + 1) * (height / 4 + 1))
        for v in stride(from: 0, to: height, by: 4) {
            for u in stride(from: 0, to: width, by: 4) { samples.append(field.value(u: u, v: v)) }
        }
        samples.sort()
        return ContiguousArray(faces.map { face in
            guard face.dropout > 0, !samples.isEmpty else { return Loss(dropout: 0, blobThreshold: -1, speckle: 0, noiseFactor: face.noiseFactor) }
            let blob = (1 - speckleShare) * face.dropout
            let threshold = samples[min(Int(blob * Float(samples.count)), samples.count - 1)]
            // The speckles fall on the pixels the blobs leave: together they lose `dropout`.
            let speckle = Double(face.dropout - blob) / Double(max(1 - blob, 1e-6))
            return Loss(dropout: face.dropout, blobThreshold: threshold, speckle: speckle, noiseFactor: face.noiseFactor)
        })
    }
}
