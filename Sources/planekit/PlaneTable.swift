import Foundation
import PlaneKit

/// The readable table `analyze` prints for one file.
struct PlaneTable {
    let report: AnalysisReport

    var text: String {
        let r = report
        let layout = r.organized ? "\(r.width)×\(r.height) organized" : "\(r.width) points, unorganized"
        var lines = [String(format: "%@ — %@, %d valid points, %d plane%@ in %.1f ms (up %@)",
                            r.file, layout, r.validPoints, r.planes.count, r.planes.count == 1 ? "" : "s",
                            r.milliseconds, PlaneTable.vector(r.up, digits: 2))]
        if let sensor = r.sensor {
            // What the detector assumed, so a user can see why a small face was or was not found.
            let noise = sensor.noise
            let curve = noise.quadratic == 0 ? "" : noise.referenceDepth == 0
                ? String(format: " + %.2g·z²", noise.quadratic)
                : String(format: " + %.2g·(z − %.2g)²", noise.quadratic, noise.referenceDepth)
            lines[0] += String(format: "; noise %.2g%@, %d-px cells", noise.constant, curve, sensor.cellSize)
        }
        guard !r.planes.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        let columns: [(String, Int)] = [("#", -3), ("class", 8), ("alignment", 10), ("normal", 24), ("offset", -8),
                                        ("points", -8), ("area", -8), ("extent", -13), ("centre", 0)]
        lines.append(PlaneTable.row(columns))
        for plane in r.planes {
            let cells = [String(plane.label), plane.classification.rawValue, plane.alignment.rawValue,
                         PlaneTable.vector(plane.normal, digits: 3), String(format: "%.3fm", plane.offset),
                         String(plane.pointCount), String(format: "%.2fm²", plane.area),
                         String(format: "%.2f×%.2fm", plane.extent.width, plane.extent.length),
                         PlaneTable.vector(plane.center, digits: 2)]
            lines.append(PlaneTable.row(zip(cells, columns.map(\.1)).map { ($0, $1) }))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Cells padded to their widths: positive widths left-align, negative right-align, 0 none.
    static func row(_ cells: [(String, Int)]) -> String {
        cells.map { text, width in
            let padding = String(repeating: " ", count: max(0, abs(width) - text.count))
            return width < 0 ? padding + text : text + padding
        }.joined(separator: "  ")
    }

    static func vector(_ v: SIMD3<Float>, digits: Int) -> String {
        String(format: "(%.\(digits)f, %.\(digits)f, %.\(digits)f)", v.x, v.y, v.z)
    }
}
