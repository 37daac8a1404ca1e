import PlaneKitSeededRandom
/// Depth noise that is correlated between neighbouring pixels: a smooth random ripple added to
/// every reading, as a structured-light scanner's stripe decoding leaves on a flat face.
///
/// Each frame draws standard normal values on a lattice of ``cell``-pixel cells and interpolates
/// them bilinearly in between; the result, scaled by 1.5 (bilinear weights keep 4/9 of a lattice
/// value's variance on average over a cell), times ``sigma`` is added to the depth, before the
/// pixel's own Gaussian noise. Its RMS over the image is ``sigma``.
///
/// SegComp's ABW dev images need it: on their faces within 30° of facing the scanner,
/// neighbouring depths are equal in 73% of the pairs and one 1.26 mm step apart in 25%, which
/// independent noise matches only with σ ≈ 0.25 mm, yet those faces scatter 0.65 mm RMS about
/// their plane at the pixel scale (after a 9 × 9-pixel local mean) and their rows' and columns'
/// mean residuals 0.22–0.29 mm. Independent σ = 0.25 mm plus a ripple of 0.5 mm on 2 mm cells
/// gives 70% / 30% and 0.60 mm on the same faces (on the
/// scanner's 0.8 mm grid, 3-pixel cells).
public struct DepthRipple: Sendable, Hashable {
    /// RMS of the ripple (m).
    public var sigma: Float
    /// Side of the lattice cells (pixels).
    public var cell: Int

    /// A ripple from its parts.
    public init(sigma: Float, cell: Int) {
        self.sigma = sigma
        self.cell = max(1, cell)
    }

    /// The stream of a frame's noise seed the lattice is drawn from.
    static let stream: UInt64 = 8

    /// The frame's ripple field (unit RMS) for a `width` × `height` grid and `noiseSeed`.
    func field(width: Int, height: Int, noiseSeed: UInt64) -> HoleField {
        var random = SeededRandom(seed: SeededRandom.derivedSeed(noiseSeed, stream: DepthRipple.stream))
        let tables = ZigguratTables.shared
        return HoleField(width: width, height: height, cell: cell) { 1.5 * Float(random.zigguratGaussian(tables)) }
    }
}
