import PlaneKitGeometry
import PlaneKitInput

/// A depth camera's fixed-pattern depth error, as a correction: a coarse grid over the image of
/// depth multipliers, bilinear between cell centres. A point at pixel (u, v) is moved along its
/// viewing ray to `(1 + m(u, v))` times its measured distance.
///
/// Structured-light cameras (a Kinect, an Xtion) measure depth from the shift of a projected
/// pattern, and lens and pattern distortion leave an error that depends on where in the image
/// a surface is seen: a few tenths of a percent to a percent of the depth, smooth across the
/// image. A wall seen first at the left of the view and then at the right does not lie where it
/// did, and registration follows it: the camera's turns come out short or long. The grid is
/// learned from the camera's own tracked frames (``DepthSelfCalibration``).
public struct DepthCorrection: Sendable, Equatable {
    /// The image size the grid spans, in pixels.
    public let imageWidth: Int, imageHeight: Int
    /// Grid columns and rows.
    public let columns: Int, rows: Int
    /// The multiplier less one, `m`, per cell, row after row (`rows × columns`).
    public let multipliers: [Float]

    /// A correction from its cells: `multipliers` holds `rows × columns` finite values, or `nil`
    /// when the sizes are not positive or the values do not fill the grid.
    public init?(imageWidth: Int, imageHeight: Int, columns: Int, rows: Int, multipliers: [Float]) {
        guard imageWidth > 0, imageHeight > 0, columns > 0, rows > 0, columns.multipliedReportingOverflow(by: rows) == (multipliers.count, false),
              multipliers.allSatisfy(\.isFinite) else { return nil }
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.columns = columns
        self.rows = rows
        self.multipliers = multipliers
    }

    /// `true` when every multiplier is exactly 1 (no cell moves any depth).
    public var isIdentity: Bool { multipliers.allSatisfy { $0 == 0 } }

    /// The largest correction, `max |m|` over the cells (0.01 is one percent of the depth).
    public var largestCorrection: Float { multipliers.map(abs).max() ?? 0 }

    /// The factor `1 + m` at pixel (`u`, `v`): bilinear between cell centres, constant beyond
    /// the outer centres.
    public func factor(u: Float, v: Float) -> Float {
        let across = Self.interpolation(u, cells: columns, cellSize: Float(imageWidth) / Float(columns))
        let down = Self.interpolation(v, cells: rows, cellSize: Float(imageHeight) / Float(rows))
        return multipliers.withUnsafeBufferPointer { cells in
            Self.blend(Self.blend(cells, column: across.first, columns: columns, down),
                       Self.blend(cells, column: across.second, columns: columns, down), across)
        }
    }

    /// ``factor(u:v:)`` at pixel (`u`·`step`, `v`·`step`) for `u` below `width` and `v` below
    /// `height`, row after row (a keyframe's reduced grid): each column's and each row's cells
    /// are worked out once, not once per pixel.
    func factors(width: Int, height: Int, step: Int) -> [Float] {
        let cellWidth = Float(imageWidth) / Float(columns), cellHeight = Float(imageHeight) / Float(rows)
        let across = (0..<width).map { Self.interpolation(Float($0) * Float(step), cells: columns, cellSize: cellWidth) }
        var values = [Float](repeating: 1, count: width * height)
        var row = [Float](repeating: 0, count: columns)
        for v in 0..<height {
            blendRows(into: &row, Self.interpolation(Float(v) * Float(step), cells: rows, cellSize: cellHeight))
            for u in 0..<width { values[v &* width &+ u] = Self.blend(row[across[u].first], row[across[u].second], across[u]) }
        }
        return values
    }

    /// Two neighbouring cells along one axis and the weight of the second: where a pixel lies
    /// between cell centres.
    private struct Interpolation {
        var first: Int, second: Int, weight: Float
    }

