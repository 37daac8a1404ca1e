import PlaneKitInput
import PlaneKitEvaluation

/// Hoover's curves as a picture: correct detections, over- and under-segmentations, missed
/// regions and noise per image against the threshold T, with the true regions per image as a
/// dashed line, axes, ticks and a legend.
public struct EvaluationCurve {
    /// The totals at increasing thresholds.
    public let totals: [HooverEvaluation.Total]

    /// The curve of `totals`, one per threshold, in increasing order of threshold.
    public init(totals: [HooverEvaluation.Total]) {
        self.totals = totals
    }

    private static let (width, height) = (720, 420)
    private static let (left, right, top, bottom) = (56, 560, 34, 370)
    private static var series: [(name: String, colour: SIMD3<UInt8>, value: (HooverEvaluation.Total) -> Int)] {
        [
            ("correct", SIMD3(30, 90, 200), \.correct),
            ("over-seg.", SIMD3(230, 130, 20), \.overSegmented),
            ("under-seg.", SIMD3(40, 160, 70), \.underSegmented),
            ("missed", SIMD3(210, 40, 40), \.missed),
            ("noise", SIMD3(140, 80, 170), \.noise),
        ]
    }

    /// The picture.
    package func image() throws(InputError) -> RGBImage {
        var canvas = Canvas(width: Self.width, height: Self.height)
        let truePerImage = totals.first.map { $0.perImage($0.trueRegions) } ?? 0
        let highest = totals.flatMap { t in Self.series.map { t.perImage($0.value(t)) } }.max() ?? 0
        let (yMax, yStep) = Self.scale(max(highest, truePerImage, 1))
        func x(_ t: Double) -> Int { Self.left + Int(((t - 0.5) / 0.5 * Double(Self.right - Self.left)).rounded()) }
        func y(_ v: Double) -> Int { Self.bottom - Int((v / yMax * Double(Self.bottom - Self.top)).rounded()) }
        let ink = SIMD3<UInt8>(40, 40, 40), grid = SIMD3<UInt8>(225, 225, 225)

        // Grid, ticks and their numbers.
        for tick in 0...5 {
            let t = 0.5 + 0.1 * Double(tick), px = x(t)
            canvas.line(from: (px, Self.top), to: (px, Self.bottom), colour: grid)
            canvas.line(from: (px, Self.bottom), to: (px, Self.bottom + 4), colour: ink)
            let label = CFormat.string("%.1f", t)
            canvas.text(label, x: px - TinyFont.width(of: label) / 2, y: Self.bottom + 8, colour: ink)
        }
        var value = 0.0
        while value <= yMax + 1e-9 {
            let py = y(value)
            canvas.line(from: (Self.left, py), to: (Self.right, py), colour: grid)
            canvas.line(from: (Self.left - 4, py), to: (Self.left, py), colour: ink)
            let label = yStep < 1 ? CFormat.string("%.1f", value) : CFormat.string("%.0f", value)
            canvas.text(label, x: Self.left - 7 - TinyFont.width(of: label), y: py - 3, colour: ink)
            value += yStep
        }
        canvas.line(from: (Self.left, Self.top), to: (Self.left, Self.bottom), colour: ink)
        canvas.line(from: (Self.left, Self.bottom), to: (Self.right, Self.bottom), colour: ink)
        canvas.text("T", x: (Self.left + Self.right) / 2 - 5, y: Self.bottom + 24, scale: 2, colour: ink)
        canvas.text("per image", x: 8, y: Self.top - 14, colour: ink)
        let images = totals.first?.images ?? 0
        canvas.text("Hoover et al. (1996), \(images) image\(images == 1 ? "" : "s")", x: Self.left + 60, y: 8, scale: 2, colour: ink)

        // The true regions per image, dashed, and each class.
        var dash = Self.left
        while dash < Self.right {
            canvas.line(from: (dash, y(truePerImage)), to: (min(dash + 8, Self.right), y(truePerImage)), colour: SIMD3(90, 90, 90))
            dash += 14
        }
        for entry in Self.series {
            let points = totals.map { (x($0.threshold), y($0.perImage(entry.value($0)))) }
            for (a, b) in zip(points, points.dropFirst()) { canvas.line(from: a, to: b, colour: entry.colour, thickness: 2) }
            for p in points { canvas.fill(x: p.0 - 2, y: p.1 - 2, width: 5, height: 5, colour: entry.colour) }
        }

        // The legend.
        let legendX = Self.right + 24
        for (index, entry) in Self.series.enumerated() {
            let py = Self.top + 10 + 20 * index
            canvas.fill(x: legendX, y: py, width: 16, height: 7, colour: entry.colour)
            canvas.text(entry.name, x: legendX + 22, y: py, colour: ink)
        }
        let py = Self.top + 10 + 20 * Self.series.count
        canvas.fill(x: legendX, y: py + 3, width: 6, height: 1, colour: SIMD3(90, 90, 90))
        canvas.fill(x: legendX + 10, y: py + 3, width: 6, height: 1, colour: SIMD3(90, 90, 90))
        canvas.text(CFormat.string("true %.1f", truePerImage), x: legendX + 22, y: py, colour: ink)
        return try RGBImage(width: Self.width, height: Self.height, pixels: canvas.pixels)
    }

    /// The top of the vertical axis and its tick step for values up to `highest`: a step of
    /// 1, 2 or 5 times a power of ten, with at most eight steps.
    private static func scale(_ highest: Double) -> (top: Double, step: Double) {
        var power = 0.1
        while true {
            for factor in [1.0, 2.0, 5.0] where highest / (factor * power) <= 8 {
                let step = factor * power
                return ((highest / step).rounded(.up) * step, step)
            }
            power *= 10
        }
    }
}

/// A white RGB canvas with the few drawing operations a plot needs.
private struct Canvas {
    let width: Int
    let height: Int
    var pixels: ContiguousArray<SIMD3<UInt8>>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = ContiguousArray(repeating: SIMD3(255, 255, 255), count: width * height)
    }

    /// Fills a rectangle, clipped to the canvas.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, colour: SIMD3<UInt8>) {
        for v in max(0, y)..<max(max(0, y), min(height, y + h)) {
            for u in max(0, x)..<max(max(0, x), min(width, x + w)) { pixels[v * width + u] = colour }
        }
    }

    /// A straight line `thickness` pixels wide.
    mutating func line(from a: (Int, Int), to b: (Int, Int), colour: SIMD3<UInt8>, thickness: Int = 1) {
        let steps = max(abs(b.0 - a.0), abs(b.1 - a.1), 1)
        for step in 0...steps {
            let u = a.0 + (b.0 - a.0) * step / steps, v = a.1 + (b.1 - a.1) * step / steps
            fill(x: u - (thickness - 1) / 2, y: v - (thickness - 1) / 2, width: thickness, height: thickness, colour: colour)
        }
    }

    /// `text` in ``TinyFont`` with its top-left corner at (`x`, `y`).
    mutating func text(_ text: String, x: Int, y: Int, scale: Int = 1, colour: SIMD3<UInt8>) {
        TinyFont.draw(text, x: x, y: y, scale: scale) { u, v in
            fill(x: u, y: v, width: 1, height: 1, colour: colour)
        }
    }
}
