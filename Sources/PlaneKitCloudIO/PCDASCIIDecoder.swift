import PlaneKitInput

/// Decodes `DATA ascii` PCD bodies: one point per line, values separated by spaces, tabs or CRs,
/// each field contributing `COUNT` values in `FIELDS` order.
///
/// Follows PCL's reading: blank lines are skipped, values past the declared ones are ignored,
/// `nan` gives a NaN hole, float32 fields are rounded once from the decimal text (`strtof`) and
/// float64 fields through a double, and a packed colour typed `F` keeps the float's bits.
/// Unlike PCL, a value that is not a number is an error naming the line rather than a silent 0.
enum PCDASCIIDecoder {
    /// The points and (when `colorField` is given) colours of the `header.points` lines of
    /// `text` that start at byte `start`. `source` names the file in errors.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, from start: Int, header: PCDHeader, colorField: Int?,
                       source: String) throws(InputError) -> (ContiguousArray<SIMD3<Float>>, ContiguousArray<SIMD3<UInt8>>?) {
        let count = header.points
        // Token index of each field's first value; a field's values are `count` tokens apart.
        var firstToken: [Int] = []
        var tokens = 0
        var needed = 0  // PCL reads every value up to the last real (non-padding) field's
        for field in header.fields {
            firstToken.append(tokens)
            tokens += field.count
            if field.name != PCDHeader.paddingName { needed = tokens }
        }
        func index(_ name: String) -> Int { header.fields.firstIndex { $0.name == name }! }
        let axes = [index("x"), index("y"), index("z")]
        let xToken = firstToken[axes[0]], yToken = firstToken[axes[1]], zToken = firstToken[axes[2]]
        let doubles = axes.map { header.fields[$0].size == 8 }
        let colorToken = colorField.map { firstToken[$0] } ?? -1
        let colorType = colorField.map { header.fields[$0].type } ?? "U"

        // Lines before the data, so errors name the line a text editor shows.
        var lineNumber = 0
        for i in 0..<min(start, text.count) where text[i] == 0x0A { lineNumber += 1 }

        var points = ContiguousArray<SIMD3<Float>>(repeating: .zero, count: count)
        var colors = ContiguousArray<SIMD3<UInt8>>(repeating: .zero, count: colorField == nil ? 0 : count)
        try points.withUnsafeMutableBufferPointer { (points) throws(InputError) in
            try colors.withUnsafeMutableBufferPointer { (colors) throws(InputError) in
                var position = min(start, text.count)
                var read = 0
                while read < count {
                    guard position < text.count else {
                        throw InputError(source: source, problem: "truncated: \(read) of \(count) ascii points before the end of the file")
                    }
                    lineNumber += 1
                    func fail(_ problem: String) -> InputError {
                        InputError(source: "\(source) line \(lineNumber)", problem: problem)
                    }
                    var point = SIMD3<Float>(), packed: UInt32 = 0
                    var token = 0
                    var p = position
                    while p < text.count, text[p] != 0x0A {
                        if NumberParsing.isBlank(text[p]) { p += 1; continue }
                        let tokenStart = p
                        while p < text.count, text[p] != 0x0A, !NumberParsing.isBlank(text[p]) { p += 1 }
                        let axis = token == xToken ? 0 : token == yToken ? 1 : token == zToken ? 2 : -1
                        if axis >= 0 {
                            let value = doubles[axis] ? NumberParsing.double(text, tokenStart, p).map(Float.init)
                                                      : NumberParsing.float(text, tokenStart, p)
                            guard let value else { throw fail("'\(excerpt(text, tokenStart, p))' is not a number") }
                            point[axis] = value
                        } else if token == colorToken {
                            guard let bits = colorBits(text, tokenStart, p, type: colorType) else {
                                throw fail("colour '\(excerpt(text, tokenStart, p))' is not a 32-bit \(colorType == "F" ? "float" : "integer")")
                            }
                            packed = bits
                        }
                        token += 1
                    }
                    position = p + 1
                    if token == 0 { continue }  // blank line
                    guard token >= needed else {
                        throw fail("\(token) value\(token == 1 ? "" : "s"), the FIELDS declare \(needed)")
                    }
                    points[read] = point
                    if !colors.isEmpty { colors[read] = PCDChannel.unpackColor(packed) }
                    read += 1
                }
            }
        }
        return (points, colorField == nil ? nil : colors)
    }

    /// The packed colour word spelled by `text[start..<end]`: a float's bits (type F) or a 32-bit
    /// integer (U, or I read as its two's-complement bits).
    private static func colorBits(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                  type: Character) -> UInt32? {
        if type == "F" { return NumberParsing.float(text, start, end)?.bitPattern }
        let negative = text[start] == 0x2D  // "-"
        let digits = negative || text[start] == 0x2B ? start + 1 : start
        guard let magnitude = NumberParsing.unsigned(text, digits, end) else { return nil }
        if type == "U" { return negative || magnitude > Int(UInt32.max) ? nil : UInt32(magnitude) }
        let value = negative ? -magnitude : magnitude
        guard let signed = Int32(exactly: value) else { return nil }
        return UInt32(bitPattern: signed)
    }

    /// The first characters of a bad token, for an error message.
    private static func excerpt(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: text[start..<min(end, start + 40)], as: UTF8.self)
    }
}
