import PlaneKitInput
import PlaneKitGeometry

/// Reads PCD files (DATA ascii, binary and binary_compressed) into the `PointCloud` PCL's
/// `PCDReader` gives: organized or not, NaN holes kept, `rgb`/`rgba` colours, `VIEWPOINT` as
/// the sensor pose.
///
/// Fields may be declared in any order with any `SIZE`/`TYPE`/`COUNT`; x, y and z must be single
/// float32 or float64 values (float64 is rounded to float), a colour is a single 4-byte packed
/// `0xAARRGGBB` word, and other fields (normals, intensity, padding `_`) are skipped.
public enum PCDReader {
    /// The cloud in the PCD file at `path`.
    public static func read(path: String) throws(InputError) -> PointCloud {
        try decode(try FileBytes.read(path), source: path)
    }

    /// The cloud in a PCD file's bytes; `source` names the file in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws(InputError) -> PointCloud {
        let header = try PCDHeader.parse(bytes, fileSize: bytes.count, source: source)
        let count = header.points
        guard count > 0 else {
            return try PointCloud(width: 0, height: 1, points: [], sensorPose: header.sensorPose)
        }
        // As PCL: `rgb` if declared, else `rgba`; used only when it is one 4-byte word.
        let colorIndex = (header.fields.firstIndex { $0.name == "rgb" } ?? header.fields.firstIndex { $0.name == "rgba" })
            .flatMap { header.fields[$0].size == 4 && header.fields[$0].count == 1 ? $0 : nil }
        let axes = ["x", "y", "z"].map { axis in header.fields.firstIndex { $0.name == axis }! }

        let points: ContiguousArray<SIMD3<Float>>, colors: ContiguousArray<SIMD3<UInt8>>?
        switch header.encoding {
        case .ascii:
            (points, colors) = try bytes.withUnsafeBufferPointer { (text) throws(InputError) in
                try PCDASCIIDecoder.decode(text, from: header.headerLength, header: header, colorField: colorIndex,
                                           source: source)
            }
        case .binary:
            (points, colors) = try bytes.withUnsafeBufferPointer { (file) throws(InputError) in
                try gather(UnsafeRawBufferPointer(file), header: header, layout: .pointMajor(start: header.headerLength), axes: axes,
                           colorField: colorIndex, source: source)
            }
        case .binaryCompressed:
            (points, colors) = try decompressAndGather(bytes, header: header, axes: axes, colorField: colorIndex,
                                                       source: source)
        }
        return try PointCloud(width: header.width, height: header.height, points: points, colors: colors,
                              sensorPose: header.sensorPose)
    }

    /// The validated header of the PCD file at `path`, without reading the data. Headers are
    /// small: the first 64 KiB are read, and up to `PCDHeader.maximumHeaderBytes` only when
    /// those do not hold a valid one.
    public static func readHeader(path: String) throws(InputError) -> PCDHeader {
        let (prefix, fileSize) = try FileBytes.readPrefix(path, maximum: 1 << 16)
        do {
            return try PCDHeader.parse(prefix, fileSize: fileSize, source: path)
        } catch where prefix.count < fileSize {
            let (longer, size) = try FileBytes.readPrefix(path, maximum: PCDHeader.maximumHeaderBytes + 8)
            return try PCDHeader.parse(longer, fileSize: size, source: path)
        }
    }

    /// Coordinates and colours from records arranged as `layout` in `bytes`, after checking that
    /// every value read lies inside `bytes`.
    private static func gather(_ bytes: UnsafeRawBufferPointer, header: PCDHeader, layout: PCDChannel.Layout,
                               axes: [Int], colorField: Int?, source: String)
        throws(InputError) -> (ContiguousArray<SIMD3<Float>>, ContiguousArray<SIMD3<UInt8>>?) {
        let count = header.points
        let xyz = axes.map { header.channel(ofField: $0, in: layout) }
        let color = colorField.map { header.channel(ofField: $0, in: layout) }
        // The header checks make this hold; checking again costs nothing and keeps the unchecked
        // loads below safe whatever the header code becomes.
        guard (xyz + (color.map { [$0] } ?? [])).allSatisfy({ $0.fits(count: count, in: bytes.count) }) else {
            throw InputError(source: source, problem: "truncated: the data holds \(bytes.count) bytes, too few for \(count) points")
        }
        let points = PCDChannel.gatherPoints(bytes, x: xyz[0], y: xyz[1], z: xyz[2], count: count)
        return (points, color.map { PCDChannel.gatherColors(bytes, $0, count: count) })
    }

    /// Decompresses binary_compressed data (two little-endian uint32 sizes, then LZF) into a
    /// scratch buffer of the validated uncompressed size, and gathers from its field-major records.
    private static func decompressAndGather(_ bytes: [UInt8], header: PCDHeader, axes: [Int], colorField: Int?,
                                            source: String)
        throws(InputError) -> (ContiguousArray<SIMD3<Float>>, ContiguousArray<SIMD3<UInt8>>?) {
        // The header validated both sizes: the compressed bytes lie in the file, and the
        // uncompressed size is what the fields need and within LZF's expansion of them.
        func uint32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        let start = header.headerLength + 8
        let compressed = uint32(header.headerLength), uncompressed = uint32(header.headerLength + 4)
        let layout = PCDChannel.Layout.fieldMajor(skipsPadding: uncompressed != header.points * header.pointSize)

        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: uncompressed)
        defer { scratch.deallocate() }
        let produced: Int
        do {
            produced = try bytes.withUnsafeBufferPointer { (file) throws(LZF.Failure) in
                try LZF.decompress(UnsafeBufferPointer(rebasing: file[start..<(start + compressed)]), into: scratch)
            }
        } catch {
            throw InputError(source: source, problem: "corrupt binary_compressed data: \(error.problem)")
        }
        guard produced == uncompressed else {
            throw InputError(source: source, problem: "corrupt binary_compressed data: LZF produced \(produced) bytes, the header declares \(uncompressed)")
        }
        return try gather(UnsafeRawBufferPointer(scratch), header: header, layout: layout, axes: axes,
                          colorField: colorField, source: source)
    }
}
