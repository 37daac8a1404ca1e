import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors

/// The readable table `analyze` prints for one file.
package struct PlaneTable {
    let report: AnalysisReport

    package init(report: AnalysisReport) {
        self.report = report
    }

    package var text: String {
        let r = report
        let layout = r.organized ? "\(r.width)×\(r.height) organized" : "\(r.width) points, unorganized"
        var lines = ["\(r.file) — \(layout), \(r.validPoints) valid points, \(r.planes.count) plane\(r.planes.count == 1 ? "" : "s") in "
                     + CFormat.string("%.1f ms", r.milliseconds) + " (up \(PlaneTable.vector(r.up, digits: 2)))"]
        if let sensor = r.sensor {
            // What the detector assumed, so a user can see why a small face was or was not found.
            let noise = sensor.noise
            let curve = noise.quadratic == 0 ? "" : noise.referenceDepth == 0
                ? CFormat.string(" + %.2g·z²", noise.quadratic)
                : CFormat.string(" + %.2g·(z − %.2g)²", noise.quadratic, noise.referenceDepth)
            lines[0] += CFormat.string("; noise %.2g", noise.constant) + curve + "; \(sensor.cellSize)-px cells"
            if sensor.depthStep > 0 { lines[0] += CFormat.string("; depth steps of %.2g smoothed", sensor.depthStep) }
            if !sensor.reason.isEmpty { lines[0] += "\n  sensor: \(sensor.reason)" }
        }
        guard !r.planes.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        let columns: [(String, Int)] = [("#", -3), ("class", 8), ("alignment", 10), ("normal", 24), ("offset", -8),
                                        ("points", -8), ("area", -8), ("extent", -13), ("centre", 0)]
        lines.append(PlaneTable.row(columns))
        for plane in r.planes {
            let cells = [String(plane.label), plane.classification.rawValue, plane.alignment.rawValue,
                         PlaneTable.vector(plane.normal, digits: 3), CFormat.string("%.3fm", plane.offset),
                         String(plane.pointCount), CFormat.string("%.2fm²", plane.area),
                         CFormat.string("%.2f×%.2fm", plane.extent.width, plane.extent.length),
                         PlaneTable.vector(plane.center, digits: 2)]
            lines.append(PlaneTable.row(zip(cells, columns.map(\.1)).map { ($0, $1) }))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Cells padded to their widths: positive widths left-align, negative right-align, 0 none.
    package static func row(_ cells: [(String, Int)]) -> String {
        cells.map { CFormat.padded($0, to: $1) }.joined(separator: "  ")
    }

    package static func vector(_ v: SIMD3<Float>, digits: Int) -> String {
        CFormat.string("(%.\(digits)f, %.\(digits)f, %.\(digits)f)", v.x, v.y, v.z)
    }
}
