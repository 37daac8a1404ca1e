/// The columns of one image row whose rays can hit a ``CameraRectangle``, found analytically so
/// that the per-pixel ray test runs only there instead of across the rectangle's whole bounding
/// box (a wall's box is often the whole image while the wall covers a third of it).
///
/// The set is a superset of the pixels the exact `Float` test accepts, so culling never changes
/// a frame: on row `y` the ray `t·(x, y, 1)` meets the plane at `t = c / D(x)` with `D` linear in
/// `x`, and each of the rectangle's conditions (`t > 0`, `|t·P(x) − uCenter| ≤ halfU`, the same
/// for V) becomes, after multiplying by `D`, a LINEAR inequality in `x`. Each is solved in
/// `Double` with a relative margin of 10⁻⁴ on its terms (far above the `Float` rounding of the
/// exact test), and the resulting interval is widened by two pixels. Rectangles whose plane passes
/// within 5 cm of the camera centre, where `t` is badly conditioned, are not culled.
struct RectangleRowSpans {
    private let normal: SIMD3<Double>, axisU: SIMD3<Double>, axisV: SIMD3<Double>
    private let planeOffset: Double, uCenter: Double, halfU: Double, vCenter: Double, halfV: Double
    /// `sign(planeOffset)`: the sign `D` must have for `t > 0`.
    private let side: Double
    /// `false` when the plane is too close to the camera centre for the margins to be trusted.
    let isUsable: Bool

    /// Relative margin on every inequality.
    static let margin = 1e-4
    /// Pixels added on each side of the solved interval.
    static let slack = 2
    /// Nearest plane distance (m) for which spans are computed.
    static let minimumPlaneDistance: Float = 0.05

    init(_ r: CameraRectangle) {
        normal = SIMD3<Double>(r.normal)
        axisU = SIMD3<Double>(r.axisU)
        axisV = SIMD3<Double>(r.axisV)
        planeOffset = Double(r.normalDotCenter)
        uCenter = Double(r.uCenter)
        halfU = Double(r.halfU)
        vCenter = Double(r.vCenter)
        halfV = Double(r.halfV)
        side = r.normalDotCenter < 0 ? -1 : 1
        isUsable = abs(r.normalDotCenter) >= RectangleRowSpans.minimumPlaneDistance && r.normalDotCenter.isFinite
            && r.normal.x.isFinite && r.normal.y.isFinite && r.normal.z.isFinite
    }

    /// The columns `lo...hi` within `u0...u1` that may hit the rectangle on the row with ray
    /// component `y`, `nil` when none can. `xs[u]` is the ray's x component of column `u`.
    func columns(y: Float, u0: Int, u1: Int, xs: UnsafeBufferPointer<Float>, fx: Float, cx: Float) -> (Int, Int)? {
        guard isUsable else { return (u0, u1) }
        let y = Double(y)
        let xLeft = Double(xs[u0]), xRight = Double(xs[u1])
        let reach = max(abs(xLeft), abs(xRight))
        // D(x) = dn·x + en, P(x) = da·x + ea, Q(x) = db·x + eb along the row.
        let dn = normal.x, en = normal.y * y + normal.z
        let da = axisU.x, ea = axisU.y * y + axisU.z
        let db = axisV.x, eb = axisV.y * y + axisV.z
        let dMax = abs(dn) * reach + abs(en)
        var lo = xLeft, hi = xRight
        // Keeps the part of [lo, hi] where α·x + β ≤ ε; false when nothing is left.
        func keep(_ alpha: Double, _ beta: Double, _ epsilon: Double) -> Bool {
            let fLeft = alpha * xLeft + beta, fRight = alpha * xRight + beta
            if fLeft <= epsilon && fRight <= epsilon { return true }
            if fLeft > epsilon && fRight > epsilon { return false }
            guard (fRight - fLeft).isFinite, fRight != fLeft else { return true }
            let crossing = xLeft + (epsilon - fLeft) * (xRight - xLeft) / (fRight - fLeft)
            guard crossing.isFinite else { return true }
            if fLeft > epsilon { lo = max(lo, crossing) } else { hi = min(hi, crossing) }
            return lo <= hi
        }
        // t > 0: side·D(x) > 0.
        guard keep(-side * dn, -side * en, RectangleRowSpans.margin * dMax) else { return nil }
        // |c·P − center·D| ≤ half·side·D for each axis.
        func within(_ d: Double, _ e: Double, _ center: Double, _ half: Double) -> Bool {
            let scale = RectangleRowSpans.margin * (abs(planeOffset) * (abs(d) * reach + abs(e)) + (abs(center) + half) * dMax)
            let alpha = planeOffset * d - center * dn, beta = planeOffset * e - center * en
            return keep(alpha - half * side * dn, beta - half * side * en, scale)
                && keep(-alpha - half * side * dn, -beta - half * side * en, scale)
        }
        guard within(da, ea, uCenter, halfU), within(db, eb, vCenter, halfV) else { return nil }
        let uLo = (lo * Double(fx) + Double(cx)).rounded(.down) - Double(RectangleRowSpans.slack)
        let uHi = (hi * Double(fx) + Double(cx)).rounded(.up) + Double(RectangleRowSpans.slack)
        guard uLo.isFinite, uHi.isFinite else { return (u0, u1) }
        let first = Int(min(max(uLo, Double(u0)), Double(u1))), last = Int(min(max(uHi, Double(u0)), Double(u1)))
        return first <= last ? (first, last) : nil
    }
}