    /// The multiplier at `column` of the grid `cells`, blended between the two rows of `down`.
    /// With ``blend(_:_:_:)`` one formula for a single pixel and for whole frames (whose rows are
    /// blended once per image row), so that they agree to the last bit.
    @inline(__always)
    private static func blend(_ cells: UnsafeBufferPointer<Float>, column: Int, columns: Int, _ down: Interpolation) -> Float {
        cells[down.first &* columns &+ column] * (1 - down.weight) + cells[down.second &* columns &+ column] * down.weight
    }

    /// `1 + m` between the multipliers of two columns (each blended down the rows), `left` and
    /// `right`, at the position `across` gives.
    @inline(__always)
    private static func blend(_ left: Float, _ right: Float, _ across: Interpolation) -> Float {
        1 + left * (1 - across.weight) + right * across.weight
    }

    /// Every column's multiplier blended between the two rows of `down`, into `row`.
    private func blendRows(into row: inout [Float], _ down: Interpolation) {
        multipliers.withUnsafeBufferPointer { cells in
            for column in 0..<columns { row[column] = Self.blend(cells, column: column, columns: columns, down) }
        }
    }

    /// The two cells around `x` (pixel coordinate of the pixel's centre at `x + 0.5`) and the
    /// weight of the second.
    @inline(__always)
    private static func interpolation(_ x: Float, cells: Int, cellSize: Float) -> Interpolation {
        let position = min(max((x + 0.5) / cellSize - 0.5, 0), Float(cells - 1))
        let first = min(Int(position), max(cells - 2, 0))
        return Interpolation(first: first, second: min(first + 1, cells - 1), weight: position - Float(first))
    }

    /// Moves every point of an organized cloud of the grid's size along its ray by its pixel's
    /// factor. Holes stay holes. A cloud of another size is left as it is.
    public func apply(to cloud: inout PointCloud) {
        guard cloud.width == imageWidth, cloud.height == imageHeight else { return }
        let factors = pixelFactors()
        cloud.points.withUnsafeMutableBufferPointer { Self.scale(UnsafeBufferPointer($0), by: factors, into: $0) }
    }

    /// ``factor(u:v:)`` of every pixel of the image, row after row: for correcting frame after
    /// frame with ``apply(_:from:to:)``, worked out once rather than for each frame.
    func pixelFactors() -> [Float] { factors(width: imageWidth, height: imageHeight, step: 1) }

    /// Writes `source`'s points, each scaled by its pixel's factor in `factors` (this
    /// correction's ``pixelFactors()``), into `target`, reusing `target`'s storage: a tracker
    /// corrects every frame into the same buffer instead of allocating a frame's worth of memory
    /// each time. `false`, with `target` untouched, when `source` is not `imageWidth × imageHeight`.
    func apply(_ factors: [Float], from source: PointCloud, to target: inout ContiguousArray<SIMD3<Float>>) -> Bool {
        guard source.width == imageWidth, source.height == imageHeight, factors.count == source.points.count else { return false }
        if target.count != source.points.count { target = source.points }
        source.points.withUnsafeBufferPointer { input in
            target.withUnsafeMutableBufferPointer { Self.scale(input, by: factors, into: $0) }
        }
        return true
    }

    /// Each of `points` times its factor in `factors`, into `target` (which may be `points`
    /// itself; all three are as long).
    private static func scale(_ points: UnsafeBufferPointer<SIMD3<Float>>, by factors: [Float],
                              into target: UnsafeMutableBufferPointer<SIMD3<Float>>) {
        factors.withUnsafeBufferPointer { factors in
            // A point is 16 bytes (x, y, z and padding): scaled as four lanes, with no shuffles.
            let from = UnsafeRawPointer(points.baseAddress!), to = UnsafeMutableRawPointer(target.baseAddress!)
            for i in factors.indices {
                let offset = i &* MemoryLayout<SIMD3<Float>>.stride
                to.storeBytes(of: from.load(fromByteOffset: offset, as: SIMD4<Float>.self) * factors[i], toByteOffset: offset,
                              as: SIMD4<Float>.self)
            }
        }
    }

    /// The cloud with ``apply(to:)`` done.
    public func applied(to cloud: PointCloud) -> PointCloud {
        var corrected = cloud
        apply(to: &corrected)
        return corrected
    }
}
