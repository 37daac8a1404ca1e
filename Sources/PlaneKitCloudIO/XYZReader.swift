import PlaneKitInput

/// Reads plain-text point lists (`.xyz`, `.txt`): one `x y z` point per line, separated by
/// spaces, tabs or commas. Further columns are ignored, `#` starts a comment, blank lines are
/// skipped. A line that does not start with three finite numbers is an error naming the line.
public enum XYZReader {
    /// The cloud of points in the text file at `path` (unorganized).
    public static func read(path: String) throws(InputError) -> PointCloud {
        try decode(try FileBytes.read(path), source: path)
    }

    /// The cloud of points in a text file's bytes; `source` names the file in errors.
    static func decode(_ bytes: [UInt8], source: String) throws(InputError) -> PointCloud {
        // A point needs at least "0 0 0" plus a line end; reserving from that bound is safe
        // because the bound comes from the bytes actually present.
        var points = ContiguousArray<SIMD3<Float>>()
        points.reserveCapacity(min(bytes.count / 6 + 1, InputLimits.maximumElements))
        try bytes.withUnsafeBufferPointer { (text) throws(InputError) in
            var position = 0
            var lineNumber = 0
            while position < text.count {
                lineNumber += 1
                var end = position
                while end < text.count, text[end] != 0x0A, text[end] != 0x23 /* # */ { end += 1 }
                let contentEnd = end
                while end < text.count, text[end] != 0x0A { end += 1 }
                defer { position = end + 1 }

                var p = position
                var coordinates = SIMD3<Float>()
                var found = 0
                while found < 3 {
                    while p < contentEnd, NumberParsing.isBlank(text[p]) || text[p] == 0x2C { p += 1 }
                    guard p < contentEnd else { break }
                    let start = p
                    while p < contentEnd, !NumberParsing.isBlank(text[p]), text[p] != 0x2C { p += 1 }
                    guard let value = NumberParsing.float(text, start, p) else {
                        let token = String(decoding: text[start..<min(p, start + 40)], as: UTF8.self)
                        throw InputError(source: "\(source) line \(lineNumber)", problem: "'\(token)' is not a number")
                    }
                    guard value.isFinite else {
                        throw InputError(source: "\(source) line \(lineNumber)", problem: "coordinate is not a finite number (NaN or infinity)")
                    }
                    coordinates[found] = value
                    found += 1
                }
                if found == 0 { continue }  // blank or comment-only line
                guard found == 3 else {
                    throw InputError(source: "\(source) line \(lineNumber)", problem: "expected x y z, found \(found) number\(found == 1 ? "" : "s")")
                }
                guard points.count < InputLimits.maximumElements else {
                    throw InputError(source: source, problem: "more than the \(InputLimits.maximumElements) points allowed")
                }
                points.append(coordinates)
            }
        }
        return PointCloud(unorganized: points)
    }
}
