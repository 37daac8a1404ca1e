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
        guard !r.planes.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        lines.append(String(format: "%3@  %-8@ %-10@  %-24@ %8@ %8@ %8@  %-13@ %@",
                            "#", "class", "alignment", "normal", "offset", "points", "area", "extent", "centre"))
        for plane in r.planes {
            lines.append(String(format: "%3d  %-8@ %-10@  %-24@ %7.3fm %8d %6.2fm² %5.2f×%5.2fm  %@",
                                plane.label, plane.classification.rawValue, plane.alignment.rawValue,
                                PlaneTable.vector(plane.normal, digits: 3), plane.offset, plane.pointCount,
                                plane.area, plane.extent.width, plane.extent.length,
                                PlaneTable.vector(plane.center, digits: 2)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func vector(_ v: SIMD3<Float>, digits: Int) -> String {
        String(format: "(%.\(digits)f, %.\(digits)f, %.\(digits)f)", v.x, v.y, v.z)
    }
}
